// Locks set by omp_test_lock have no fixed limit (issue 13: no fixed size may lose or misattribute
// an event). A trace records no acquisition for a test, so the release of a lock a test set is not
// recorded either: the thread remembers which locks it holds that way. That list had room for 16,
// and the release of the 17th and later ones was handed to the trace as one with an acquisition
// (the trace writer, which pairs releases with acquisitions, dropped it; the unit test
// TestedLocksTest.HasNoLimit is the one that failed). Here one thread holds 40 tested locks at
// once: the trace (OTF2 and Chrome) holds only the acquisition and release of omp_set_lock.
// UNSUPPORTED: sanitize
// REQUIRES: otf2-print
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_TRACE=1 POMP_TRACE_FORMAT=both POMP_EXPERIMENT_DIR=%t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/trace_check.py %otf2-print %t.dir --runtime-locks --chrome | %FileCheck %s
// RUN: rm -rf %t.dir

#include <omp.h>
#include <stdio.h>

enum { Locks = 40 };

int main(void) {
  omp_lock_t Lock[Locks];
  int Set = 0;
  for (int I = 0; I < Locks; ++I)
    omp_init_lock(&Lock[I]);
#pragma omp parallel
  {
#pragma omp single
    {
      for (int I = 0; I < Locks; ++I)
        Set += omp_test_lock(&Lock[I]);
      for (int I = Locks - 1; I >= 0; --I)
        omp_unset_lock(&Lock[I]);
      // A lock set the usual way after them: acquisition and release recorded.
      omp_set_lock(&Lock[0]);
      omp_unset_lock(&Lock[0]);
    }
  }
  for (int I = 0; I < Locks; ++I)
    omp_destroy_lock(&Lock[I]);
  printf("tested and set %d\n", Set);
  return 0;
}

// OUT: tested and set 40

// Only omp_set_lock's acquisition and its release are in the trace.
// CHECK: THREAD_ACQUIRE_LOCK: 1
// CHECK: THREAD_RELEASE_LOCK: 1
