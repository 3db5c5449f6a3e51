// With --thread-ids, where OpenMP forbids runtime calls (strictly inside a host teams region, in
// loop, simd and order(concurrent) regions) the events get the thread number -1 ("not available")
// instead of omp_get_thread_num(); a parallel region nested there has thread numbers again.
// RUN: %ompinst %s -o %t.c --no-line-directives --thread-ids
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int a[100] = {0};
  // CHECK: POMP_Teams_enter_ctx(&pomp_handle_[[T:[0-9]+]], omp_get_thread_num(), -1, -1,
  // CHECK-NEXT: #pragma omp teams num_teams(2) firstprivate(pomp_ctx_[[T]])
  // CHECK-NEXT: { POMP_Teams_begin_notid(pomp_handle_[[T]], pomp_ctx_[[T]]);
#pragma omp teams num_teams(2)
  {
    // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_[[P:[0-9]+]],
    // CHECK: { POMP_Parallel_begin_forked(pomp_handle_[[P]], omp_get_thread_num(),
    // One thread: libgomp and libomp size a team nested in teams differently.
#pragma omp parallel num_threads(1)
    {
      // CHECK: POMP_Loop_enter(&pomp_handle_[[F:[0-9]+]], omp_get_thread_num(),
#pragma omp for
      for (int i = 0; i < 100; i++)
        __atomic_fetch_add(&a[i], 1, __ATOMIC_RELAXED); // both teams' threads add (libomp runs them at once)
      // CHECK: POMP_Parallel_end(pomp_handle_[[P]], omp_get_thread_num()); } } POMP_Parallel_exit_notid(pomp_handle_[[P]]);
    }
    // CHECK-NEXT: POMP_Teams_end_notid(pomp_handle_[[T]]); } POMP_Teams_exit(pomp_handle_[[T]], omp_get_thread_num());
  }
  // CHECK: #pragma omp for order(concurrent) nowait
#pragma omp parallel for order(concurrent)
  for (int i = 0; i < 10; i++) {
    // CHECK: POMP_Loop_enter_notid(&pomp_handle_{{[0-9]+}},
#pragma omp simd
    for (int j = 0; j < 10; j++)
      a[10 * i + j] += 1;
  }
#pragma omp parallel
  // CHECK: POMP_Loop_enter(&pomp_handle_{{[0-9]+}}, omp_get_thread_num(),
  // CHECK-NEXT: #pragma omp loop
#pragma omp loop
  for (int i = 0; i < 100; i++) {
    // CHECK: POMP_Parallel_fork_ctx_notid(&pomp_handle_[[Q:[0-9]+]],
    // CHECK: POMP_Parallel_begin_forked(pomp_handle_[[Q]], omp_get_thread_num(),
#pragma omp parallel if(0)
    a[i] += 1;
  }
  // CHECK: POMP_Loop_enter(&pomp_handle_{{[0-9]+}}, omp_get_thread_num(),
  // CHECK-NEXT: #pragma omp simd
#pragma omp simd
  for (int i = 0; i < 100; i++) {
    // CHECK: POMP_Atomic_event_notid(&pomp_handle_{{[0-9]+}},
#pragma omp atomic
    a[i] += 1;
  }
  int s = 0;
  for (int i = 0; i < 100; i++)
    s += a[i];
  printf("%d\n", s);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Teams_enter 1
// EVENTS: violations 0
