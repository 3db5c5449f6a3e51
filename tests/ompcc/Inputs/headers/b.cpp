// The second translation unit that includes kern.hpp (headers.test).
#include "kern.hpp"
double run_b(int n) {
  double a[10];
  for (int i = 0; i < n; i++)
    a[i] = 1;
  kernel_scale(a, n, 3.0);
  return kernel_sum(a, n);
}
