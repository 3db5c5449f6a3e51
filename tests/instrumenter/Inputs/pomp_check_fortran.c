/* pomp_check_fortran.c - the Fortran entry points of the checking POMP library.
 *
 * Instrumented Fortran calls the paper's Fortran bindings (FORTRAN_CONTRACT:
 * lower case with one trailing underscore, every argument by reference, the
 * CTC string as CHARACTER*(*) with its length passed after all arguments).
 * Each entry point here forwards to the C routine the checks implement, with
 * the CTC copied into a NUL-terminated buffer of exactly the length Fortran
 * passed, so that a wrong length prefix or a missing terminator in the
 * Fortran literal is a violation like in C.
 */
#include "pomplib.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A CTC string of this file's tests is far shorter. */
#define MAX_CTC 4096

/* The CTC as a C string; kept per thread until the next call. */
static const char *ctcString(const char *Ctc, size_t Length) {
  static __thread char Buffer[MAX_CTC];
  if (Length >= MAX_CTC)
    Length = MAX_CTC - 1;
  memcpy(Buffer, Ctc, Length);
  Buffer[Length] = '\0';
  return Buffer;
}

#define H (POMP_Handle_t *)handle
#define V(p) (*(p))

/* First events: the handle by reference, the CTC last. */
#define FIRST3(lower, Name)                                                                        \
  void lower##_(int64_t *handle, int32_t *a, const char *ctc, size_t len) {                        \
    POMP_##Name(H, V(a), ctcString(ctc, len));                                                     \
  }
#define FIRST4(lower, Name)                                                                        \
  void lower##_(int64_t *handle, int32_t *a, int32_t *b, const char *ctc, size_t len) {            \
    POMP_##Name(H, V(a), V(b), ctcString(ctc, len));                                               \
  }
FIRST3(pomp_sections_enter, Sections_enter)
FIRST3(pomp_single_enter, Single_enter)
FIRST3(pomp_scope_enter, Scope_enter)
FIRST3(pomp_workshare_enter, Workshare_enter)
FIRST3(pomp_critical_enter, Critical_enter)
FIRST3(pomp_master_begin, Master_begin)
FIRST4(pomp_masked_begin, Masked_begin)
FIRST3(pomp_barrier_enter, Barrier_enter)
FIRST3(pomp_implicit_barrier_enter, Implicit_barrier_enter)
FIRST3(pomp_flush_event, Flush_event)
FIRST3(pomp_atomic_event, Atomic_event)
FIRST3(pomp_ordered_enter, Ordered_enter)
FIRST4(pomp_cancel_event, Cancel_event)
FIRST3(pomp_cancellation_point_event, Cancellation_point_event)
FIRST3(pomp_taskwait_enter, Taskwait_enter)
FIRST3(pomp_taskgroup_enter, Taskgroup_enter)
FIRST3(pomp_taskyield_enter, Taskyield_enter)
FIRST3(pomp_taskloop_enter, Taskloop_enter)
FIRST3(pomp_function_begin, Function_begin)
FIRST3(pomp_function_event, Function_event)
FIRST4(pomp_target_enter, Target_enter)
FIRST4(pomp_target_data_enter, Target_data_enter)
FIRST4(pomp_target_data_event, Target_data_event)

void pomp_parallel_fork_(int64_t *handle, int32_t *tid, int32_t *nt, int32_t *ifv, int64_t *ctx,
                         const char *ctc, size_t len) {
  POMP_Parallel_fork(H, V(tid), V(nt), V(ifv), (POMP_Context_t *)ctx, ctcString(ctc, len));
}
void pomp_teams_enter_(int64_t *handle, int32_t *tid, int32_t *nt, int32_t *tl, int64_t *ctx,
                       const char *ctc, size_t len) {
  POMP_Teams_enter(H, V(tid), V(nt), V(tl), (POMP_Context_t *)ctx, ctcString(ctc, len));
}
void pomp_loop_enter_(int64_t *handle, int32_t *tid, int64_t *chunk, int64_t *first, int64_t *last,
                      int64_t *incr, const char *ctc, size_t len) {
  POMP_Loop_enter(H, V(tid), V(chunk), V(first), V(last), V(incr), ctcString(ctc, len));
}
void pomp_task_create_enter_(int64_t *handle, int32_t *tid, int32_t *ifv, int64_t *task,
                             const char *ctc, size_t len) {
  POMP_Task_create_enter(H, V(tid), V(ifv), (POMP_Context_t *)task, ctcString(ctc, len));
}

