/*===- pomp_omp_wrappers.h - OpenMP API calls with POMP events -----------===*
 *
 * ompinst rewrites each call of an OpenMP lock routine or of a routine of the
 * paper's Table 8 into a call of the wrapper below (paper section 3.4): it
 * calls the real routine and emits the routine's events, with the call site's
 * handle and CTC string in front of the original arguments:
 *
 *   omp_set_lock(&l)  ->  POMP_Wrap_omp_set_lock(&pomp_handle_7, pomp_ctc_7, &l)
 *
 * Which events a wrapper emits follows the Runtime group's compile-time
 * level: enterexit uses POMP_Wrap_<routine>, event the *_event variants of
 * omp_set_lock and omp_set_nest_lock (paper Tables 6-8).
 *
 * Include after omp.h. Every wrapper is a static inline function: only the
 * ones a file calls are compiled, so a routine a runtime does not export
 * (libgomp 12 lacks omp_init_lock_with_hint) costs nothing unless used.
 *===----------------------------------------------------------------------===*/
#ifndef POMP_OMP_WRAPPERS_H
#define POMP_OMP_WRAPPERS_H

#include "pomplib.h"

#if defined(__cplusplus)
#define POMP_WRAPPER static inline
#else
#define POMP_WRAPPER static __inline__
#endif

#define POMP_LOCK_ID(lock) ((POMP_Lock_id_t)(lock))

/* The handle for a wrapper's second event. Another thread may bind it (lazily, without
 * pomp-link) while this one reads it: an atomic load keeps that from being a data race. */
#if defined(__GNUC__)
#define POMP_BOUND_HANDLE(handle) __atomic_load_n((handle), __ATOMIC_ACQUIRE)
#else
#define POMP_BOUND_HANDLE(handle) (*(handle))
#endif

/* The events' thread_id: -1 ("not available"), since libpomp identifies the calling thread
 * itself and a call of omp_get_thread_num() per event is wasted work; the thread's number when
 * the file defines POMP_THREAD_IDS (ompinst --thread-ids), for a POMP library that uses it
 * (docs/POMP_API.md, "The thread_id argument"). */
#if defined(POMP_THREAD_IDS)
#define POMP_THREAD_ID() omp_get_thread_num()
#else
#define POMP_THREAD_ID() (-1)
#endif

/* Without thread ids the wrappers call the routines' forms without the parameter
 * (docs/POMP_API.md, "Routines without the thread id"): each argument costs gcc's compile of
 * every call site. POMP_WRAPPED_EVENT(name) is the routine a wrapper calls, and
 * POMP_THREAD_ID_ARG(value) what follows its handle: nothing, or ", value". A POMP library
 * without the forms: -DPOMP_NO_NOTID_FORMS (implied by -DPOMP_CONTEXT_BY_POINTER). */
