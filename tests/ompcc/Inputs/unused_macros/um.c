/* unused_macros.test: a macro of the preamble nobody uses, and the instrumented text's _POMP. */
#define NEVER_USED 1
#include <stdio.h>

int main(void) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < 4; ++i)
    s += i;
  printf("%d\n", s);
  return 0;
}
