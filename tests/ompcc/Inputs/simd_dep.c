// A loop `omp simd` asks to vectorize that LLVM cannot: each iteration reads
// what the one before wrote. -O2 warns, located at the directive.
#include <stdio.h>

int main(void) {
  int A[100], B[100];
  for (int I = 0; I < 100; I++) {
    A[I] = I;
    B[I] = I + 1;
  }
#pragma omp simd
  for (int I = 0; I < 99; I++)
    A[I + 1] = A[I] + B[I];
#pragma omp parallel
  printf("%d\n", A[99]);
  return 0;
}
