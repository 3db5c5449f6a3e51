// A worker between two parallel regions has nothing open below its implicit task, and libomp
// delivers the task's end late, at the next fork: the worker then charges its regions later, in
// batches, when its master's log of team ends has a finished line (seven teams' ends to a cache
// line, eight lines; core/Teams.h). Every region still ends with its team: 100 regions, with a
// 150 ms sleep after every 25th, and no visit of a body or of its barrier lasts 100 ms. The log
// wraps (100 > 56 teams) and the last regions are charged at finalisation. The same with the
// instrumented program (merged: POMP's regions closed by the late ends) and POMP only (the
// workers' late joins, core/Joins.h).
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/longest_visit.py %t.dir "parallel body" 100 | %FileCheck --check-prefix=BODY %s
// RUN: python3 %S/Inputs/longest_visit.py %t.dir "implicit barrier" 100 | %FileCheck --check-prefix=BARRIER %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE %s
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t.inst
// RUN: rm -rf %t.merged %t.pomp
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.merged %t.inst | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/longest_visit.py %t.merged "parallel body" 100 | %FileCheck --check-prefix=BODY %s
// RUN: python3 %S/Inputs/longest_visit.py %t.merged "implicit barrier" 100 | %FileCheck --check-prefix=BARRIER %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.merged | %FileCheck --check-prefix=INST %s
// RUN: env OMP_NUM_THREADS=2 POMP_OMPT=off POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.pomp %t.inst | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/longest_visit.py %t.pomp "parallel body" 100 | %FileCheck --check-prefix=BODY %s
// RUN: python3 %S/Inputs/longest_visit.py %t.pomp "implicit barrier" 100 | %FileCheck --check-prefix=BARRIER %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.pomp | %FileCheck --check-prefix=INST %s

#include <omp.h>
#include <stdio.h>
#include <time.h>

enum { Regions = 100 };

static void sleepMs(long Ms) {
  struct timespec T = {Ms / 1000, (Ms % 1000) * 1000000L};
  nanosleep(&T, NULL);
}

int main(void) {
  int Count = 0;
  for (int Round = 0; Round < Regions; ++Round) {
#pragma omp parallel
    {
#pragma omp atomic
      Count++;
    }
    if (Round % 25 == 24)
      sleepMs(150);
  }
  printf("count %d\n", Count);
  return 0;
}

// OUT: count 200
// BODY: parallel body: within 100 ms
// BARRIER: implicit barrier: within 100 ms
// TREE:      parallel{{.*}} visits=100 threads=1
// TREE-NEXT:   parallel body{{.*}} visits=200 threads=2
// TREE:      anomalies: none
// INST:      parallel @{{.*}}late_ends_batched.c:[[#LINE:]] (main) visits=100 threads=1
// INST-NEXT:   parallel body @{{.*}}late_ends_batched.c:[[#LINE]] (main) visits=200 threads=2
// INST-NEXT:     implicit barrier @{{.*}}late_ends_batched.c:[[#LINE]] (main) visits=200 threads=2
// INST-NEXT:     atomic event @{{.*}} visits=200 threads=2
// INST:      anomalies: none
