#include "scale.h"

int scale(double *values, int count, double factor) {
  int threads = 0;
#pragma omp parallel
  {
    int i;
#pragma omp for
    for (i = 0; i < count; ++i)
      values[i] *= factor;
#pragma omp critical(count_threads)
    ++threads;
  }
  return threads;
}
