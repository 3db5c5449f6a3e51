// The headers the prologue pulls in (pomp_types.h includes <stdint.h>) come after the file's own
// feature-test macros. A file without edits (here only a threadprivate) gets its prologue at its
// end; a file whose first edit is the #include of a header copy, right before that line. Under
// -std=c11, <string.h> declares strdup only with _POSIX_C_SOURCE: behind an earlier <stdint.h>
// gcc 12 declares it implicitly (int, so the pointer is cut) and Clang 19 rejects the call.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/alone.c -- -std=c11
// RUN: %strip-checks %t/alone.c | %FileCheck --check-prefix=ALONE %s
// ALONE: #define _POSIX_C_SOURCE 200809L
// ALONE: char *copy(const char *s)
// ALONE: #include "pomp_types.h"
// ALONE: void POMP_Init_feature_macros_c_
// RUN: %clang -std=c11 -fopenmp -Werror=implicit-function-declaration -I %pomp_include -c %t/alone.c -o %t/alone.clang.o
// RUN: %gcc -std=c11 -fopenmp -Werror=implicit-function-declaration -I %pomp_include -c %t/alone.c -o %t/alone.gcc.o
// RUN: %ompinst %s -o %t/kernel.c --header-dir=%t/headers -- -std=c11 -DWITH_KERNEL -I %S/Inputs
// RUN: %strip-checks %t/kernel.c | %FileCheck --check-prefix=KERNEL %s
// KERNEL: #define _POSIX_C_SOURCE 200809L
// KERNEL: #include <string.h>
// KERNEL: #include "pomp_types.h"
// KERNEL: #include "{{.*}}/feature_macros_kernel.h"
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -std=c11 -DWITH_KERNEL -I %S/Inputs -Werror=implicit-function-declaration" --original %s --instrumented %t/kernel.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// EVENTS: Parallel_fork 1
// EVENTS: violations 0
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef WITH_KERNEL
#include "feature_macros_kernel.h"
#endif

static int copies;
#pragma omp threadprivate(copies)

char *copy(const char *s) {
  copies++;
  return strdup(s);
}

#ifdef WITH_KERNEL
int main(void) {
  char *text = copy("kernel");
  printf("%s %d\n", text, kernel_sum(100));
  free(text);
  return 0;
}
#endif
