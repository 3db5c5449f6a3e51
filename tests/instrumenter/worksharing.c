// sections (numbered sections, the first without its directive), single (with and without
// copyprivate: copyprivate keeps its own barrier), master and masked.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int a = 0, b = 0, c = 0, shared_value = 0;
#pragma omp parallel firstprivate(c)
  {
    // CHECK: POMP_Sections_enter_notid(&pomp_handle_[[S:[0-9]+]], pomp_ctc_[[S]]);
    // CHECK-NEXT: #pragma omp sections nowait
#pragma omp sections
    {
      // CHECK: { POMP_Section_begin_notid(pomp_handle_[[S]], 1); a = 1; POMP_Section_end_notid(pomp_handle_[[S]]); }
      a = 1;
#pragma omp section
      // CHECK: { POMP_Section_begin_notid(pomp_handle_[[S]], 2); b = 2; POMP_Section_end_notid(pomp_handle_[[S]]); }
      b = 2;
    }
    // CHECK: #pragma omp barrier
    // CHECK-NEXT: POMP_Implicit_barrier_exit_notid({{.*}}); POMP_Sections_exit_notid(pomp_handle_[[S]]);

    // CHECK: POMP_Single_enter_notid(&pomp_handle_[[SI:[0-9]+]], pomp_ctc_[[SI]]);
    // CHECK-NEXT: #pragma omp single nowait
#pragma omp single
    // CHECK-NEXT: { POMP_Single_begin_notid(pomp_handle_[[SI]]); shared_value = a + b; POMP_Single_end_notid(pomp_handle_[[SI]]); }
    shared_value = a + b;

    // CHECK: #pragma omp single copyprivate(c){{$}}
#pragma omp single copyprivate(c)
    c = shared_value * 10;
    // CHECK-NEXT: { POMP_Single_begin_notid({{.*}}); c = shared_value * 10; POMP_Single_end_notid({{.*}}); } POMP_Single_exit_notid({{.*}});

    // CHECK: #pragma omp master
    // CHECK-NEXT: { POMP_Master_begin_notid(&pomp_handle_[[M:[0-9]+]], pomp_ctc_[[M]]); a += c; POMP_Master_end_notid(pomp_handle_[[M]]); }
#pragma omp master
    a += c;
#pragma omp barrier
    // CHECK: #pragma omp masked filter(0)
    // CHECK-NEXT: { POMP_Masked_begin_notid(&pomp_handle_[[K:[0-9]+]], -1, pomp_ctc_[[K]]);
#pragma omp masked filter(0)
    {
      b += c;
    }
  }
  printf("a=%d b=%d value=%d\n", a, b, shared_value);
  return 0;
}

// Implicit barriers: sections, single without copyprivate and the parallel region's end.
// EVENTS-LABEL: threads 2
// EVENTS: Sections_enter 2
// EVENTS-NEXT: Section_begin 2
// EVENTS-NEXT: Section_end 2
// EVENTS-NEXT: Sections_exit 2
// EVENTS-NEXT: Single_enter 4
// EVENTS-NEXT: Single_begin 2
// EVENTS-NEXT: Single_end 2
// EVENTS-NEXT: Single_exit 4
// EVENTS: Master_begin 1
// EVENTS-NEXT: Master_end 1
// EVENTS-NEXT: Masked_begin 1
// EVENTS-NEXT: Masked_end 1
// EVENTS: Barrier_enter 2
// EVENTS-NEXT: Barrier_exit 2
// EVENTS-NEXT: Implicit_barrier_enter 6
// EVENTS-NEXT: Implicit_barrier_exit 6
// EVENTS-NEXT: violations 0
