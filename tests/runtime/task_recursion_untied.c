// Recursive untied tasks, OMPT only (BOTS fib's shape): libomp runs each untied task in parts,
// and every part's end suspends the task, whose task region then travels with it to the part
// that resumes it, on this thread or another (core/Tasks.h). The OMPT adapter's fast path
// suspends and resumes a task with one region open without the callback protocol's general path
// (docs/OMPT.md, "Cost"). On one thread the run is the same every time: the fast paths (the TSC
// clock) and the general paths (the monotonic clock) must give the same tree, visits, folded and
// nested visits. On two threads, where parts move between threads, the visits must be exact.
// fib(18) makes 8,360 tasks, 4,180 at each site, and 4,180 taskwaits.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -fopenmp -O1 -g %s -o %t/fib
// RUN: env OMP_NUM_THREADS=1 POMP_CLOCK=tsc %pomp_tools/pomp-run -q -o %t/fast %t/fib | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=1 POMP_CLOCK=monotonic %pomp_tools/pomp-run -q -o %t/general %t/fib | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/fast --folding > %t/fast.tree
// RUN: python3 %S/Inputs/profile_tree.py %t/general --folding > %t/general.tree
// RUN: diff %t/fast.tree %t/general.tree
// RUN: %FileCheck --check-prefix=TREE --input-file=%t/fast.tree %s
// RUN: python3 %S/Inputs/recursion_check.py %t/fast --max-nodes 60 | %FileCheck --check-prefix=VISITS --match-full-lines %s
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t/two %t/fib | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/recursion_check.py %t/two --max-nodes 60 | %FileCheck --check-prefix=VISITS --match-full-lines %s
// RUN: rm -rf %t

#include <stdio.h>

static int fib(int n) {
  int i, j;
  if (n < 2)
    return n;
#pragma omp task untied shared(i)
  i = fib(n - 1);
#pragma omp task untied shared(j)
  j = fib(n - 2);
#pragma omp taskwait
  return i + j;
}

int main(void) {
  int r = 0;
#pragma omp parallel
#pragma omp single
  r = fib(18);
  printf("fib(18) = %d\n", r);
  return 0;
}

// OUT: fib(18) = 2584

// No anomaly: every suspended region came back and closed where its task ended.
// TREE: anomalies: none

// VISITS:      nodes: fewer than 60
// VISITS:      task @task_recursion_untied.c:29: 4180
// VISITS-NEXT: task @task_recursion_untied.c:31: 4180
// VISITS-NEXT: task create @task_recursion_untied.c:29: 4180
// VISITS-NEXT: task create @task_recursion_untied.c:31: 4180
// VISITS-NEXT: taskwait @task_recursion_untied.c:33: 4180
// VISITS-NEXT: folding: folded visits yes, nested visits yes
// VISITS-NEXT: inclusive: consistent
