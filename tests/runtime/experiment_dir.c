// A program that never calls POMP_Init or POMP_Finalize: the library initialises on the first event
// and writes the profile at exit (paper section 3.6), while the OpenMP runtime's threads still
// exist, into a new directory each run, and nothing it does changes the program's output or exit
// status, also when the directory cannot be written.
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.cwd %t.exp %t.exp-1 %t.file && mkdir %t.cwd && echo x > %t.file

// Default name in the working directory, summary on stderr, output and status untouched.
// RUN: cd %t.cwd && env -u POMP_EXPERIMENT_DIR OMP_NUM_THREADS=2 %t.gcc > out 2> err; echo "status $?" >> out
// RUN: %FileCheck --check-prefix=OUT %s < %t.cwd/out
// RUN: %FileCheck --check-prefix=SUMMARY %s < %t.cwd/err
// RUN: ls %t.cwd | %FileCheck --check-prefix=NAME %s
// RUN: python3 %S/Inputs/profile_tree.py %t.cwd/pomp-experiment_dir.c.tmp.gcc-* | %FileCheck --check-prefix=TREE %s

// POMP_EXPERIMENT_DIR is never reused: the second run gets a suffix.
// RUN: env POMP_EXPERIMENT_DIR=%t.exp POMP_QUIET=1 %t.clang > %t.out1 2> %t.err1; test $? = 3
// RUN: env POMP_EXPERIMENT_DIR=%t.exp POMP_QUIET=1 %t.clang > %t.out2 2> %t.err2; echo "status $?" >> %t.out2
// RUN: test -f %t.exp/profile.json && test -f %t.exp/profile.txt && test -f %t.exp-1/profile.json
// RUN: %FileCheck --check-prefix=QUIET --allow-empty %s < %t.err2
// RUN: %FileCheck --check-prefix=OUT %s < %t.out2

// A directory that cannot be created: one message, the program unaffected.
// RUN: env POMP_EXPERIMENT_DIR=%t.file/exp %t.gcc > %t.out3 2> %t.err3; echo "status $?" >> %t.out3
// RUN: %FileCheck --check-prefix=OUT %s < %t.out3
// RUN: %FileCheck --check-prefix=UNWRITABLE -DFILE=%t.file %s < %t.err3

#include "pomplib.h"

#include <omp.h>
#include <stdio.h>

static void work(void) {
  static POMP_Handle_t H;
  POMP_User_region_begin(&H, omp_get_thread_num(), "50*type=userregion*name=work*file=dir.c*slines=1,1**");
  POMP_User_region_end(H, omp_get_thread_num());
}

int main(void) {
#pragma omp parallel num_threads(2)
  for (int I = 0; I < 3; ++I)
    work();
  printf("program output\n");
  fflush(stdout);
  return 3;
}

// OUT: program output
// OUT-NEXT: status 3

// SUMMARY: pomp: profile in pomp-experiment_dir.c.tmp.gcc-{{[0-9]+-[0-9]+}}/ (profile.txt, profile.json): 2 threads, 1 regions, {{.*}} s
// SUMMARY-NEXT: pomp: {{ *[0-9.]+}} s exclusive  user region "work" @dir.c:1
// SUMMARY-NOT: pomp:

// NAME: pomp-experiment_dir.c.tmp.gcc-{{[0-9]+-[0-9]+$}}

// TREE: user region "work" @dir.c:1 visits=6 threads=2

// QUIET-NOT: pomp

// UNWRITABLE: pomp: cannot create directory '[[FILE]]/exp': Not a directory; no profile written
// UNWRITABLE-NOT: pomp
