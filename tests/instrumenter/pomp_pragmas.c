// POMP directives (paper sections 3.8 and 3.9) and OPARI2's spellings: user regions, events,
// init/finalize/on/off, a level for the next construct, noinstrument/instrument.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: pomp_ctc_[[R:[0-9]+]][] = "{{[0-9]+}}*type=userregion*name=solve*file={{.*}}";
// CHECK-DAG: pomp_ctc_[[E:[0-9]+]][] = "{{[0-9]+}}*type=userregion*name=checkpoint*file={{.*}}";
#include <stdio.h>

static int solve(int n) {
  int result = 0;
  // CHECK: POMP_User_region_begin_notid(&pomp_handle_[[R]], pomp_ctc_[[R]]);
#pragma pomp inst begin(solve)
  for (int i = 0; i < n; i++)
    result += i;
  if (result > 1000) {
    // CHECK: POMP_User_region_end_notid(pomp_handle_[[R]]);
#pragma pomp inst altend(solve)
    return -1;
  }
  // CHECK: POMP_User_region_end_notid(pomp_handle_[[R]]);
#pragma pomp inst end(solve)
  return result;
}

int main(void) {
  int total = 0;
  // CHECK: POMP_Init();
#pragma pomp inst init
  // CHECK: POMP_User_event_notid(&pomp_handle_[[E]], pomp_ctc_[[E]]);
#pragma pomp userregion event(checkpoint)
#pragma pomp userregion start(outer)
  total += solve(10);
  total += solve(100);
#pragma pomp userregion stop(outer)
  // The next construct gets enter/exit only; the one after it the default again.
#pragma pomp inst parallel enterexit
  // CHECK: #pragma omp parallel reduction(+ : total) firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: total += 1;
#pragma omp parallel reduction(+ : total)
  total += 1;
#pragma omp parallel reduction(+ : total)
  total += 1;
#pragma pomp noinstrument
  // CHECK: #pragma omp parallel reduction(+ : total){{$}}
#pragma omp parallel reduction(+ : total)
  total += 1;
#pragma pomp instrument
  // CHECK: POMP_Off();
#pragma pomp inst off
  // CHECK: POMP_On();
#pragma pomp inst on
  printf("total=%d\n", total);
  // CHECK: POMP_Finalize();
#pragma pomp inst finalize
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 2
// EVENTS-NEXT: Parallel_begin_forked 2
// EVENTS-NEXT: Parallel_end 2
// EVENTS-NEXT: Parallel_exit 2
// EVENTS: User_region_begin 3
// EVENTS-NEXT: User_region_end 3
// EVENTS-NEXT: User_event 1
// EVENTS: violations 0
