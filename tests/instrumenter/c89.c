/* In C89 no statement may precede a declaration: begin events and POMP_Init() come after the
 * block's declarations, and the output compiles with -std=c89 -pedantic-errors.
 * RUN: %ompinst %s -o %t.c --no-line-directives -- -std=c89
 * RUN: %gcc -std=c89 -pedantic-errors -Wall -Wextra -Wno-unknown-pragmas -fopenmp -I %pomp_include -fsyntax-only %t.c
 * clang-19's own omp.h needs inline, so the run uses gnu89 (C89 plus GNU extensions).
 * RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --flags "-std=gnu89 -O1" --original %s --instrumented %t.c | %FileCheck %s
 * CHECK: Parallel_begin_forked 2
 * CHECK: violations 0
 */
#include <stdio.h>

int main(void) {
  int total = 0;
  int unused_later;
#pragma omp parallel reduction(+ : total)
  {
    int mine = 1;
    total += mine;
  }
  unused_later = 0;
  printf("total=%d\n", total + unused_later);
  return 0;
}
