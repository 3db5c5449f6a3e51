//===- adapters/fortran/FortranBindings.cpp - The POMP API for Fortran ----===//
///
/// \file
/// The Fortran entry points of libpomp (paper section 3.3, docs/FORTRAN.md):
/// every routine of pomplib.h under the external name gfortran and flang give
/// a Fortran procedure by default, its name in lower case with one trailing
/// underscore, so that Fortran code calls them with implicit interfaces in
/// fixed and free form (`call POMP_Parallel_fork(h, tid, nt, ifv, ctx, 'ctc')`
/// links to `pomp_parallel_fork_`). Every argument comes by reference; a
/// CHARACTER*(*) argument has a hidden length (size_t) after all arguments.
///
/// The event entry points are generated from pomp_events.def
/// (tools/gen-fortran-bindings.cpp); the control routines and the wrappers of
/// the OpenMP library routines are here. Each entry point translates and
/// calls the C routine, which does the work: the two bindings cannot differ.
///
//===----------------------------------------------------------------------===//

#include "adapters/fortran/FortranBindings.h"

#include "pomplib.h"

#include <algorithm>
#include <cstring>

#define POMP_FORTRAN_EXPORT extern "C" __attribute__((visibility("default")))

namespace pomp::fortran {

std::size_t trimmedLength(const char *Text, Length Size) {
  if (!Text)
    return 0;
  std::size_t N = Size;
  while (N > 0 && Text[N - 1] == ' ')
    --N;
  return N;
}

CtcString::CtcString(const POMP_Handle_t *Handle, const char *Text, Length Size) {
  // The C routines read the CTC string only to bind a zero handle; a bound
  // handle costs no copy. A handle another thread binds after this test is
  // still bound when the C routine reads it, and the copy is then unused.
  if (!Text || (Handle && __atomic_load_n(Handle, __ATOMIC_ACQUIRE) != 0))
    return;
  const std::size_t N = trimmedLength(Text, Size);
  if (N < sizeof(Inline)) {
    std::memcpy(Inline, Text, N);
    Inline[N] = '\0';
    Pointer = Inline;
    return;
  }
  try {
    Heap.assign(Text, N);
    Pointer = Heap.c_str();
  } catch (...) {
    // No memory for the copy: the C routine reports the missing CTC string.
    Pointer = nullptr;
  }
}

void copyToFortran(const char *Text, char *Out, Length Size) {
  if (!Out)
    return;
  const std::size_t N = std::min<std::size_t>(std::strlen(Text), Size);
  std::memcpy(Out, Text, N);
  std::memset(Out + N, ' ', Size - N);
}

} // namespace pomp::fortran

using pomp::fortran::CtcString;
using pomp::fortran::Length;

//--- Event routines, from pomp_events.def ----------------------------------//
#include "pomp_fortran_entries.inc"

int pomp::fortran::eventEntryCount() { return FortranEventEntryCount; }

//--- Control routines (paper section 3.6) ---------------------------------//
POMP_FORTRAN_EXPORT int32_t pomp_init_() { return POMP_Init(); }
POMP_FORTRAN_EXPORT int32_t pomp_finalize_() { return POMP_Finalize(); }
POMP_FORTRAN_EXPORT int32_t pomp_on_() { return POMP_On(); }
POMP_FORTRAN_EXPORT int32_t pomp_off_() { return POMP_Off(); }

POMP_FORTRAN_EXPORT int32_t pomp_set_level_(const int32_t *group, const int32_t *level) {
  return POMP_Set_level(*group, *level);
}

POMP_FORTRAN_EXPORT int32_t pomp_get_level_(const int32_t *group, int32_t *level) {
  return POMP_Get_level(*group, level);
}

POMP_FORTRAN_EXPORT int32_t pomp_get_handle_(POMP_Handle_t *handle, const char *ctc,
                                             Length ctc_len) {
  const CtcString Ctc(handle, ctc, ctc_len);
  return POMP_Get_handle(handle, Ctc.get());
}

