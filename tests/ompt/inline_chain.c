// Copies of one construct inlined into several functions (issue 16, pomp-run names): the flat
// table of profile.txt has one row per construct and source location, the call paths show each
// copy with its DWARF inline chain (`(pressure ← apply)`), and profile.json has the chain as
// `inlined_into`. pomp-report's tree shows the chain as profile.txt does.
// UNSUPPORTED: sanitize
// RUN: %clang -fopenmp -O2 -g %s -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: %FileCheck --check-prefix=TEXT %s < %t.dir/profile.txt
// RUN: %FileCheck --check-prefix=JSON %s < %t.dir/profile.json
// RUN: %pomp-report --tree %t.dir | %FileCheck --check-prefix=REPORT %s
#include <stdio.h>

static inline __attribute__((always_inline)) double pressure(const double *V, int N) {
  double Sum = 0;
#pragma omp parallel for reduction(+ : Sum)
  for (int I = 0; I < N; ++I)
    Sum += V[I];
  return Sum;
}

__attribute__((noinline)) double apply(const double *V, int N) { return pressure(V, N) + 1; }
__attribute__((noinline)) double eval(const double *V, int N) { return pressure(V, N) * 2; }

int main(void) {
  double V[64];
  for (int I = 0; I < 64; ++I)
    V[I] = I;
  double A = apply(V, 64);
  double B = eval(V, 64) + eval(V, 32);
  printf("%g %g\n", A, B);
  return 0;
}

// OUT: 2017 5024

// One flat row per part of the construct: three visits of `parallel`, from both copies.
// TEXT:      Regions by exclusive time
// TEXT-DAG:  {{ +}}3{{ +}}1{{ .*}} work  parallel @inline_chain.c:16 (pressure)
// TEXT-DAG:  {{ +}}6{{ +}}2{{ .*}} work  parallel body @inline_chain.c:16 (pressure)
// TEXT:      Call paths
// TEXT-DAG:  {{ +}}1{{ +}}1{{ .*}}  parallel @inline_chain.c:16 (pressure ← apply)
// TEXT-DAG:  {{ +}}2{{ +}}1{{ .*}}  parallel @inline_chain.c:16 (pressure ← eval)

// JSON-DAG: "location": "{{/.*}}/inline_chain.c:16 (pressure)", "function": "pressure", "inlined_into": ["apply"], "origin": "ompt"
// JSON-DAG: "location": "{{/.*}}/inline_chain.c:16 (pressure)", "function": "pressure", "inlined_into": ["eval"], "origin": "ompt"

// REPORT-DAG: parallel @inline_chain.c:16 (pressure ← apply)
// REPORT-DAG: parallel @inline_chain.c:16 (pressure ← eval)
