/* headers.test: count.h is included here and by b.c. */
#include <stdio.h>
#include "count.h"
int from_b(void);
int main(void) {
  printf("%d %d\n", count_threads() > 0, from_b() > 0);
  return 0;
}
