#include <stdio.h>

int main(void) {
  int s = 0;
#ifdef OMP_OFFLOAD
  int size = 4;
#pragma omp target data map(tofrom : s) map(to : size)
  {

#pragma omp target
#endif
    for (int i = 0; i < 4; ++i) {
#pragma omp parallel for reduction(+ : s)
      for (int j = 0; j < 4; ++j)
        s += j;
    }
#ifdef OMP_OFFLOAD
  }
#endif
  printf("%d\n", s);
  return 0;
}
