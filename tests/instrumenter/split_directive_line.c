// The worksharing half of a split combined construct stands where the user's directive stands: a
// #line directive and the directive's indentation put its pragma at the directive's line and
// column, so the code the compiler makes for it (the loop's runtime calls and their debug
// locations, a "loop not vectorized" warning) is located there, as in a plain compile. Before, the
// pragma took the line after the instrumentation's own (two below the directive, column 1).
// With --no-line-directives nothing is added (combined.c).
// RUN: %ompinst %s -o %t.c
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int Sum = 0, X = 0, Y = 0;
  if (Sum == 0) {
    // CHECK: {{^}}#line [[#@LINE+3]] "{{.*}}split_directive_line.c"
    // CHECK-NEXT: {{^    }}#pragma omp parallel num_threads(pomp_num_threads_{{[0-9]+}}) firstprivate(pomp_ctx_{{[0-9]+}})
    // CHECK-NEXT: { int pomp_join_{{[0-9]+}}; POMP_Parallel_begin_forked_notid({{.*}}); { POMP_Loop_enter_notid({{.*}});
    #pragma omp parallel for num_threads(2) reduction(+ : Sum)
    // CHECK-NEXT: {{^}}#line [[#@LINE-1]] "{{.*}}split_directive_line.c"
    // CHECK-NEXT: {{^    }}#pragma omp for reduction(+ : Sum) nowait{{$}}
    for (int I = 0; I < 100; I++)
      Sum += I;
  }
  // CHECK: {{^}}#line [[#@LINE+2]] "{{.*}}split_directive_line.c"
  // CHECK-NEXT: {{^}}#pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}})
#pragma omp parallel sections
  {
    // CHECK: {{^}}#line [[#@LINE-2]] "{{.*}}split_directive_line.c"
    // CHECK-NEXT: {{^}}#pragma omp sections nowait{{$}}
#pragma omp section
    X = 1;
#pragma omp section
    Y = 2;
  }
  printf("%d %d %d\n", Sum, X, Y);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 2
// EVENTS-NEXT: Parallel_begin_forked 4
// EVENTS-NEXT: Parallel_end 4
// EVENTS-NEXT: Parallel_exit 2
// EVENTS-NEXT: Loop_enter 2
// EVENTS-NEXT: Loop_exit 2
// EVENTS-NEXT: Sections_enter 2
// EVENTS-NEXT: Section_begin 2
// EVENTS-NEXT: Section_end 2
// EVENTS-NEXT: Sections_exit 2
// EVENTS-NEXT: Implicit_barrier_enter 4
// EVENTS-NEXT: Implicit_barrier_exit 4
// EVENTS-NEXT: violations 0
