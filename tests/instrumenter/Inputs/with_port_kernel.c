#include "port_kernel.h"
#include <stdio.h>

int main(void) {
  printf("%d\n", port_kernel(50));
  return 0;
}
