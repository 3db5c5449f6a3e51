// Recursive tasks (DataRaceBench DRB105's task fib, issue 12): without recursion folding every
// task made a call-path node of its own (fib(30): 2.7 M tasks, 10 GB). Folding counts a region
// entered below itself at its node on the call path, task creation chains included
// (docs/PROFILE_FORMAT.md, "Recursion"): the tree stays small, the visits are exact, and inclusive
// times stay consistent (recursion_check.py says what is compared). fib(20) makes 21,890 tasks,
// 10,945 at each site: one per call of fib(n >= 2), and as many taskwaits.
// Three ways: ompcc over gcc (POMP), ompcc over clang-19 (POMP and OMPT merged: the runtime adds
// "wait" regions), clang-19 alone with libpomp as libomp's OMPT tool (OMPT only: clang inlines the
// first call of fib, whose constructs get regions of their own code addresses, so their subtrees
// appear twice). The node counts do not grow with n.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompcc --cc=%gcc -fopenmp -O1 %s -o %t/fib.gcc
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t/fib.clang
// RUN: %clang -fopenmp -O1 -g %s -o %t/fib.plain
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/gcc %t/fib.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged %t/fib.clang | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t/ompt %t/fib.plain | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/recursion_check.py %t/gcc --max-nodes 20 | %FileCheck --check-prefix=POMP --match-full-lines %s
// RUN: python3 %S/Inputs/recursion_check.py %t/merged --max-nodes 30 | %FileCheck --check-prefix=MERGED --match-full-lines %s
// RUN: python3 %S/Inputs/recursion_check.py %t/ompt --max-nodes 60 | %FileCheck --check-prefix=OMPT --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t/gcc > /dev/null
// RUN: python3 %S/Inputs/profile_tree.py %t/merged > /dev/null
// RUN: python3 %S/Inputs/profile_tree.py %t/ompt > /dev/null
// More runs follow the code: OMPT only on one thread, its fast and general paths.

#include <stdio.h>

static int fib(int n) {
  int i, j;
  if (n < 2)
    return n;
#pragma omp task shared(i)
  i = fib(n - 1);
#pragma omp task shared(j)
  j = fib(n - 2);
#pragma omp taskwait
  return i + j;
}

int main(void) {
  int r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(20);
  printf("fib(20) = %d\n", r);
  return 0;
}

// OUT: fib(20) = 6765



// POMP:      nodes: fewer than 20
// POMP-NEXT: implicit barrier @task_recursion.c:43: 2
// POMP-NEXT: implicit barrier @task_recursion.c:44: 2
// POMP-NEXT: parallel @task_recursion.c:43: 1
// POMP-NEXT: parallel body @task_recursion.c:43: 2
// POMP-NEXT: single @task_recursion.c:44: 2
// POMP-NEXT: single body @task_recursion.c:44: 1
// POMP-NEXT: task @task_recursion.c:33: 10945
// POMP-NEXT: task @task_recursion.c:35: 10945
// POMP-NEXT: task create @task_recursion.c:33: 10945
// POMP-NEXT: task create @task_recursion.c:35: 10945
// POMP-NEXT: taskwait @task_recursion.c:37: 10945
// POMP-NEXT: folding: folded visits yes, nested visits yes
// POMP-NEXT: inclusive: consistent

// Merged: the runtime's waiting time inside a region POMP reports (barrier, taskwait, lock,
// critical) is no region of its own: POMP's region is the waiting (docs/OMPT.md).
// MERGED:      nodes: fewer than 30
// MERGED-NEXT: implicit barrier @task_recursion.c:43: 2
// MERGED-NEXT: implicit barrier @task_recursion.c:44: 2
// MERGED-NEXT: parallel @task_recursion.c:43: 1
// MERGED-NEXT: parallel body @task_recursion.c:43: 2
// MERGED-NEXT: single @task_recursion.c:44: 2
// MERGED-NEXT: single body @task_recursion.c:44: 1
// MERGED-NEXT: task @task_recursion.c:33: 10945
// MERGED-NEXT: task @task_recursion.c:35: 10945
// MERGED-NEXT: task create @task_recursion.c:33: 10945
// MERGED-NEXT: task create @task_recursion.c:35: 10945
// MERGED-NEXT: taskwait @task_recursion.c:37: 10945
// MERGED-NEXT: folding: folded visits yes, nested visits yes
// MERGED-NEXT: inclusive: consistent

// OMPT:      nodes: fewer than 60
// OMPT-NEXT: implicit barrier @task_recursion.c:43: 2
// OMPT-NEXT: implicit barrier @task_recursion.c:44: 2
// OMPT-NEXT: parallel @task_recursion.c:43: 1
// OMPT-NEXT: parallel body @task_recursion.c:43: 2
// OMPT-NEXT: single @task_recursion.c:44: 2
// OMPT-NEXT: single body @task_recursion.c:44: 1
// OMPT-NEXT: task @task_recursion.c:33: 10945
// OMPT-NEXT: task @task_recursion.c:35: 10945
// OMPT-NEXT: task create @task_recursion.c:33: 10945
// OMPT-NEXT: task create @task_recursion.c:35: 10945
// OMPT-NEXT: taskwait @task_recursion.c:37: 10945
// OMPT-NEXT: folding: folded visits yes, nested visits yes
// OMPT-NEXT: inclusive: consistent

// OMPT only on one thread, where the run is the same every time: once through the callbacks' fast
// paths (the TSC clock: task creation, start and completion, the taskwait, recursive nodes
// included) and once through their general paths (the monotonic clock turns the fast paths off).
// The trees, visits, folded and nested visits must be the same.
// RUN: env OMP_NUM_THREADS=1 POMP_CLOCK=tsc %pomp_tools/pomp-run -q -o %t/fast %t/fib.plain | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=1 POMP_CLOCK=monotonic %pomp_tools/pomp-run -q -o %t/general %t/fib.plain | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/fast --folding > %t/fast.tree
// RUN: python3 %S/Inputs/profile_tree.py %t/general --folding > %t/general.tree
// RUN: diff %t/fast.tree %t/general.tree
// RUN: %FileCheck --check-prefix=ONE --input-file=%t/fast.tree %s
// RUN: rm -rf %t

// One thread: each site's first task runs the recursion below it; a creation folds into the one
// above it on the call path, a task body runs inside the open one of its site.
// ONE:      task create @{{.*}}task_recursion.c:33 (fib) visits=4181 threads=1 folded=4180 nested=0
// ONE-NEXT:   task @{{.*}}task_recursion.c:33 (fib) visits=4181 threads=1 folded=0 nested=4180
