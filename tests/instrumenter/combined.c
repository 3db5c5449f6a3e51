// Combined parallel constructs: the fork and join of the team around the construct, with if and
// num_threads evaluated once.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=parallelfor*{{.*}}*schedule=static*hasLastprivate=1*hasReduction=1*hasNumThreads=1**"
// CHECK-DAG: "{{[0-9]+}}*type=parallelsections*
#include <stdio.h>

int main(void) {
  int sum = 0, last = 0, x = 0, y = 0;
  // CHECK: { POMP_Context_t pomp_ctx_[[P:[0-9]+]]; int pomp_num_threads_[[P]] = (int)(3); POMP_Parallel_fork(&pomp_handle_[[P]], omp_get_thread_num(), pomp_num_threads_[[P]], -1, &pomp_ctx_[[P]], pomp_ctc_[[P]]);
  // CHECK-NEXT: #pragma omp parallel for num_threads(pomp_num_threads_[[P]]) schedule(static) reduction(+ : sum) lastprivate(last)
#pragma omp parallel for num_threads(3) schedule(static) reduction(+ : sum) lastprivate(last)
  for (int i = 0; i < 30; i++) {
    sum += i;
    last = i;
  }
  // CHECK: } POMP_Parallel_exit(pomp_handle_[[P]], omp_get_thread_num()); }
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    y = 2;
  }
  printf("sum=%d last=%d x=%d y=%d\n", sum, last, x, y);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 2
// EVENTS-NEXT: Parallel_exit 2
// EVENTS-NEXT: violations 0
