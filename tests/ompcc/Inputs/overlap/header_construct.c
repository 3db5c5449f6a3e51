#include <stdio.h>
#include "construct.h"

int main(void) {
  printf("%d\n", count_threads() > 0);
  return 0;
}
