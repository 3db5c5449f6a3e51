// OpenMP 5.1's attribute syntax is not a `#pragma omp` line: each directive is left as it is,
// with a warning at its file:line, and the output compiles with g++ and clang++-19 and computes
// what the original does.
// RUN: %ompinst %s -o %t.cpp -- -std=c++17 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %FileCheck %s < %t.cpp
// RUN: %run-equivalence --gcc %gxx --clang %clangxx --flags "-O1 -std=c++17" --original %s --instrumented %t.cpp --threads 2 | %FileCheck --check-prefix=EVENTS %s
#include <cstdio>

int main() {
  int s = 0;
  // WARN: attribute_syntax.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax ({{\[\[omp::directive\]\]}}), not as a #pragma line
  // CHECK: {{^}}  {{\[\[}}omp::directive(parallel for reduction(+ : s))]]{{$}}
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < 100; i++)
    s += i;
  // WARN: attribute_syntax.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax
  // WARN: attribute_syntax.cpp:[[@LINE+1]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: written in the attribute syntax
  [[omp::sequence(directive(parallel), directive(single))]]
  { s += 1; }
#pragma omp parallel reduction(+ : s)
  s += 1;
  std::printf("%d\n", s > 4950);
  return 0;
}
// EVENTS: Parallel_fork 1
// EVENTS: violations 0
