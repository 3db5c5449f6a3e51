// Tricky shapes a text-based instrumenter gets wrong: unbraced bodies that are if/else, do/while
// or loops, a construct as the unbraced body of an if, pragmas continued over lines or ending in
// a comment, pragmas under #if, and a construct a macro produces (left alone with a warning).
// RUN: %ompinst %s -o %t.c --no-line-directives 2> %t.err
// RUN: %FileCheck --check-prefix=WARN %s < %t.err
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

#define PARALLEL_INCREMENT(x) _Pragma("omp parallel") { _Pragma("omp atomic") x++; }

int main(int argc, char **argv) {
  int a = 0, b = 0, c = 0, d = 0, e = 0;
  (void)argv;
  // CHECK: #pragma omp parallel reduction(+ : a) firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: { POMP_Parallel_begin_forked_notid({{.*}}); if (argc > 0) a += 1; else a -= 1;{{$}}
  // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(
#pragma omp parallel reduction(+ : a)
  if (argc > 0) a += 1; else a -= 1;

  // CHECK: #pragma omp parallel reduction(+ : b) firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: { POMP_Parallel_begin_forked_notid({{.*}}); do {
#pragma omp parallel reduction(+ : b)
  do {
    b += 1;
  } while (0);

  // A construct that is the unbraced body of an if stays one statement.
  // CHECK: if (argc > 0)
  // CHECK-NEXT: { POMP_Context_t
  if (argc > 0)
#pragma omp parallel \
    reduction(+ : c) /* a comment */
    for (int i = 0; i < 3; i++)
      c += 1;
  else
    c = -1;

#if 1
#pragma omp parallel reduction(+ : d) // a trailing comment
  d += 1;
#else
#pragma omp parallel reduction(- : d)
  d -= 1;
#endif

  // The macro holds the constructs' statements: neither directive can be taken out of it.
  // WARN: shapes.c:[[@LINE+2]]:3: warning: OpenMP construct is not instrumented: produced by a macro whose expansion holds more than _Pragma operators (the associated statement or other code)
  // WARN: shapes.c:[[@LINE+1]]:3: warning: OpenMP construct is not instrumented: produced by a macro whose expansion holds more than _Pragma operators
  PARALLEL_INCREMENT(e);
  printf("a=%d b=%d c=%d d=%d e=%d\n", a, b, c, d, e);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 4
// EVENTS-NEXT: Parallel_begin_forked 8
// EVENTS: violations 0
