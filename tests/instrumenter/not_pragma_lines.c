// Constructs that are not `#pragma omp` lines of their own are left as they are, each with a
// warning at its file:line, and the output compiles and computes what the original does: a
// metadirective (each compiler chooses its variant itself) and a _Pragma operator in code.
// RUN: %ompinst %s -o %t.c 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %FileCheck %s < %t.c
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int s = 0;
  // WARN: not_pragma_lines.c:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: a metadirective's variant is chosen by each compiler itself
  // CHECK: #pragma omp metadirective when(user = {condition(1)} : parallel for reduction(+ : s)) default(parallel for reduction(+ : s)){{$}}
#pragma omp metadirective when(user = {condition(1)} : parallel for reduction(+ : s)) default(parallel for reduction(+ : s))
  for (int i = 0; i < 100; i++)
    s += i;
  // WARN: not_pragma_lines.c:[[@LINE+2]]:3: warning: OpenMP construct is not instrumented: written as a _Pragma operator, not a #pragma line
  // CHECK: _Pragma("omp parallel for reduction(+:s)") for (int i = 0; i < 10; i++){{$}}
  _Pragma("omp parallel for reduction(+:s)") for (int i = 0; i < 10; i++)
    s += i;
  // The constructs around and inside them are instrumented as usual.
#pragma omp parallel reduction(+ : s)
  s += 1;
  printf("%d\n", s > 4995);
  return 0;
}
// WARN: ompinst: {{.*}}not_pragma_lines.c: 1 OpenMP constructs instrumented (0 in headers); not instrumented: 0 in headers that cannot be rewritten, 0 produced by macros, 2 not written as #pragma lines
// EVENTS: Parallel_fork 1
// EVENTS: violations 0
