// cancel and cancellation point: the event comes before the directive (an activated
// cancellation leaves the region), the if clause is evaluated once.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int evaluations = 0, found = 0;
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < 100; i++) {
      // CHECK: int pomp_if_[[C:[0-9]+]] = !!(i == 1000 && ++evaluations); POMP_Cancel_event_notid(&pomp_handle_[[C]], pomp_if_[[C]], pomp_ctc_[[C]]);
      // CHECK-NEXT: #pragma omp cancel for if(pomp_if_[[C]])
#pragma omp cancel for if(i == 1000 && ++evaluations)
      // CHECK: POMP_Cancellation_point_event_notid(&pomp_handle_[[P:[0-9]+]], pomp_ctc_[[P]]);
      // CHECK-NEXT: #pragma omp cancellation point for
#pragma omp cancellation point for
#pragma omp atomic
      found += 1;
    }
  }
  printf("found=%d evaluations=%d\n", found, evaluations);
  return 0;
}

// Cancellation is off by default (OMP_CANCELLATION), so nothing is cancelled.
// EVENTS-LABEL: threads 2
// EVENTS: Cancel_event 100
// EVENTS-NEXT: Cancellation_point_event 100
// EVENTS: violations 0
