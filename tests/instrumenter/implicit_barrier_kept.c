// Constructs whose implicit barrier OpenMP forbids to replace by nowait + barrier keep it: a
// `loop` (Clang maps it to `for` inside a parallel region, but `loop` takes no nowait) and a
// worksharing loop with reduction(task, ...), also as the half of a split `parallel for`.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: pomp_ctc_[[L:[0-9]+]][] = "{{[0-9]+}}*type=loop*file={{[^*]*}}implicit_barrier_kept.c*slines=20,20*
#include <stdio.h>

int main(void) {
  int a[100];
  int s = 0, t = 0;
#pragma omp parallel
  {
    // CHECK: POMP_Loop_enter_notid(&pomp_handle_[[L]], -1, (int64_t)(0), ((int64_t)(100) - 1), 1, pomp_ctc_[[L]]);
    // CHECK-NEXT: #pragma omp loop{{$}}
    // CHECK-NEXT: for (int i = 0; i < 100; i++)
    // CHECK-NEXT: a[i] = i;{{$}}
    // CHECK-NEXT: POMP_Loop_exit_notid(pomp_handle_[[L]]);
#pragma omp loop
    for (int i = 0; i < 100; i++)
      a[i] = i;
    // CHECK: #pragma omp for reduction(task, + : s){{$}}
#pragma omp for reduction(task, + : s)
    for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : s)
      s += a[i];
    }
    // CHECK: } POMP_Loop_exit_notid(
  }
  // CHECK: #pragma omp for reduction(task, + : t){{$}}
#pragma omp parallel for reduction(task, + : t)
  for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : t)
    t += a[i];
  }
  printf("%d %d\n", s, t);
  return 0;
}

// Only the first parallel region's join barrier is made visible (the split keeps the for's own).
// EVENTS-LABEL: threads 2
// EVENTS: Loop_enter 6
// EVENTS-NEXT: Loop_exit 6
// EVENTS-NEXT: Implicit_barrier_enter 2
// EVENTS-NEXT: Implicit_barrier_exit 2
// EVENTS: violations 0
