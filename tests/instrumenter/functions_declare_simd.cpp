// --functions leaves `declare simd` functions alone: their SIMD variants cannot call the library,
// and clang-19 rejects the guard class inside one ("expected unqualified-id"). Found by the
// mutation test on attribute_syntax.cpp.
// RUN: %ompinst %s -o %t.cpp --no-line-directives --functions
// RUN: %strip-checks %t.cpp | %FileCheck %s
// RUN: %clangxx -fopenmp -fsyntax-only -I %pomp_include %t.cpp
// RUN: %gxx -fopenmp -fsyntax-only -I %pomp_include %t.cpp

// CHECK: #pragma omp declare simd simdlen(4)
// CHECK-NEXT: int twice(int x) { return 2 * x; }
#pragma omp declare simd simdlen(4)
int twice(int x) { return 2 * x; }

// CHECK: #pragma omp declare simd
// CHECK: {{^ *}}int thrice(int x) { return 3 * x; }
[[omp::directive(declare simd)]] int thrice(int x) { return 3 * x; }

// CHECK: int once(int x) { POMP_Function_begin_notid(
int once(int x) { return x; }

int main() { return twice(1) + thrice(1) + once(1) - 6; }
