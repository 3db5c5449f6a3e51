/* OMPCC_INPROCESS=1 (inprocess.test): a construct and, on line 8, a warning of the compile itself,
 * which must name this file and line. */
#include <stdio.h>

int main(void) {
  int sum = 0;
  int big[2] = {1, 2};
  int unused;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i) {
    sum += i;
  }
  printf("sum %d %d\n", sum, big[0]);
  return 0;
}
