#!/usr/bin/env python3
"""Writes a C program with N nested `parallel if(0)` constructs, each with a braced block
(deep_nesting.test): the instrumented output must stay within the compilers' bracket depth
limit (256 in Clang)."""
import sys

depth = int(sys.argv[1])
lines = ["#include <stdio.h>", "int main(void) {", "  int s = 0;"]
for _ in range(depth):
    lines += ["#pragma omp parallel if(0)", "{"]
lines.append("s += 1;")
lines += ["}"] * depth
lines += ['  printf("%d\\n", s);', "  return 0;", "}"]
sys.stdout.write("\n".join(lines) + "\n")
