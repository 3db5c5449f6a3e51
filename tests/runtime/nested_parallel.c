// Nested parallel regions three levels deep, instrumented by hand as ompinst does it: the master's
// context goes into each region as a firstprivate variable (Parallel_fork/Parallel_begin_forked),
// so every worker's regions hang under the parallel region of the thread that forked them, with
// libgomp and with libomp.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 POMP_OMPT=off %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.gcc.dir | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t.clang.dir | %FileCheck --match-full-lines %s
// With libomp's OMPT events merged in: every region once, at the same place, and the barriers'
// waiting time that only the runtime sees.
// RUN: rm -rf %t.merged.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.merged.dir POMP_QUIET=1 %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.merged.dir | %FileCheck --match-full-lines --check-prefix=MERGED %s
// With clock_gettime every event takes the library's general path instead of its fast path:
// RUN: rm -rf %t.mono.dir
// RUN: env POMP_CLOCK=monotonic POMP_EXPERIMENT_DIR=%t.mono.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.mono.dir | %FileCheck --match-full-lines %s

#include "pomplib.h"

#include <omp.h>
#include <sched.h>
#include <stdio.h>

enum { Levels = 3, TeamSize = 2, Leaves = 8 };

/// The leaves wait for each other, so that all eight run at once on eight threads: without this a
/// runtime may reuse a finished inner team's thread for a later one, and the count of distinct
/// threads would depend on timing.
static int Arrived;
static void meetAllLeaves(void) {
  __atomic_add_fetch(&Arrived, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&Arrived, __ATOMIC_SEQ_CST) < Leaves)
    sched_yield();
}

static POMP_Handle_t ParallelHandle[Levels];
static const char *const ParallelCtc[Levels] = {
    "45*type=parallel*file=nested.c*slines=101,101**",
    "45*type=parallel*file=nested.c*slines=102,102**",
    "45*type=parallel*file=nested.c*slines=103,103**",
};
static POMP_Handle_t LeafHandle;
static POMP_Handle_t BarrierHandle;

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
      POMP_User_region_begin(&LeafHandle, Tid, "57*type=userregion*name=leaf*file=nested.c*slines=110,110**");
      meetAllLeaves();
      POMP_User_region_end(LeafHandle, Tid);
    }
    POMP_Implicit_barrier_enter(&BarrierHandle, Tid, "52*type=implicitbarrier*file=nested.c*slines=111,111**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(BarrierHandle, Tid);
    POMP_Parallel_end(ParallelHandle[Depth], Tid);
  }
  POMP_Parallel_exit(ParallelHandle[Depth], omp_get_thread_num());
}

int main(void) {
  POMP_Init();
  omp_set_max_active_levels(Levels);
  level(0);
  printf("finalize: %d\n", POMP_Finalize());
  return 0;
}

// OUT: finalize: 0

// CHECK:      threads: 8
// CHECK-NEXT: parallel @nested.c:101 visits=1 threads=1
// CHECK-NEXT:   parallel body @nested.c:101 visits=2 threads=2
// CHECK-NEXT:     parallel @nested.c:102 visits=2 threads=2
// CHECK-NEXT:       parallel body @nested.c:102 visits=4 threads=4
// CHECK-NEXT:         parallel @nested.c:103 visits=4 threads=4
// CHECK-NEXT:           parallel body @nested.c:103 visits=8 threads=8
// CHECK-NEXT:             user region "leaf" @nested.c:110 visits=8 threads=8
// CHECK-NEXT:             implicit barrier @nested.c:111 visits=8 threads=8
// CHECK-NEXT:           implicit barrier @nested.c:111 visits=4 threads=4
// CHECK-NEXT:       implicit barrier @nested.c:111 visits=2 threads=2
// CHECK-NEXT: anomalies: none

// Merged: the runtime's waiting time inside a region POMP reports (barrier, taskwait, lock,
// critical) is no region of its own: POMP's region is the waiting (docs/OMPT.md).
// MERGED:      threads: 8
// MERGED-NEXT: parallel @nested.c:101 visits=1 threads=1
// MERGED-NEXT:   parallel body @nested.c:101 visits=2 threads=2
// MERGED-NEXT:     parallel @nested.c:102 visits=2 threads=2
// MERGED-NEXT:       parallel body @nested.c:102 visits=4 threads=4
// MERGED-NEXT:         parallel @nested.c:103 visits=4 threads=4
// MERGED-NEXT:           parallel body @nested.c:103 visits=8 threads=8
// MERGED-NEXT:             user region "leaf" @nested.c:110 visits=8 threads=8
// MERGED-NEXT:             implicit barrier @nested.c:111 visits=8 threads=8
// MERGED-NEXT:         implicit barrier @nested.c:111 visits=4 threads=4
// MERGED-NEXT:     implicit barrier @nested.c:111 visits=2 threads=2
// MERGED-NEXT: anomalies: none
