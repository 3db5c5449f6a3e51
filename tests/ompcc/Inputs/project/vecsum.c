#include "vecsum.h"

double vecsum(const double *values, int count) {
  double sum = 0.0;
  int i;
#pragma omp parallel for reduction(+ : sum)
  for (i = 0; i < count; ++i)
    sum += values[i];
  return sum;
}
