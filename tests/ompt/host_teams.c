// A host teams region (OpenMP 5.0 teams without target) on libomp (issue 13, item 3). libomp runs
// each team's body in the team's initial task, inside a parallel region of one thread without a
// code address of its own, and ends it with a teams barrier whose end reaches the other teams late,
// at shutdown. Before the fix, OMPT alone counted that hidden region as a parallel construct (the
// program's one parallel looked like two nested ones), hung the second team's regions at the top
// level, and left open_at_finalize=2; with instrumented code, the teams barrier of the second team
// stayed open (open_at_finalize=2). Each model is run five times and gives the same exact tree.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/inst.c
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/ompt
// RUN: %clang -fopenmp -O1 -I%pomp_include %t/inst.c -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t/merged
// RUN: for I in $(seq 5); do env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ompt$I %t/ompt >%t/out && python3 %S/../runtime/Inputs/profile_tree.py %t/ompt$I | sed -e 's/ ([^ ]*0x[0-9a-f]*)//' >%t/ompt$I.tree || exit 1; done
// RUN: for I in $(seq 2 5); do diff %t/ompt1.tree %t/ompt$I.tree || exit 1; done
// RUN: %FileCheck --check-prefix=OMPT --match-full-lines %s <%t/ompt1.tree
// RUN: %FileCheck --check-prefix=OUT %s <%t/out
// RUN: for I in $(seq 5); do env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged$I %t/merged >%t/out && python3 %S/../runtime/Inputs/profile_tree.py %t/merged$I >%t/merged$I.tree || exit 1; done
// RUN: for I in $(seq 2 5); do diff %t/merged1.tree %t/merged$I.tree || exit 1; done
// RUN: %FileCheck --check-prefix=MERGED --match-full-lines %s <%t/merged1.tree
// RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_OMPT=off POMP_EXPERIMENT_DIR=%t/pomp %t/merged >%t/out
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/pomp | %FileCheck --check-prefix=POMP --match-full-lines %s
// RUN: rm -rf %t

#include <stdio.h>

int main(void) {
  int Bodies = 0;
#pragma omp teams num_teams(2)
  {
#pragma omp parallel num_threads(2)
    __atomic_add_fetch(&Bodies, 1, __ATOMIC_RELAXED);
  }
  printf("parallel bodies %d\n", Bodies);
  return 0;
}

// OUT: parallel bodies 2

// OMPT alone: each team's body once, on its own thread, with its parallel region (named by the
// teams construct's address: libomp reports an address inside itself for it) and the teams
// barrier.
// OMPT:      threads: 2
// OMPT-NEXT: teams @main visits=1 threads=1
// OMPT-NEXT:   teams body @main visits=2 threads=2
// OMPT-NEXT:     parallel @main visits=2 threads=2
// OMPT-NEXT:       parallel body @main visits=2 threads=2
// OMPT-NEXT:     implicit barrier @main visits=2 threads=2
// OMPT-NEXT: anomalies: none

// Merged: the explicit join barrier is skipped (the runtime's join closes its region), so the
// runtime reports no wait inside it.
// MERGED:      threads: 2
// MERGED-NEXT: teams @{{.*}}host_teams.c:28 (main) visits=1 threads=1
// MERGED-NEXT:   teams body @{{.*}}host_teams.c:28 (main) visits=2 threads=2
// MERGED-NEXT:     parallel @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// MERGED-NEXT:       parallel body @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// MERGED-NEXT:         implicit barrier @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// MERGED-NEXT: anomalies: none

// POMP:      threads: 2
// POMP-NEXT: teams @{{.*}}host_teams.c:28 (main) visits=1 threads=1
// POMP-NEXT:   teams body @{{.*}}host_teams.c:28 (main) visits=2 threads=2
// POMP-NEXT:     parallel @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// POMP-NEXT:       parallel body @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// POMP-NEXT:         implicit barrier @{{.*}}host_teams.c:30 (main) visits=2 threads=2
// POMP-NEXT: anomalies: none
