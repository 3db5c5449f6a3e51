// pomp-run measures a program nobody instrumented, through OMPT alone: its regions are named by
// the function and file:line of their code address (DWARF, resolved at finalisation), by function
// and address without debug information. clang's outlined bodies ("main.omp_outlined") are shown
// as the function they came from.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O1 -g %s -o %t.debug
// RUN: %clang -fopenmp -O1 %s -o %t.nodebug
// RUN: rm -rf %t.dir %t.nodebug.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.dir %t.debug | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=DEBUG %s
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.nodebug.dir %t.nodebug | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.nodebug.dir | %FileCheck --check-prefix=NODEBUG %s

#include <omp.h>
#include <stdio.h>

__attribute__((noinline)) static int work(int N) {
  int Sum = 0;
#pragma omp parallel for reduction(+ : Sum)
  for (int I = 0; I < N; ++I)
    Sum += I;
  return Sum;
}

int main(void) {
  int Total = 0;
#pragma omp parallel
  {
#pragma omp single
    Total = 1;
  }
  printf("sum %d\n", work(100) + Total);
  return 0;
}

// OUT: sum 4951

// DEBUG:      threads: 2
// DEBUG-DAG:  parallel @{{.*}}pomp_run.c:19 (work) visits=1 threads=1
// DEBUG-DAG:    loop @{{.*}}pomp_run.c:19 (work) visits=2 threads=2
// DEBUG-DAG:  parallel @{{.*}}pomp_run.c:27 (main) visits=1 threads=1
// DEBUG-DAG:    single @{{.*}}pomp_run.c:29 (main) visits=2 threads=2
// clang made the single's barrier a tail call, so libomp reports an address inside itself: it is
// charged to the parallel construct, like the join barrier.
// DEBUG-DAG:    implicit barrier @{{.*}}pomp_run.c:27 (main) visits=4 threads=2
// DEBUG:      anomalies: none

// NODEBUG:      threads: 2
// NODEBUG-DAG:  parallel @work (0x{{[0-9a-f]+}}) visits=1 threads=1
// NODEBUG-DAG:  parallel @main (0x{{[0-9a-f]+}}) visits=1 threads=1
// NODEBUG:      anomalies: none
