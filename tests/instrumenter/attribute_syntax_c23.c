// C23 attributes: clang-19 takes `[[omp::directive(...)]]` in C (-std=c2x) as OpenMP 5.1 says,
// so ompinst rewrites it into pragma lines and instruments them as in C++. gcc 12 ignores the
// attribute in C (a warning), so the original built with gcc runs these loops serially: the
// instrumented file, all pragma lines, runs them in parallel with both compilers and must print
// the same (the reductions are exact).
// RUN: %ompinst %s -o %t.c -- -std=c2x 2> %t.err
// RUN: %FileCheck --check-prefix=WARN --allow-empty %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -std=c2x" --original %s --instrumented %t.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// WARN-NOT: warning
#include <stdio.h>

int main(void) {
  int s = 0;
  // CHECK: {{^ *}}#pragma omp for reduction(+ : s) nowait{{$}}
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < 100; i++)
    s += i;
  // CHECK: {{^}}#pragma omp single nowait{{$}}
  [[omp::sequence(directive(parallel reduction(+ : s)), directive(single))]]
  { s += 1; }
  printf("%d\n", s);
  return 0;
}
// EVENTS-LABEL: threads 2
// EVENTS-NEXT: Parallel_fork 2
// EVENTS: Single_enter 2
// EVENTS: violations 0

// ompcc with gcc as the real compiler passes --compiler-ignores-c-attributes
// (tests/ompcc/c_attributes.test): the attributes then stay as they are, with a warning per
// directive, so that the instrumented program runs them serially too. (After the code, so that
// the lines attribute_header.test checks stay where they are.)
// RUN: %ompinst --compiler-ignores-c-attributes %s -o %t.kept.c -- -std=c2x 2> %t.kept.err
// RUN: grep -c 'warning: OpenMP construct is not instrumented: written in the attribute syntax, which the real compiler ignores in C' %t.kept.err | %FileCheck --check-prefix=KEPT %s
// RUN: grep -v '^ *//' %t.kept.c | grep -c -e '\[\[omp::' | %FileCheck --check-prefix=KEPT-LINES %s
// KEPT: 3
// KEPT-LINES: 2
