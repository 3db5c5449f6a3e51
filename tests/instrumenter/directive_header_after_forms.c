// A header that holds only a directive, in a file whose other directive is in another form (a
// macro expanding to _Pragma): the second parse has the forms rewritten into
// #pragma lines, the third the header pasted into that text (Options::PasteDirectiveHeaders,
// nextRewritingParse). Until session 20 the second parse was the last, and the header's construct
// was left alone with a warning. Every construct is instrumented, the CTC string of the pasted
// one names its header, and the program computes what the original does with gcc and clang.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/out.c --header-dir=%t/headers -- -I %S/Inputs 2> %t/err
// RUN: count 0 < %t/err
// RUN: %strip-checks %t/out.c | %FileCheck %s
// RUN: %FileCheck --check-prefix=CTC %s < %t/out.c
// CTC: "{{[0-9]+}}*type=parallelfor*file={{.*}}Inputs/across_loop_directive.h*slines=2,2*elines=2,2*
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -I %S/Inputs" --original %s --instrumented %t/out.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// EVENTS: Parallel_fork 3
// EVENTS: Loop_enter 2
// EVENTS: Single_enter 2
// EVENTS: violations 0
#include <stdio.h>

#define PARALLEL_TWO _Pragma("omp parallel num_threads(2)")

int main(void) {
  long sum = 0;
  int singles = 0;
  // CHECK: POMP_Parallel_fork
  // CHECK: {{^}} #pragma omp parallel num_threads(pomp_num_threads_1)
  PARALLEL_TWO
  {
    // CHECK: POMP_Single_enter
#pragma omp single
    singles++;
  }
  // CHECK: {{^}}#include "{{.*}}/headers/pasted/{{[0-9]+}}/across_loop_directive.h"
  // CHECK-NEXT: {{^}}#line 1 "{{.*}}Inputs/across_loop_directive.h"
  // CHECK-NEXT: {{^}}/* Only a directive
  // CHECK-NEXT: POMP_Parallel_fork_ctx_notid(
  // CHECK: {{^}}#pragma omp for reduction(+ : sum) nowait
#include "across_loop_directive.h"
  for (int i = 0; i < 1000; i++)
    sum += i;
  // CHECK: POMP_Parallel_fork
#pragma omp parallel num_threads(2)
  {
  }
  printf("sum = %ld, singles = %d\n", sum, singles);
  return 0;
}
