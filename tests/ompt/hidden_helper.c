// `target nowait` on the host: libomp 19 runs the target tasks on its hidden helper team, a
// parallel region it forks for itself from its own code (a new root thread, eight threads) and
// which waits until shutdown. Before the fix libpomp counted it as a parallel construct of the
// program ("parallel @libomp.so.5+0x4af6e", its bodies, barriers and masked region) and, since it
// never ends before the program does, as open_at_finalize=12 (OMPT alone) or 17 (the OpenMP
// Examples' async_target.5.c, merged). The team and its constructs are no regions now; the
// program's own constructs are, in each model, and nothing is open at the end. The target tasks
// (OMPT's ompt_task_target, not ompt_task_explicit) are task regions, their execution on the helper
// threads under their creation: before, no model showed where their time went. Three runs each;
// which helper threads run them varies.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/inst.c
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/ompt
// RUN: %clang -fopenmp -O1 -I%pomp_include %t/inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/merged
// RUN: for I in 1 2 3; do env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ompt$I %t/ompt >%t/out && python3 %S/../runtime/Inputs/profile_tree.py %t/ompt$I | sed -e 's/ ([^ ]*0x[0-9a-f]*)//' -e 's/ threads=[0-9]*$//' >%t/ompt$I.tree || exit 1; done
// RUN: for I in 2 3; do diff %t/ompt1.tree %t/ompt$I.tree || exit 1; done
// RUN: %FileCheck --check-prefix=OMPT --match-full-lines %s <%t/ompt1.tree
// RUN: %FileCheck --check-prefix=OUT %s <%t/out
// RUN: for I in 1 2 3; do env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged$I %t/merged >%t/out && python3 %S/../runtime/Inputs/profile_tree.py %t/merged$I | sed -e 's/ ([^ ]*0x[0-9a-f]*)//' -e 's/ threads=[0-9]*$//' >%t/merged$I.tree || exit 1; done
// RUN: for I in 2 3; do diff %t/merged1.tree %t/merged$I.tree || exit 1; done
// RUN: %FileCheck --check-prefix=MERGED --match-full-lines %s <%t/merged1.tree
// RUN: %FileCheck --check-prefix=OUT %s <%t/out
// RUN: rm -rf %t

#include <stdio.h>

int main(void) {
  int x = 2;
  for (int i = 0; i < 4; ++i) {
#pragma omp target nowait map(tofrom : x)
    x = 3 * x;
#pragma omp taskwait
  }
  printf("x %d\n", x);
  return 0;
}

// OUT: x 162

// OMPT alone: the target tasks and the taskwait; the helper threads are threads of the profile,
// with no region of their team.
// OMPT:      threads: 9
// OMPT-NEXT: task create @main visits=4
// OMPT-NEXT:   task @main visits=4
// OMPT-NEXT: taskwait @main visits=4
// OMPT-NEXT: anomalies: none

// MERGED:      threads: 9
// MERGED-NEXT: target @{{.*}}hidden_helper.c:31 (main) visits=4
// MERGED-NEXT:   task create @main visits=4
// MERGED-NEXT:     task @main visits=4
// MERGED-NEXT: taskwait @{{.*}}hidden_helper.c:33 (main) visits=4
// MERGED-NEXT: anomalies: none
