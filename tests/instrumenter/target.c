// The target family: events on the host around the construct, nothing inside device code (not
// even the teams, parallel and loop constructs nested in it). Runs on the host device here.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

int main(void) {
  int a[100], sum = 0;
  for (int i = 0; i < 100; i++)
    a[i] = i;
  // CHECK: POMP_Target_data_enter_notid(&pomp_handle_[[D:[0-9]+]], -1, pomp_ctc_[[D]]);
  // CHECK-NEXT: #pragma omp target data map(to : a)
#pragma omp target data map(to : a)
  {
    // CHECK: POMP_Target_enter_notid(&pomp_handle_[[T:[0-9]+]], (int)(0), pomp_ctc_[[T]]);
    // CHECK-NEXT: #pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum) device(0)
    // CHECK-NEXT: for (int i = 0; i < 100; i++)
    // CHECK-NEXT: sum += a[i];{{$}}
    // CHECK-NEXT: POMP_Target_exit_notid(pomp_handle_[[T]]);
#pragma omp target teams distribute parallel for reduction(+ : sum) map(tofrom : sum) device(0)
    for (int i = 0; i < 100; i++)
      sum += a[i];
    // CHECK: #pragma omp target
    // CHECK-NEXT: {
    // CHECK-NEXT: #pragma omp parallel for reduction(+ : sum)
#pragma omp target map(tofrom : sum)
    {
#pragma omp parallel for reduction(+ : sum)
      for (int i = 0; i < 10; i++)
        sum += 1;
    }
  }
  // CHECK: #pragma omp target update to(a)
  // CHECK-NEXT: POMP_Target_data_event_notid(&pomp_handle_[[U:[0-9]+]], -1, pomp_ctc_[[U]]);
#pragma omp target update to(a)
  printf("sum=%d\n", sum);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS-NOT: Parallel
// EVENTS: Target_enter 2
// EVENTS-NEXT: Target_exit 2
// EVENTS-NEXT: Target_data_enter 1
// EVENTS-NEXT: Target_data_exit 1
// EVENTS-NEXT: Target_data_event 1
// EVENTS-NEXT: violations 0
