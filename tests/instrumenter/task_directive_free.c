// An untied task whose block holds no OpenMP directive gets `directiveFree=1` in its CTC string:
// Clang ends an untied task's parts only at the scheduling points in its block, so libpomp need not
// follow such a task between threads (docs/OMPT.md). Any directive in the block, however deep or
// from a macro's _Pragma, leaves the key out (a lambda's: task_directive_free_lambda.cpp); tied
// tasks never get it.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %FileCheck %s <%t.c
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <stdio.h>

#define ATOMIC _Pragma("omp atomic")

static int twice(int X) { return 2 * X; }

int main(void) {
  int Sum = 0, Count = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int I = 0; I < 4; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasFirstprivate=1*hasUntied=1*directiveFree=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Count)
      __atomic_add_fetch(&Count, twice(I), __ATOMIC_RELAXED);
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+7]],[[@LINE+7]]*hasFirstprivate=1*hasUntied=1*directiveFree=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Count)
      {
        if (I % 2) {
          for (int K = 0; K < I; ++K)
            __atomic_add_fetch(&Count, 1, __ATOMIC_RELAXED);
        }
      }
    }
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+9]],[[@LINE+9]]*hasUntied=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Sum)
    {
      for (int K = 0; K < 3; ++K) {
        if (K) {
#pragma omp atomic
          Sum += K;
        }
      }
    }
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+5]],[[@LINE+5]]*hasUntied=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Sum)
    {
      ATOMIC
      Sum += 10;
    }
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task shared(Sum)
    __atomic_add_fetch(&Sum, 100, __ATOMIC_RELAXED);
  }
  printf("sum %d count %d\n", Sum, Count);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 11
// EVENTS-NEXT: Task_create_exit 11
// EVENTS-NEXT: Task_begin 11
// EVENTS-NEXT: Task_end 11
// EVENTS: violations 0
