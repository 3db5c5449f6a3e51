// A header-only kernel written with the attribute syntax and a portability macro.
#pragma once
#define KERNEL_PARALLEL_FOR_S _Pragma("omp parallel for reduction(+ : s)")
inline int kernel(int n) {
  int s = 0;
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < n; i++)
    s += i;
  KERNEL_PARALLEL_FOR_S
  for (int i = 0; i < n; i++)
    s += 1;
  return s;
}
