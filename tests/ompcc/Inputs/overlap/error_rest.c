/* A genuine error on line 9, after the #include block: ompinst reports it and nothing is
 * compiled, with the overlap as without it. */
#include <stdio.h>

int bad(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += i
  return s;
}
