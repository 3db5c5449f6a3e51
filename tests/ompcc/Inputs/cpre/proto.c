/* compile_preamble.test: a warning in a header of the preamble, given after it (the definition
   conflicts with the header's declaration). */
#include <stdio.h>
#include "proto.h"

void later(x) int x; { printf("%d\n", x); }

int main(void) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4; ++i)
    s += i;
  later(s);
  return 0;
}
