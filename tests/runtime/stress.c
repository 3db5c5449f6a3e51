// Stress: 64 threads on this machine's cores, nested parallel regions 3 deep (4 x 4 x 4), a
// million events per innermost thread, with libgomp and with libomp. Every visit must be counted
// exactly and every innermost region must hang under its own path.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O2 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O2 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.gcc.dir | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t.clang.dir | %FileCheck --match-full-lines %s

#include "pomplib.h"

#include <omp.h>
#include <sched.h>
#include <stdio.h>

enum { Levels = 3, TeamSize = 4, Leaves = 64, PairsPerLeaf = 500000 };

static POMP_Handle_t ParallelHandle[Levels];
static const char *const ParallelCtc[Levels] = {
    "41*type=parallel*file=stress.c*slines=1,1**",
    "41*type=parallel*file=stress.c*slines=2,2**",
    "41*type=parallel*file=stress.c*slines=3,3**",
};
static POMP_Handle_t Hot;
static int Arrived;
static int Failures;

/// All 64 leaves run at once, so they are 64 distinct threads whatever the runtime's thread reuse.
static void meetAllLeaves(void) {
  __atomic_add_fetch(&Arrived, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&Arrived, __ATOMIC_SEQ_CST) < Leaves)
    sched_yield();
}

static void level(int Depth) {
  POMP_Context_t Context;
  POMP_Parallel_fork(&ParallelHandle[Depth], omp_get_thread_num(), TeamSize, 1, &Context,
                     ParallelCtc[Depth]);
#pragma omp parallel num_threads(TeamSize) firstprivate(Context)
  {
    int Tid = omp_get_thread_num();
    POMP_Parallel_begin_forked(ParallelHandle[Depth], Tid, Context);
    if (Depth + 1 < Levels) {
      level(Depth + 1);
    } else {
      meetAllLeaves();
      int Bad = 0;
      for (int I = 0; I < PairsPerLeaf; ++I) {
        Bad += POMP_User_region_begin(&Hot, Tid, "52*type=userregion*name=hot*file=stress.c*slines=4,4**") != 0;
        Bad += POMP_User_region_end(Hot, Tid) != 0;
      }
      __atomic_add_fetch(&Failures, Bad, __ATOMIC_RELAXED);
    }
    POMP_Parallel_end(ParallelHandle[Depth], Tid);
  }
  POMP_Parallel_exit(ParallelHandle[Depth], omp_get_thread_num());
}

int main(void) {
  POMP_Init();
  omp_set_max_active_levels(Levels);
  level(0);
  printf("failures %d\n", Failures);
  return POMP_Finalize();
}

// OUT: failures 0

// CHECK:      threads: 64
// CHECK-NEXT: parallel @stress.c:1 visits=1 threads=1
// CHECK-NEXT:   parallel body @stress.c:1 visits=4 threads=4
// CHECK-NEXT:     parallel @stress.c:2 visits=4 threads=4
// CHECK-NEXT:       parallel body @stress.c:2 visits=16 threads=16
// CHECK-NEXT:         parallel @stress.c:3 visits=16 threads=16
// CHECK-NEXT:           parallel body @stress.c:3 visits=64 threads=64
// CHECK-NEXT:             user region "hot" @stress.c:4 visits=32000000 threads=64
// CHECK-NEXT: anomalies: none
