/* compile_preamble.test: a header redefines a macro of the command line (-DLEVEL=1). */
#include <stdio.h>
#include "level.h"

int main(void) {
  int sum = 0;
#if LEVEL == 2
#pragma omp parallel for reduction(+ : sum)
#endif
  for (int i = 0; i < 10; ++i)
    sum += LEVEL;
  printf("level %d sum %d\n", LEVEL, sum);
  return 0;
}
