/*===- pomplib.h - The POMP performance monitoring API for OpenMP ---------===*
 *
 * The C API of "A Performance Monitoring Interface for OpenMP" (Mohr, Malony,
 * Hoppe et al.), Appendix C, with the decisions of the POMP toolkit's SPEC.md
 * where the paper leaves a choice, and events for the OpenMP 3.0-5.2
 * constructs the paper predates. docs/POMP_API.md explains every decision.
 *
 * Instrumented code calls these routines; libpomp implements them. The event
 * routines are declared from one list, pomp_events.def, whose rows say when
 * each one is called. This header is C89 and C++ compatible.
 *
 *===----------------------------------------------------------------------===*/
#ifndef POMPLIB_H
#define POMPLIB_H

#include "pomp_types.h"
/* Parallel_fork, Teams_enter and Task_create_enter returning the context. */
#include "pomp_context_forms.h"

/* The version of the POMP API this header declares, as YYYYMM (paper
 * section 3.7). ompinst and ompcc define _POMP to this value. */
#define POMP_API_VERSION 202611L

#ifdef __cplusplus
extern "C" {
#endif

/* The types (POMP_Handle_t, POMP_Context_t, POMP_Lock_id_t) and POMP_NOTHROW
 * are in pomp_types.h. */

/*--- Error codes (paper section 3.3 leaves them open) ---------------------*/

/* Every POMP routine returns one of these. Event routines never abort the
 * program: on an error they record nothing and return the code. */
enum POMP_Error {
  /* The call succeeded (also when the event was not recorded because
   * monitoring is off or its group's level excludes it). */
  POMP_SUCCESS = 0,
  /* The handle is neither 0 nor a handle this library gave out. */
  POMP_ERROR_INVALID_HANDLE = 1,
  /* The handle is 0 and the CTC string is NULL: the construct is unknown. */
  POMP_ERROR_MISSING_CTC = 2,
  /* The CTC string is malformed; POMP_Last_error_message() says where. */
  POMP_ERROR_MALFORMED_CTC = 3,
  /* An argument is out of range: an unknown group or level, a NULL pointer
   * where a result is to be stored, a negative section number. */
  POMP_ERROR_INVALID_ARGUMENT = 4,
  /* The event does not match the thread's open regions (an end or exit with
   * no matching begin or enter); the thread's state is left as it was. */
  POMP_ERROR_UNBALANCED = 5,
  /* The event arrived after POMP_Finalize(); it was ignored. */
  POMP_ERROR_FINALIZED = 6,
  /* The library could not initialise (for example it could not allocate its
   * tables); every event is ignored. */
  POMP_ERROR_NOT_INITIALIZED = 7,
  /* The event was raised while the library was already processing an event
   * on the same thread (a signal handler or a callback re-entered it). */
  POMP_ERROR_REENTRANT = 8,
  /* The library ran out of memory or of handles. */
  POMP_ERROR_OUT_OF_RESOURCES = 9
};

/* A short English description of an error code ("unknown error code" for a
 * value outside enum POMP_Error). Never NULL. */
const char *POMP_Error_string(int32_t error);

/*--- Instrumentation groups and levels (paper section 3.8) ----------------*/

/* The event groups of the section 3.8 table, plus Task and Target for the
 * constructs OpenMP added later. The run-time level of group G is read from
 * the environment variable POMP_<G> (POMP_PARALLEL, POMP_LOOP, ...). */
enum POMP_Group {
  POMP_GROUP_PARALLEL = 0,  /* parallel, teams */
  POMP_GROUP_LOOP = 1,      /* for, simd, loop, distribute */
  POMP_GROUP_WORKSHARE = 2, /* sections, section, single, workshare, scope */
  POMP_GROUP_SYNC = 3,      /* critical, ordered, barriers, master, masked, atomic, flush, cancel */
  POMP_GROUP_TASK = 4,      /* task, taskwait, taskgroup, taskyield, taskloop */
  POMP_GROUP_TARGET = 5,    /* target family, host side */
  POMP_GROUP_USER = 6,      /* functions and user regions */
  POMP_GROUP_RUNTIME = 7,   /* OpenMP run-time library routines */
  POMP_GROUP_COUNT = 8
};

/* The levels of the section 3.8 table. A group is set to one level; each
 * event fires under the levels its row of pomp_events.def names, which
 * encodes the table's rule that "," levels include the lower ones and "or"
 * levels are alternatives. */
enum POMP_Level {
  POMP_LEVEL_NONE = 0,
  POMP_LEVEL_EVENT = 1,
  POMP_LEVEL_ENTEREXIT = 2,
  POMP_LEVEL_BEGINEND = 3,
  POMP_LEVEL_CHUNKS = 4,
  POMP_LEVEL_ITEREVENT = 5,
  POMP_LEVEL_ITERBEGINEND = 6,
  POMP_LEVEL_COUNT = 7
};

/* The bit of a level in the level masks of pomp_events.def. */
#define POMP_AT_LEVEL(level) (1u << POMP_LEVEL_##level)

/* Sets the run-time level of a group (called by the program, any time; takes
 * effect for events that start after it returns). */
int32_t POMP_Set_level(int32_t group, int32_t level);

/* Stores the current run-time level of a group in *level. */
int32_t POMP_Get_level(int32_t group, int32_t *level);

/*--- Library control (paper section 3.6) ----------------------------------*/

/* Called by the master thread at program start, before any other event
 * (ompinst inserts it at the start of main). Idempotent; the library also
 * initialises itself on the first event. Calls POMP_Init_Handles(). */
int32_t POMP_Init(void) POMP_NOTHROW;

/* Called by the master thread just before the program ends (ompinst inserts
 * it on every way out of main). Writes the measurement. Idempotent; the
 * library also finalises itself at exit. */
int32_t POMP_Finalize(void) POMP_NOTHROW;

/* Called by the user to resume monitoring after POMP_Off(). */
int32_t POMP_On(void) POMP_NOTHROW;

/* Called by the user to suspend monitoring. Regions open at this moment stay
 * open and are closed by their own end and exit events, so a profile never
 * holds an unbalanced region (docs/POMP_API.md). */
int32_t POMP_Off(void) POMP_NOTHROW;

/* Called in a serial phase (normally from POMP_Init_<id>()) to bind *handle
 * to the construct its CTC string describes (paper section 3.2, optimised
 * scheme). Does nothing when *handle is already bound. */
int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) POMP_NOTHROW;

