// An uninstrumented program linked with libpomp on libomp: its regions come from OMPT alone. The
// debug event printer shows each thread's events in order (sort -n -s keeps the order within a
// thread): the fork and the implicit tasks, an explicit barrier with the time the runtime says the
// thread waited in it, a critical section as wait (Critical_enter) and body (Critical_begin), and
// the join barrier, whose end libomp delivers to the worker late, at shutdown.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_DEBUG_EVENTS=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t 2>%t.events | %FileCheck --check-prefix=OUT %s
// RUN: sort -n -s %t.events | %FileCheck %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE --match-full-lines %s

#include <omp.h>
#include <stdio.h>

int main(void) {
  int Count = 0;
#pragma omp parallel
  {
#pragma omp barrier
#pragma omp critical
    Count++;
  }
  printf("count %d\n", Count);
  return 0;
}

// OUT: count 2

// CHECK:      0 enter Parallel_enter parallel [ompt]
// CHECK-NEXT: 0 enter Parallel_begin parallel [ompt]
// CHECK-NEXT: 0 enter Barrier_enter barrier [ompt]
// CHECK-NEXT: 0 leave Barrier_enter barrier [ompt]
// CHECK-NEXT: 0 enter Critical_enter critical [ompt]
// CHECK-NEXT: 0 enter Critical_begin critical [ompt]
// CHECK-NEXT: 0 leave Critical_begin critical [ompt]
// CHECK-NEXT: 0 leave Critical_enter critical [ompt]
// CHECK-NEXT: 0 enter Implicit_barrier_enter implicitbarrier [ompt]
// CHECK-NEXT: 0 leave Implicit_barrier_enter implicitbarrier [ompt]
// CHECK-NEXT: 0 leave Parallel_begin parallel [ompt]
// CHECK-NEXT: 0 leave Parallel_enter parallel [ompt]
// CHECK-NEXT: 1 enter Parallel_begin parallel [ompt]
// CHECK-NEXT: 1 enter Barrier_enter barrier [ompt]
// CHECK-NEXT: 1 leave Barrier_enter barrier [ompt]
// CHECK-NEXT: 1 enter Critical_enter critical [ompt]
// CHECK-NEXT: 1 enter Critical_begin critical [ompt]
// CHECK-NEXT: 1 leave Critical_begin critical [ompt]
// CHECK-NEXT: 1 leave Critical_enter critical [ompt]
// CHECK-NEXT: 1 enter Implicit_barrier_enter implicitbarrier [ompt]
// CHECK-NEXT: 1 leave Implicit_barrier_enter implicitbarrier [ompt]
// CHECK-NEXT: 1 leave Parallel_begin parallel [ompt]
// CHECK-NOT:  {{.}}

// The worker's regions hang under the master's parallel region; every region is closed.
// TREE:      threads: 2
// TREE-NEXT: parallel{{( @.*)?}} visits=1 threads=1
// TREE-NEXT:   parallel body{{( @.*)?}} visits=2 threads=2
// TREE-NEXT:     barrier{{( @.*)?}} visits=2 threads=2
// TREE-NEXT:     critical{{( @.*)?}} visits=2 threads=2
// TREE-NEXT:       critical body{{( @.*)?}} visits=2 threads=2
// TREE-NEXT:     implicit barrier{{( @.*)?}} visits=2 threads=2
// TREE-NEXT: anomalies: none
