/* A #pragma pomp ompinst rejects: the instrumentation fails, nothing is compiled. */
#include <stdio.h>

int main(void) {
#pragma pomp inst end(never_begun)
  printf("hello\n");
  return 0;
}
