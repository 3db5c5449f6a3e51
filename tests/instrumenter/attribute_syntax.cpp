// OpenMP 5.1's attribute syntax means what the equivalent `#pragma omp` lines mean: ompinst
// rewrites each attribute-specifier into those lines, with #line so every line keeps its number
// (also with --no-line-directives: the CTC lines depend on them), and instruments them like any
// pragma. The output compiles with g++ and clang++-19 and computes what the original does.
// RUN: %ompinst %s -o %t.cpp --no-line-directives -- -std=c++17 2> %t.err
// RUN: %FileCheck --check-prefix=WARN --allow-empty %s < %t.err
// RUN: %strip-checks %t.cpp | %FileCheck %s
// RUN: %FileCheck --check-prefix=CTC %s < %t.cpp
// RUN: %run-equivalence --gcc %gxx --clang %clangxx --flags "-O1 -std=c++17" --original %s --instrumented %t.cpp --threads 2,3 | %FileCheck --check-prefix=EVENTS %s
// WARN-NOT: warning
#include <cstdio>

// Declarative directives become their pragma lines, right before the declaration; all the
// attributes of a declaration are rewritten (g++ rejects a declaration with both syntaxes).
// CHECK: {{^}}#pragma omp declare simd simdlen(4){{$}}
// CHECK-NEXT: {{^}}#line [[@LINE+3]]{{$}}
// CHECK: {{^}}#pragma omp declare simd simdlen(8){{$}}
// CHECK-NEXT: {{^}}#line [[@LINE+2]]{{$}}
[[omp::directive(declare simd simdlen(4))]]
[[omp::directive(declare simd simdlen(8))]]
int twice(int x) { return 2 * x; }

int main() {
  int s = 0, c = 1;
  // CTC: type=parallelfor*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+5]],[[@LINE+5]]*elines=[[@LINE+7]],[[@LINE+7]]*hasReduction=1*function={{[^*]+}}**"
  // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_1,
  // CHECK-NEXT: {{^}}  #pragma omp parallel firstprivate(pomp_ctx_1){{$}}
  // CHECK: {{^}}#pragma omp for reduction(+ : s) nowait{{$}}
  // CHECK-NEXT: {{^}}#line [[@LINE+1]]{{$}}
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < 100; i++)
    s += twice(i);
  // A sequence becomes one pragma line per directive, in order.
  // CHECK: {{^}}  #pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}}){{$}}
  // CHECK: {{^}}#pragma omp single nowait{{$}}
  // CTC: type=parallel*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+2]],[[@LINE+2]]*elines=[[@LINE+3]],[[@LINE+3]]*function={{[^*]+}}**"
  // CTC: type=single*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function={{[^*]+}}**"
  [[omp::sequence(directive(parallel), omp::directive(single))]]
  { s += 1; }
  // After an if or else, and with a statement on the same line (it keeps its line and column);
  // default(none) gets the handles as shared.
  // CHECK: shared(c) firstprivate(pomp_ctx_{{[0-9]+}}) shared(pomp_handle_{{[0-9]+}}, pomp_ctc_{{[0-9]+}}, pomp_handle_{{[0-9]+}}, pomp_ctc_{{[0-9]+}}){{$}}
  // CTC: type=parallel*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*hasReduction=1*function={{[^*]+}}**"
  if (c) [[omp::directive(parallel reduction(+ : s) default(none) shared(c))]] s += c;
  else
    [[using omp: directive(single)]] s += 2;
  // Standalone directives, and constructs nested in a construct written as an attribute.
  // CHECK: POMP_Barrier_enter_notid(
  // CHECK: POMP_Critical_enter_notid(
  [[omp::directive(parallel)]] {
    // CTC: type=barrier*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function={{[^*]+}}**"
    [[omp::directive(barrier)]];
    [[omp::directive(critical)]] s += 1;
  }
  // A directive written over several lines keeps them.
  // CHECK: {{^}}#pragma omp for reduction(+:s) nowait{{$}}
  // CTC: type=for*file={{[^*]*}}attribute_syntax.cpp*slines=[[@LINE+1]],[[@LINE+2]]*elines=[[@LINE+3]],[[@LINE+3]]*hasReduction=1*afterConstruct=1*function={{[^*]+}}**"
  [[omp::directive(parallel
                   for reduction(+:s)) /* comment */]]
  for (int i = 0; i < 3; i++) s += i;
  std::printf("%d\n", s);
  return 0;
}
// EVENTS-LABEL: threads 2
// EVENTS-NEXT: Parallel_fork 5
// EVENTS-NEXT: Parallel_begin_forked 10
// EVENTS-NEXT: Parallel_end 10
// EVENTS-NEXT: Parallel_exit 5
// EVENTS-NEXT: Loop_enter 4
// EVENTS-NEXT: Loop_exit 4
// EVENTS-NEXT: Single_enter 2
// EVENTS-NEXT: Single_begin 1
// EVENTS-NEXT: Single_end 1
// EVENTS-NEXT: Single_exit 2
// EVENTS-NEXT: Critical_enter 2
// EVENTS-NEXT: Critical_begin 2
// EVENTS-NEXT: Critical_end 2
// EVENTS-NEXT: Critical_exit 2
// EVENTS-NEXT: Barrier_enter 2
// EVENTS-NEXT: Barrier_exit 2
// EVENTS-NEXT: Implicit_barrier_enter 12
// EVENTS-NEXT: Implicit_barrier_exit 12
// EVENTS-NEXT: violations 0
// EVENTS-LABEL: threads 3
// EVENTS: Parallel_fork 5
// EVENTS: violations 0
