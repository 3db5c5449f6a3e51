// Explicit tasks instrumented as ompinst does it: Task_create_enter returns the creating thread's
// context, which the task receives as a firstprivate variable; the task's block hangs under the
// task creation that made it, whichever thread runs it, and its time is not counted as the
// waiting time of the taskwait it ran in. With libgomp and libomp.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 POMP_OMPT=off %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.gcc.dir | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t.clang.dir | %FileCheck --match-full-lines %s
// With libomp's OMPT events merged in (docs/OMPT.md): the same regions once each, plus the time
// the runtime says the threads waited in the taskwait and in the single's implicit barrier.
// RUN: rm -rf %t.merged.dir
// RUN: env OMP_NUM_THREADS=2 POMP_EXPERIMENT_DIR=%t.merged.dir POMP_QUIET=1 %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.merged.dir | %FileCheck --match-full-lines --check-prefix=MERGED %s

#include "pomplib.h"

#include <omp.h>
#include <stdio.h>

enum { Tasks = 20 };

static POMP_Handle_t Par, Single, Task, Wait;
static int Done;

int main(void) {
  POMP_Context_t Fork;
  POMP_Parallel_fork(&Par, 0, 2, 1, &Fork, "40*type=parallel*file=tasks.c*slines=1,1**");
#pragma omp parallel firstprivate(Fork)
  {
    int Tid = omp_get_thread_num();
    POMP_Parallel_begin_forked(Par, Tid, Fork);
    POMP_Single_enter(&Single, Tid, "38*type=single*file=tasks.c*slines=2,2**");
#pragma omp single
    {
      POMP_Single_begin(Single, Tid);
      for (int I = 0; I < Tasks; ++I) {
        POMP_Context_t TaskContext;
        POMP_Task_create_enter(&Task, Tid, 1, &TaskContext, "36*type=task*file=tasks.c*slines=3,3**");
#pragma omp task firstprivate(TaskContext)
        {
          int Me = omp_get_thread_num();
          POMP_Task_begin(Task, Me, TaskContext);
          __atomic_add_fetch(&Done, 1, __ATOMIC_RELAXED);
          POMP_Task_end(Task, Me);
        }
        POMP_Task_create_exit(Task, Tid);
      }
      POMP_Taskwait_enter(&Wait, Tid, "40*type=taskwait*file=tasks.c*slines=4,4**");
#pragma omp taskwait
      POMP_Taskwait_exit(Wait, Tid);
      POMP_Single_end(Single, Tid);
    }
    POMP_Single_exit(Single, Tid);
    POMP_Parallel_end(Par, Tid);
  }
  POMP_Parallel_exit(Par, 0);
  printf("tasks done %d\n", Done);
  return POMP_Finalize();
}

// OUT: tasks done 20

// The task bodies run on either thread, each once: 20 visits under the task creation.
// CHECK:      threads: 2
// CHECK-NEXT: parallel @tasks.c:1 visits=1 threads=1
// CHECK-NEXT:   parallel body @tasks.c:1 visits=2 threads=2
// CHECK-NEXT:     single @tasks.c:2 visits=2 threads=2
// CHECK-NEXT:       single body @tasks.c:2 visits=1 threads=1
// CHECK-NEXT:         task create @tasks.c:3 visits=20 threads=1
// CHECK-NEXT:           task @tasks.c:3 visits=20 threads={{[12]}}
// CHECK-NEXT:         taskwait @tasks.c:4 visits=1 threads=1
// CHECK-NEXT: anomalies: none

// Merged: the runtime's waiting time inside a region POMP reports (barrier, taskwait, lock,
// critical) is no region of its own: POMP's region is the waiting (docs/OMPT.md).
// MERGED:      threads: 2
// MERGED-NEXT: parallel @tasks.c:1 visits=1 threads=1
// MERGED-NEXT:   parallel body @tasks.c:1 visits=2 threads=2
// MERGED-NEXT:     single @tasks.c:2 visits=2 threads=2
// MERGED-NEXT:       single body @tasks.c:2 visits=1 threads=1
// MERGED-NEXT:         task create @tasks.c:3 visits=20 threads=1
// MERGED-NEXT:           task @tasks.c:3 visits=20 threads={{[12]}}
// MERGED-NEXT:         taskwait @tasks.c:4 visits=1 threads=1
// MERGED-NEXT:       implicit barrier{{( @.*)?}} visits=2 threads=2
// MERGED-NEXT: anomalies: none