POMP_FORTRAN_EXPORT int32_t pomp_note_uninstrumented_(const char *file, const char *reason,
                                                      Length file_len, Length reason_len) {
  const std::string File(file ? file : "", pomp::fortran::trimmedLength(file, file_len));
  const std::string Reason(reason ? reason : "", pomp::fortran::trimmedLength(reason, reason_len));
  return POMP_Note_uninstrumented(File.c_str(), Reason.c_str());
}

/// Fortran cannot take a C string: the message is copied into the caller's
/// CHARACTER variable, cut or padded with blanks to its length.
POMP_FORTRAN_EXPORT void pomp_last_error_message_(char *message, Length message_len) {
  pomp::fortran::copyToFortran(POMP_Last_error_message(), message, message_len);
}

POMP_FORTRAN_EXPORT void pomp_error_string_(const int32_t *error, char *message,
                                            Length message_len) {
  pomp::fortran::copyToFortran(POMP_Error_string(*error), message, message_len);
}

//--- OpenMP library routines with events (paper section 3.4) --------------//
// The Fortran twins of pomp_omp_wrappers.h: instrumented Fortran calls
// POMP_Wrap_omp_set_lock(handle, ctc, lock) for omp_set_lock(lock). They call
// the OpenMP runtime's Fortran entry points, which take the Fortran lock
// variable (integer(omp_lock_kind)); libgomp's is not its C omp_lock_t. The
// lock variable's address is the lock id, as the C wrappers use the address
// of the omp_lock_t. The runtime routines are weak references resolved
// against the program's OpenMP runtime (libgomp or libomp): libpomp itself
// links neither.
#define POMP_OMP_IMPORT extern "C" __attribute__((weak, visibility("default")))
POMP_OMP_IMPORT void omp_init_lock_(void *);
POMP_OMP_IMPORT void omp_init_lock_with_hint_(void *, const int32_t *);
POMP_OMP_IMPORT void omp_destroy_lock_(void *);
POMP_OMP_IMPORT void omp_set_lock_(void *);
POMP_OMP_IMPORT void omp_unset_lock_(void *);
POMP_OMP_IMPORT int32_t omp_test_lock_(void *);
POMP_OMP_IMPORT void omp_init_nest_lock_(void *);
POMP_OMP_IMPORT void omp_init_nest_lock_with_hint_(void *, const int32_t *);
POMP_OMP_IMPORT void omp_destroy_nest_lock_(void *);
POMP_OMP_IMPORT void omp_set_nest_lock_(void *);
POMP_OMP_IMPORT void omp_unset_nest_lock_(void *);
POMP_OMP_IMPORT int32_t omp_test_nest_lock_(void *);
POMP_OMP_IMPORT void omp_set_num_threads_(const int32_t *);
POMP_OMP_IMPORT int32_t omp_get_num_threads_();
POMP_OMP_IMPORT int32_t omp_get_max_threads_();
POMP_OMP_IMPORT int32_t omp_get_thread_num_();
POMP_OMP_IMPORT int32_t omp_get_num_procs_();
POMP_OMP_IMPORT int32_t omp_in_parallel_();
POMP_OMP_IMPORT void omp_set_dynamic_(const int32_t *);
POMP_OMP_IMPORT int32_t omp_get_dynamic_();
POMP_OMP_IMPORT void omp_set_nested_(const int32_t *);
POMP_OMP_IMPORT int32_t omp_get_nested_();
POMP_OMP_IMPORT int32_t omp_pause_resource_(const int32_t *, const int32_t *);
POMP_OMP_IMPORT int32_t omp_pause_resource_all_(const int32_t *);
#undef POMP_OMP_IMPORT

