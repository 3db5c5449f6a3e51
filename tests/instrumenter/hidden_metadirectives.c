// --hide-metadirectives: gcc before 15 ignores `metadirective` (an unknown pragma), and Clang 19
// rejects a run-time `user={condition(...)}` that gcc builds. With the option, ompinst parses the
// file as gcc compiles it: the metadirective lines are hidden from the parse, kept as they are in
// the output, each with a warning, and the constructs in their statements are instrumented.
// Without the option, Clang's error stands.
// RUN: not %ompinst %s -o %t.fail.c 2> %t.fail.err
// RUN: %FileCheck --check-prefix=FAIL %s < %t.fail.err
// RUN: not test -e %t.fail.c
// RUN: %ompinst --hide-metadirectives %s -o %t.c 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --only gcc --gcc %gcc --clang %clang --original %s --instrumented %t.c --threads 1,2 | %FileCheck --check-prefix=EVENTS %s
// FAIL: hidden_metadirectives.c:{{[0-9]+}}:{{[0-9]+}}: error:
// FAIL: not instrumented
#include <stdio.h>

int main(int argc, char **argv) {
  int use_parallel = argc > 5;
  (void)argv;
  long s = 0;
  // WARN: hidden_metadirectives.c:[[@LINE+3]]: warning: metadirective hidden from the parse: the real compiler ignores it
  // CHECK: {{^}}#pragma omp metadirective when(user = {condition(use_parallel)} : parallel for reduction(+ : s)) \{{$}}
  // CHECK-NEXT: {{^}}    otherwise(parallel for reduction(+ : s)){{$}}
#pragma omp metadirective when(user = {condition(use_parallel)} : parallel for reduction(+ : s)) \
    otherwise(parallel for reduction(+ : s))
  for (int i = 0; i < 100; i++)
    s += i;
  // The construct inside the hidden metadirective's statement is instrumented.
  // WARN: hidden_metadirectives.c:[[@LINE+2]]: warning: metadirective hidden
  // CHECK: {{^}}#pragma omp metadirective when(user = {condition(use_parallel)} : nothing){{$}}
#pragma omp metadirective when(user = {condition(use_parallel)} : nothing)
  {
    // CHECK: POMP_Parallel_fork_ctx_notid(
    // CHECK: {{^}}#pragma omp parallel reduction(+ : s)
#pragma omp parallel reduction(+ : s)
    s += 1;
  }
  // A pragma that only mentions the word is not hidden.
  // WARN-NOT: warning
  // CHECK: {{^}}#pragma omp critical(metadirective){{$}}
#pragma omp critical(metadirective)
  s += 0;
  // CHECK-NOT: __ompinst_hidden_omp__
  printf("%ld\n", s > 4950 ? 4950L : s);
  return 0;
}
// The loops of the hidden metadirectives run serially, as gcc compiles them: no loop events.
// EVENTS-LABEL: threads 1
// EVENTS-NOT: For_enter
// EVENTS: Parallel_fork 1
// EVENTS-NOT: For_enter
// EVENTS: Critical_begin 1
// EVENTS-NOT: For_enter
// EVENTS: violations 0
// EVENTS-LABEL: threads 2
// EVENTS-NOT: For_enter
// EVENTS: Parallel_fork 1
// EVENTS-NOT: For_enter
// EVENTS: violations 0
