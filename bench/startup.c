/* startup_cost.py's program: one parallel region, so that a run is mostly the process's start and
   end with the OpenMP runtime (and libpomp) in it. It writes a global: clang-19 -O2 deletes a
   parallel region without side effects. */
#include <omp.h>
#include <stdio.h>

int ThreadsSeen;

int main(void) {
#pragma omp parallel
  {
#pragma omp atomic
    ThreadsSeen++;
  }
  printf("%d\n", ThreadsSeen > 0);
  return 0;
}
