// fork() (issue 13, item 4): a child measures itself. It gets its own experiment directory,
// <parent's directory>-fork-<child pid>, with its own pid and only what it did after the fork: the
// regions open at the fork count as entered there, the parent's earlier events are not in it. The
// parent's files are never written by the child, with and without a trace (POMP_TRACE=1, OTF2 and
// Chrome). gcc 12's libgomp hangs in a forked child that opens a parallel region (also without
// libpomp), so only the clang-19/libomp build's child runs one.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -DCHILD_PARALLEL -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/clang
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/gcc.dir %t/gcc > %t/gcc.out
// RUN: python3 %S/Inputs/fork_check.py %t/gcc.dir %t/gcc.out | %FileCheck --check-prefixes=CHECK,NOPAR %s
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/clang.dir %t/clang > %t/clang.out
// RUN: python3 %S/Inputs/fork_check.py %t/clang.dir %t/clang.out | %FileCheck --check-prefixes=CHECK,PAR %s
// RUN: env POMP_QUIET=1 POMP_TRACE=1 POMP_EXPERIMENT_DIR=%t/otf2.dir %t/gcc > %t/otf2.out
// RUN: python3 %S/Inputs/fork_check.py %t/otf2.dir %t/otf2.out | %FileCheck --check-prefixes=CHECK,NOPAR %s
// RUN: test -f %t/otf2.dir/trace/traces.otf2 && test -f %t/otf2.dir-fork-*/trace/traces.otf2
// RUN: env POMP_QUIET=1 POMP_TRACE=1 POMP_TRACE_FORMAT=chrome POMP_EXPERIMENT_DIR=%t/chrome.dir %t/gcc > %t/chrome.out
// RUN: python3 %S/Inputs/fork_check.py %t/chrome.dir %t/chrome.out | %FileCheck --check-prefixes=CHECK,NOPAR,PTRACE,CTRACE %s
// RUN: env POMP_QUIET=1 POMP_TRACE=1 POMP_TRACE_FORMAT=chrome POMP_EXPERIMENT_DIR=%t/chrome2.dir %t/clang > %t/chrome2.out
// RUN: python3 %S/Inputs/fork_check.py %t/chrome2.dir %t/chrome2.out | %FileCheck --check-prefixes=CHECK,PAR,PTRACE %s
// RUN: rm -rf %t

#include "pomplib.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static POMP_Handle_t Before, Outer, InChild, After;

static void region(POMP_Handle_t *H, const char *Ctc) {
  POMP_User_region_begin(H, 0, Ctc);
  POMP_User_region_end(*H, 0);
}

int main(void) {
  for (int I = 0; I < 3; ++I)
    region(&Before, "53*type=userregion*name=before*file=fork.c*slines=1,1**");
  POMP_User_region_begin(&Outer, 0, "52*type=userregion*name=outer*file=fork.c*slines=2,2**");
  fflush(stdout);
  const pid_t Child = fork();
  if (Child == 0) {
    for (int I = 0; I < 2; ++I)
      region(&InChild, "52*type=userregion*name=child*file=fork.c*slines=3,3**");
#ifdef CHILD_PARALLEL
#pragma omp parallel num_threads(2)
    region(&InChild, "52*type=userregion*name=child*file=fork.c*slines=3,3**");
#endif
    POMP_User_region_end(Outer, 0);
    printf("child %d\n", (int)getpid());
    exit(0);
  }
  int Status = 0;
  waitpid(Child, &Status, 0);
  region(&After, "52*type=userregion*name=after*file=fork.c*slines=4,4**");
  POMP_User_region_end(Outer, 0);
  printf("parent %d\n", (int)getpid());
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : 1;
}

// CHECK:      parent: 1 threads
// CHECK-NEXT:   user region before 3
// CHECK-NEXT:   user region outer 1
// CHECK-NEXT:   user region after 1
// CHECK-NEXT:   anomalies: none
// PTRACE-NEXT:  trace: user region "before" X, user region "before" X, user region "before" X, user region "after" X, user region "outer" X
// NOPAR-NEXT: child: 1 threads
// PAR-NEXT:   child: 2 threads
// CHECK-NEXT:   user region outer 1
// CHECK-NEXT:   user region child 2
// PAR-NEXT:     parallel 1
// PAR-NEXT:     parallel body 2
// PAR-NEXT:     user region child 2
// PAR-NEXT:     implicit barrier 2
// CHECK-NEXT:   anomalies: none
// CTRACE-NEXT:  trace: user region "child" X, user region "child" X, user region "outer" X
