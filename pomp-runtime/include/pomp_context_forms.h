/*===- pomp_context_forms.h - Fork events that return the context --------===*
 *
 * An extension of the POMP API (docs/POMP_API.md, "Contexts by value"): the
 * three events that hand out a measurement context (Parallel_fork,
 * Teams_enter, Task_create_enter) in a form that returns it instead of
 * storing it through a POMP_Context_t* argument. Same event, same arguments
 * otherwise, same meaning; a failure returns the context 0 ("no context", as
 * the pointer forms store) and leaves its message for
 * POMP_Last_error_message(). Instrumented code calls these: a local variable
 * whose address goes to a call stays in memory through the whole function,
 * which cost clang-19 some 2 M instructions per parallel region of LULESH
 * (docs/PERFORMANCE.md, session 10).
 *
 * A POMP library without these forms: compile the instrumented code with
 * -DPOMP_CONTEXT_BY_POINTER, and each form is defined here, in the file, with
 * its pointer routine. pomplib.h includes this header; so does an
 * instrumented file that calls a form. C89 and C++ compatible.
 *
 *===----------------------------------------------------------------------===*/
#ifndef POMP_CONTEXT_FORMS_H
#define POMP_CONTEXT_FORMS_H

#include "pomp_types.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifndef POMP_CONTEXT_BY_POINTER

/* POMP_Parallel_fork, returning the master's context. */
POMP_Context_t POMP_Parallel_fork_ctx(POMP_Handle_t *handle, int32_t thread_id, int32_t num_threads,
                                      int32_t if_expr_result, const char ctc[]) POMP_NOTHROW;
/* POMP_Teams_enter, returning the encountering thread's context. */
POMP_Context_t POMP_Teams_enter_ctx(POMP_Handle_t *handle, int32_t thread_id, int32_t num_teams,
                                    int32_t thread_limit, const char ctc[]) POMP_NOTHROW;
/* POMP_Task_create_enter, returning the new task's context. */
POMP_Context_t POMP_Task_create_enter_ctx(POMP_Handle_t *handle, int32_t thread_id,
                                          int32_t if_expr_result, const char ctc[]) POMP_NOTHROW;

#else /* POMP_CONTEXT_BY_POINTER: the forms spelled with the pointer routines */

#if defined(__cplusplus) || (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define POMP_CONTEXT_FORM_ static inline
#elif defined(__GNUC__)
#define POMP_CONTEXT_FORM_ static __inline__
#else
#define POMP_CONTEXT_FORM_ static
#endif

int32_t POMP_Parallel_fork(POMP_Handle_t *handle, int32_t thread_id, int32_t num_threads,
                           int32_t if_expr_result, POMP_Context_t *fork_context,
                           const char ctc[]) POMP_NOTHROW;
int32_t POMP_Teams_enter(POMP_Handle_t *handle, int32_t thread_id, int32_t num_teams,
                         int32_t thread_limit, POMP_Context_t *fork_context,
                         const char ctc[]) POMP_NOTHROW;
int32_t POMP_Task_create_enter(POMP_Handle_t *handle, int32_t thread_id, int32_t if_expr_result,
                               POMP_Context_t *task_context, const char ctc[]) POMP_NOTHROW;

POMP_CONTEXT_FORM_ POMP_NOTHROW POMP_Context_t POMP_Parallel_fork_ctx(POMP_Handle_t *handle,
                                                                      int32_t thread_id,
                                                                      int32_t num_threads,
                                                                      int32_t if_expr_result,
                                                                      const char ctc[]) {
  POMP_Context_t context = 0;
  POMP_Parallel_fork(handle, thread_id, num_threads, if_expr_result, &context, ctc);
  return context;
}
POMP_CONTEXT_FORM_ POMP_NOTHROW POMP_Context_t POMP_Teams_enter_ctx(POMP_Handle_t *handle,
                                                                    int32_t thread_id,
                                                                    int32_t num_teams,
                                                                    int32_t thread_limit,
                                                                    const char ctc[]) {
  POMP_Context_t context = 0;
  POMP_Teams_enter(handle, thread_id, num_teams, thread_limit, &context, ctc);
  return context;
}
POMP_CONTEXT_FORM_ POMP_NOTHROW POMP_Context_t POMP_Task_create_enter_ctx(POMP_Handle_t *handle,
                                                                          int32_t thread_id,
                                                                          int32_t if_expr_result,
                                                                          const char ctc[]) {
  POMP_Context_t context = 0;
  POMP_Task_create_enter(handle, thread_id, if_expr_result, &context, ctc);
  return context;
}

#undef POMP_CONTEXT_FORM_
#endif /* POMP_CONTEXT_BY_POINTER */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* POMP_CONTEXT_FORMS_H */
