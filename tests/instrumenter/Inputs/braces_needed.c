/* deep_nesting.test: the first construct is followed by a label in its block (a jump to it could
   cross the helper variables), so it keeps braces of its own; the last one needs none from C99
   on. */
#include <stdio.h>
int main(void) {
  int s = 0, tries = 0;
  {
#pragma omp parallel reduction(+ : s)
    s += 1;
  again:
    if (tries < 3) {
      ++tries;
      goto again;
    }
  }
#pragma omp parallel reduction(+ : s)
  s += 1;
  printf("%d %d\n", s > 1, tries);
  return 0;
}
