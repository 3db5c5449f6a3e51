// The loops of after_construct_loop.c in C++: code that calls nothing in C may call an operator,
// a constructor or a destructor here, or do so once a template is instantiated; such a loop's
// constructs are not marked afterConstruct (docs/INSTRUMENTER.md, "Constructs in a loop").
// RUN: %ompinst %s -o %t.cpp --no-line-directives
// RUN: %FileCheck %s <%t.cpp
// RUN: %strip-checks %t.cpp | grep -c 'afterConstruct=1' | %FileCheck --check-prefix=COUNT %s
// RUN: %run-equivalence --gcc %gxx --clang %clangxx --original %s --instrumented %t.cpp | %FileCheck --check-prefix=EVENTS %s
#include <omp.h>
#include <stdio.h>

static int Count;
#define ADD(X) __atomic_add_fetch(&Count, (X), __ATOMIC_RELAXED)

/// Its destructor runs when an iteration ends, after the body's last statement.
struct Guard {
  ~Guard() { ADD(100); }
};

/// Its comparison is a call.
struct Counter {
  int V;
  bool operator<(int N) const { return V < N; }
};

template <typename T> void repeatDependent(T N) {
#pragma omp taskwait
  // I < N may call an operator of T.
  for (int I = 0; I < N; ++I) {
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=repeatDependent**"
#pragma omp task
    ADD(1);
  }
}

template <int N> void repeatValue() {
#pragma omp taskwait
  // I < N compares two ints whatever N is.
  for (int I = 0; I < N; ++I) {
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=repeatValue**"
#pragma omp task
    ADD(2);
  }
}

int main() {
  Counter C{0};
  int Values[3] = {1, 2, 3};
#pragma omp parallel
#pragma omp single
  {
    for (int I = 0; I < 2; ++I) {
      Guard G;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(3);
    }
#pragma omp taskwait
    // The range's begin, end and increment.
    for (int V : Values) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasFirstprivate=1*function=main**"
#pragma omp task firstprivate(V)
      ADD(V);
    }
#pragma omp taskwait
    C.V = 0;
    while (C < 2) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(4);
      ++C.V;
    }
#pragma omp taskwait
    for (int I = 0; I < 2; ++I) {
      bool Even = I % 2 == 0;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.cpp*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasFirstprivate=1*afterConstruct=1*function=main**"
#pragma omp task firstprivate(Even)
      ADD(Even ? 5 : 6);
    }
    repeatDependent(2);
    repeatValue<2>();
  }
  printf("count %d\n", Count);
  return 0;
}

// COUNT: 3

// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 13
// EVENTS: violations 0
