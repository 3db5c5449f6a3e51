/* Two parallel regions and a barrier, nothing else: the program of loading_modes.test. */
#include <omp.h>
#include <stdio.h>

int main(void) {
  int Count = 0;
  for (int Round = 0; Round < 2; ++Round) {
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
#pragma omp atomic
      Count++;
    }
  }
  printf("count %d\n", Count);
  return 0;
}
