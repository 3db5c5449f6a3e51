/* Uses a portability layer's macro only: no pragma in this header's own text. */
#ifndef PORT_KERNEL_H
#define PORT_KERNEL_H
#include "omp_portability.h"
static inline int port_kernel(int n) {
  int t = 0;
  OMP_PARALLEL_FOR_SUM(t)
  for (int i = 0; i < n; i++)
    t += 2;
  return t;
}
#endif
