/* overlap.test: a compile that starts while ompinst instruments the file. The header warns while
 * the compile is still on its own (held back until ompinst's warning is out), the metadirective
 * gets ompinst's warning, line 16 the compile's own after the splice. */
#include <stdio.h>
#include "warn.h"

#ifdef _POMP
static const char *version = "instrumented";
#else
static const char *version = "plain";
#endif

int main(void) {
  int sum = 0;
  int big[2] = {1, 2};
  int unused;
#pragma omp metadirective when(user = {condition(1)} : parallel for reduction(+ : sum)) default(parallel for reduction(+ : sum))
  for (int i = 0; i < 10; ++i)
    sum += i;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; ++i)
    sum += twice(i);
  printf("%s sum %d %d %s:%d %d\n", version, sum, big[0], __FILE__, __LINE__, HEADER_LINE);
  return 0;
}
