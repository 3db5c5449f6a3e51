/* A program linked with the shared library; its own region runs before the library's. */
#include <stdio.h>
int shlib_threads(void);
int main(void) {
  int seen = 0;
#pragma omp parallel
  {
#pragma omp master
    seen = 1;
  }
  printf("library %d, program %d\n", shlib_threads() > 0, seen);
  return 0;
}
