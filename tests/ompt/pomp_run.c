// pomp-run measures a program nobody instrumented, through OMPT alone: its regions are named by
// the function and file:line of their code address (DWARF, resolved at finalisation), by function
// and address without debug information. clang's outlined bodies ("main.omp_outlined") are shown
// as the function they came from.
// UNSUPPORTED: sanitize
// The source is named through a "/../": the profile names it without.
// RUN: %clang -fopenmp -O1 -g %S/../ompt/pomp_run.c -o %t.debug
// RUN: %clang -fopenmp -O1 %s -o %t.nodebug
// RUN: rm -rf %t.dir %t.nodebug.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.dir %t.debug | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=DEBUG %s
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.nodebug.dir %t.nodebug | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.nodebug.dir | %FileCheck --check-prefix=NODEBUG %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=NORMAL %s
// Without debug information the names are module + offset: the same in every run.
// RUN: rm -rf %t.nodebug2.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.nodebug2.dir %t.nodebug > /dev/null
// RUN: python3 -c 'import json,sys; print(sorted(r["location"] for r in json.load(open(sys.argv[1]))["regions"]))' %t.nodebug.dir/profile.json > %t.names1
// RUN: python3 -c 'import json,sys; print(sorted(r["location"] for r in json.load(open(sys.argv[1]))["regions"]))' %t.nodebug2.dir/profile.json > %t.names2
// RUN: diff %t.names1 %t.names2
// RUN: rm -rf %t.dir %t.nodebug.dir %t.nodebug2.dir

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
// DEBUG-DAG:  parallel @{{.*}}pomp_run.c:28 (work) visits=1 threads=1
// DEBUG-DAG:    loop @{{.*}}pomp_run.c:28 (work) visits=2 threads=2
// DEBUG-DAG:  parallel @{{.*}}pomp_run.c:36 (main) visits=1 threads=1
// DEBUG-DAG:    single @{{.*}}pomp_run.c:38 (main) visits=2 threads=2
// clang made the single's barrier a tail call, so libomp reports an address inside itself: it is
// charged to the parallel construct, like the join barrier.
// DEBUG-DAG:    implicit barrier @{{.*}}pomp_run.c:36 (main) visits=4 threads=2
// DEBUG:      anomalies: none
// NORMAL-NOT: /../

// NODEBUG:      threads: 2
// NODEBUG-DAG:  parallel @work (pomp_run.c.tmp.nodebug+0x{{[0-9a-f]+}}) visits=1 threads=1
// NODEBUG-DAG:  parallel @main (pomp_run.c.tmp.nodebug+0x{{[0-9a-f]+}}) visits=1 threads=1
// NODEBUG:      anomalies: none
