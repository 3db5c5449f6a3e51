// omp_pause_resource[_all] go through wrappers at every level: after a hard pause libomp 19
// crashes in the next omp_get_thread_num() the instrumented code calls; the wrapper initialises
// the runtime again right after the pause. No handle, no event.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %ompinst %s -o %t.none.c --no-line-directives --level=runtime=none
// RUN: %strip-checks %t.none.c | %FileCheck --check-prefix=NONE %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  int s = 0;
#pragma omp parallel reduction(+ : s)
  s += 1;
  // CHECK: int (*pause)(omp_pause_resource_t) = POMP_Wrap_omp_pause_resource_all;
  int (*pause)(omp_pause_resource_t) = omp_pause_resource_all;
  // CHECK: POMP_Wrap_omp_pause_resource_all(omp_pause_hard);
  // NONE: POMP_Wrap_omp_pause_resource_all(omp_pause_hard);
  omp_pause_resource_all(omp_pause_hard);
#pragma omp parallel reduction(+ : s)
  s += 1;
  // CHECK: POMP_Wrap_omp_pause_resource(omp_pause_hard, omp_get_initial_device());
  omp_pause_resource(omp_pause_hard, omp_get_initial_device());
#pragma omp parallel reduction(+ : s)
  s += 1;
  pause(omp_pause_hard);
#pragma omp parallel reduction(+ : s)
  s += 1;
  printf("%d\n", s > 0);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 4
// EVENTS: violations 0
