// The paper's Appendix A example, standard (unoptimised) instrumentation: the handle is a local
// variable that starts at zero on every execution of the block, the CTC string uses the paper's
// "preregion" spelling and length count, and the plain Parallel_enter/Parallel_begin pass no
// context. The region must still be one region, bound correctly when the team's threads race for
// it, and the workers' blocks must hang under the master's parallel region.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir
// RUN: env OMP_NUM_THREADS=3 POMP_EXPERIMENT_DIR=%t.gcc.dir POMP_QUIET=1 %t.gcc | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=3 POMP_EXPERIMENT_DIR=%t.clang.dir POMP_QUIET=1 %t.clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t.gcc.dir | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/profile_tree.py %t.clang.dir | %FileCheck --match-full-lines %s

#include "pomplib.h"

#include <omp.h>
#include <stdio.h>

enum { Repetitions = 5 };

int main(void) {
  int id;
  int Sum = 0;
  POMP_Init();
  for (int Rep = 0; Rep < Repetitions; ++Rep) {
    POMP_Handle_t pomp_hdl = 0;
    int pomp_tid = omp_get_thread_num();
    POMP_Parallel_enter(&pomp_hdl, pomp_tid, -1, 1,
                        "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**");
#pragma omp parallel private(id) reduction(+ : Sum)
    {
      int pomp_tid = omp_get_thread_num();
      POMP_Parallel_begin(pomp_hdl, pomp_tid);
      id = omp_get_thread_num();
      Sum += id + 1;
      POMP_Parallel_end(pomp_hdl, pomp_tid);
    }
    POMP_Parallel_exit(pomp_hdl, pomp_tid);
  }
  POMP_Finalize();
  printf("sum %d\n", Sum);
  return 0;
}

// OUT: sum 30

// CHECK:      threads: 3
// CHECK-NEXT: parallel @demo.c:7 visits=5 threads=1
// CHECK-NEXT:   parallel body @demo.c:7 visits=15 threads=3
// CHECK-NEXT: anomalies: none
