// Merged mode: the runtime's acquire and acquired callbacks of a lock, nest lock, critical or
// ordered acquisition that instrumented code reports have nothing to record, and find that out
// from the thread's mark of the acquisition POMP has just entered (ThreadState::PompAcquisition),
// without reading its stack. An acquisition in code nobody instrumented (Inputs/plain_mutexes.c:
// a nest lock, a lock, a critical section, an orphaned loop's ordered regions) must still be
// recorded from OMPT right after instrumented ones: in particular after a nest lock
// the thread owned already, whose acquisition the runtime reports without an acquired callback,
// so that only POMP's Set_nest_lock_exit ends the mark (without it the next nest lock's
// callbacks took the mark for theirs and the uninstrumented acquisition was lost).
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 -c %S/Inputs/plain_mutexes.c -o %t.plain.o
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s %t.plain.o -o %t
// RUN: rm -rf %t.dir %t.fast
// RUN: env OMP_NUM_THREADS=2 POMP_DEBUG_EVENTS=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t 2>%t.events | %FileCheck --check-prefix=OUT %s
// RUN: grep '^[0-9]* enter .*\[ompt\]' %t.events | sed 's/^[0-9]* //' | sort | uniq -c | %FileCheck --check-prefix=OMPT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE %s
// Without the event printer, whose general paths skip no shortcut of POMP's: the same tree.
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.fast %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.fast | %FileCheck --check-prefix=TREE %s
// RUN: rm -rf %t.dir %t.fast

#include <omp.h>
#include <stdio.h>

void plain_nest_lock(omp_nest_lock_t *Lock, int *Count);
void plain_lock(omp_lock_t *Lock, int *Count);
void plain_critical(int *Count);
void plain_ordered(int *Count);

int main(void) {
  int Count = 0;
  omp_lock_t Lock;
  omp_nest_lock_t Nest, Other;
  omp_init_lock(&Lock);
  omp_init_nest_lock(&Nest);
  omp_init_nest_lock(&Other);
#pragma omp parallel
  {
    omp_set_nest_lock(&Nest);
    // Owned already: no acquired callback.
    omp_set_nest_lock(&Nest);
    plain_nest_lock(&Other, &Count);
    omp_unset_nest_lock(&Nest);
    omp_unset_nest_lock(&Nest);
    omp_set_lock(&Lock);
    Count++;
    omp_unset_lock(&Lock);
    plain_lock(&Lock, &Count);
#pragma omp critical
    Count++;
    plain_critical(&Count);
#pragma omp for ordered
    for (int I = 0; I < 4; ++I) {
#pragma omp ordered
      Count++;
    }
    plain_ordered(&Count);
  }
  omp_destroy_nest_lock(&Other);
  omp_destroy_nest_lock(&Nest);
  omp_destroy_lock(&Lock);
  printf("count %d\n", Count);
  return 0;
}

// Two threads: five acquisitions each, and two loops of four ordered iterations.
// OUT: count 18

// From OMPT only the uninstrumented constructs: one acquisition per thread each, the orphaned
// loop's four ordered iterations with the loop and its barrier.
// OMPT:      2 enter Critical_begin critical [ompt]
// OMPT-NEXT: 2 enter Critical_enter critical [ompt]
// OMPT-NEXT: 2 enter Implicit_barrier_enter implicitbarrier [ompt]
// OMPT-NEXT: 2 enter Loop_enter for [ompt]
// OMPT-NEXT: 4 enter Ordered_begin ordered [ompt]
// OMPT-NEXT: 4 enter Ordered_enter ordered [ompt]
// OMPT-NEXT: 2 enter Set_lock_enter apicall(omp_set_lock) [ompt]
// OMPT-NEXT: 2 enter Set_nest_lock_enter apicall(omp_set_nest_lock) [ompt]
// OMPT-NOT:  enter

// TREE:      threads: 2
// TREE:          critical @{{.*}}mutex_acquisitions.c:[[#CRIT:]] (main) visits=2 threads=2
// TREE-NEXT:       critical body @{{.*}}mutex_acquisitions.c:[[#CRIT]] (main) visits=2 threads=2
// TREE:            ordered @{{.*}}mutex_acquisitions.c:[[#ORD:]] (main) visits=4 threads=2
// TREE-NEXT:         ordered body @{{.*}}mutex_acquisitions.c:[[#ORD]] (main) visits=4 threads=2
// TREE:          set nest lock "omp_set_nest_lock" @{{.*}}mutex_acquisitions.c:[[#]] (main) visits=2 threads=2
// TREE-NEXT:     set nest lock "omp_set_nest_lock" @{{.*}}mutex_acquisitions.c:[[#]] (main) visits=2 threads=2
// TREE:          set lock "omp_set_lock" @{{.*}}mutex_acquisitions.c:[[#]] (main) visits=2 threads=2
// TREE:          set nest lock "omp_set_nest_lock" @plain_nest_lock {{.*}} visits=2 threads=2
// TREE-NEXT:     set lock "omp_set_lock" @plain_lock {{.*}} visits=2 threads=2
// TREE-NEXT:     critical @plain_critical {{.*}} visits=2 threads=2
// TREE-NEXT:       critical body @plain_critical {{.*}} visits=2 threads=2
// TREE-NEXT:     loop @plain_ordered {{.*}} visits=2 threads=2
// TREE-NEXT:       ordered @plain_ordered {{.*}} visits=4 threads=2
// TREE-NEXT:         ordered body @plain_ordered {{.*}} visits=4 threads=2
// TREE-NEXT:     implicit barrier @plain_ordered {{.*}} visits=2 threads=2
// TREE:      anomalies: none
