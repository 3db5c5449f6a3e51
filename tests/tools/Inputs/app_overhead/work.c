// A parallel loop repeated 20 times: bench/app_overhead.py times it.
#include <stdio.h>

int main(void) {
  double Sum = 0;
  for (int Rep = 0; Rep < 20; ++Rep) {
#pragma omp parallel for reduction(+ : Sum)
    for (int I = 0; I < 100000; ++I)
      Sum += I % 7;
  }
  printf("%.0f\n", Sum);
  return 0;
}
