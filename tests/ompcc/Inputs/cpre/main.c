/* compile_preamble.test: a preamble with a system header and a header of the project. */
#include <stdio.h>
#include "value.h"

int main(void) {
  int sum = 0, unused;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i)
    sum += twice(i) + VALUE;
  printf("sum %d at line %d in %s\n", sum, __LINE__, header_name());
  return 0;
}
