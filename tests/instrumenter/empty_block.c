// Constructs and functions whose block is empty (`{}`): the block's begin and end code go to one
// offset, where the end of one construct goes before the begin of the next; a block's own end must
// follow its begin. DataRaceBench's DRB132 (`task if(0) {}`) had Task_end before Task_begin: an
// unmatched end and a region closed early in every profile.
// RUN: %ompinst %s -o %t.c --no-line-directives --functions
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --threads 2 --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

// CHECK: void empty(void) { POMP_Function_begin_notid(&pomp_handle_[[F:[0-9]+]], pomp_ctc_[[F]]); POMP_Function_end_notid(pomp_handle_[[F]]); }
void empty(void) {}

int main(void) {
  int x = 0;
#pragma omp parallel
#pragma omp single
  {
#pragma omp task depend(inout : x) shared(x)
    x++;
    // CHECK: #pragma omp task depend(in : x) if (pomp_if_[[T:[0-9]+]]) firstprivate(pomp_task_[[T]])
    // CHECK-NEXT: { POMP_Task_begin_notid(pomp_handle_[[T]], pomp_task_[[T]]); POMP_Task_end_notid(pomp_handle_[[T]]); } POMP_Task_create_exit_notid(pomp_handle_[[T]]);
#pragma omp task depend(in : x) if (0)
    {}
    // CHECK: #pragma omp critical
    // CHECK-NEXT: { POMP_Critical_begin_notid(pomp_handle_[[C:[0-9]+]]); POMP_Critical_end_notid(pomp_handle_[[C]]); } POMP_Critical_exit_notid(pomp_handle_[[C]]);
#pragma omp critical
    {}
  }
  empty();
  printf("x=%d\n", x);
  return 0;
}

// The event checker (libpomp_check) sees every begin before its end: no violation.
// EVENTS-LABEL: threads 2
// EVENTS: Critical_begin 1
// EVENTS-NEXT: Critical_end 1
// EVENTS: Task_begin 2
// EVENTS-NEXT: Task_end 2
// EVENTS-NEXT: Function_begin 1
// EVENTS-NEXT: Function_end 1
// EVENTS-NEXT: violations 0
