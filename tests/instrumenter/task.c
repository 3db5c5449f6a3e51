// Tasks: creation in the encountering thread with the if clause evaluated once and the task's
// context passed in; begin/end where the task runs; taskwait, taskgroup, taskyield, taskloop.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

static int fib(int n) {
  int x, y;
  if (n < 2)
    return n;
  // CHECK: POMP_Context_t pomp_task_[[T:[0-9]+]]; int pomp_if_[[T]] = !!(n > 10); pomp_task_[[T]] = POMP_Task_create_enter_ctx_notid(&pomp_handle_[[T]], pomp_if_[[T]], pomp_ctc_[[T]]);
  // CHECK-NEXT: #pragma omp task shared(x) if(pomp_if_[[T]]) firstprivate(pomp_task_[[T]])
  // CHECK-NEXT: { POMP_Task_begin_notid(pomp_handle_[[T]], pomp_task_[[T]]); x = fib(n - 1); POMP_Task_end_notid(pomp_handle_[[T]]); } POMP_Task_create_exit_notid(pomp_handle_[[T]]);
#pragma omp task shared(x) if(n > 10)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
  // CHECK: POMP_Taskwait_enter_notid(&pomp_handle_[[W:[0-9]+]], pomp_ctc_[[W]]);
  // CHECK-NEXT: #pragma omp taskwait
  // CHECK-NEXT: POMP_Taskwait_exit_notid(pomp_handle_[[W]]);
#pragma omp taskwait
  return x + y;
}

int main(void) {
  int result = 0, total = 0;
#pragma omp parallel
#pragma omp single
  {
    result = fib(12);
    // CHECK: POMP_Taskgroup_enter_notid(&pomp_handle_[[G:[0-9]+]], pomp_ctc_[[G]]);
    // CHECK-NEXT: #pragma omp taskgroup
    // CHECK-NEXT: { POMP_Taskgroup_begin_notid(pomp_handle_[[G]]);
#pragma omp taskgroup
    {
#pragma omp task shared(total)
      {
#pragma omp atomic
        total += 1;
      }
      // CHECK: POMP_Taskyield_enter_notid(&pomp_handle_[[Y:[0-9]+]], pomp_ctc_[[Y]]);
#pragma omp taskyield
    }
    // CHECK: POMP_Taskloop_enter_notid(&pomp_handle_[[L:[0-9]+]], pomp_ctc_[[L]]);
    // CHECK-NEXT: #pragma omp taskloop grainsize(4) reduction(+ : total)
#pragma omp taskloop grainsize(4) reduction(+ : total)
    for (int i = 0; i < 16; i++)
      total += i;
    // CHECK-NEXT: for (int i = 0; i < 16; i++)
    // CHECK-NEXT: total += i;{{$}}
    // CHECK-NEXT: POMP_Taskloop_exit_notid(pomp_handle_[[L]]);
  }
  printf("fib(12)=%d total=%d\n", result, total);
  return 0;
}

// fib(12) makes 2 * (calls with n >= 2) = 2 * 232 tasks and 232 taskwaits.
// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 465
// EVENTS-NEXT: Task_create_exit 465
// EVENTS-NEXT: Task_begin 465
// EVENTS-NEXT: Task_end 465
// EVENTS-NEXT: Taskwait_enter 232
// EVENTS-NEXT: Taskwait_exit 232
// EVENTS-NEXT: Taskgroup_enter 1
// EVENTS-NEXT: Taskgroup_begin 1
// EVENTS-NEXT: Taskgroup_end 1
// EVENTS-NEXT: Taskgroup_exit 1
// EVENTS-NEXT: Taskyield_enter 1
// EVENTS-NEXT: Taskyield_exit 1
// EVENTS-NEXT: Taskloop_enter 1
// EVENTS-NEXT: Taskloop_exit 1
// EVENTS: violations 0
