// The preamble (the leading #include and #define lines) is precompiled; the code after it is
// parsed each time.
#include <cstdio>
#include <vector>
#include <omp.h>
#include "plain.h"
#define SCALE 2

int sum(const std::vector<int> &v) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += SCALE * v[i] + plain_offset();
  return s;
}

int main() {
  std::vector<int> v(100, 1);
  std::printf("%d %d\n", sum(v), omp_get_max_threads() > 0);
  return 0;
}
