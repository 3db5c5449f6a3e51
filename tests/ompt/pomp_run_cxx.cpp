// C++ regions measured through OMPT alone are named by the function a person wrote: the qualified
// name without its parameter list, and without the "[clone .omp_outlined]" of clang's outlined
// body.
// UNSUPPORTED: sanitize
// RUN: %clangxx -fopenmp -O1 -g %s -o %t
// RUN: rm -rf %t.dir
// RUN: env OMP_NUM_THREADS=2 %pomp_tools/pomp-run -q -o %t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck %s

#include <cstdio>

namespace grid {
struct Solver {
  __attribute__((noinline)) double relax(const double *Values, int N) const {
    double Sum = 0;
#pragma omp parallel for reduction(+ : Sum)
    for (int I = 0; I < N; ++I)
      Sum += Values[I];
    return Sum;
  }
};
} // namespace grid

int main() {
  double Values[64];
  for (int I = 0; I < 64; ++I)
    Values[I] = I;
  std::printf("sum %g\n", grid::Solver().relax(Values, 64));
  return 0;
}

// OUT: sum 2016

// CHECK:      parallel @{{.*}}pomp_run_cxx.cpp:16 (grid::Solver::relax) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}pomp_run_cxx.cpp:16 (grid::Solver::relax) visits=2 threads=2
// CHECK-NEXT:     loop @{{.*}}pomp_run_cxx.cpp:16 (grid::Solver::relax) visits=2 threads=2