/* Called by POMP_Init(): defined by the file that pomp-link generates, it
 * calls the POMP_Init_<id>() of every instrumented compilation unit (paper
 * Appendix B). A program linked without pomp-link gets the library's empty
 * default and initialises its handles on first use. */
void POMP_Init_Handles(void);

/* Called by a static constructor that ompcc adds to a source file it had to
 * compile without instrumentation (ompinst could not handle it): records
 * the file (absolute path) and the reason (ompinst's first error line), so
 * that the profile and the end-of-run summary list the files whose OpenMP
 * constructs are not measured. Callable at any time before finalisation,
 * also before POMP_Init(), which it does not call; the strings are copied.
 * POMP_ERROR_INVALID_ARGUMENT for a NULL or empty file (a NULL reason is
 * ""), POMP_ERROR_FINALIZED after finalisation. */
int32_t POMP_Note_uninstrumented(const char *file, const char *reason);

/* Called by libpomp-mpi in MPI_Init (docs/MPI.md): the program is rank
 * `rank` of an MPI job of `size` ranks, and its measurement is written into
 * the job's part `directory`, which the caller created (mode 0755); the
 * profile records rank and size, and ranks other than 0 print no summary.
 * Initialises the library. POMP_ERROR_INVALID_ARGUMENT for a NULL or empty
 * directory, a rank outside 0..size-1, or a measurement whose directory was
 * claimed already (POMP_TRACE=1: the part stays there); POMP_ERROR_FINALIZED
 * after finalisation. */
int32_t POMP_Note_mpi_part(const char *directory, int32_t rank, int32_t size);

/* The job's one OTF2 archive (docs/MPI.md, "Traces"), which libpomp-mpi asks
 * for in MPI_Finalize, before the MPI library's own. `collectives` is an
 * OTF2_CollectiveCallbacks over the job's ranks (implemented with PMPI by
 * libpomp-mpi), `collective_data` its user data and `collective_context` the
 * global context handed to every call. On rank 0 only, the clock arrays hold
 * two entries per rank (index 2 * rank: at MPI_Init, 2 * rank + 1: at
 * MPI_Finalize): the rank's CLOCK_REALTIME when the offset was measured, the
 * offset of that clock to rank 0's (remote - rank 0), and its error, in ns. */
