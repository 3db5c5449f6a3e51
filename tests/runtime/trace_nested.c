// The trace of nested parallel regions (two levels, teams of two, instrumented by hand as ompinst
// does it): four threads, so four locations; each location's stack holds the regions that thread
// entered, a worker's starting at the body of the region it joined; one fork and one join per
// parallel construct on the thread that forked it. With gcc/libgomp and clang-19/libomp.
// REQUIRES: otf2-print
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.gcc.dir %t.gcc
// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.clang.dir %t.clang
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.gcc.dir --paths | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.clang.dir --paths | %FileCheck --match-full-lines %s

#include "pomplib.h"

#include <omp.h>
#include <sched.h>

enum { Levels = 2, TeamSize = 2, Leaves = 4 };

/// The leaves wait for each other, so that all four run at once on four threads.
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
  return POMP_Finalize();
}

// 1 + 2 parallel constructs, 2 + 4 bodies, 2 + 4 barriers, 4 leaves.
// CHECK:      locations: 4
// CHECK-NEXT: ENTER: 19
// CHECK-NEXT: LEAVE: 19
// CHECK-NEXT: THREAD_FORK: 3
// CHECK-NEXT: THREAD_JOIN: 3
// CHECK-NEXT: THREAD_ACQUIRE_LOCK: 0
// CHECK-NEXT: THREAD_RELEASE_LOCK: 0
// CHECK-NEXT: THREAD_TASK_CREATE: 0
// CHECK-NEXT: THREAD_TASK_SWITCH: 0
// CHECK-NEXT: THREAD_TASK_COMPLETE: 0
// CHECK-NEXT: flushes: 0
// The initial thread forks both levels:
// CHECK-NEXT: parallel @nested.c:101 locations=1
// CHECK-NEXT:   parallel body @nested.c:101 locations=1
// CHECK-NEXT:     implicit barrier @nested.c:111 locations=1
// CHECK-NEXT:     parallel @nested.c:102 locations=1
// CHECK-NEXT:       parallel body @nested.c:102 locations=1
// CHECK-NEXT:         implicit barrier @nested.c:111 locations=1
// CHECK-NEXT:         user region "leaf" @nested.c:110 locations=1
// its worker in the outer team forks the second inner team:
// CHECK-NEXT: parallel body @nested.c:101 locations=1
// CHECK-NEXT:   implicit barrier @nested.c:111 locations=1
// CHECK-NEXT:   parallel @nested.c:102 locations=1
// CHECK-NEXT:     parallel body @nested.c:102 locations=1
// CHECK-NEXT:       implicit barrier @nested.c:111 locations=1
// CHECK-NEXT:       user region "leaf" @nested.c:110 locations=1
// and the two inner teams' workers only run their body:
// CHECK-NEXT: parallel body @nested.c:102 locations=2
// CHECK-NEXT:   implicit barrier @nested.c:111 locations=2
// CHECK-NEXT:   user region "leaf" @nested.c:110 locations=2
// CHECK-EMPTY:
