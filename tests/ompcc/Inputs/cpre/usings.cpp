// compile_preamble.test: C++ headers whose `using` declarations (std::abs, std::printf, ...) the
// debug information names as DW_TAG_imported_declaration.
#include <cstdio>
#include <cstdlib>
#include "value.h"

int main() {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i)
    sum += std::abs(twice(-i)) + VALUE;
  std::printf("sum %d\n", sum);
  return 0;
}