#if defined(POMP_THREAD_IDS) || defined(POMP_NO_NOTID_FORMS) || defined(POMP_CONTEXT_BY_POINTER)
#define POMP_WRAPPED_EVENT(name) POMP_##name
#define POMP_THREAD_ID_ARG(value) , value
#else
#define POMP_WRAPPED_EVENT(name) POMP_##name##_notid
#define POMP_THREAD_ID_ARG(value)
#ifdef __cplusplus
extern "C" {
#endif
int32_t POMP_Init_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                   const char ctc[]) POMP_NOTHROW;
int32_t POMP_Destroy_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                      const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_lock_enter_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                  const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_lock_exit_notid(POMP_Handle_t handle, POMP_Lock_id_t lock_id) POMP_NOTHROW;
int32_t POMP_Set_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                  const char ctc[]) POMP_NOTHROW;
int32_t POMP_Unset_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                    const char ctc[]) POMP_NOTHROW;
int32_t POMP_Test_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                   int32_t was_lock_set, const char ctc[]) POMP_NOTHROW;
int32_t POMP_Init_nest_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                        const char ctc[]) POMP_NOTHROW;
int32_t POMP_Destroy_nest_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                           const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_nest_lock_enter_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                       const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_nest_lock_exit_notid(POMP_Handle_t handle, POMP_Lock_id_t lock_id) POMP_NOTHROW;
int32_t POMP_Set_nest_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                       const char ctc[]) POMP_NOTHROW;
int32_t POMP_Unset_nest_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                         const char ctc[]) POMP_NOTHROW;
int32_t POMP_Test_nest_lock_event_notid(POMP_Handle_t *handle, POMP_Lock_id_t lock_id,
                                        int32_t was_lock_set, const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_num_threads_event_notid(POMP_Handle_t *handle, int32_t num_threads,
                                         const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_num_threads_event_notid(POMP_Handle_t *handle, int32_t num_threads,
                                         const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_max_threads_event_notid(POMP_Handle_t *handle, int32_t num_threads,
                                         const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_thread_num_event_notid(POMP_Handle_t *handle, int32_t thread_num,
                                        const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_num_procs_event_notid(POMP_Handle_t *handle, int32_t num_procs,
                                       const char ctc[]) POMP_NOTHROW;
int32_t POMP_In_parallel_event_notid(POMP_Handle_t *handle, int32_t is_parallel,
                                     const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_dynamic_event_notid(POMP_Handle_t *handle, int32_t is_dynamic,
                                     const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_dynamic_event_notid(POMP_Handle_t *handle, int32_t is_dynamic,
                                     const char ctc[]) POMP_NOTHROW;
int32_t POMP_Set_nested_event_notid(POMP_Handle_t *handle, int32_t is_nested,
                                    const char ctc[]) POMP_NOTHROW;
int32_t POMP_Get_nested_event_notid(POMP_Handle_t *handle, int32_t is_nested,
                                    const char ctc[]) POMP_NOTHROW;
#ifdef __cplusplus
} /* extern "C" */
#endif
#endif
#define POMP_WITH_THREAD_ID POMP_THREAD_ID_ARG(POMP_THREAD_ID())

/*--- Table 6: locks -------------------------------------------------------*/
POMP_WRAPPER void POMP_Wrap_omp_init_lock(POMP_Handle_t *handle, const char ctc[], omp_lock_t *lock) {
  omp_init_lock(lock);
  POMP_WRAPPED_EVENT(Init_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_init_lock_with_hint(POMP_Handle_t *handle, const char ctc[],
                                                    omp_lock_t *lock, omp_sync_hint_t hint) {
  omp_init_lock_with_hint(lock, hint);
  POMP_WRAPPED_EVENT(Init_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_destroy_lock(POMP_Handle_t *handle, const char ctc[],
                                             omp_lock_t *lock) {
  POMP_WRAPPED_EVENT(Destroy_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_destroy_lock(lock);
}
POMP_WRAPPER void POMP_Wrap_omp_set_lock(POMP_Handle_t *handle, const char ctc[], omp_lock_t *lock) {
  POMP_WRAPPED_EVENT(Set_lock_enter)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_set_lock(lock);
  POMP_WRAPPED_EVENT(Set_lock_exit)(POMP_BOUND_HANDLE(handle) POMP_WITH_THREAD_ID,
                                    POMP_LOCK_ID(lock));
}
POMP_WRAPPER void POMP_Wrap_omp_set_lock_event(POMP_Handle_t *handle, const char ctc[],
                                               omp_lock_t *lock) {
  omp_set_lock(lock);
  POMP_WRAPPED_EVENT(Set_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_unset_lock(POMP_Handle_t *handle, const char ctc[],
                                           omp_lock_t *lock) {
  POMP_WRAPPED_EVENT(Unset_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_unset_lock(lock);
}
POMP_WRAPPER int POMP_Wrap_omp_test_lock(POMP_Handle_t *handle, const char ctc[], omp_lock_t *lock) {
  int was_set = omp_test_lock(lock);
  POMP_WRAPPED_EVENT(Test_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), was_set, ctc);
  return was_set;
}

/*--- Table 7: nested locks ------------------------------------------------*/
POMP_WRAPPER void POMP_Wrap_omp_init_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                               omp_nest_lock_t *lock) {
  omp_init_nest_lock(lock);
  POMP_WRAPPED_EVENT(Init_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_init_nest_lock_with_hint(POMP_Handle_t *handle, const char ctc[],
                                                         omp_nest_lock_t *lock,
                                                         omp_sync_hint_t hint) {
  omp_init_nest_lock_with_hint(lock, hint);
  POMP_WRAPPED_EVENT(Init_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_destroy_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                                  omp_nest_lock_t *lock) {
  POMP_WRAPPED_EVENT(Destroy_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_destroy_nest_lock(lock);
}
POMP_WRAPPER void POMP_Wrap_omp_set_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                              omp_nest_lock_t *lock) {
  POMP_WRAPPED_EVENT(Set_nest_lock_enter)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_set_nest_lock(lock);
  POMP_WRAPPED_EVENT(Set_nest_lock_exit)(POMP_BOUND_HANDLE(handle) POMP_WITH_THREAD_ID,
                                         POMP_LOCK_ID(lock));
}
POMP_WRAPPER void POMP_Wrap_omp_set_nest_lock_event(POMP_Handle_t *handle, const char ctc[],
                                                    omp_nest_lock_t *lock) {
  omp_set_nest_lock(lock);
  POMP_WRAPPED_EVENT(Set_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
}
POMP_WRAPPER void POMP_Wrap_omp_unset_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                                omp_nest_lock_t *lock) {
  POMP_WRAPPED_EVENT(Unset_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), ctc);
  omp_unset_nest_lock(lock);
}
POMP_WRAPPER int POMP_Wrap_omp_test_nest_lock(POMP_Handle_t *handle, const char ctc[],
                                              omp_nest_lock_t *lock) {
  int count = omp_test_nest_lock(lock);
  POMP_WRAPPED_EVENT(Test_nest_lock_event)(handle POMP_WITH_THREAD_ID, POMP_LOCK_ID(lock), count,
                                           ctc);
  return count;
}

/*--- Table 8: other run-time routines -------------------------------------*/
POMP_WRAPPER void POMP_Wrap_omp_set_num_threads(POMP_Handle_t *handle, const char ctc[],
                                                int num_threads) {
  omp_set_num_threads(num_threads);
  POMP_WRAPPED_EVENT(Set_num_threads_event)(handle POMP_WITH_THREAD_ID, num_threads, ctc);
}
POMP_WRAPPER int POMP_Wrap_omp_get_num_threads(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_num_threads();
  POMP_WRAPPED_EVENT(Get_num_threads_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}
POMP_WRAPPER int POMP_Wrap_omp_get_max_threads(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_max_threads();
  POMP_WRAPPED_EVENT(Get_max_threads_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}
POMP_WRAPPER int POMP_Wrap_omp_get_thread_num(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_thread_num();
  POMP_WRAPPED_EVENT(Get_thread_num_event)(handle POMP_THREAD_ID_ARG(value), value, ctc);
  return value;
}
POMP_WRAPPER int POMP_Wrap_omp_get_num_procs(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_num_procs();
  POMP_WRAPPED_EVENT(Get_num_procs_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}
POMP_WRAPPER int POMP_Wrap_omp_in_parallel(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_in_parallel();
  POMP_WRAPPED_EVENT(In_parallel_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}
POMP_WRAPPER void POMP_Wrap_omp_set_dynamic(POMP_Handle_t *handle, const char ctc[],
                                            int dynamic_threads) {
  omp_set_dynamic(dynamic_threads);
  POMP_WRAPPED_EVENT(Set_dynamic_event)(handle POMP_WITH_THREAD_ID, dynamic_threads, ctc);
}
POMP_WRAPPER int POMP_Wrap_omp_get_dynamic(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_dynamic();
  POMP_WRAPPED_EVENT(Get_dynamic_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}
POMP_WRAPPER void POMP_Wrap_omp_set_nested(POMP_Handle_t *handle, const char ctc[], int nested) {
  omp_set_nested(nested);
  POMP_WRAPPED_EVENT(Set_nested_event)(handle POMP_WITH_THREAD_ID, nested, ctc);
}
POMP_WRAPPER int POMP_Wrap_omp_get_nested(POMP_Handle_t *handle, const char ctc[]) {
  int value = omp_get_nested();
  POMP_WRAPPED_EVENT(Get_nested_event)(handle POMP_WITH_THREAD_ID, value, ctc);
  return value;
}

/*--- Pausing the runtime ---------------------------------------------------*/
/* Called at every level, without handle and event: after
 * omp_pause_resource[_all](omp_pause_hard) libomp 19 crashes in the next
 * omp_get_thread_num() the instrumented code calls, where the plain program
 * runs. omp_get_max_threads() initialises the runtime again, as the program's
 * next OpenMP construct would. */
POMP_WRAPPER int POMP_Wrap_omp_pause_resource(omp_pause_resource_t kind, int device_num) {
  int result = omp_pause_resource(kind, device_num);
  (void)omp_get_max_threads();
  return result;
}
POMP_WRAPPER int POMP_Wrap_omp_pause_resource_all(omp_pause_resource_t kind) {
  int result = omp_pause_resource_all(kind);
  (void)omp_get_max_threads();
  return result;
}

#undef POMP_LOCK_ID
#undef POMP_THREAD_ID
#undef POMP_THREAD_ID_ARG
#undef POMP_WITH_THREAD_ID
#undef POMP_WRAPPED_EVENT
#undef POMP_WRAPPER

#endif /* POMP_OMP_WRAPPERS_H */
