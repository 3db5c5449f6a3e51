// The events that hand out a context are called in their form that returns it
// (pomp_context_forms.h), so the context variable's address never goes to a call. Compiled with
// -DPOMP_CONTEXT_BY_POINTER, the same output runs against a POMP library without those forms nor
// the forms without the thread id, which the prologue then defines as macros (the checking
// library built without them: a reference to one would not link) and records the same events;
// teams too, compiled only (gcc 12 has no host teams).
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c --check-lib %pomp_lib/libpomp_check_pointer.a --flags "-O1 -DPOMP_CONTEXT_BY_POINTER" | %FileCheck --check-prefix=EVENTS %s
// RUN: %ompinst %S/Inputs/teams.c -o %t-teams.c --no-line-directives
// RUN: %FileCheck --check-prefix=TEAMS %s < %t-teams.c
// RUN: %clang -fopenmp -O1 -I %pomp_include -DPOMP_CONTEXT_BY_POINTER -c %t-teams.c -o %t-teams.o
// RUN: nm %t-teams.o | %FileCheck --check-prefix=POINTER --implicit-check-not=_ctx %s
// RUN: %clang -fopenmp -O1 -I %pomp_include -c %t-teams.c -o %t-teams.o
// RUN: nm %t-teams.o | %FileCheck --check-prefix=VALUE %s
// RUN: rm -f %t-teams.o
#include <stdio.h>

int main(void) {
  int sum = 0, tasks = 0;
  // CHECK: #include "pomp_types.h"
  // CHECK-NEXT: #ifndef POMPLIB_H
  // CHECK-NEXT: #include "pomp_context_forms.h"
  // CHECK-NOT: POMP_Parallel_fork(
  // CHECK: POMP_Context_t pomp_ctx_[[P:[0-9]+]]; pomp_ctx_[[P]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[P]], -1, -1, pomp_ctc_[[P]]);
  // CHECK-NEXT: #pragma omp parallel reduction(+ : sum) firstprivate(pomp_ctx_[[P]])
#pragma omp parallel reduction(+ : sum)
  {
    sum += 1;
    // CHECK: POMP_Context_t pomp_task_[[T:[0-9]+]]; pomp_task_[[T]] = POMP_Task_create_enter_ctx_notid(&pomp_handle_[[T]], -1, pomp_ctc_[[T]]);
    // CHECK-NEXT: #pragma omp task shared(tasks) firstprivate(pomp_task_[[T]])
#pragma omp single
#pragma omp task shared(tasks)
    tasks++;
  }
  // The split combined construct: the same form.
  // CHECK: { POMP_Context_t pomp_ctx_[[C:[0-9]+]]; pomp_ctx_[[C]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[C]], -1, -1, pomp_ctc_[[C]]);
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 10; i++)
    sum += i;
  printf("sum=%d tasks=%d\n", sum >= 55, tasks);
  return 0;
}

// EVENTS-LABEL: threads 1
// EVENTS: Parallel_fork 2
// EVENTS: Task_create_enter 1
// EVENTS: violations 0
// EVENTS-LABEL: threads 4
// EVENTS: Parallel_fork 2
// EVENTS-NEXT: Parallel_begin_forked 8
// EVENTS: Task_create_enter 1
// EVENTS: violations 0

// TEAMS: pomp_ctx_[[E:[0-9]+]] = POMP_Teams_enter_ctx_notid(&pomp_handle_[[E]], -1, -1, pomp_ctc_[[E]]);
// POINTER: U POMP_Teams_enter{{$}}
// VALUE: U POMP_Teams_enter_ctx_notid{{$}}
