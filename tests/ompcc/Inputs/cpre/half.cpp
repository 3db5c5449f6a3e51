// compile_preamble.test: a warning in a header of the preamble, given where the main file
// instantiates its template.
#include <cstdio>
#include "half.hpp"

int main() {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4; ++i)
    s += i;
  std::printf("%d\n", s > 100 ? broken_half(s) : s);
  return 0;
}
