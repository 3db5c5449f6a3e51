// critical (named, unbraced if/else body), barrier, atomic forms (event after the construct),
// flush, ordered (block form inside an ordered loop).
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: pomp_ctc_[[C:[0-9]+]][] = "{{[0-9]+}}*type=critical*name=update*file={{.*}}";
#include <stdio.h>

int main(void) {
  int count = 0, captured = 0, order = 0;
#pragma omp parallel
  {
    // CHECK: POMP_Critical_enter_notid(&pomp_handle_[[C]], pomp_ctc_[[C]]);
    // CHECK-NEXT: #pragma omp critical(update)
    // CHECK-NEXT: { POMP_Critical_begin_notid(pomp_handle_[[C]]); if (count >= 0) count++; else count--;{{$}}
    // CHECK-NEXT: POMP_Critical_end_notid(pomp_handle_[[C]]); }{{$}}
    // CHECK-NEXT: POMP_Critical_exit_notid(pomp_handle_[[C]]);
#pragma omp critical(update)
    if (count >= 0) count++; else count--;
    // CHECK: POMP_Barrier_enter_notid(&pomp_handle_[[B:[0-9]+]], pomp_ctc_[[B]]);
    // CHECK-NEXT: #pragma omp barrier
    // CHECK-NEXT: POMP_Barrier_exit_notid(pomp_handle_[[B]]);
#pragma omp barrier
    // CHECK: #pragma omp atomic
    // CHECK-NEXT: count += 2; POMP_Atomic_event_notid(&pomp_handle_[[A:[0-9]+]], pomp_ctc_[[A]]);
#pragma omp atomic
    count += 2;
    {
      int mine;
#pragma omp atomic capture
      mine = captured++;
      (void)mine;
    }
#pragma omp atomic update
    captured += 0;
    // CHECK: #pragma omp flush(count)
    // CHECK-NEXT: POMP_Flush_event_notid(&pomp_handle_[[F:[0-9]+]], pomp_ctc_[[F]]);
#pragma omp flush(count)
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 8; i++) {
      // CHECK: POMP_Ordered_enter_notid(&pomp_handle_[[O:[0-9]+]], pomp_ctc_[[O]]);
      // CHECK-NEXT: #pragma omp ordered
      // CHECK-NEXT: { POMP_Ordered_begin_notid(pomp_handle_[[O]]); order = order * 10 + i % 10; POMP_Ordered_end_notid(pomp_handle_[[O]]); }
      // CHECK-SAME: POMP_Ordered_exit_notid(pomp_handle_[[O]]);
#pragma omp ordered
      order = order * 10 + i % 10;
    }
  }
  printf("count=%d captured=%d order=%d\n", count, captured, order);
  return 0;
}

// EVENTS-LABEL: threads 4
// EVENTS: Critical_enter 4
// EVENTS-NEXT: Critical_begin 4
// EVENTS-NEXT: Critical_end 4
// EVENTS-NEXT: Critical_exit 4
// EVENTS: Barrier_enter 4
// EVENTS-NEXT: Barrier_exit 4
// EVENTS: Flush_event 4
// EVENTS-NEXT: Atomic_event 12
// EVENTS-NEXT: Ordered_enter 8
// EVENTS-NEXT: Ordered_begin 8
// EVENTS-NEXT: Ordered_end 8
// EVENTS-NEXT: Ordered_exit 8
// EVENTS: violations 0
