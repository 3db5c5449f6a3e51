// Fails in every build: bench/app_overhead.py reports why and times nothing.
#include <stdio.h>

int main(void) {
  int Threads = 0;
#pragma omp parallel
#pragma omp single
  Threads = 1;
  fprintf(stderr, "input file missing\n");
  return 3 + Threads - 1;
}
