#include <stdio.h>
#include "date.h"
int main(void) {
#pragma omp parallel
  {
#pragma omp single
    printf("%d\n", (int)sizeof built_on);
  }
  return 0;
}
