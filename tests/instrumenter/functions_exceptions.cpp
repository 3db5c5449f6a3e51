// In C++ Function_end comes from a guard's destructor, so it also runs when an exception leaves
// the function.
// RUN: %ompinst %s -o %t.cpp --no-line-directives --functions
// RUN: %strip-checks %t.cpp | %FileCheck %s
// RUN: %run-equivalence --gcc %gxx --clang %clangxx --threads 2 --original %s --instrumented %t.cpp | %FileCheck --check-prefix=EVENTS %s
// CHECK-DAG: "{{[0-9]+}}*type=function*name=checked*group=numbers*file={{.*}}"
#include <cstdio>
#include <stdexcept>

namespace numbers {
// CHECK: int checked(int x) { POMP_Function_begin_notid(&pomp_handle_[[C:[0-9]+]], pomp_ctc_[[C]]); struct pomp_function_guard_[[C]] { ~pomp_function_guard_[[C]]() { POMP_Function_end_notid(pomp_handle_[[C]]); } } pomp_function_guard_[[C]]_instance;
int checked(int x) {
  if (x > 2)
    throw std::range_error("too big");
  return x;
}
} // namespace numbers

int main() {
  int sum = 0, errors = 0;
  for (int i = 0; i < 5; i++) {
    try {
      sum += numbers::checked(i);
    } catch (const std::range_error &) {
      errors++;
    }
  }
  std::printf("sum=%d errors=%d\n", sum, errors);
  return 0;
}

// EVENTS: Function_begin 5
// EVENTS-NEXT: Function_end 5
// EVENTS-NEXT: violations 0
