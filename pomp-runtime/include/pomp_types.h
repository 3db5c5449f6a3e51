/*===- pomp_types.h - The types of the POMP API ---------------------------===*
 *
 * The types every POMP routine's parameters use, shared by pomplib.h and by
 * the declarations ompinst writes into an instrumented file, which declares
 * only the routines the file calls instead of including pomplib.h (the
 * compile of a file costs per declaration; docs/INSTRUMENTER.md, "Per-file
 * code"). A file that includes both gets one set of types and compatible
 * declarations. C89 and C++ compatible.
 *
 *===----------------------------------------------------------------------===*/
#ifndef POMP_TYPES_H
#define POMP_TYPES_H

#include <stdint.h>

/* A library handle: a pointer-sized opaque integer that libpomp binds to one
 * construct. 0 means "not yet initialised"; the first event of a construct
 * initialises a zero handle from its CTC string (paper section 3.2). */
typedef uintptr_t POMP_Handle_t;

/* The measurement context of a thread at a fork or task creation, passed into
 * the parallel region or task as a firstprivate variable so that events of
 * every thread are attributed to the right parent at any nesting depth. */
typedef uintptr_t POMP_Context_t;

/* Identifies an OpenMP lock: its address, (POMP_Lock_id_t)&lock. The paper
 * passes omp_lock_t by value, which identifies nothing on runtimes whose lock
 * is a small struct holding the lock state (libgomp). */
typedef uintptr_t POMP_Lock_id_t;

/* Marks the routines that never let a C++ exception out (libpomp catches
 * everything at their boundary; docs/POMP_API.md, "Exceptions"). Without it
 * a C++ compiler must assume that every call inside an OpenMP region may
 * throw and wrap it in a handler that calls std::terminate: code that costs
 * the compile and the program's size, never its behaviour. */
#if defined(__GNUC__)
#define POMP_NOTHROW __attribute__((nothrow))
#else
#define POMP_NOTHROW
#endif

#endif /* POMP_TYPES_H */
