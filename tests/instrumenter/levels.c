// --level sets what is inserted per group (paper section 3.8): none inserts nothing of the
// group, enterexit omits begin/end, the Sync group's barrier events control the implicit barrier.
// RUN: %ompinst %s -o %t.ee.c --no-line-directives --level=parallel=enterexit,workshare=enterexit
// RUN: %strip-checks %t.ee.c | %FileCheck --check-prefix=EE %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --original %s --instrumented %t.ee.c | %FileCheck --check-prefix=EE-EVENTS %s
// RUN: %ompinst %s -o %t.none.c --no-line-directives --level=parallel=none,loop=none,workshare=none,sync=none
// RUN: %strip-checks %t.none.c | %FileCheck --check-prefix=NONE %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --original %s --instrumented %t.none.c | %FileCheck --check-prefix=NONE-EVENTS %s
#include <stdio.h>

int main(void) {
  int sum = 0, single_runs = 0;
  // EE: #pragma omp parallel reduction(+ : sum) firstprivate(pomp_ctx_{{[0-9]+}})
  // EE-NEXT: {{^  { $}}
  // EE-NEXT: POMP_Loop_enter_notid(
  // NONE: int main(void) { POMP_Init();
  // NONE-NEXT: int sum = 0, single_runs = 0;
  // NONE-NEXT: #pragma omp parallel reduction(+ : sum){{$}}
#pragma omp parallel reduction(+ : sum)
  {
    // NONE-NEXT: {
    // NONE-NEXT: #pragma omp for{{$}}
#pragma omp for
    for (int i = 0; i < 10; i++)
      sum += i;
#pragma omp single
    single_runs++;
  }
  printf("sum=%d single=%d\n", sum, single_runs);
  return 0;
}

// EE-EVENTS-NOT: Parallel_begin
// EE-EVENTS: Parallel_fork 1
// EE-EVENTS-NEXT: Parallel_exit 1
// EE-EVENTS-NEXT: Loop_enter 2
// EE-EVENTS-NEXT: Loop_exit 2
// EE-EVENTS-NEXT: Single_enter 2
// EE-EVENTS-NEXT: Single_exit 2
// EE-EVENTS-NEXT: Implicit_barrier_enter 6
// EE-EVENTS-NEXT: Implicit_barrier_exit 6
// EE-EVENTS-NEXT: violations 0
// NONE-EVENTS: threads 2
// NONE-EVENTS-NEXT: violations 0
