// A hard omp_pause_resource makes libomp finalize its OMPT tool, and libpomp used to end the
// whole measurement there: everything after the pause was lost, a forked child's too. Now the
// pause ends only the runtime's callbacks; the instrumented regions after it are measured and the
// forked child writes its own experiment (clang-19/libomp, POMP and OMPT merged).
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: env OMPCC_CC=%clang %ompcc -O1 %s -o %t/prog
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/exp %t/prog > %t/out.txt
// RUN: %FileCheck --check-prefix=OUT %s < %t/out.txt
// RUN: %FileCheck --check-prefix=PARENT %s < %t/exp/profile.txt
// RUN: cat %t/exp-fork-*/profile.txt | %FileCheck --check-prefix=CHILD %s
// RUN: rm -rf %t

#include <omp.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int before = 0, after = 0;
#pragma omp parallel reduction(+ : before)
  before += 1;
  omp_pause_resource_all(omp_pause_hard);
  // Measured after the pause: the parent's second region.
#pragma omp parallel num_threads(2) reduction(+ : after)
  after += 1;
  fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    int in_child = 0;
#pragma omp parallel num_threads(2) reduction(+ : in_child)
    in_child += 1;
    printf("child %d\n", in_child);
    return 0;
  }
  int status = 0;
  waitpid(child, &status, 0);
  printf("parent %d %d\n", before > 0, after);
  return 0;
}
// OUT: child 2
// OUT: parent 1 2
// PARENT-NOT: PARTIAL
// PARENT: Regions by exclusive time
// PARENT-DAG: {{ +}}1{{ +}}1 {{.*}} parallel @{{.*}}pause_resource.c:21
// PARENT-DAG: {{ +}}1{{ +}}1 {{.*}} parallel @{{.*}}pause_resource.c:25
// PARENT: anomalies: none
// CHILD: Regions by exclusive time
// CHILD: {{ +}}1{{ +}}1 {{.*}} parallel @{{.*}}pause_resource.c:31
// CHILD: anomalies: none
