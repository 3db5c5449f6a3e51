/* parallel_barrier.c - the cost of one parallel region and of one barrier.
 *
 * Times Repetitions empty parallel regions, and Repetitions barriers inside one region, and prints
 * the nanoseconds per construct (minimum over Trials trials, so that a descheduled trial does not
 * count). bench/ompt_overhead.py builds it plainly and with ompcc and runs it with no tool, OMPT
 * only, POMP only and both.
 *
 *     parallel_barrier [repetitions]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { DefaultRepetitions = 20000, Trials = 5 };

static volatile int Sink;

int main(int argc, char **argv) {
  const int Repetitions = argc > 1 ? atoi(argv[1]) : DefaultRepetitions;
  if (Repetitions <= 0) {
    fprintf(stderr, "usage: %s [repetitions > 0]\n", argv[0]);
    return 2;
  }
  double BestParallel = 1e30, BestBarrier = 1e30;
  for (int Trial = 0; Trial < Trials; ++Trial) {
    double Start = omp_get_wtime();
    for (int I = 0; I < Repetitions; ++I) {
#pragma omp parallel
      Sink = 1;
    }
    double Elapsed = omp_get_wtime() - Start;
    BestParallel = Elapsed < BestParallel ? Elapsed : BestParallel;

#pragma omp parallel
    {
      double Begin = omp_get_wtime();
      for (int I = 0; I < Repetitions; ++I) {
#pragma omp barrier
      }
      double Took = omp_get_wtime() - Begin;
#pragma omp master
      BestBarrier = Took < BestBarrier ? Took : BestBarrier;
    }
  }
  printf("parallel_ns %.1f\n", BestParallel * 1e9 / Repetitions);
  printf("barrier_ns %.1f\n", BestBarrier * 1e9 / Repetitions);
  return 0;
}
