/* A directive written as a C attribute, which gcc 12 ignores (with a warning) and Clang obeys,
   one in a project header too, and #pragma lines that both compilers obey (c_attributes.test). */
#include <stdio.h>
#include "count.h"

int main(void) {
  int threads = 0, singles = 0;
  [[omp::directive(parallel num_threads(2))]]
  {
#pragma omp atomic
    threads++;
  }
#pragma omp parallel num_threads(2)
  {
#pragma omp single
    singles++;
  }
  printf("threads %d singles %d counted %d\n", threads, singles, count_threads());
  return 0;
}
