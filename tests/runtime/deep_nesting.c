// 100 nested parallel regions (issue 13, item 2): the outer one has a team of two, the 99 inside it
// are serialized (one thread each), so each thread masters 99 running teams at once and runs 100
// implicit tasks. Every level must be counted exactly in both models: POMP events of instrumented
// code (gcc/libgomp, and clang-19/libomp where OMPT adds the waiting time) and OMPT alone (an
// uninstrumented program on libomp). The OMPT adapter used to keep 16 team instances and 32
// implicit tasks per thread: from the 17th level a worker's subtree hung under the master's and
// open_at_finalize appeared, from the 33rd visits were dropped. The region recurs inside itself,
// so recursion folding (docs/PROFILE_FORMAT.md, "Recursion") counts every level at the nodes of the
// first: their visits are the sums over the levels (parallel: 1 + 99 x 2 threads), 99 parallel
// enters per thread fold back, and the visits made inside an open visit of the same node on the
// same thread (98 + 99 parallel enters, 2 x 99 bodies) add no inclusive time. OMPT names the
// outermost parallel (called from main, inlined there) apart from the inner ones.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/deep.inst.c
// RUN: %gcc -fopenmp -O1 -I%pomp_include %t/deep.inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/pomp.gcc
// RUN: %clang -fopenmp -O1 -I%pomp_include %t/deep.inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/pomp.clang
// RUN: %clang -fopenmp -O1 -g %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/ompt.clang
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/pomp.gcc.dir %t/pomp.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/pomp.clang.dir %t/pomp.clang | %FileCheck --check-prefix=OUT %s
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ompt.clang.dir %t/ompt.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/nest_check.py %t/pomp.gcc.dir | %FileCheck --check-prefix=POMP --match-full-lines %s
// RUN: python3 %S/Inputs/nest_check.py %t/pomp.clang.dir | %FileCheck --check-prefix=MERGED --match-full-lines %s
// RUN: python3 %S/Inputs/nest_check.py %t/ompt.clang.dir | %FileCheck --check-prefix=OMPT --match-full-lines %s
// RUN: rm -rf %t

#include <stdio.h>

enum { Depth = 100 };
static int Leaves;

static void nest(int Level) {
  if (Level == 0) {
#pragma omp atomic
    Leaves++;
    return;
  }
#pragma omp parallel num_threads(2)
  nest(Level - 1);
}

int main(void) {
  nest(Depth);
  printf("leaves %d\n", Leaves);
  return 0;
}

// OUT: leaves 2

// POMP:      level 1: parallel 199/2, parallel body 200/2, atomic event 2/2, implicit barrier 200/2
// POMP-NEXT: folding: folded 198, nested 395
// POMP-NEXT: anomalies: none

// Merged: the runtime's join closes the join barriers' regions (their explicit barriers are
// skipped), so the runtime reports no wait inside them.
// MERGED:      level 1: parallel 199/2, parallel body 200/2, atomic event 2/2, implicit barrier 200/2
// MERGED-NEXT: folding: folded 198, nested 395
// MERGED-NEXT: anomalies: none

// OMPT:      level 1: parallel 1/1, parallel body 2/2, implicit barrier 2/2
// OMPT-NEXT: level 2: parallel 198/2, parallel body 198/2
// OMPT-NEXT: folding: folded 196, nested 392
// OMPT-NEXT: anomalies: none
