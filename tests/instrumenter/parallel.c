// A parallel region: fork with the evaluated if/num_threads values and the master's context,
// begin/end in every team thread, the join barrier made visible, exit in the master.
// RUN: %ompinst %s -o %t.c --no-line-directives -- -std=c11
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// The CTC strings name the construct and its lines.
// CHECK-DAG: pomp_ctc_[[H:[0-9]+]][] = "{{[0-9]+}}*type=parallel*file={{[^*]*}}parallel.c*slines=18,18*elines=26,26*hasReduction=1*hasIf=1*hasNumThreads=1*function={{[^*]+}}**";
// CHECK-DAG: pomp_ctc_[[B:[0-9]+]][] = "{{[0-9]+}}*type=implicitbarrier*file={{[^*]*}}parallel.c*slines=18,18*elines=26,26*hasReduction=1*hasIf=1*hasNumThreads=1*function={{[^*]+}}**";
#include <stdio.h>

static int work(int n) { return n * 2; }

int main(void) {
  int sum = 0, calls = 0;
  // CHECK: POMP_Context_t pomp_ctx_[[H]]; int pomp_if_[[H]] = !!( ++calls > 0); int pomp_num_threads_[[H]] = (int)(work(1));
  // CHECK-SAME: pomp_ctx_[[H]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[H]], pomp_num_threads_[[H]], pomp_if_[[H]], pomp_ctc_[[H]]);
  // CHECK-NEXT: #pragma omp parallel if(pomp_if_[[H]]) num_threads(pomp_num_threads_[[H]]) reduction(+ : sum) firstprivate(pomp_ctx_[[H]])
#pragma omp parallel if( ++calls > 0) num_threads(work(1)) reduction(+ : sum)
  // CHECK-NEXT: { POMP_Parallel_begin_forked_notid(pomp_handle_[[H]], pomp_ctx_[[H]]);
  {
    sum += 1;
  // CHECK: POMP_Implicit_barrier_enter_notid(&pomp_handle_[[B]], pomp_ctc_[[B]]); if (POMP_Join_barrier_needed(pomp_ctx_[[H]])) {
  // CHECK-NEXT: #pragma omp barrier
  // CHECK-NEXT: POMP_Implicit_barrier_exit_notid(pomp_handle_[[B]]); POMP_Parallel_end_notid(pomp_handle_[[H]]);
  // CHECK-SAME: } } POMP_Parallel_exit_notid(pomp_handle_[[H]]);
  }
  // The explicit join barrier and the events after it run only when POMP_Join_barrier_needed()
  // says so (with OMPT merged, the runtime's join barrier closes their regions).
  // The if and num_threads expressions are evaluated exactly once.
  printf("sum=%d calls=%d\n", sum, calls);
  return 0;
}

// num_threads(2) wins over OMP_NUM_THREADS: two team threads whatever the thread count.
// EVENTS-LABEL: threads 1
// EVENTS-NEXT: Parallel_fork 1
// EVENTS-NEXT: Parallel_begin_forked 2
// EVENTS-NEXT: Parallel_end 2
// EVENTS-NEXT: Parallel_exit 1
// EVENTS-NEXT: Implicit_barrier_enter 2
// EVENTS-NEXT: Implicit_barrier_exit 2
// EVENTS-NEXT: violations 0
// EVENTS-LABEL: threads 4
// EVENTS-NEXT: Parallel_fork 1
// EVENTS-NEXT: Parallel_begin_forked 2
// EVENTS-NEXT: Parallel_end 2
// EVENTS-NEXT: Parallel_exit 1
// EVENTS-NEXT: Implicit_barrier_enter 2
// EVENTS-NEXT: Implicit_barrier_exit 2
// EVENTS-NEXT: violations 0
