#include <stdio.h>

/* A run-time condition in a metadirective: Clang 19 rejects it ("expected expression"), gcc 12
   ignores the whole pragma, so the block runs serially with gcc. The parallel region after it is
   a construct of both. */
int main(int argc, char **argv) {
  int use_parallel = argc > 5;
  long sum = 0;
  (void)argv;
#pragma omp metadirective when(user = {condition(use_parallel)} : parallel)
  {
    for (int i = 0; i < 100; i++)
      sum += i;
  }
#pragma omp parallel reduction(+ : sum) num_threads(2)
  sum += 1;
  printf("sum %ld\n", sum - (sum > 4951 ? 1 : 0));
  return 0;
}
