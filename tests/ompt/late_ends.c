// libomp delivers a worker's implicit-barrier end and implicit-task end late: when the worker is
// woken for the next parallel region, and for the last region only at shutdown, after the
// program's sequential tail. The worker's regions still end with their team: no visit of a
// parallel body or of its join barrier lasts as long as the 300 ms the program sleeps between and
// after the regions.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/longest_visit.py %t.dir "parallel body" 100 | %FileCheck --check-prefix=BODY %s
// RUN: python3 %S/Inputs/longest_visit.py %t.dir "implicit barrier" 100 | %FileCheck --check-prefix=BARRIER %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE %s

#include <omp.h>
#include <stdio.h>
#include <time.h>

static void sleepMs(long Ms) {
  struct timespec T = {Ms / 1000, (Ms % 1000) * 1000000L};
  nanosleep(&T, NULL);
}

int main(void) {
  int Count = 0;
  for (int Round = 0; Round < 2; ++Round) {
#pragma omp parallel
    {
#pragma omp atomic
      Count++;
    }
    sleepMs(300);
  }
  printf("count %d\n", Count);
  return 0;
}

// OUT: count 4
// BODY: parallel body: within 100 ms
// BARRIER: implicit barrier: within 100 ms
// TREE:      parallel{{.*}} visits=2 threads=1
// TREE-NEXT:   parallel body{{.*}} visits=4 threads=2
// TREE:      anomalies: none
