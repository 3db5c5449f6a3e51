/* The instrumented file declares only the POMP routines its inserted code calls (and
 * POMP_Get_handle for its init function), after pomp_types.h, instead of including pomplib.h. A
 * file that includes pomplib.h itself, here after the prologue, gets both and compiles warning-free
 * as C89 and C11 with gcc and clang-19 and runs the same (the original, built without POMP, does
 * not include it: _POMP tells).
 * RUN: %ompinst %s -o %t.c --no-line-directives -- -std=c89 -isystem %pomp_include
 * RUN: %FileCheck %s < %t.c
 * RUN: %gcc -std=c89 -pedantic-errors -Wall -Wextra -Wno-unknown-pragmas -fopenmp -isystem %pomp_include -fsyntax-only %t.c
 * RUN: %clang -std=c11 -pedantic-errors -Wall -Wextra -fopenmp -isystem %pomp_include -fsyntax-only %t.c
 * RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --flags "-std=gnu89 -O1" --original %s --instrumented %t.c | %FileCheck --check-prefix=EQUIV %s
 * A file whose inserted code calls the OpenMP wrappers includes pomplib.h through them.
 * RUN: printf '#include <omp.h>\nint main(void) { omp_lock_t l; omp_init_lock(&l); return 0; }\n' > %t.wrapped.c
 * RUN: %ompinst %t.wrapped.c -o %t.wrapped.out.c --no-line-directives
 * RUN: %FileCheck --check-prefix=WRAPPED %s < %t.wrapped.out.c
 * RUN: rm -f %t.wrapped.c %t.wrapped.out.c
 *
 * CHECK: {{^}}#include "pomp_types.h"
 * CHECK-NEXT: {{^}}#ifndef POMPLIB_H
 * CHECK-NEXT: {{^}}#include "pomp_context_forms.h"
 * CHECK-NEXT: {{^}}int32_t POMP_Parallel_begin_forked(
 * CHECK-NEXT: {{^}}int32_t POMP_Parallel_end(
 * CHECK-NEXT: {{^}}int32_t POMP_Parallel_exit(
 * CHECK-NEXT: {{^}}int32_t POMP_Critical_enter(
 * CHECK-NEXT: {{^}}int32_t POMP_Critical_begin(
 * CHECK-NEXT: {{^}}int32_t POMP_Critical_end(
 * CHECK-NEXT: {{^}}int32_t POMP_Critical_exit(
 * CHECK-NEXT: {{^}}int32_t POMP_Implicit_barrier_enter(
 * CHECK-NEXT: {{^}}int32_t POMP_Implicit_barrier_exit(
 * CHECK-NEXT: {{^}}int32_t POMP_Init(void) POMP_NOTHROW;
 * CHECK-NEXT: {{^}}int32_t POMP_Finalize(void) POMP_NOTHROW;
 * CHECK-NEXT: {{^}}int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) POMP_NOTHROW;
 * CHECK-NEXT: {{^}}int32_t POMP_Join_barrier_needed(POMP_Context_t fork_context) POMP_NOTHROW;
 * CHECK-NEXT: {{^}}#endif
 * CHECK-NOT: {{^}}#include "pomplib.h"
 * CHECK: {{^}}#include "pomplib.h"
 * CHECK-NOT: {{^}}#include "pomplib.h"
 * EQUIV: Parallel_begin_forked 2
 * EQUIV: Critical_begin 2
 * EQUIV: violations 0
 * WRAPPED: {{^}}#include "pomplib.h"
 * WRAPPED-NOT: {{^}}#include "pomp_types.h"
 * WRAPPED: {{^}}#include "pomp_omp_wrappers.h"
 */
#include <stdio.h>

static int twice(int n) {
  int total = 0;
#pragma omp parallel
  {
#pragma omp critical
    total += n;
  }
  return total;
}

#ifdef _POMP
#include "pomplib.h"
#endif

int main(void) {
#ifdef _POMP
  int32_t level = 0;
  (void)POMP_Get_level(POMP_GROUP_PARALLEL, &level);
#endif
  printf("total=%d\n", twice(1));
  return 0;
}