namespace {

/// The events' thread_id: libpomp identifies the calling thread itself, so the
/// wrappers pass the paper's "not available" instead of asking the runtime
/// (docs/POMP_API.md, "The thread_id argument").
constexpr int32_t NoThreadId = -1;

/// The handle for a wrapper's second event, read atomically: another thread may bind it
/// (lazily, without pomp-link) meanwhile, as in pomp_omp_wrappers.h.
POMP_Handle_t boundHandle(const POMP_Handle_t *Handle) {
  return __atomic_load_n(Handle, __ATOMIC_ACQUIRE);
}

/// Calls a runtime routine that returns a value, 0 when the program has no
/// OpenMP runtime.
template <typename Fn, typename... Args> int32_t callValue(Fn *F, Args... A) {
  return F ? F(A...) : 0;
}
template <typename Fn, typename... Args> void callVoid(Fn *F, Args... A) {
  if (F)
    F(A...);
}

/// A Fortran LOGICAL argument or result as the events' int32_t: any non-zero
/// value is true (gfortran and flang store true as 1).
int32_t truth(int32_t Logical) { return Logical != 0 ? 1 : 0; }

} // namespace

using pomp::fortran::lockId;

namespace {
/// The nesting count omp_test_nest_lock returns, as its event takes it.
int32_t nestCount(int32_t Count) { return Count; }
} // namespace