typedef struct POMP_Mpi_job_trace {
  const char *directory;
  int32_t rank;
  int32_t size;
  const void *collectives;
  void *collective_data;
  void *collective_context;
  const int64_t *clock_at_ns;
  const int64_t *clock_offset_ns;
  const int64_t *clock_error_ns;
} POMP_Mpi_job_trace;

/* Non-zero when this process writes an OTF2 trace (POMP_TRACE=1, format otf2
 * or both, and the archive is open): libpomp-mpi asks every rank before it
 * calls POMP_Finalize_mpi_job, which is collective. */
int32_t POMP_Otf2_trace_open(void);

/* Collective over the job's ranks, called by libpomp-mpi in MPI_Finalize when
 * every rank writes an OTF2 trace: finalises the measurement now (the profile
 * and the rank's trace, as at the program's end) and writes the job's one
 * archive in `directory`/trace through the collective callbacks; when that
 * cannot be done, each rank's archive stays in its part and rank 0 says why.
 * What the program does after MPI_Finalize is not measured. POMP_ERROR_
 * INVALID_ARGUMENT for a NULL job, POMP_ERROR_FINALIZED after finalisation. */
int32_t POMP_Finalize_mpi_job(const POMP_Mpi_job_trace *job);

/* Called by every thread of a team at the end of a parallel region that
 * ompinst instrumented, with the context POMP_Parallel_fork returned (passed
 * in as firstprivate), to decide whether the explicit barrier that stands for
 * the team's join barrier runs: non-zero when it must (POMP events alone);
 * 0 when the OpenMP runtime reports the join barrier itself (POMP and OMPT
 * merged), and then the events that follow the explicit barrier are skipped
 * too: the runtime's join closes the regions they would close, at the team's
 * end (docs/OMPT.md, "The join barrier"). A pure function of the context, so
 * every thread of the team takes the same branch; a context of 0 (no fork
 * recorded) needs the barrier. */
int32_t POMP_Join_barrier_needed(POMP_Context_t fork_context) POMP_NOTHROW;

/* The message of the last error on the calling thread: for
 * POMP_ERROR_MALFORMED_CTC it names the byte offset and the problem. Never
 * NULL; "" when there was none. */
const char *POMP_Last_error_message(void);

/*--- Event routines (paper Appendix C and extensions) ---------------------*/

#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) int32_t POMP_##Name Params POMP_NOTHROW;
#include "pomp_events.def"

/*--- User regions in one line ---------------------------------------------*/

/* Begins the user region called name (a C string) on the calling thread.
 * *handle is the call site's handle, 0 until the first call binds it; name
 * is one region wherever it is used, located at the file and line of the
 * first begin that registered it. Thread safe. The macros below supply the
 * handle, file and line. */
int32_t POMP_User_region_begin_named(POMP_Handle_t *handle, const char *name, const char *file,
                                     int32_t line);

/* Ends the user region called name, which must be the innermost region the
 * calling thread has open (POMP_ERROR_UNBALANCED otherwise, and for a name
 * no begin has registered). */
int32_t POMP_User_region_end_named(POMP_Handle_t *handle, const char *name);

/* One-line user regions, like Caliper's CALI_MARK_BEGIN/END and Score-P's
 * SCOREP_USER_REGION_BEGIN/END: a static handle per call site, registered
 * lazily by its first call (docs/POMP_API.md, "User regions in one line").
 * A program built without POMP defines POMP_NO_USER_REGIONS, or does not
 * include this header, and the macros cost nothing. */
#ifndef POMP_NO_USER_REGIONS
#define POMP_USER_REGION_BEGIN(name)                                                               \
  do {                                                                                             \
    static POMP_Handle_t pomp_user_region_site_ = 0;                                               \
    POMP_User_region_begin_named(&pomp_user_region_site_, (name), __FILE__, __LINE__);             \
  } while (0)
#define POMP_USER_REGION_END(name)                                                                 \
  do {                                                                                             \
    static POMP_Handle_t pomp_user_region_site_ = 0;                                               \
    POMP_User_region_end_named(&pomp_user_region_site_, (name));                                   \
  } while (0)
#else
#define POMP_USER_REGION_BEGIN(name) ((void)0)
#define POMP_USER_REGION_END(name) ((void)0)
#endif

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POMPLIB_H */
