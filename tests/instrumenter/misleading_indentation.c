// Code appended after a construct whose statement ends with the unbraced body of a loop or an if
// goes on a line of its own: on the body's line it reads as guarded by the loop, which clang and
// gcc report under -Wall (-Wmisleading-indentation), and under -Werror the instrumented file did
// not compile (ompcc then compiled it uninstrumented). Line directives keep the numbering.
// RUN: %ompinst %s -o %t.c
// RUN: %clang -fopenmp -Wall -Wextra -Werror -I%pomp_include -c %t.c -o %t.clang.o
// RUN: %gcc -fopenmp -Wall -Wextra -Werror -I%pomp_include -c %t.c -o %t.gcc.o
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: rm -f %t.clang.o %t.gcc.o

int a[64], total;

void loops(int n) {
  // CHECK: a[i] = i;{{$}}
  // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(
#pragma omp parallel for
  for (int i = 0; i < 64; i++)
    a[i] = i;

#pragma omp parallel
  {
    // CHECK: a[i] += 1;{{$}}
    // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(
#pragma omp for
    for (int i = 0; i < 64; i++)
      if (n > 0)
        a[i] += 1;
    // CHECK: else a[0] = 2;{{$}}
    // CHECK-NEXT: POMP_Critical_end_notid(
#pragma omp critical
    if (n > 1)
      a[0] = 1;
    else a[0] = 2;
  }

  // CHECK: total += a[j];{{$}}
  // CHECK-NEXT: POMP_Implicit_barrier_enter_notid(
#pragma omp parallel
  for (int j = 0; j < 64; j++)
    while (n-- > 100)
      total += a[j];
}

int main(void) {
  loops(3);
  return total;
}
