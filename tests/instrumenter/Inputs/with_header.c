/* Includes a header with OpenMP constructs (headers.test). */
#include "parallel_header.h"
int main(void) {
  int x = header_work(4);
#pragma omp parallel
  x += 0;
  return x == 4 ? 0 : 1;
}
