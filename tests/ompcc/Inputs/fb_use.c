/* An instrumented program using a library with one instrumented and one uninstrumented unit. */
#include <stdio.h>

int work(int n);
int broken(int n);

int main(void) {
  printf("work %d, broken %d\n", work(10), broken(10));
  return 0;
}
