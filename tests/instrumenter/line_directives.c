// With #line directives (the default) the compiler's diagnostics for the instrumented file point
// at the original file and line, also after lines were inserted.
// RUN: %ompinst %s -o %t.c
// RUN: %gcc -fopenmp -Wall -I %pomp_include -fsyntax-only %t.c 2>&1 | %FileCheck --check-prefix=GCC %s
// RUN: %clang -fopenmp -Wall -I %pomp_include -fsyntax-only %t.c 2>&1 | %FileCheck --check-prefix=CLANG %s
// RUN: %ompinst %s -o %t.nolines.c --no-line-directives
// RUN: not grep -q '^#line' %t.nolines.c
#include <stdio.h>

int main(void) {
  int total = 0;
#pragma omp parallel reduction(+ : total)
  {
#pragma omp for
    for (int i = 0; i < 10; i++)
      total += i;
#pragma omp barrier
    // GCC: line_directives.c:[[@LINE+2]]:9: warning: unused variable {{.*}}unused_after_constructs
    // CLANG: line_directives.c:[[@LINE+1]]:9: warning: unused variable 'unused_after_constructs'
    int unused_after_constructs;
  }
  printf("%d\n", total);
  return 0;
}
