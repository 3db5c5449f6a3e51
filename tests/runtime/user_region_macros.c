// POMP_USER_REGION_BEGIN/END (pomplib.h): one line per region, a static handle per call site bound
// by its first call, also when four threads race for it; a name is one region wherever its
// macros stand; an END that names no begun region is refused. The macros vanish with POMP_NO_USER_REGIONS.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -pedantic -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -pedantic -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -DPOMP_NO_USER_REGIONS -I%pomp_include %s -o %t.none
// RUN: rm -rf %t.dgcc %t.dclang %t.dnone
// RUN: env POMP_EXPERIMENT_DIR=%t.dgcc POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.dgcc | %FileCheck --match-full-lines %s
// RUN: env POMP_EXPERIMENT_DIR=%t.dclang POMP_QUIET=1 POMP_OMPT=off %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.dclang | %FileCheck --match-full-lines %s
// RUN: env POMP_EXPERIMENT_DIR=%t.dnone %t.none | %FileCheck --check-prefix=OUT %s
// RUN: test ! -e %t.dnone
// RUN: rm -rf %t.dgcc %t.dclang

#include "pomplib.h"

#include <stdio.h>

static int Sum;

static void leaf(int I) {
  POMP_USER_REGION_BEGIN("leaf");
  Sum += I;
  POMP_USER_REGION_END("leaf");
}

static void step(int I) {
  POMP_USER_REGION_BEGIN("step");
  leaf(I);
  if (I % 2 == 0) {
    /* The same name at a second site is the same region. */
    POMP_USER_REGION_BEGIN("leaf");
    POMP_USER_REGION_END("leaf");
  }
  POMP_USER_REGION_END("step");
}

int main(void) {
  int Workers = 0;
  POMP_USER_REGION_BEGIN("main");
  for (int I = 0; I < 5; ++I)
    step(I);
#ifndef POMP_NO_USER_REGIONS
  /* A name without a begin: refused, nothing closed. */
  POMP_USER_REGION_BEGIN("inner");
  const int Unknown = POMP_User_region_end_named(&(POMP_Handle_t){0}, "never begun");
  POMP_USER_REGION_END("inner");
  printf("unknown name: %d\n", Unknown == POMP_ERROR_UNBALANCED);
#else
  printf("unknown name: 1\n");
#endif
#pragma omp parallel num_threads(4) reduction(+ : Workers)
  {
    POMP_USER_REGION_BEGIN("team");
    Workers += 1;
    POMP_USER_REGION_END("team");
  }
  POMP_USER_REGION_END("main");
  printf("sum %d, workers %d\n", Sum, Workers);
  return 0;
}

// OUT: unknown name: 1
// OUT-NEXT: sum 10, workers 4

// The workers' "team" regions are not under "main": the parallel region is not instrumented, so
// they have no context (the master's is).
// CHECK:      threads: 4
// CHECK-NEXT: user region "main" @{{.*}}user_region_macros.c:42 visits=1 threads=1
// CHECK-NEXT:   user region "step" @{{.*}}user_region_macros.c:30 visits=5 threads=1
// CHECK-NEXT:     user region "leaf" @{{.*}}user_region_macros.c:24 visits=8 threads=1
// CHECK-NEXT:   user region "inner" @{{.*}}user_region_macros.c:47 visits=1 threads=1
// CHECK-NEXT:   user region "team" @{{.*}}user_region_macros.c:56 visits=1 threads=1
// CHECK-NEXT: user region "team" @{{.*}}user_region_macros.c:56 visits=3 threads=3
// CHECK-NEXT: anomalies: none
