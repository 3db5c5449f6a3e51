// Braces spelled as the digraphs <% and %>: code inserted at a block's begin goes after the whole
// two-character token (main's POMP_Init, a region's begin event, a function's begin event).
// RUN: %ompinst %s -o %t.c --no-line-directives
// RUN: %strip-checks %t.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --original %s --instrumented %t.c | %FileCheck --check-prefix=EVENTS %s
// RUN: %ompinst %s -o %t.functions.c --no-line-directives --functions
// RUN: %strip-checks %t.functions.c | %FileCheck --check-prefix=FUNCTIONS %s
#include <stdio.h>

// FUNCTIONS: static int twice(int x) <% POMP_Function_begin_notid(
static int twice(int x) <%
  return 2 * x;
%>

// CHECK: int main(void) <% POMP_Init();
int main(void) <%
  int s = 0;
  // CHECK: #pragma omp parallel reduction(+ : s) firstprivate(pomp_ctx_{{[0-9]+}})
  // CHECK-NEXT: <% POMP_Parallel_begin_forked_notid(
#pragma omp parallel reduction(+ : s)
  <%
    s += twice(1);
  %>
  printf("%d\n", s > 0);
  return 0;
%>

// EVENTS-LABEL: threads 2
// EVENTS: Parallel_begin_forked 2
// EVENTS: violations 0
