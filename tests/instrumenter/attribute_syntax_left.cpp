// Attributes no `#pragma omp` line can replace are left as they are, each with a warning that says
// why at its file:line, and the output computes what the original does. Clang only: g++ 12 knows
// neither clang::nomerge nor metadirectives.
// RUN: %ompinst %s -o %t.cpp -- -std=c++17 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %FileCheck %s < %t.cpp
// RUN: %run-equivalence --only clang --gcc %gxx --clang %clangxx --flags "-O1 -std=c++17" --original %s --instrumented %t.cpp --threads 2 | %FileCheck --check-prefix=EVENTS %s
#include <cstdio>

#define ID(x) x
#define PARALLEL_ADD(s) [[omp::directive(parallel reduction(+ : s))]] s += 1;

static int s = 0;
static void add() { s += 1; }

int main() {
  // WARN: attribute_syntax_left.cpp:[[@LINE+2]]:20: warning: OpenMP construct is not instrumented: written in the attribute syntax together with other attributes in one {{\[\[}}...]]: the directive cannot be taken out of it
  // CHECK: {{^}}  {{\[\[}}omp::directive(parallel), clang::nomerge]] add();{{$}}
  [[omp::directive(parallel), clang::nomerge]] add();
  // WARN: attribute_syntax_left.cpp:[[@LINE+2]]:39: warning: OpenMP construct is not instrumented: written in the attribute syntax after other attributes or specifiers of its statement or declaration: a #pragma line cannot go there
  // CHECK: {{^}}  {{\[\[}}clang::nomerge]] {{\[\[}}omp::directive(parallel)]] add();{{$}}
  [[clang::nomerge]] [[omp::directive(parallel)]] add();
  // WARN: attribute_syntax_left.cpp:[[@LINE+1]]:23: warning: OpenMP construct is not instrumented: written inside a macro's argument: a #pragma line cannot go there
  ID([[omp::directive(parallel reduction(+ : s))]] s += 1;)
  // WARN: attribute_syntax_left.cpp:[[@LINE+1]]:3: warning: OpenMP construct is not instrumented: written in the attribute syntax in a macro's definition: the directive cannot be taken out of its expansion
  PARALLEL_ADD(s)
  // WARN: attribute_syntax_left.cpp:[[@LINE+2]]:{{[0-9]+}}: warning: OpenMP construct is not instrumented: a metadirective's variant is chosen by each compiler itself
  // CHECK: {{^}}  {{\[\[}}omp::directive(metadirective when(user = {condition(1)} : parallel reduction(+ : s)) otherwise(parallel reduction(+ : s)))]]{{$}}
  [[omp::directive(metadirective when(user = {condition(1)} : parallel reduction(+ : s)) otherwise(parallel reduction(+ : s)))]]
  s += 1;
  // The constructs around and inside them are instrumented as usual.
#pragma omp parallel reduction(+ : s)
  s += 1;
  std::printf("%d\n", s > 4);
  return 0;
}
// WARN: ompinst: {{.*}}attribute_syntax_left.cpp: 1 OpenMP constructs instrumented (0 in headers); not instrumented: 0 in headers that cannot be rewritten, 2 produced by macros, 3 not written as #pragma lines
// EVENTS: Parallel_fork 1
// EVENTS: violations 0