/* Later events: the handle and the thread number (and a context). */
#define NEXT2(lower, Name)                                                                         \
  void lower##_(int64_t *handle, int32_t *tid) { POMP_##Name((POMP_Handle_t)V(handle), V(tid)); }
NEXT2(pomp_parallel_end, Parallel_end)
NEXT2(pomp_parallel_exit, Parallel_exit)
NEXT2(pomp_teams_end, Teams_end)
NEXT2(pomp_teams_exit, Teams_exit)
NEXT2(pomp_loop_exit, Loop_exit)
NEXT2(pomp_sections_exit, Sections_exit)
NEXT2(pomp_section_end, Section_end)
NEXT2(pomp_single_begin, Single_begin)
NEXT2(pomp_single_end, Single_end)
NEXT2(pomp_single_exit, Single_exit)
NEXT2(pomp_scope_begin, Scope_begin)
NEXT2(pomp_scope_end, Scope_end)
NEXT2(pomp_scope_exit, Scope_exit)
NEXT2(pomp_workshare_begin, Workshare_begin)
NEXT2(pomp_workshare_end, Workshare_end)
NEXT2(pomp_workshare_exit, Workshare_exit)
NEXT2(pomp_critical_begin, Critical_begin)
NEXT2(pomp_critical_end, Critical_end)
NEXT2(pomp_critical_exit, Critical_exit)
NEXT2(pomp_master_end, Master_end)
NEXT2(pomp_masked_end, Masked_end)
NEXT2(pomp_barrier_exit, Barrier_exit)
NEXT2(pomp_implicit_barrier_exit, Implicit_barrier_exit)
NEXT2(pomp_ordered_begin, Ordered_begin)
NEXT2(pomp_ordered_end, Ordered_end)
NEXT2(pomp_ordered_exit, Ordered_exit)
NEXT2(pomp_task_create_exit, Task_create_exit)
NEXT2(pomp_task_end, Task_end)
NEXT2(pomp_taskwait_exit, Taskwait_exit)
NEXT2(pomp_taskgroup_begin, Taskgroup_begin)
NEXT2(pomp_taskgroup_end, Taskgroup_end)
NEXT2(pomp_taskgroup_exit, Taskgroup_exit)
NEXT2(pomp_taskyield_exit, Taskyield_exit)
NEXT2(pomp_taskloop_exit, Taskloop_exit)
NEXT2(pomp_function_end, Function_end)
NEXT2(pomp_target_exit, Target_exit)
NEXT2(pomp_target_data_exit, Target_data_exit)

void pomp_parallel_begin_forked_(int64_t *handle, int32_t *tid, int64_t *ctx) {
  POMP_Parallel_begin_forked((POMP_Handle_t)V(handle), V(tid), (POMP_Context_t)V(ctx));
}
void pomp_teams_begin_(int64_t *handle, int32_t *tid, int64_t *ctx) {
  POMP_Teams_begin((POMP_Handle_t)V(handle), V(tid), (POMP_Context_t)V(ctx));
}
void pomp_task_begin_(int64_t *handle, int32_t *tid, int64_t *task) {
  POMP_Task_begin((POMP_Handle_t)V(handle), V(tid), (POMP_Context_t)V(task));
}
void pomp_section_begin_(int64_t *handle, int32_t *number, int32_t *tid) {
  POMP_Section_begin((POMP_Handle_t)V(handle), V(number), V(tid));
}

void pomp_init_(void) { POMP_Init(); }
void pomp_finalize_(void) { POMP_Finalize(); }
void pomp_get_handle_(int64_t *handle, const char *ctc, size_t len) {
  POMP_Get_handle(H, ctcString(ctc, len));
}
