// Nested parallel regions pass each level's context inward; regions with default(none) (or
// default(firstprivate)) name the file's handles they use as shared, so they still compile.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <omp.h>
#include <stdio.h>

int main(void) {
  int inner_threads = 0;
  omp_set_max_active_levels(2);
  // CHECK: #pragma omp parallel num_threads(pomp_num_threads_[[O:[0-9]+]]) default(none) shared(inner_threads) firstprivate(pomp_ctx_[[O]]) shared(pomp_handle_[[O]], pomp_ctc_[[O]], {{.*}})
#pragma omp parallel num_threads(2) default(none) shared(inner_threads)
  {
    // CHECK: #pragma omp parallel num_threads(pomp_num_threads_[[I:[0-9]+]]) default(firstprivate) firstprivate(pomp_ctx_[[I]]) shared(pomp_handle_[[I]], pomp_ctc_[[I]],
#pragma omp parallel num_threads(2) default(firstprivate)
    {
#pragma omp atomic
      inner_threads += 1;
    }
  }
  printf("inner threads: %d\n", inner_threads);
  return 0;
}

// Two outer threads each fork a team of two.
// EVENTS-LABEL: threads 1
// EVENTS: Parallel_fork 3
// EVENTS-NEXT: Parallel_begin_forked 6
// EVENTS-NEXT: Parallel_end 6
// EVENTS-NEXT: Parallel_exit 3
// EVENTS: violations 0
