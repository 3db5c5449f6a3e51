// Untied tasks whose block holds no OpenMP directive (CTC `directiveFree=1`, issue 15). Clang ends
// an untied task's parts only at the scheduling points in its own block, so such a task runs its
// block in one part, on one thread, even when a function it calls has scheduling points: libpomp
// does not follow such tasks between threads (their switches take no path of the OMPT adapter's).
// The called function creates a task, yields and waits, instrumented too, so that its regions
// open and close inside the untied task while other tasks run on top of it. Twenty runs on four
// threads must give the same exact tree with no anomaly, and no task may have moved: "moved 0"
// fails the test if a compiler ever splits such a task. The task that holds a directive keeps
// its CTC without the key, and so does the tied one.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/inst.c
// RUN: %FileCheck --check-prefix=CTC %s <%t/inst.c
// RUN: %clang -fopenmp -O1 -I%pomp_include %t/inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/merged
// RUN: %gcc -fopenmp -O1 -I%pomp_include %t/inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/gcc
// RUN: for I in $(seq 20); do env OMP_NUM_THREADS=4 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged$I %t/merged >%t/out$I && python3 %S/../runtime/Inputs/profile_tree.py %t/merged$I | sed -e 's/ threads=[0-9]*$//' >%t/merged$I.tree || exit 1; done
// RUN: for I in $(seq 2 20); do diff %t/merged1.tree %t/merged$I.tree && diff %t/out1 %t/out$I || exit 1; done
// RUN: %FileCheck --check-prefix=TREE --match-full-lines %s <%t/merged1.tree
// RUN: %FileCheck --check-prefix=OUT %s <%t/out1
// RUN: for I in $(seq 5); do env OMP_NUM_THREADS=4 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/gcc$I %t/gcc >%t/gout$I && python3 %S/../runtime/Inputs/profile_tree.py %t/gcc$I | sed -e 's/ threads=[0-9]*$//' >%t/gcc$I.tree || exit 1; done
// RUN: for I in $(seq 2 5); do diff %t/gcc1.tree %t/gcc$I.tree || exit 1; done
// RUN: diff %t/merged1.tree %t/gcc1.tree
// RUN: %FileCheck --check-prefix=OUT %s <%t/gout1
// RUN: rm -rf %t

#include <omp.h>
#include <stdio.h>

enum { Tasks = 8, Yields = 50, Work = 2000 };

static int Moved, Done, Children;

static void spin(void) {
  volatile int X = 0;
  for (int K = 0; K < Work; ++K)
    X += K;
}

// Scheduling points in a called function: the untied task that calls it stays on its thread.
static void work(void) {
#pragma omp task
  {
    spin();
    __atomic_add_fetch(&Children, 1, __ATOMIC_RELAXED);
  }
  for (int K = 0; K < Yields; ++K) {
    spin();
#pragma omp taskyield
  }
#pragma omp taskwait
}

int main(void) {
  int Sum = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int I = 0; I < Tasks; ++I) {
#pragma omp task untied
      {
        int Start = omp_get_thread_num();
        work();
        if (omp_get_thread_num() != Start)
          __atomic_add_fetch(&Moved, 1, __ATOMIC_RELAXED);
        __atomic_add_fetch(&Done, 1, __ATOMIC_RELAXED);
      }
    }
#pragma omp task untied shared(Sum)
    {
#pragma omp atomic
      Sum += 1;
    }
#pragma omp task shared(Sum)
    work();
  }
  printf("tasks done %d, children done %d, sum %d, moved %d\n", Done, Children, Sum, Moved);
  return 0;
}

// CTC: "{{[0-9]+}}*type=task*file={{[^*]*}}untied_directive_free.c*slines=41,41*elines=45,45*function=work**"
// CTC: "{{[0-9]+}}*type=task*file={{[^*]*}}untied_directive_free.c*slines=59,59*elines=66,66*hasUntied=1*directiveFree=1*afterConstruct=1*function=main**"
// CTC: "{{[0-9]+}}*type=task*file={{[^*]*}}untied_directive_free.c*slines=68,68*elines=72,72*hasUntied=1*afterConstruct=1*function=main**"
// CTC: "{{[0-9]+}}*type=task*file={{[^*]*}}untied_directive_free.c*slines=73,73*elines=74,74*afterConstruct=1*function=main**"

// OUT: tasks done 8, children done 9, sum 1, moved 0

// TREE:      threads: 4
// TREE-NEXT: parallel @{{.*}}untied_directive_free.c:55 (main) visits=1
// TREE-NEXT:   parallel body @{{.*}}untied_directive_free.c:55 (main) visits=4
// TREE-NEXT:     implicit barrier @{{.*}}untied_directive_free.c:55 (main) visits=4
// TREE-NEXT:     single @{{.*}}untied_directive_free.c:56 (main) visits=4
// TREE-NEXT:       single body @{{.*}}untied_directive_free.c:56 (main) visits=1
// TREE-NEXT:         task create @{{.*}}untied_directive_free.c:59 (main) visits=8
// TREE-NEXT:           task @{{.*}}untied_directive_free.c:59 (main) visits=8
// TREE-NEXT:             task create @{{.*}}untied_directive_free.c:41 (work) visits=8
// TREE-NEXT:               task @{{.*}}untied_directive_free.c:41 (work) visits=8
// TREE-NEXT:             taskyield @{{.*}}untied_directive_free.c:48 (work) visits=400
// TREE-NEXT:             taskwait @{{.*}}untied_directive_free.c:50 (work) visits=8
// TREE-NEXT:         task create @{{.*}}untied_directive_free.c:68 (main) visits=1
// TREE-NEXT:           task @{{.*}}untied_directive_free.c:68 (main) visits=1
// TREE-NEXT:             atomic event @{{.*}}untied_directive_free.c:70 (main) visits=1
// TREE-NEXT:         task create @{{.*}}untied_directive_free.c:73 (main) visits=1
// TREE-NEXT:           task @{{.*}}untied_directive_free.c:73 (main) visits=1
// TREE-NEXT:             task create @{{.*}}untied_directive_free.c:41 (work) visits=1
// TREE-NEXT:               task @{{.*}}untied_directive_free.c:41 (work) visits=1
// TREE-NEXT:             taskyield @{{.*}}untied_directive_free.c:48 (work) visits=50
// TREE-NEXT:             taskwait @{{.*}}untied_directive_free.c:50 (work) visits=1
// TREE-NEXT:       implicit barrier @{{.*}}untied_directive_free.c:56 (main) visits=4
// TREE-NEXT: anomalies: none
