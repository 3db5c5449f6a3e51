// Host teams combined constructs get Teams_enter/exit around them (there is no place inside the
// teams region outside its loop); directives left alone get a warning at their file:line.
// RUN: %ompinst %s -o %t.c --no-line-directives 2>&1 | %FileCheck --check-prefix=WARN %s
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=teamsdistribute*file={{[^*]*}}teams_combined.c*slines=19,19*
// CHECK-DAG: "{{[0-9]+}}*type=teamsdistributeparallelfor*file={{[^*]*}}teams_combined.c*slines=23,23*
// CHECK-DAG: "{{[0-9]+}}*type=teams*file={{[^*]*}}teams_combined.c*slines=26,26*
#include <omp.h>
#include <stdio.h>

int main(void) {
  int a[100] = {0};
  omp_depend_t dep;
  int x = 0;
  // CHECK: POMP_Context_t pomp_ctx_[[T:[0-9]+]]; pomp_ctx_[[T]] = POMP_Teams_enter_ctx_notid(&pomp_handle_[[T]], -1, -1, pomp_ctc_[[T]]);
  // CHECK-NEXT: #pragma omp teams distribute num_teams(2){{$}}
  // CHECK: POMP_Teams_exit_notid(pomp_handle_[[T]]);
#pragma omp teams distribute num_teams(2)
  for (int i = 0; i < 100; i++)
    a[i] += 1;
  // CHECK: #pragma omp teams distribute parallel for simd num_teams(2){{$}}
#pragma omp teams distribute parallel for simd num_teams(2)
  for (int i = 0; i < 100; i++)
    a[i] += 1;
#pragma omp teams loop num_teams(2)
  for (int i = 0; i < 100; i++)
    a[i] += 1;
  // WARN: teams_combined.c:[[@LINE+2]]:1: warning: OpenMP 'depobj' construct is not instrumented: the POMP API has no event for it
  // CHECK: #pragma omp depobj(dep) depend(inout : x){{$}}
#pragma omp depobj(dep) depend(inout : x)
  // WARN: teams_combined.c:[[@LINE+1]]:1: warning: OpenMP 'depobj' construct is not instrumented
#pragma omp depobj(dep) destroy
  int s = 0;
  for (int i = 0; i < 100; i++)
    s += a[i];
  printf("%d\n", s);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Teams_enter 3
// EVENTS-NEXT: Teams_exit 3
// EVENTS: violations 0
