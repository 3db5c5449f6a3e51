// A construct whose directive and statement are in different files (a header holding only the
// directive, #included inside a function body right before the loop or block) cannot be
// surrounded by the edits of one file: ompinst leaves it as it is, says so at the directive's
// file:line, and instruments the rest. Found in Quicksilver: it crashed ompinst when the header
// was smaller than the loop's offset in the main file and garbled the header copy when larger;
// inside a header's inline function the construct was silently lost (the header, without a
// directive of its own, had its bodies skipped).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/out.c --header-dir=%t/headers -- -I %S/Inputs 2> %t/err
// RUN: %FileCheck --check-prefix=WARN %s < %t/err
// WARN-DAG: across_loop_directive.h:2:1: warning: OpenMP construct is not instrumented: its statement is in another file, 'directive_across_files.c'
// WARN-DAG: across_critical_directive.h:2:1: warning: OpenMP construct is not instrumented: its statement is in another file, 'across_vault.h'
// WARN-DAG: ompinst: {{.*}}directive_across_files.c: 1 OpenMP constructs instrumented (0 in headers); not instrumented: {{.*}}, 2 with the statement in another file
// RUN: %strip-checks %t/out.c | %FileCheck %s
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -I %S/Inputs" --original %s --instrumented %t/out.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// EVENTS: Parallel_fork 1
// EVENTS-NOT: Critical_enter
// EVENTS: violations 0
#include <stdio.h>
#include "across_vault.h"

int main(void) {
  long sum = 0;
  // CHECK: {{^}}#include "across_loop_directive.h"
  // CHECK-NEXT: {{^}}  for (int i = 0; i < 1000; i++)
#include "across_loop_directive.h"
  for (int i = 0; i < 1000; i++)
    sum += i;
  int vault[64], n = 0;
  // CHECK: POMP_Parallel_fork
#pragma omp parallel num_threads(2)
  vault_push(vault, &n, 1);
  printf("sum = %ld, n = %d\n", sum, n);
  return 0;
}
