// The make-built program: main.c is instrumented, helper.c is compiled with
// OMPCC_PASSTHROUGH=1 (not instrumented, no warning), util.c has nothing to instrument.
#include <stdio.h>

int helper(int n);
int util_square(int n);

int main(void) {
  int hits = 0;
#pragma omp parallel reduction(+ : hits)
  hits = 1;
  printf("hits>0 %d helper %d square %d\n", hits > 0, helper(10), util_square(3));
  return 0;
}
