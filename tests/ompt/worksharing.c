// The OMPT-only translation of worksharing, tasks and locks, from an uninstrumented program: loop
// chunks (the Loop group's "chunks" level), sections, single, ordered, masked, explicit tasks
// (each hangs under its creation), locks and nest locks, flush. Counts are exact: 2 threads.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_LOOP=chunks POMP_DEBUG_EVENTS=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t 2>%t.events | %FileCheck --check-prefix=OUT %s
// RUN: grep -c 'enter Loop_chunk_begin for \[ompt\]' %t.events | %FileCheck --check-prefix=CHUNKS %s
// RUN: grep -c 'enter Section_begin sections \[ompt\]' %t.events | %FileCheck --check-prefix=SECTIONS %s
// RUN: grep -c 'enter Single_begin single \[ompt\]' %t.events | %FileCheck --check-prefix=SINGLE %s
// RUN: grep -c 'enter Task_begin task \[ompt\]' %t.events | %FileCheck --check-prefix=TASKS %s
// RUN: grep -c 'enter Set_lock_enter apicall(omp_set_lock) \[ompt\]' %t.events | %FileCheck --check-prefix=LOCKS %s
// RUN: grep -c 'enter Set_nest_lock_enter apicall(omp_set_nest_lock) \[ompt\]' %t.events | %FileCheck --check-prefix=NEST %s
// RUN: grep -c 'enter Ordered_begin ordered \[ompt\]' %t.events | %FileCheck --check-prefix=ORDERED %s
// RUN: grep -c 'enter Masked_begin masked \[ompt\]' %t.events | %FileCheck --check-prefix=MASKED %s
// RUN: grep -c 'event Flush_event flush \[ompt\]' %t.events | %FileCheck --check-prefix=FLUSH %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE %s
// Without the event printer the callbacks take the core's cached paths: the same tree, and a task
// creation is a visit of no time that reads no clock.
// RUN: rm -rf %t.fast
// RUN: env OMP_NUM_THREADS=2 POMP_LOOP=chunks POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.fast %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.fast | %FileCheck --check-prefix=TREE %s
// RUN: python3 %S/Inputs/longest_visit.py %t.fast "task create" 0 | %FileCheck --check-prefix=CREATE %s

#include <omp.h>
#include <stdio.h>

int main(void) {
  long Sum = 0;
  int Sections = 0, Tasks = 0, Locked = 0, Nested = 0, Ordered = 0;
  omp_lock_t Lock;
  omp_nest_lock_t NestLock;
  omp_init_lock(&Lock);
  omp_init_nest_lock(&NestLock);
#pragma omp parallel num_threads(2)
  {
    // 16 iterations in chunks of 2: 8 chunks whoever takes them.
#pragma omp for schedule(dynamic, 2) reduction(+ : Sum)
    for (int I = 0; I < 16; ++I)
      Sum += I;
#pragma omp sections
    {
#pragma omp section
      {
#pragma omp atomic
        Sections++;
      }
#pragma omp section
      {
#pragma omp atomic
        Sections++;
      }
#pragma omp section
      {
#pragma omp atomic
        Sections++;
      }
    }
#pragma omp single
    for (int I = 0; I < 5; ++I) {
#pragma omp task
      {
#pragma omp atomic
        Tasks++;
      }
    }
    for (int I = 0; I < 3; ++I) {
      omp_set_lock(&Lock);
      Locked++;
      omp_unset_lock(&Lock);
    }
    omp_set_nest_lock(&NestLock);
    omp_set_nest_lock(&NestLock);
    Nested++;
    omp_unset_nest_lock(&NestLock);
    omp_unset_nest_lock(&NestLock);
#pragma omp for ordered schedule(static, 1)
    for (int I = 0; I < 4; ++I) {
#pragma omp ordered
      Ordered++;
    }
#pragma omp masked
    {
#pragma omp flush
    }
  }
  omp_destroy_nest_lock(&NestLock);
  omp_destroy_lock(&Lock);
  printf("%ld %d %d %d %d %d\n", Sum, Sections, Tasks, Locked, Nested, Ordered);
  return 0;
}

// OUT: 120 3 5 6 2 4

// 8 chunks of the dynamic loop and 4 of the ordered loop, which libomp also hands out through
// its dispatcher.
// CHUNKS: 12
// clang lowers sections to a static loop; libomp reports each thread's share as one dispatch.
// SECTIONS: 2
// SINGLE: 1
// TASKS: 5
// Nested acquisitions count once each: 2 threads x 2.
// LOCKS: 6
// NEST: 4
// ORDERED: 4
// MASKED: 1
// FLUSH: 1

// TREE: threads: 2
// TREE: task create{{.*}} visits=5 threads=1
// TREE-NEXT: task{{.*}} visits=5 threads={{[12]}}
// TREE: anomalies: none
// CREATE: task create: within 0 ms
