// Loops: Loop_enter with the run-time context (chunk, first, last, increment) where evaluating it
// again is harmless, the implicit barrier made visible with nowait + barrier, values of
// reduction and lastprivate unchanged.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: pomp_ctc_[[H1:[0-9]+]][] = "{{[0-9]+}}*type=for*file={{[^*]*}}for.c*slines=20,20*elines=21,21*schedule=static*hasLastprivate=1*hasReduction=1*afterConstruct=1*function={{[^*]+}}**";
// CHECK-DAG: pomp_ctc_[[H2:[0-9]+]][] = "{{[0-9]+}}*type=for*file={{[^*]*}}for.c*{{.*}}*schedule=dynamic*hasNowait=1*afterConstruct=1*function={{[^*]+}}**";
#include <stdio.h>

static int next(int *counter) { return ++*counter; }

int main(void) {
  int i, n = 1000, sum = 0, last = -1, counter = 0;
  long product = 1;
#pragma omp parallel
  {
    // CHECK: POMP_Loop_enter_notid(&pomp_handle_[[H1]], (int64_t)(3), (int64_t)(0), ((int64_t)(n) - 1), (int64_t)(2), pomp_ctc_[[H1]]);
    // CHECK-NEXT: #pragma omp for schedule(static, 3) reduction(+ : sum) lastprivate(last) nowait
#pragma omp for schedule(static, 3) reduction(+ : sum) lastprivate(last)
    for (i = 0; i < n; i += 2) { sum += i; last = i; }
    // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(&pomp_handle_[[B1:[0-9]+]], pomp_ctc_[[B1]]);
    // CHECK-NEXT: #pragma omp barrier
    // CHECK-NEXT: POMP_Implicit_barrier_exit_notid(pomp_handle_[[B1]]); POMP_Loop_exit_notid(pomp_handle_[[H1]]);

    // A loop with nowait has no barrier to show; a bound with side effects is not evaluated
    // again (0 = not available), a decrementing loop has increment -1.
    // CHECK: POMP_Loop_enter_notid(&pomp_handle_[[H2]], -1, (int64_t)(n), 0, -1, pomp_ctc_[[H2]]);
    // CHECK-NEXT: #pragma omp for schedule(dynamic) nowait{{$}}
#pragma omp for schedule(dynamic) nowait
    for (int j = n; j > next(&counter) * 0; j--)
      product = product;
    // CHECK: product = product;{{$}}
    // CHECK-NEXT: POMP_Loop_exit_notid(pomp_handle_[[H2]]);
  }
  printf("sum=%d last=%d product=%ld\n", sum, last, product);
  return 0;
}

// The loop runs once per team thread; the second loop's bound is evaluated by the runtime only.
// EVENTS-LABEL: threads 1
// EVENTS: Loop_enter 2
// EVENTS-NEXT: Loop_exit 2
// EVENTS: Implicit_barrier_enter 2
// EVENTS-NEXT: Implicit_barrier_exit 2
// EVENTS-NEXT: violations 0
// EVENTS-LABEL: threads 4
// EVENTS: Loop_enter 8
// EVENTS-NEXT: Loop_exit 8
// EVENTS: Implicit_barrier_enter 8
// EVENTS-NEXT: Implicit_barrier_exit 8
// EVENTS-NEXT: violations 0
