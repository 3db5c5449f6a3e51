// OpenMP directives from macros that expand to nothing but `_Pragma` operators (a portability
// layer's OMP(...) or OMP_PARALLEL_FOR): the invocation is rewritten into the pragma lines the
// operators hold, in order, and instrumented like them; the associated statement is the user's.
// Other pragmas in the expansion become pragma lines too. A macro whose expansion holds more (the
// associated statement) is left as it is, with a warning saying why at the invocation's file:line.
// RUN: %ompinst %s -o %t.c -- -I %S/Inputs 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -I %S/Inputs" --original %s --instrumented %t.c --threads 2,3 | %FileCheck --check-prefix=EVENTS %s
#include "omp_portability.h"
#include <stdio.h>

#define NT 2

int main(void) {
  int s = 0, t = 0;
  // CHECK: {{^}}  #pragma omp parallel num_threads(pomp_num_threads_{{[0-9]+}}) firstprivate(pomp_ctx_{{[0-9]+}}){{$}}
  // CHECK: {{^ *}}#pragma omp for reduction(+:s) nowait{{$}}
  // CHECK: {{^}}#line [[@LINE+2]]{{$}}
  // CHECK-NEXT: {{^}}                                                     for (int i = 0; i < 100; i++){{$}}
  OMP(parallel for reduction(+:s) num_threads(NT)) for (int i = 0; i < 100; i++)
    s += i;
  // CHECK: {{^}}  #pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}}){{$}}
  // CHECK: {{^ *}}#pragma omp for reduction(+ : t) nowait{{$}}
  OMP_PARALLEL_FOR_SUM(t)
  for (int i = 0; i < 10; i++)
    t += i;
  // Two pragmas become two lines; default(none) gets the handles as shared (s is a reduction: every
  // outer thread adds one through its nested single).
  // CHECK: {{^}}  #pragma omp parallel default(none) reduction(+ : s) firstprivate(pomp_ctx_{{[0-9]+}}) shared(
  OMP(parallel default(none) reduction(+ : s)) {
    // CHECK: {{^}}    #pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}}){{$}}
    // CHECK: {{^}}#pragma omp single nowait{{$}}
    // CHECK: {{^}}#line [[@LINE+1]]{{$}}
    OMP_PARALLEL_SINGLE
    s += 1;
    OMP_BARRIER
  }
  // WARN: pragma_macros.c:[[@LINE+1]]:3: warning: OpenMP construct is not instrumented: produced by a macro whose expansion holds more than _Pragma operators (the associated statement or other code): the directive cannot be taken out of it
  OMP_PARALLEL_DO(t += 1);
#pragma omp parallel reduction(+ : t)
  {
    // Every pragma of the expansion becomes a line, OpenMP's and others, in order.
    // CHECK: {{^}}    #pragma GCC diagnostic push{{$}}
    // CHECK-NEXT: {{^}}#line [[@LINE+3]]{{$}}
    // CHECK-NEXT: {{^}}#pragma GCC diagnostic ignored "-Wunused-variable"{{$}}
    // CHECK: {{^}}#pragma omp for nowait{{$}}
    OMP_FOR_NO_WARNINGS
    for (int i = 0; i < 4; i++)
      t += 1;
    OMP_END_NO_WARNINGS
  }
  printf("%d %d\n", s, t > 45);
  return 0;
}
// WARN: ompinst: {{.*}}pragma_macros.c: 8 OpenMP constructs instrumented (0 in headers); not instrumented: 0 in headers that cannot be rewritten, 1 produced by macros, 0 not written as #pragma lines
// The nested parallel region of OMP_PARALLEL_SINGLE runs once per thread of the outer one.
// EVENTS-LABEL: threads 2
// EVENTS-NEXT: Parallel_fork 6
// EVENTS-NEXT: Parallel_begin_forked 10
// EVENTS-NEXT: Parallel_end 10
// EVENTS-NEXT: Parallel_exit 6
// EVENTS-NEXT: Loop_enter 6
// EVENTS-NEXT: Loop_exit 6
// EVENTS-NEXT: Single_enter 2
// EVENTS-NEXT: Single_begin 2
// EVENTS-NEXT: Single_end 2
// EVENTS-NEXT: Single_exit 2
// EVENTS-NEXT: Barrier_enter 2
// EVENTS-NEXT: Barrier_exit 2
// EVENTS-NEXT: Implicit_barrier_enter 14
// EVENTS-NEXT: Implicit_barrier_exit 14
// EVENTS-NEXT: violations 0
// EVENTS-LABEL: threads 3
// EVENTS: violations 0
