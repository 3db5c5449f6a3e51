// A construct whose directive and statement are in different files: a header holding only the
// directive, #included inside a function body right before the loop or block (Quicksilver's
// pattern, in the main file and in a header's inline function). Where the header can be pasted in
// place of its #include (it includes nothing and has no #pragma once), ompinst parses the
// including file again with the header's text in place of the #include line, between #line
// directives that keep the lines' numbers, and instruments the construct there, in the main file
// or in the including header's copy (DirectiveHeaders.h); its CTC string names the directive's
// header and line. Otherwise ompinst leaves the construct as it is, says so at the directive's
// file:line, and instruments the rest. Found in Quicksilver: it crashed ompinst when the header
// was smaller than the loop's offset in the main file and garbled the header copy when larger;
// inside a header's inline function the construct was silently lost (the header, without a
// directive of its own, had its bodies skipped).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/out.c --header-dir=%t/headers -- -I %S/Inputs 2> %t/err
// RUN: %FileCheck --check-prefix=WARN %s < %t/err
// WARN-NOT: across_critical_directive.h
// WARN: across_once_directive.h:4:1: warning: OpenMP construct is not instrumented: its statement is in another file, 'directive_across_files.c'
// WARN-NOT: across_critical_directive.h
// WARN: ompinst: {{.*}}directive_across_files.c: 4 OpenMP constructs instrumented (1 in headers); not instrumented: {{.*}}, 1 with the statement in another file
// RUN: cat %t/headers/*/across_vault.h | %FileCheck --check-prefix=COPY %s
// COPY: pomp_ctc_{{.*}}type=critical*file={{.*}}Inputs/across_critical_directive.h*slines=2,2*elines=2,2*function=vault_push**
// COPY: static inline void vault_push(
// COPY-NEXT: {{^}}#include "{{.*}}/headers/pasted/{{[0-9]+}}/across_critical_directive.h"
// COPY-NEXT: {{^}}#line 1 "{{.*}}Inputs/across_critical_directive.h"
// COPY: POMP_Critical_enter_notid(
// COPY-NEXT: {{^}}#line 2 "{{.*}}Inputs/across_critical_directive.h"
// COPY-NEXT: {{^}}#pragma omp critical
// COPY-NEXT: {{^}}#line 6 "{{.*}}Inputs/across_vault.h"
// COPY-NEXT: POMP_Critical_begin_notid(
// The empty stand-ins #included in the pasted headers' places, for dependency files (ompcc names
// the originals there, tests/ompcc/deps.test):
// RUN: %FileCheck --check-prefix=MAP %s < %t/headers/pomp-headers.map
// MAP-DAG: {{.*}}/headers/pasted/{{[0-9]+}}/across_loop_directive.h{{[[:space:]]}}{{.*}}Inputs/across_loop_directive.h
// MAP-DAG: {{.*}}/headers/pasted/{{[0-9]+}}/across_critical_directive.h{{[[:space:]]}}{{.*}}Inputs/across_critical_directive.h
// One stand-in for a header pasted twice:
// RUN: grep -c across_loop_directive %t/headers/pomp-headers.map | %FileCheck --check-prefix=ONCE %s
// ONCE: {{^}}1{{$}}
// RUN: %strip-checks %t/out.c | %FileCheck %s
// RUN: %FileCheck --check-prefix=CTC %s < %t/out.c
// CTC: pomp_ctc_1[] = "{{[0-9]+}}*type=parallelfor*file={{.*}}Inputs/across_loop_directive.h*slines=2,2*elines=2,2*
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -I %S/Inputs" --original %s --instrumented %t/out.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// EVENTS: Parallel_fork 3
// EVENTS: Loop_enter 4
// EVENTS: Critical_enter 2
// EVENTS: violations 0
#include <stdio.h>
#include "across_vault.h"

int main(void) {
  long sum = 0;
  // CHECK: {{^}}#include "{{.*}}/headers/pasted/{{[0-9]+}}/across_loop_directive.h"
  // CHECK-NEXT: {{^}}#line 1 "{{.*}}Inputs/across_loop_directive.h"
  // CHECK-NEXT: {{^}}/* Only a directive
  // CHECK-NEXT: POMP_Parallel_fork_ctx_notid(&pomp_handle_1,
  // CHECK: {{^}}#pragma omp for reduction(+ : sum) nowait
  // CHECK: {{^}}#line {{[0-9]+}} "{{.*}}directive_across_files.c"
  // CHECK-NEXT: {{^}}  for (int i = 0; i < 1000; i++)
  // CHECK-NEXT: {{^}}    sum += i;
  // CHECK-NEXT: POMP_Implicit_barrier_enter
#include "across_loop_directive.h"
  for (int i = 0; i < 1000; i++)
    sum += i;
  // The same header again, before another loop, with a comment after its name: pasted again.
  // CHECK: {{^}}#include "{{.*}}/headers/pasted/{{[0-9]+}}/across_loop_directive.h"
  // CHECK-NEXT: {{^}}#line 1 "{{.*}}Inputs/across_loop_directive.h"
  // CHECK: {{^}}#pragma omp for reduction(+ : sum) nowait
  // CHECK: {{^}}  for (int i = 0; i < 10; i++)
#include "across_loop_directive.h" /* the loop's directive */ // and a line comment
  for (int i = 0; i < 10; i++)
    sum += i;
  long twice = 0;
  // CHECK: {{^}}#include "across_once_directive.h"
  // CHECK-NEXT: {{^}}  for (int i = 0; i < 10; i++)
#include "across_once_directive.h"
  for (int i = 0; i < 10; i++)
    twice += 2 * i;
  int vault[64], n = 0;
  // CHECK: POMP_Parallel_fork
#pragma omp parallel num_threads(2)
  vault_push(vault, &n, 1);
  printf("sum = %ld, twice = %ld, n = %d\n", sum, twice, n);
  return 0;
}
