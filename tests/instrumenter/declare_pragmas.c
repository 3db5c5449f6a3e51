// Pragmas attached to the next declaration (declare variant, declare simd, ...) stay right before it:
// the prologue with the handles goes before them when the declaration holds the first construct.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int f_v(int x) { return x + 1; }

// CHECK: static const char pomp_ctc_1[]
// CHECK-NOT: #pragma
// CHECK: #pragma omp declare variant(f_v) \
// CHECK-NEXT: match(construct = {parallel})
// CHECK-NEXT: int f(int x) {
#pragma omp declare variant(f_v) \
    match(construct = {parallel})
int f(int x) {
  int s = 0;
#pragma omp parallel reduction(+ : s)
  s += x;
  return s > 0;
}

int main(void) {
  int s = 0;
#pragma omp parallel reduction(+ : s) num_threads(2)
  s += f(1);
  printf("%d %d\n", f(1), s);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 2
// EVENTS: violations 0
