// OpenMP API calls go through POMP wrappers that call the real routine and emit its events,
// with the call site's handle; a routine whose address is taken is replaced by a per-site
// function of the same signature. At the Runtime group's event level the Table 8 routines are
// wrapped too and omp_set_lock emits one event.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 1,3 --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %ompinst %s -o %t.event.c --no-line-directives --level=runtime=event
// RUN: %strip-checks %t.event.c | %FileCheck --check-prefix=EVENT-LEVEL %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 3 --original %s --instrumented %t.event.c | %FileCheck --check-prefix=EVENT-LEVEL-EVENTS %s
// CHECK-DAG: pomp_ctc_[[S:[0-9]+]][] = "{{[0-9]+}}*type=apicall*name=omp_set_lock*file={{.*}}";
// CHECK-DAG: #include "pomp_omp_wrappers.h"
// CHECK-DAG: static void pomp_address_[[A:[0-9]+]](omp_lock_t * pomp_arg0) { POMP_Wrap_omp_unset_lock(&pomp_handle_[[A]], pomp_ctc_[[A]], pomp_arg0); }
#include <omp.h>
#include <stdio.h>

int main(void) {
  omp_lock_t lock;
  omp_nest_lock_t nest;
  int count = 0, nested = 0, threads = 0;
  void (*release)(omp_lock_t *) = omp_unset_lock;
  // CHECK: void (*release)(omp_lock_t *) = pomp_address_[[A]];
  // CHECK: POMP_Wrap_omp_init_lock(&pomp_handle_{{[0-9]+}}, pomp_ctc_{{[0-9]+}}, &lock);
  omp_init_lock(&lock);
  omp_init_nest_lock(&nest);
#pragma omp parallel
  {
    // CHECK: POMP_Wrap_omp_set_lock(&pomp_handle_[[S]], pomp_ctc_[[S]], &lock);
    // EVENT-LEVEL: POMP_Wrap_omp_set_lock_event(&pomp_handle_{{[0-9]+}}, pomp_ctc_{{[0-9]+}}, &lock);
    omp_set_lock(&lock);
    count++;
    release(&lock);
    omp_set_nest_lock(&nest);
    omp_set_nest_lock(&nest);
    // Its own counter: `count` under the other lock would race with this increment.
    nested++;
    omp_unset_nest_lock(&nest);
    omp_unset_nest_lock(&nest);
    // Table 8 routines are single events: not at the default enterexit level.
    // CHECK: if (omp_get_thread_num() == 0)
    // EVENT-LEVEL: if (POMP_Wrap_omp_get_thread_num(&pomp_handle_{{[0-9]+}}, pomp_ctc_{{[0-9]+}}) == 0)
    if (omp_get_thread_num() == 0)
      threads = omp_get_num_threads();
  }
  omp_destroy_nest_lock(&nest);
  omp_destroy_lock(&lock);
  printf("count=%d nested=%d threads=%d\n", count, nested, threads);
  return 0;
}

// EVENTS-LABEL: threads 3
// EVENTS: Init_lock_event 1
// EVENTS-NEXT: Destroy_lock_event 1
// EVENTS-NEXT: Set_lock_enter 3
// EVENTS-NEXT: Set_lock_exit 3
// EVENTS-NEXT: Unset_lock_event 3
// EVENTS-NEXT: Init_nest_lock_event 1
// EVENTS-NEXT: Destroy_nest_lock_event 1
// EVENTS-NEXT: Set_nest_lock_enter 6
// EVENTS-NEXT: Set_nest_lock_exit 6
// EVENTS-NEXT: Unset_nest_lock_event 6
// EVENTS-NEXT: violations 0

// EVENT-LEVEL-EVENTS: Set_lock_event 3
// EVENT-LEVEL-EVENTS: Set_nest_lock_event 6
// EVENT-LEVEL-EVENTS: Get_num_threads_event 1
// EVENT-LEVEL-EVENTS-NEXT: Get_thread_num_event 3
// EVENT-LEVEL-EVENTS: violations 0
