// A directive in the attribute syntax with a part Clang 19 ignores (here a reduction clause
// without its ':', "missing ':' after reduction identifier - ignoring") does not mean to Clang
// what its text says; as a #pragma line, gcc would reject it, while gcc 12 ignores the attribute
// in C altogether. ompinst leaves it as it is with a warning at its file:line, also under its own -w
// and a user's -Wno-everything, and instruments the rest.
// RUN: %ompinst %s -o %t.c -- -std=c2x -Wno-everything 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -std=c2x" --original %s --instrumented %t.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int a[100];
  int s = 0;
  // WARN: attribute_ignored_part.c:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax with a part Clang ignores
  // CHECK: {{^}}  {{\[\[}}omp::directive(parallel for reduction(+ s))]]{{$}}
  [[omp::directive(parallel for reduction(+ s))]]
  for (int i = 0; i < 100; i++)
    a[i] = i;
  // WARN-NOT: warning: OpenMP construct
  // CHECK: {{^ *}}#pragma omp for reduction(+ : s) nowait{{$}}
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < 100; i++)
    s += a[i];
  // "extra tokens at the end of '#pragma omp single' are ignored" is such a part too.
  // WARN: attribute_ignored_part.c:[[@LINE+3]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax with a part Clang ignores
  // WARN: attribute_ignored_part.c:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax with a part Clang ignores
  // CHECK: {{^}}  {{\[\[}}omp::sequence(directive(parallel reduction(+ : s)), directive(single single))]]{{$}}
  [[omp::sequence(directive(parallel reduction(+ : s)), directive(single single))]]
  { s += 1; }
  printf("%d\n", s);
  return 0;
}
// WARN: 1 OpenMP constructs instrumented (0 in headers); not instrumented: 0 in headers that cannot be rewritten, 0 produced by macros, 3 not written as #pragma lines
// EVENTS-LABEL: threads 2
// EVENTS-NEXT: Parallel_fork 1
// EVENTS: violations 0
