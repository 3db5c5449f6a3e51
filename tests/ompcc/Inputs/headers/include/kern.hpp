// A header-only kernel library as miniFE keeps its kernels: a template and an inline function
// with OpenMP constructs, included by two translation units (headers.test).
#pragma once
#include "util.h"
template <typename T> T kernel_sum(const T *a, int n) {
  T s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}
inline void kernel_scale(double *a, int n, double f) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    a[i] = util_scale(a[i], f);
}
