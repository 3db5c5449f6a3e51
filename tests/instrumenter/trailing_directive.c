// A loop or if whose last statement is itself a construct ends where that construct ends: the
// closing code of the enclosing construct goes after it, never onto its pragma line.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int x = 0, order = 0;
#pragma omp parallel
  for (int i = 0; i < 4; i++)
#pragma omp critical
    x++;
  // CHECK: #pragma omp critical{{$}}
  // CHECK-NEXT: { POMP_Critical_begin_notid({{.*}}); x++; POMP_Critical_end_notid({{.*}}); } POMP_Critical_exit_notid({{.*}}); }{{$}}
  // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(
#pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < 6; i++)
#pragma omp ordered
    order = order * 10 + i;
  printf("x=%d order=%d\n", x, order);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Critical_enter 8
// EVENTS: Ordered_enter 6
// EVENTS: violations 0
