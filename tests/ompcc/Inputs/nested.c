/* A GNU C nested function: gcc compiles it, Clang (and so ompinst) rejects it. */
#include <stdio.h>

int main(void) {
  int base = 40;
  int add(int x) { return base + x; }
  int total = 0;
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < 2; ++i)
    total += add(1) - 40;
  printf("%d\n", base + total);
  return 0;
}
