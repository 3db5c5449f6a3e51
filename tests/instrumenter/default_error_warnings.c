// Code that gcc 12 builds with warnings and Clang 19 rejects by default (a call of an undeclared
// function, of an undeclared library function, an implicit int) is instrumented without flags:
// the parse judges none of the user's warnings, not even those Clang makes errors by default
// (lib/ParseWarnings.h), as ompcc's builds with gcc need. The same with a precompiled preamble
// from the cache, whose build sees the header's implicit int.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompinst %s -o %t/out.c 2> %t/out.err
// RUN: not grep . %t/out.err
// RUN: %strip-checks %t/out.c | %FileCheck %s
// RUN: env OMPINST_PREAMBLE_DIR=%t/cache OMPINST_PREAMBLE=1 %ompinst %s -o %t/first.c
// RUN: env OMPINST_PREAMBLE_DIR=%t/cache OMPINST_PREAMBLE=1 %ompinst %s -o %t/cold.c
// RUN: env OMPINST_PREAMBLE_DIR=%t/cache OMPINST_PREAMBLE=1 %ompinst --verbose %s -o %t/warm.c 2>&1 | %FileCheck --check-prefix=WARM %s
// WARM: ompinst: preamble: {{.*}}default_error_warnings.c: precompiled preamble {{[0-9a-f]+}}.preamble from the cache
// RUN: cmp %t/out.c %t/first.c
// RUN: cmp %t/out.c %t/cold.c
// RUN: cmp %t/out.c %t/warm.c
// RUN: %run-equivalence --gcc %gcc --clang %clang --flags "-O1 -I %S -Wno-implicit-function-declaration -Wno-implicit-int" --original %s --instrumented %t/out.c --threads 2 | %FileCheck --check-prefix=EVENTS %s
// ompcc with gcc, strict (lit.cfg.py): the file is instrumented, not compiled as it is.
// RUN: env OMPCC_CC=%gcc %ompcc -O1 -I %S -c %s -o %t/gcc.o
// RUN: llvm-nm %t/gcc.o | %FileCheck --check-prefix=OBJ %s
// OBJ: U POMP_Parallel_fork
// EVENTS: Parallel_fork 1
// EVENTS: Loop_enter 2
// EVENTS: violations 0
#include "Inputs/legacy_decls.h"
#include <stdio.h>

int main(int argc, char **argv) {
  int sum = 0;
  // CHECK: POMP_Parallel_fork
  // CHECK: POMP_Loop_enter
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < 100; i++)
    sum += weight(i);
  if (argc > 1 && strcmp(argv[1], "-v") == 0)
    puts("verbose");
  printf("sum=%d\n", sum);
  return 0;
}

int weight(int i) { return scale * i; }
