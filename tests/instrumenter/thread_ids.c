// The events' thread_id argument: by default none, the routines' forms without it (POMP_API.md,
// "Routines without the thread id"), since libpomp identifies threads itself; with --thread-ids
// the thread's number from the runtime, as in the paper's examples, also in the lock wrappers (a
// macro the output defines). Both outputs run alike.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck --implicit-check-not=omp_get_thread_num --implicit-check-not=POMP_THREAD_IDS %s
// RUN: %ompinst %s -o %t.ids.c --no-line-directives --thread-ids
// RUN: %strip-checks %t.ids.c | %FileCheck --check-prefix=IDS %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.ids.c | %FileCheck --check-prefix=EVENTS %s
#include <omp.h>
#include <stdio.h>

// CHECK: #include "pomp_omp_wrappers.h"
// IDS: #define POMP_THREAD_IDS 1
// IDS-NEXT: #include "pomp_omp_wrappers.h"
int main(void) {
  omp_lock_t lock;
  int sum = 0, masked = 0;
  omp_init_lock(&lock);
  // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_[[P:[0-9]+]], pomp_num_threads_[[P]],
  // CHECK: POMP_Parallel_begin_forked_notid(pomp_handle_[[P]], pomp_ctx_[[P]]);
  // IDS: POMP_Parallel_fork_ctx(&pomp_handle_[[P:[0-9]+]], omp_get_thread_num(),
  // IDS: POMP_Parallel_begin_forked(pomp_handle_[[P]], omp_get_thread_num(), pomp_ctx_[[P]]);
#pragma omp parallel num_threads(2)
  {
    omp_set_lock(&lock);
    sum += 1;
    omp_unset_lock(&lock);
    // CHECK: POMP_Masked_begin_notid(&pomp_handle_[[M:[0-9]+]], -1, pomp_ctc_[[M]]);
    // IDS: POMP_Masked_begin(&pomp_handle_[[M:[0-9]+]], omp_get_thread_num(), omp_get_thread_num(), pomp_ctc_[[M]]);
#pragma omp masked
    masked = 1;
  }
  // CHECK: POMP_Parallel_exit_notid(pomp_handle_[[P]]);
  // IDS: POMP_Parallel_exit(pomp_handle_[[P]], omp_get_thread_num());
  omp_destroy_lock(&lock);
  printf("sum %d masked %d\n", sum, masked);
  return 0;
}
// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 1
// EVENTS: Set_lock_enter 2
// EVENTS: violations 0
