// A region whose loop runs more constructs than the two children a node keeps at hand
// (Node::LastChild, OtherChild): before session 37 each of them cycled out of those two before
// its next visit, so every enter took the general path. The fast paths now find such a child in
// the thread's cache of the general path's answers (ThreadState::cachedSlowChild). Merged
// (instrumented, clang-19) and OMPT only, each once with the fast paths (the TSC clock) and once
// without (the monotonic clock): the same tree and visits.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t/merged
// RUN: %clang -fopenmp -O1 -g %s -o %t/plain
// RUN: env OMP_NUM_THREADS=2 POMP_CLOCK=tsc POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged.fast %t/merged | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 POMP_CLOCK=monotonic POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/merged.general %t/merged | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 POMP_CLOCK=tsc %pomp_tools/pomp-run -q -o %t/ompt.fast %t/plain | %FileCheck --check-prefix=OUT %s
// RUN: env OMP_NUM_THREADS=2 POMP_CLOCK=monotonic %pomp_tools/pomp-run -q -o %t/ompt.general %t/plain | %FileCheck --check-prefix=OUT %s
// RUN: for R in merged.fast merged.general ompt.fast ompt.general; do python3 %S/Inputs/profile_tree.py %t/$R --folding | sed -e 's/ threads=[0-9]*//' -e 's/ ([^)]*)//' > %t/$R.tree || exit 1; done
// RUN: diff %t/merged.fast.tree %t/merged.general.tree
// RUN: diff %t/ompt.fast.tree %t/ompt.general.tree
// RUN: %FileCheck --check-prefix=MERGED --input-file=%t/merged.fast.tree %s
// RUN: %FileCheck --check-prefix=OMPT --input-file=%t/ompt.fast.tree %s
// RUN: rm -rf %t

#include <stdio.h>

int Sink;

int main(void) {
#pragma omp parallel
  for (int I = 0; I < 500; ++I) {
#pragma omp single
    Sink += I;
#pragma omp for
    for (int J = 0; J < 4; ++J)
      Sink += J;
#pragma omp barrier
#pragma omp master
    Sink++;
  }
  printf("done %d\n", Sink > 0);
  return 0;
}

// OUT: done 1

// MERGED:      parallel body @{{.*}}many_children.c:27 visits=2 folded=0 nested=0
// MERGED:      single body @{{.*}}many_children.c:29 visits=500 folded=0 nested=0
// MERGED:      loop @{{.*}}many_children.c:31 visits=1000 folded=0 nested=0
// MERGED:      barrier @{{.*}}many_children.c:34 visits=1000 folded=0 nested=0
// MERGED:      master @{{.*}}many_children.c:35 visits=500 folded=0 nested=0
// MERGED:      anomalies: none

// OMPT:        parallel body @{{.*}}many_children.c:27 visits=2 folded=0 nested=0
// OMPT:        single body @{{.*}}many_children.c:29 visits=500 folded=0 nested=0
// OMPT:        loop @{{.*}}many_children.c:31 visits=1000 folded=0 nested=0
// OMPT:        barrier @{{.*}}many_children.c:34 visits=1000 folded=0 nested=0
// OMPT:        masked @{{.*}}many_children.c:35 visits=500 folded=0 nested=0
// OMPT:        anomalies: none
