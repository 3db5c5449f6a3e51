// Calls the header's kernels and run_b() of b.cpp, which calls them too (headers.test).
#include <cstdio>
#include "kern.hpp"
double run_b(int n);
int main() {
  double a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  kernel_scale(a, 100, 2.0);
  std::printf("%g %g\n", kernel_sum(a, 100), run_b(10));
  return 0;
}
