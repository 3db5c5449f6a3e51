// Prints something else when instrumented (ompinst defines _POMP): an output mismatch.
#include <stdio.h>

int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n = 1;
#ifdef _POMP
  printf("instrumented\n");
#else
  printf("plain\n");
#endif
  return n > 0 ? 0 : 1;
}
