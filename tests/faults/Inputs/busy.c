// The program of the fault tests (tests/faults): plain OpenMP, measured through OMPT (linked with
// libpomp) or instrumented by ompcc. Enough events for several MiB of trace per thread, a lot of
// buffered output (lost if the program died in its exit) and an exit status of its own.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { Lines = 2000, ExitStatus = 3 };

int main(int argc, char **argv) {
  const int Iterations = argc > 1 ? atoi(argv[1]) : 1000;
  long Sum = 0;
  // A lock per thread: many events, and no thread waits for the other on a loaded machine.
  omp_lock_t Locks[2];
  omp_init_lock(&Locks[0]);
  omp_init_lock(&Locks[1]);
#pragma omp parallel num_threads(2) reduction(+ : Sum)
  {
    omp_lock_t *Mine = &Locks[omp_get_thread_num()];
    for (int I = 0; I < Iterations; ++I) {
      omp_set_lock(Mine);
      Sum += I % 7;
      omp_unset_lock(Mine);
    }
  }
  omp_destroy_lock(&Locks[0]);
  omp_destroy_lock(&Locks[1]);
  for (int I = 0; I < Lines; ++I)
    printf("line %d of the program's output\n", I);
  printf("sum %ld\n", Sum);
  return ExitStatus;
}
