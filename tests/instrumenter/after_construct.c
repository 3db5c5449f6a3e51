// A construct written right after another instrumented construct, in the same block and without a
// label, whose code starts with its enter event (no if or num_threads value evaluated first) gets
// the key afterConstruct in its CTC string when the construct before it ends with an exit event: no
// code runs between that exit and this enter but brief statements (BriefCode.h), and libpomp's
// enter takes the exit's time instead of reading the clock again (docs/INSTRUMENTER.md,
// "Constructs one after another"). Loops: after_construct_loop.c. So does the
// first statement of a construct's block that starts with a begin event (a parallel's, a
// single's, a task's), and the loop of a split parallel for. A master construct ends without an
// exit, an API call is not a construct, a block that ends with a construct is not one either.
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %FileCheck %s <%t.c
// RUN: %strip-checks %t.c | grep -c 'afterConstruct=1' | %FileCheck --check-prefix=COUNT %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
#include <omp.h>
#include <stdio.h>

static int Count;
#define ADD(X) __atomic_add_fetch(&Count, (X), __ATOMIC_RELAXED)
static int one(void) { return 1; }

int main(void) {
  omp_lock_t L;
  omp_init_lock(&L);
#pragma omp parallel
  {
    // First in the parallel's block, after its begin.
    // CHECK-DAG: "{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+17]],[[@LINE+17]]*afterConstruct=1*function=main**"
#pragma omp single
    {
      ADD(one());
      // After a statement that calls a function.
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp task
      ADD(2);
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp task
      ADD(3);
      // The if value is evaluated before the enter.
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasIf=1*function=main**"
#pragma omp task if (Count > 0)
      ADD(4);
      // CHECK-DAG: "{{[0-9]+}}*type=taskwait*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp taskwait
    }
    // After the single's exit.
    // CHECK-DAG: "{{[0-9]+}}*type=for*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+3]],[[@LINE+3]]*hasNowait=1*afterConstruct=1*function=main**"
#pragma omp for nowait
    for (int I = 0; I < 4; ++I)
      ADD(I);
    // CHECK-DAG: "{{[0-9]+}}*type=barrier*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+1]],[[@LINE+1]]*afterConstruct=1*function=main**"
#pragma omp barrier
    // A master construct starts with its begin, inside the test of the thread.
    // CHECK-DAG: "{{[0-9]+}}*type=master*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp master
    ADD(5);
    // After a master construct, which ends with its end on one thread only.
    // CHECK-DAG: "{{[0-9]+}}*type=critical*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp critical
    ADD(6);
    // CHECK-DAG: "{{[0-9]+}}*type=critical*name=named*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp critical(named)
    ADD(7);
    omp_set_lock(&L);
    omp_unset_lock(&L);
    // After an API call.
    // CHECK-DAG: "{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp single
    ADD(8);
    if (Count < 0)
      goto Skip;
#pragma omp single
    ADD(9);
    // Labelled: the goto comes from elsewhere.
  Skip:
    // CHECK-DAG: "{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp single
    ADD(10);
    {
#pragma omp single
      ADD(11);
    }
    // After a block.
    // CHECK-DAG: "{{[0-9]+}}*type=single*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*function=main**"
#pragma omp single
    ADD(12);
  }
  // The num_threads value is evaluated before the fork.
  // CHECK-DAG: "{{[0-9]+}}*type=parallel*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasNumThreads=1*function=main**"
#pragma omp parallel num_threads(2)
  ADD(13);
  // CHECK-DAG: "{{[0-9]+}}*type=parallel*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*afterConstruct=1*function=main**"
#pragma omp parallel
  ADD(14);
  // The loop of a split parallel for starts right after the team's begin.
  // CHECK-DAG: "{{[0-9]+}}*type=for*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+3]],[[@LINE+3]]*afterConstruct=1*function=main**"
#pragma omp parallel for
  for (int I = 0; I < 4; ++I)
    ADD(15);
#pragma omp parallel
#pragma omp single
  {
    // A brief declaration (a scalar initialised without a call) comes between.
    int First = 16;
    // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+7]],[[@LINE+7]]*hasFirstprivate=1*afterConstruct=1*function=main**"
#pragma omp task firstprivate(First)
    {
      // First in the task's block, after its begin.
      // CHECK-DAG: "{{[0-9]+}}*type=task*file={{[^*]*}}after_construct.c*slines=[[@LINE+1]],[[@LINE+1]]*elines=[[@LINE+2]],[[@LINE+2]]*hasFirstprivate=1*afterConstruct=1*function=main**"
#pragma omp task firstprivate(First)
      ADD(First);
    }
  }
  omp_destroy_lock(&L);
  printf("count %d\n", Count);
  return 0;
}

// COUNT: 11

// EVENTS-LABEL: threads 2
// EVENTS: Task_create_enter 5
// EVENTS: Taskwait_enter 1
// EVENTS: violations 0
