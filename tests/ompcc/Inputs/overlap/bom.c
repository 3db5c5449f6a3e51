/* A byte-order mark first: ompinst keeps it before its own text. */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  printf("%d threads at line %d\n", n, __LINE__);
  return 0;
}
