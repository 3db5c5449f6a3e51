/* main in a file ompinst rejects (a misspelt POMP directive, line 8) but every compiler accepts
 * (unknown pragmas are ignored): compiled uninstrumented, so nothing calls POMP_Init. */
#include <stdio.h>

int work(int n);

int main(void) {
#pragma pomp inst begn(phase)
  int threads = 0;
#pragma omp parallel reduction(+ : threads)
  threads += 1;
  printf("work %d, threads %d\n", work(10), threads > 0);
  return 0;
}
