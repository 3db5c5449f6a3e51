// A GNU nested function: gcc builds it, Clang cannot parse it, so ompcc over gcc compiles it
// uninstrumented, and with main in it the program writes no profile.
#include <stdio.h>

int main(void) {
  int total = 0;
  int twice(int x) { return 2 * x; }
#pragma omp parallel for reduction(+ : total)
  for (int i = 0; i < 4; i++)
    total += twice(i);
  printf("total %d\n", total);
  return 0;
}
