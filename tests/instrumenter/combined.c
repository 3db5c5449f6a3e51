// Combined parallel constructs are split into a parallel region and its worksharing construct,
// each clause going to the half it applies to, so every thread's begin/end and the worksharing
// events are visible; if and num_threads are evaluated once.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=parallelfor*{{.*}}*schedule=static*hasFirstprivate=1*hasLastprivate=1*hasReduction=1*hasNumThreads=1*function={{[^*]+}}**"
// CHECK-DAG: "{{[0-9]+}}*type=for*{{.*}}*schedule=static*
// CHECK-DAG: "{{[0-9]+}}*type=parallelsections*
#include <stdio.h>

int main(void) {
  int sum = 0, last = 0, x = 0, y = 0, offset = 5, masked_runs = 0;
  // CHECK: { POMP_Context_t pomp_ctx_[[P:[0-9]+]]; int pomp_num_threads_[[P]] = (int)(3); pomp_ctx_[[P]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[P]], pomp_num_threads_[[P]], -1, pomp_ctc_[[P]]);
  // CHECK-NEXT: #pragma omp parallel num_threads(pomp_num_threads_[[P]]) default(none) shared(sum, offset, last) firstprivate(pomp_ctx_[[P]]) shared(pomp_handle_[[P]], pomp_ctc_[[P]],
  // CHECK-NEXT: { int pomp_join_[[P]]; POMP_Parallel_begin_forked_notid(pomp_handle_[[P]], pomp_ctx_[[P]]); { POMP_Loop_enter_notid(&pomp_handle_[[L:[0-9]+]], -1, (int64_t)(0), ((int64_t)(30) - 1), 1, pomp_ctc_[[L]]);
  // CHECK-NEXT: #pragma omp for schedule(static) reduction(+ : sum) firstprivate(offset) lastprivate(offset, last) nowait
#pragma omp parallel for num_threads(3) default(none) schedule(static) reduction(+ : sum) \
    firstprivate(offset) lastprivate(offset, last)
  for (int i = 0; i < 30; i++) {
    sum += i + offset;
    last = i;
  }
  // The worksharing half's barrier is the team's last: it, Loop_exit and Parallel_end run only
  // when POMP_Join_barrier_needed() says so, asked once per thread.
  // CHECK: POMP_Implicit_barrier_enter_notid({{.*}}); if ((pomp_join_[[P]] = POMP_Join_barrier_needed(pomp_ctx_[[P]]))) {
  // CHECK-NEXT: #pragma omp barrier
  // CHECK-NEXT: POMP_Implicit_barrier_exit_notid({{.*}}); POMP_Loop_exit_notid(pomp_handle_[[L]]); } } if (pomp_join_[[P]]) { POMP_Parallel_end_notid(pomp_handle_[[P]]); } } POMP_Parallel_exit_notid(pomp_handle_[[P]]); }

  // CHECK: #pragma omp parallel firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: { int pomp_join_{{[0-9]+}}; POMP_Parallel_begin_forked_notid({{.*}}); { POMP_Sections_enter_notid(
  // CHECK-NEXT: #pragma omp sections nowait
#pragma omp parallel sections
  {
#pragma omp section
    x = 1;
#pragma omp section
    y = 2;
  }
  // The masked half has no barrier: the team's join barrier is shown instead.
  // CHECK: #pragma omp parallel reduction(+ : masked_runs) firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: { POMP_Parallel_begin_forked_notid({{.*}});
  // CHECK-NEXT: #pragma omp masked filter(0)
  // CHECK-NEXT: { POMP_Masked_begin_notid({{.*}}); masked_runs++; POMP_Masked_end_notid({{.*}}); } POMP_Implicit_barrier_enter_notid(
#pragma omp parallel masked filter(0) reduction(+ : masked_runs)
  masked_runs++;
  printf("sum=%d last=%d offset=%d x=%d y=%d masked=%d\n", sum, last, offset, x, y, masked_runs);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 3
// EVENTS-NEXT: Parallel_begin_forked 7
// EVENTS-NEXT: Parallel_end 7
// EVENTS-NEXT: Parallel_exit 3
// EVENTS-NEXT: Loop_enter 3
// EVENTS-NEXT: Loop_exit 3
// EVENTS-NEXT: Sections_enter 2
// EVENTS-NEXT: Section_begin 2
// EVENTS-NEXT: Section_end 2
// EVENTS-NEXT: Sections_exit 2
// EVENTS-NEXT: Masked_begin 1
// EVENTS-NEXT: Masked_end 1
// EVENTS-NEXT: Implicit_barrier_enter 7
// EVENTS-NEXT: Implicit_barrier_exit 7
// EVENTS-NEXT: violations 0