/// The wrappers of one kind of lock (paper Tables 6 and 7): `Kind` is `lock`
/// or `nest_lock`, which names both the runtime's Fortran routines and the
/// events; `Tested` converts omp_test_<Kind>'s result for its event.
#define POMP_FORTRAN_LOCK_WRAPPERS(Kind, Tested)                                                   \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_init_##Kind##_(POMP_Handle_t *handle, const char *ctc,    \
                                                        void *lock, Length ctc_len) {              \
    callVoid(omp_init_##Kind##_, lock);                                                            \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Init_##Kind##_event(handle, NoThreadId, lockId(lock), Ctc.get());                         \
  }                                                                                                \
  /* libgomp 12 has no omp_init_lock_with_hint_: a hint is advisory, so the                        \
   * lock is initialised without it there. */                                                      \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_init_##Kind##_with_hint_(                                 \
      POMP_Handle_t *handle, const char *ctc, void *lock, const int32_t *hint, Length ctc_len) {   \
    if (omp_init_##Kind##_with_hint_)                                                              \
      omp_init_##Kind##_with_hint_(lock, hint);                                                    \
    else                                                                                           \
      callVoid(omp_init_##Kind##_, lock);                                                          \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Init_##Kind##_event(handle, NoThreadId, lockId(lock), Ctc.get());                         \
  }                                                                                                \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_destroy_##Kind##_(POMP_Handle_t *handle, const char *ctc, \
                                                           void *lock, Length ctc_len) {           \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Destroy_##Kind##_event(handle, NoThreadId, lockId(lock), Ctc.get());                      \
    callVoid(omp_destroy_##Kind##_, lock);                                                         \
  }                                                                                                \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_set_##Kind##_(POMP_Handle_t *handle, const char *ctc,     \
                                                       void *lock, Length ctc_len) {               \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Set_##Kind##_enter(handle, NoThreadId, lockId(lock), Ctc.get());                          \
    callVoid(omp_set_##Kind##_, lock);                                                             \
    POMP_Set_##Kind##_exit(boundHandle(handle), NoThreadId, lockId(lock));                         \
  }                                                                                                \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_set_##Kind##_event_(                                      \
      POMP_Handle_t *handle, const char *ctc, void *lock, Length ctc_len) {                        \
    callVoid(omp_set_##Kind##_, lock);                                                             \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Set_##Kind##_event(handle, NoThreadId, lockId(lock), Ctc.get());                          \
  }                                                                                                \
  POMP_FORTRAN_EXPORT void pomp_wrap_omp_unset_##Kind##_(POMP_Handle_t *handle, const char *ctc,   \
                                                         void *lock, Length ctc_len) {             \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Unset_##Kind##_event(handle, NoThreadId, lockId(lock), Ctc.get());                        \
    callVoid(omp_unset_##Kind##_, lock);                                                           \
  }                                                                                                \
  POMP_FORTRAN_EXPORT int32_t pomp_wrap_omp_test_##Kind##_(POMP_Handle_t *handle, const char *ctc, \
                                                           void *lock, Length ctc_len) {           \
    const int32_t Result = callValue(omp_test_##Kind##_, lock);                                    \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_Test_##Kind##_event(handle, NoThreadId, lockId(lock), Tested(Result), Ctc.get());         \
    return Result;                                                                                 \
  }

POMP_FORTRAN_LOCK_WRAPPERS(lock, truth)
POMP_FORTRAN_LOCK_WRAPPERS(nest_lock, nestCount)
#undef POMP_FORTRAN_LOCK_WRAPPERS

//--- Table 8: other run-time routines
POMP_FORTRAN_EXPORT void pomp_wrap_omp_set_num_threads_(POMP_Handle_t *handle, const char *ctc,
                                                        const int32_t *num_threads,
                                                        Length ctc_len) {
  callVoid(omp_set_num_threads_, num_threads);
  const CtcString Ctc(handle, ctc, ctc_len);
  POMP_Set_num_threads_event(handle, NoThreadId, *num_threads, Ctc.get());
}

/// A wrapper of a runtime routine without arguments that returns a value and
/// the event that reports it.
#define POMP_FORTRAN_VALUE_WRAPPER(Routine, Event, Convert)                                        \
  POMP_FORTRAN_EXPORT int32_t pomp_wrap_##Routine##_(POMP_Handle_t *handle, const char *ctc,       \
                                                     Length ctc_len) {                             \
    const int32_t Value = callValue(Routine##_);                                                   \
    const CtcString Ctc(handle, ctc, ctc_len);                                                     \
    POMP_##Event(handle, NoThreadId, Convert(Value), Ctc.get());                                   \
    return Value;                                                                                  \
  }
#define POMP_AS_IS(Value) (Value)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_num_threads, Get_num_threads_event, POMP_AS_IS)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_max_threads, Get_max_threads_event, POMP_AS_IS)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_thread_num, Get_thread_num_event, POMP_AS_IS)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_num_procs, Get_num_procs_event, POMP_AS_IS)
POMP_FORTRAN_VALUE_WRAPPER(omp_in_parallel, In_parallel_event, truth)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_dynamic, Get_dynamic_event, truth)
POMP_FORTRAN_VALUE_WRAPPER(omp_get_nested, Get_nested_event, truth)
#undef POMP_AS_IS
#undef POMP_FORTRAN_VALUE_WRAPPER

POMP_FORTRAN_EXPORT void pomp_wrap_omp_set_dynamic_(POMP_Handle_t *handle, const char *ctc,
                                                    const int32_t *dynamic_threads,
                                                    Length ctc_len) {
  callVoid(omp_set_dynamic_, dynamic_threads);
  const CtcString Ctc(handle, ctc, ctc_len);
  POMP_Set_dynamic_event(handle, NoThreadId, truth(*dynamic_threads), Ctc.get());
}
POMP_FORTRAN_EXPORT void pomp_wrap_omp_set_nested_(POMP_Handle_t *handle, const char *ctc,
                                                   const int32_t *nested, Length ctc_len) {
  callVoid(omp_set_nested_, nested);
  const CtcString Ctc(handle, ctc, ctc_len);
  POMP_Set_nested_event(handle, NoThreadId, truth(*nested), Ctc.get());
}

//--- Pausing the runtime: no event, as in C (pomp_omp_wrappers.h says why the
// runtime is initialised again).
POMP_FORTRAN_EXPORT int32_t pomp_wrap_omp_pause_resource_(const int32_t *kind,
                                                          const int32_t *device_num) {
  const int32_t Result = callValue(omp_pause_resource_, kind, device_num);
  (void)callValue(omp_get_max_threads_);
  return Result;
}
POMP_FORTRAN_EXPORT int32_t pomp_wrap_omp_pause_resource_all_(const int32_t *kind) {
  const int32_t Result = callValue(omp_pause_resource_all_, kind);
  (void)callValue(omp_get_max_threads_);
  return Result;
}
