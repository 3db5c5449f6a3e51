// simd_dep.c's loop inside a lambda, which -O2 inlines into main: without debug information Clang
// names main.
#include <cstdio>

int main() {
  int A[100], B[100];
  for (int I = 0; I < 100; I++) {
    A[I] = I;
    B[I] = I + 1;
  }
  auto Shift = [&A, &B]() {
#pragma omp simd
    for (int I = 0; I < 99; I++)
      A[I + 1] = A[I] + B[I];
  };
  Shift();
#pragma omp parallel
  std::printf("%d\n", A[99]);
  return 0;
}
