/* main without OpenMP: gets POMP_Init/POMP_Finalize only. */
#include <stdio.h>
int plain_twice(int x);
int par_sum(int n);
int main(void) {
  printf("%d %d\n", plain_twice(21), par_sum(10));
  return 0;
}
