// Function instrumentation: Function_begin at the start of each selected body, Function_end on
// every way out, after a returned value is computed; --function-filter selects by name.
// RUN: %ompinst %s -o %t.c --no-line-directives --functions
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %ompinst %s -o %t.filtered.c --no-line-directives --function-filter='^sq'
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --original %s --instrumented %t.filtered.c | %FileCheck --check-prefix=FILTERED %s
// RUN: not %ompinst %s -o %t.bad.c --function-filter='(' 2>&1 | %FileCheck --check-prefix=BAD-FILTER %s
// BAD-FILTER: error: invalid function filter '('
#include <stdio.h>

static int calls;

static int next_call(void) { return __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED); }

// CHECK: static int square(int x) { POMP_Function_begin_notid(&pomp_handle_[[S:[0-9]+]], pomp_ctc_[[S]]);
static int square(int x) {
  if (x < 0)
    // CHECK: { POMP_Function_end_notid(pomp_handle_[[S]]); return -x * -x; }
    return -x * -x;
  // CHECK: { __typeof__(x * next_call() * 0 + x * x) pomp_function_result = (x * next_call() * 0 + x * x); POMP_Function_end_notid(pomp_handle_[[S]]); return pomp_function_result; }
  return x * next_call() * 0 + x * x;
}

static void count(void) { next_call(); }

static void twice(void) {
  count();
  // CHECK: { count(); POMP_Function_end_notid(pomp_handle_{{[0-9]+}}); return; }
  return count();
}

int main(void) {
  int sum = 0;
#pragma omp parallel reduction(+ : sum)
  sum += square(3) + square(-2);
  twice();
  printf("sum=%d calls=%d\n", sum, calls);
  return 0;
}

// square 4 times, next_call twice from it and twice from count, count twice, twice once.
// EVENTS: Function_begin 11
// EVENTS-NEXT: Function_end 11
// EVENTS-NEXT: violations 0
// FILTERED: Function_begin 4
// FILTERED-NEXT: Function_end 4
// FILTERED-NEXT: violations 0
