// parallel masked/master taskloop and their simd forms are not split (the halves' masked taskloop
// has no split form that keeps its semantics): fork and exit around the construct as a whole.
// clang-19 with libomp 19 runs no iteration of a masked or master taskloop (the plain program too),
// so the run-equivalence runs with gcc only; clang still compiles the output.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %clang -fopenmp -fsyntax-only -I %pomp_include %t.c
// RUN: %run-equivalence --only gcc --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=parallelmaskedtaskloop*file={{[^*]*}}parallel_taskloop.c*slines=21,21*
// CHECK-DAG: "{{[0-9]+}}*type=parallelmaskedtaskloop*file={{[^*]*}}parallel_taskloop.c*slines=27,27*
// CHECK-DAG: "{{[0-9]+}}*type=parallelmaskedtaskloop*file={{[^*]*}}parallel_taskloop.c*slines=31,31*
#include <stdio.h>

int main(void) {
  int a[100], b[100] = {0}, s = 0;
  // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_[[T:[0-9]+]],
  // CHECK-NEXT: #pragma omp parallel masked taskloop simd{{$}}
  // CHECK-NEXT: for (int i = 0; i < 100; i++)
  // CHECK-NEXT: a[i] = i;{{$}}
  // CHECK-NEXT: POMP_Parallel_exit_notid(pomp_handle_[[T]]);
#pragma omp parallel masked taskloop simd
  for (int i = 0; i < 100; i++)
    a[i] = i;
  // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_[[U:[0-9]+]],
  // CHECK-NEXT: #pragma omp parallel master taskloop simd{{$}}
  // CHECK: POMP_Parallel_exit_notid(pomp_handle_[[U]]);
#pragma omp parallel master taskloop simd
  for (int i = 0; i < 100; i++)
    b[i] += a[i];
  // CHECK: #pragma omp parallel masked taskloop reduction(+ : s){{$}}
#pragma omp parallel masked taskloop reduction(+ : s)
  for (int i = 0; i < 100; i++)
    s += b[i];
  printf("%d %d\n", b[99], s);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 3
// EVENTS-NEXT: Parallel_exit 3
// EVENTS: violations 0
