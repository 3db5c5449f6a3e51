// A directive in a lambda inside an untied task's block leaves `directiveFree` out of the task's
// CTC string: the lambda's body is a function of its own, which Clang never splits into the
// task's parts, but the instrumenter counts every directive in the block (a safe overestimate). A
// lambda without one keeps the key (task_directive_free.c).
// RUN: %ompinst %s -o %t.cpp --no-line-directives -- -std=c++17
// RUN: %FileCheck %s <%t.cpp
// RUN: %run-equivalence --gcc %gxx --clang %clangxx  --flags "-O1 -std=c++17" --original %s --instrumented %t.cpp | %FileCheck --check-prefix=EVENTS %s
#include <cstdio>

int main() {
  int Sum = 0;
#pragma omp parallel
#pragma omp single
  {
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free_lambda.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+8]],[[@LINE+8]]*hasUntied=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Sum)
    {
      auto Add = [&Sum](int X) {
#pragma omp atomic
        Sum += X;
      };
      Add(1);
    }
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}task_directive_free_lambda.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+5]],[[@LINE+5]]*hasUntied=1*directiveFree=1*afterConstruct=1*function=main**"
#pragma omp task untied shared(Sum)
    {
      auto Add = [&Sum](int X) { __atomic_add_fetch(&Sum, X, __ATOMIC_RELAXED); };
      Add(2);
    }
  }
  std::printf("sum %d\n", Sum);
  return 0;
}

// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 2
// EVENTS: violations 0
