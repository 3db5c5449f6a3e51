// A trace of a program measured through OMPT alone (pomp-run --trace): balanced regions per
// thread, one fork and join per parallel region, every lock acquisition released by its thread,
// task create/switch/complete records of every task instance, and exactly as many records as the
// profile has visits. The runtime reports a lock's release
// after the lock is free, so another thread's acquisition may carry an earlier timestamp
// (--runtime-locks); instrumented code reports it before.
// UNSUPPORTED: sanitize
// REQUIRES: otf2-print
// RUN: %clang -fopenmp -O1 -g %s -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run --trace -q -o %t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/trace_check.py %otf2-print %t.dir --runtime-locks | %FileCheck %s

#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t Lock;
  int Count = 0;
  omp_init_lock(&Lock);
  for (int Round = 0; Round < 3; ++Round) {
#pragma omp parallel
    {
      for (int I = 0; I < 10; ++I) {
        omp_set_lock(&Lock);
        Count++;
        omp_unset_lock(&Lock);
      }
#pragma omp barrier
#pragma omp critical
      Count++;
#pragma omp single
      for (int I = 0; I < 5; ++I) {
#pragma omp task
        {
#pragma omp atomic
          Count++;
        }
      }
    }
  }
  omp_destroy_lock(&Lock);
  printf("count %d\n", Count);
  return 0;
}

// OUT: count 81

// CHECK: locations: 2
// CHECK: THREAD_FORK: 3
// CHECK: THREAD_JOIN: 3
// CHECK: THREAD_ACQUIRE_LOCK: 60
// CHECK: THREAD_RELEASE_LOCK: 60
// Task records name each task instance: 3 x 5 created, each started and completed once.
// CHECK: THREAD_TASK_CREATE: 15
// CHECK: THREAD_TASK_SWITCH: {{1[5-9]|[2-9][0-9]}}
// CHECK: THREAD_TASK_COMPLETE: 15
