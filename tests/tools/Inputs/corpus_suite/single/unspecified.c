/*
 * Like the OpenMP Examples' programs with a data race on purpose, this one declares its output
 * unspecified: the runner does not count its different output as a mismatch.
 * @@expect:	unspecified
 */
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n = 1;
#ifdef _POMP
  printf("one output\n");
#else
  printf("another output\n");
#endif
  return n > 0 ? 0 : 1;
}
