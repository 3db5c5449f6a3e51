// A `_Pragma("omp ...")` operator written in code means what its `#pragma omp` line means: ompinst
// rewrites it into that line (with #line, so every line keeps its number) and instruments it. A
// metadirective is left as it is with a warning at its file:line (each compiler chooses its
// variant itself), and the output compiles and computes what the original does.
// RUN: %ompinst %s -o %t.c 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int s = 0;
  // WARN: not_pragma_lines.c:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: a metadirective's variant is chosen by each compiler itself
  // CHECK: #pragma omp metadirective when(user = {condition(1)} : parallel for reduction(+ : s)) default(parallel for reduction(+ : s)){{$}}
#pragma omp metadirective when(user = {condition(1)} : parallel for reduction(+ : s)) default(parallel for reduction(+ : s))
  for (int i = 0; i < 100; i++)
    s += i;
  // Also when the chosen variant starts on a continuation line of the pragma.
  // WARN: not_pragma_lines.c:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: a metadirective's variant is chosen by each compiler itself
#pragma omp metadirective when(user = {condition(0)} : parallel for reduction(+ : s)) \
    default(parallel for reduction(+ : s))
  for (int i = 0; i < 100; i++)
    s -= i;
  // WARN-NOT: not_pragma_lines.c:[[@LINE+7]]
  // CHECK: POMP_Parallel_fork_ctx_notid(
  // CHECK-NEXT: #line [[@LINE+5]] "{{.*}}not_pragma_lines.c"
  // CHECK-NEXT: {{^}}  #pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}}){{$}}
  // CHECK: {{^ *}}#pragma omp for reduction(+:s) nowait{{$}}
  // CHECK: {{^}}#line [[@LINE+2]]{{$}}
  // CHECK-NEXT: {{^}}                                           for (int i = 0; i < 10; i++){{$}}
  _Pragma("omp parallel for reduction(+:s)") for (int i = 0; i < 10; i++)
    s += i;
  // A construct with a name, and a standalone directive.
  // CHECK: {{^}}    #pragma omp critical(name){{$}}
#pragma omp parallel reduction(+ : s)
  {
    _Pragma("omp critical(name)") s += 1;
    _Pragma("omp barrier")
  }
  printf("%d\n", s > 4995);
  return 0;
}
// WARN: ompinst: {{.*}}not_pragma_lines.c: 4 OpenMP constructs instrumented (0 in headers); not instrumented: 0 in headers that cannot be rewritten, 0 produced by macros, 2 not written as #pragma lines
// EVENTS: Parallel_fork 2
// EVENTS: Critical_enter 2
// EVENTS: Barrier_enter 2
// EVENTS: violations 0
