// Combined parallel constructs that are not split, because the split form would compute
// something else (libomp 19: a non-combined for with an inscan reduction gives a wrong scan) or
// has no split form: fork and exit around the construct as a whole.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: pomp_ctc_[[S:[0-9]+]][] = "{{[0-9]+}}*type=parallelfor*file={{[^*]*}}combined_whole.c*slines=18,18*
#include <stdio.h>

int main(void) {
  int x = 0, a[101], b[101];
  for (int i = 0; i <= 100; i++)
    a[i] = i;
  // CHECK: POMP_Context_t pomp_ctx_[[S]]; pomp_ctx_[[S]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[S]], -1, -1, pomp_ctc_[[S]]);
  // CHECK-NEXT: #pragma omp parallel for reduction(inscan, + : x){{$}}
  // CHECK-NEXT: for (int i = 0; i <= 100; i++) {
  // CHECK: } POMP_Parallel_exit_notid(pomp_handle_[[S]]);
#pragma omp parallel for reduction(inscan, + : x)
  for (int i = 0; i <= 100; i++) {
    x += a[i];
#pragma omp scan inclusive(x)
    b[i] = x;
  }
  printf("%d %d\n", x, b[100]);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 1
// EVENTS-NEXT: Parallel_exit 1
// EVENTS: violations 0
