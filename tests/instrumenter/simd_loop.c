// simd, for simd, loop, distribute-free host loops: Loop events around the construct and nothing
// inside a simd body.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=simd*
// CHECK-DAG: "{{[0-9]+}}*type=forsimd*
#include <stdio.h>

int main(void) {
  float a[64], b[64], dot = 0.0f, dot2 = 0.0f;
  for (int i = 0; i < 64; i++) {
    a[i] = (float)i;
    b[i] = 2.0f;
  }
  // CHECK: POMP_Loop_enter_notid(&pomp_handle_[[S:[0-9]+]], -1, (int64_t)(0), ((int64_t)(64) - 1), 1, pomp_ctc_[[S]]);
  // CHECK-NEXT: #pragma omp simd reduction(+ : dot)
  // CHECK-NEXT: for (int i = 0; i < 64; i++)
  // CHECK-NEXT: dot += a[i] * b[i];{{$}}
  // CHECK-NEXT: POMP_Loop_exit_notid(pomp_handle_[[S]]);
#pragma omp simd reduction(+ : dot)
  for (int i = 0; i < 64; i++)
    dot += a[i] * b[i];
#pragma omp parallel
  {
    // CHECK: #pragma omp for simd reduction(+ : dot2) nowait
    // CHECK-NEXT: for (int i = 0; i < 64; i++) {
    // CHECK-NEXT: dot2 += a[i];
    // CHECK-NEXT: } POMP_Implicit_barrier_enter
#pragma omp for simd reduction(+ : dot2)
    for (int i = 0; i < 64; i++) {
      dot2 += a[i];
    }
  }
  printf("dot=%.1f dot2=%.1f\n", dot, dot2);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Loop_enter 3
// EVENTS-NEXT: Loop_exit 3
// EVENTS: violations 0
