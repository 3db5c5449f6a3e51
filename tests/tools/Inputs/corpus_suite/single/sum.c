// A race-free sum: the same output plain and instrumented, one executed site.
#include <stdio.h>

int main(void) {
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 1; i <= 100; i++)
    sum += i;
  printf("sum %ld\n", sum);
  return 0;
}
