// An instrumented program on libomp reports through POMP and OMPT at once. Every construct
// instance appears once, from POMP, with its source location (POMP's barrier, lock and critical
// regions hold the waiting, no "wait" region inside); OMPT hands its report of the masked
// construct, which comes before POMP's Master_begin, over to POMP ("discard"). Nothing from OMPT.
// UNSUPPORTED: sanitize
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_DEBUG_EVENTS=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t 2>%t.events | %FileCheck --check-prefix=OUT %s
// RUN: sort -n -s %t.events | grep -v ' wait \[ompt\]' | %FileCheck %s
// RUN: grep -c 'enter Master_begin master .*\[pomp\]' %t.events | %FileCheck --check-prefix=ONE %s
// RUN: grep -c 'enter Task_begin task .*\[pomp\]' %t.events | %FileCheck --check-prefix=TASKS %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE --match-full-lines %s

#include <omp.h>
#include <stdio.h>

int main(void) {
  int Count = 0;
  omp_lock_t Lock;
  omp_init_lock(&Lock);
#pragma omp parallel
  {
#pragma omp master
    Count++;
#pragma omp barrier
#pragma omp critical
    Count++;
    omp_set_lock(&Lock);
    Count++;
    omp_unset_lock(&Lock);
#pragma omp single
    for (int I = 0; I < 4; ++I) {
#pragma omp task
      {
#pragma omp atomic
        Count++;
      }
    }
  }
  omp_destroy_lock(&Lock);
  printf("count %d\n", Count);
  return 0;
}

// OUT: count 9

// The master thread: every line from POMP but the masked report it takes over.
// CHECK:      0 enter Parallel_enter parallel {{.*}}merged_events.c:21 (main) [pomp]
// CHECK-NOT:  [ompt]
// CHECK:      0 enter Masked_begin masked [ompt]
// CHECK-NEXT: 0 discard Masked_begin masked [ompt]
// CHECK-NEXT: 0 enter Master_begin master {{.*}}merged_events.c:23 (main) [pomp]
// CHECK-NOT:  [ompt]
// CHECK:      0 leave Parallel_enter parallel {{.*}} [pomp]
// CHECK-NOT:  [ompt]
// CHECK:      1 enter Parallel_begin parallel {{.*}} [pomp]
// CHECK-NOT:  [ompt]

// ONE: 1
// TASKS: 4

// TREE:      threads: 2
// TREE-NEXT: parallel @{{.*}}merged_events.c:21 (main) visits=1 threads=1
// TREE-NEXT:   parallel body @{{.*}}merged_events.c:21 (main) visits=2 threads=2
// The join barrier: ompinst's explicit barrier is skipped, the runtime's join closes the region
// (no wait region inside: the whole region is the waiting).
// TREE-NEXT:     implicit barrier @{{.*}}merged_events.c:21 (main) visits=2 threads=2
// TREE-NEXT:     master @{{.*}}merged_events.c:23 (main) visits=1 threads=1
// TREE-NEXT:     barrier @{{.*}}merged_events.c:25 (main) visits=2 threads=2
// TREE-NEXT:     critical @{{.*}}merged_events.c:26 (main) visits=2 threads=2
// TREE-NEXT:       critical body @{{.*}}merged_events.c:26 (main) visits=2 threads=2
// TREE-NEXT:     single @{{.*}}merged_events.c:31 (main) visits=2 threads=2
// TREE-NEXT:       single body @{{.*}}merged_events.c:31 (main) visits=1 threads=1
// TREE-NEXT:         task create @{{.*}}merged_events.c:33 (main) visits=4 threads=1
// TREE-NEXT:           task @{{.*}}merged_events.c:33 (main) visits=4 threads={{[12]}}
// TREE-NEXT:             atomic event @{{.*}}merged_events.c:35 (main) visits=4 threads={{[12]}}
// TREE-NEXT:       implicit barrier @{{.*}}merged_events.c:31 (main) visits=2 threads=2
// TREE-NEXT:     set lock "omp_set_lock" @{{.*}}merged_events.c:28 (main) visits=2 threads=2
// TREE-NEXT:     unset lock event "omp_unset_lock" @{{.*}}merged_events.c:30 (main) visits=2 threads=2
// TREE-NEXT: init lock event "omp_init_lock" @{{.*}}merged_events.c:20 (main) visits=1 threads=1
// TREE-NEXT: destroy lock event "omp_destroy_lock" @{{.*}}merged_events.c:40 (main) visits=1 threads=1
// TREE-NEXT: anomalies: none
