/* A source with an OpenMP construct and an included header next to it. */
#include "par.h"

int par_sum(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += PAR_WEIGHT;
  return s;
}
