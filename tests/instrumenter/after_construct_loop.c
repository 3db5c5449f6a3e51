// A plain loop that starts right after a construct's exit event or a block's begin event, with
// only brief code between (no call, no loop, no jump, scalar declarations), and whose body
// repeats constructs with only brief code between the last one's exit and the first one's enter,
// gets the key afterConstruct on that first construct when it starts with its enter event: in the
// first iteration the construct follows the exit or begin before the loop, in every later one the
// last construct's exit (docs/INSTRUMENTER.md, "Constructs in a loop"). The statement after such
// a loop follows the last construct's exit unless a break may leave the loop in between. Brief
// statements between two constructs of a block keep the second one marked.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %FileCheck %s <%t.c
// RUN: %strip-checks %t.c | grep -c 'afterConstruct=1' | %FileCheck --check-prefix=COUNT %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <omp.h>
#include <stdio.h>

static int Count;
#define ADD(X) __atomic_add_fetch(&Count, (X), __ATOMIC_RELAXED)

struct Pair {
  int A, B;
};

static int next(int I) { return I + 1; }

int main(void) {
  struct Pair P = {1, 2}, Q = {0, 0};
  int J = 0;
#pragma omp parallel
#pragma omp single
  {
    // First in the single's block: the begin's time, then the task's own exit's.
    for (int I = 0; I < 3; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task
      ADD(1);
    }
    // After a loop that ends with the task's exit.
    // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp taskwait
    J = 0;
    // After brief statements; a brief declaration, the task, a taskwait, a brief increment.
    while (J < 2) {
      int K = J * 2;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasFirstprivate=1*afterConstruct=1*function=main**"
#pragma omp task firstprivate(K)
      ADD(K);
      // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp taskwait
      J++;
    }
    do {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task
      ADD(3);
    } while (++J < 4);
    // A call in the increment.
    for (int I = 0; I < 2; I = next(I)) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(4);
    }
    // After that loop.
    // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*function=main**"
#pragma omp taskwait
    // A loop after a call.
    J = next(J);
    for (int I = 0; I < 2; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(5);
    }
#pragma omp taskwait
    // A call after the body's construct.
    for (int I = 0; I < 2; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(6);
      J = next(J);
    }
#pragma omp taskwait
    // A continue skips the rest of the body.
    for (int I = 0; I < 3; ++I) {
      if (I == 1)
        continue;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(7);
    }
#pragma omp taskwait
    // A break between the body's first and last constructs: the first one is marked, the
    // statement after the loop is not.
    for (int I = 0; I < 3; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task
      ADD(8);
      if (I == 1)
        break;
      // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp taskwait
    }
    // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*function=main**"
#pragma omp taskwait
#pragma omp taskwait
    // The if value is evaluated before the enter.
    for (int I = 0; I < 2; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasIf=1*function=main**"
#pragma omp task if (I > 0)
      ADD(9);
    }
#pragma omp taskwait
    // A goto in the body.
    for (int I = 0; I < 2; ++I) {
      if (Count < 0)
        goto Out;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(10);
    }
  Out:;
#pragma omp taskwait
    // A structure copied.
    for (int I = 0; I < 2; ++I) {
      Q = P;
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(Q.A + 10);
    }
#pragma omp taskwait
    // A variably modified type evaluates its size, here with a call.
    for (int I = 0; I < 2; ++I) {
      J = (int)sizeof(int[next(I)]);
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(11);
    }
#pragma omp taskwait
    // A loop in the loop: neither is marked.
    for (int I = 0; I < 2; ++I)
      for (int K = 0; K < 2; ++K) {
        // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
        ADD(12);
      }
  }
#pragma omp parallel
  {
    // A worksharing loop: the runtime hands out its iterations.
    // CHECK-DAG: "{{[0-9]+}}*type=for*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+6]],[[@LINE+6]]*afterConstruct=1*function=main**"
#pragma omp for
    for (int I = 0; I < 4; ++I) {
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(13);
    }
    // After the master's begin.
#pragma omp master
    {
      for (int I = 0; I < 3; ++I) {
        // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task
        ADD(14);
      }
    }
  }
  // The parallel's block is the loop; its last construct is a barrier.
#pragma omp parallel
  for (int I = 0; I < 2; ++I) {
    // CHECK-DAG: "{{[0-9]+}}*type=critical*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp critical
    ADD(15);
    // CHECK-DAG: "{{[0-9]+}}*type=barrier*file={{[^*]*}}after_construct_loop.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp barrier
  }
  printf("count %d %d\n", Count, J);
  return 0;
}

// COUNT: 16

// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 36
// EVENTS: Taskwait_enter 14
// EVENTS: violations 0
