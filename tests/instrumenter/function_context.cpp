// Every construct names the function it is in (CTC `function`, issue 16), known at
// instrumentation time and free at run time: the qualified name without parameters, for member
// functions, templates and functions in namespaces; a lambda's constructs are named by the
// function that holds the lambda. --function-exclude leaves functions out of --functions.
// RUN: %ompinst %s -o %t.cpp --no-line-directives -- -std=c++17
// RUN: %strip-checks %t.cpp | %FileCheck %s
// RUN: %ompinst %s -o %t.excluded.cpp --no-line-directives --function-exclude='^grid::' -- -std=c++17
// RUN: %strip-checks %t.excluded.cpp | %FileCheck --check-prefix=EXCLUDED %s
// RUN: %ompinst %s -o %t.both.cpp --no-line-directives --function-filter='grid' --function-exclude='relax$' -- -std=c++17
// RUN: %strip-checks %t.both.cpp | %FileCheck --check-prefix=BOTH %s
// RUN: not %ompinst %s -o %t.bad.cpp --function-exclude='[' -- -std=c++17 2>&1 | %FileCheck --check-prefix=BAD %s
// BAD: error: invalid function exclusion '['

// CHECK-DAG: "{{[0-9]+}}*type=parallel*file={{[^*]*}}function_context.cpp*slines=30,30*elines=32,32*hasReduction=1*function=grid::Solver::relax**"
// CHECK-DAG: "{{[0-9]+}}*type=for*file={{[^*]*}}function_context.cpp*slines=38,38*elines=40,40*function=grid::scale**"
// CHECK-DAG: "{{[0-9]+}}*type=parallel*file={{[^*]*}}function_context.cpp*slines=47,47*elines=51,51*function=run**"
// CHECK-DAG: "{{[0-9]+}}*type=critical*name=c*file={{[^*]*}}function_context.cpp*slines=49,49*elines=50,50*afterConstruct=1*function=run**"
// A function region is named by `name`, not `function`.
// EXCLUDED-DAG: "{{[0-9]+}}*type=function*name=run*file={{[^*]*}}function_context.cpp*slines=44,44*elines=56,56**"
// EXCLUDED-NOT: type=function*name=relax
// EXCLUDED-NOT: type=function*name=scale
// BOTH: type=function*name=scale*group=grid
// BOTH-NOT: type=function*name=relax
// BOTH-NOT: type=function*name=run

namespace grid {
struct Solver {
  double relax(double *V, int N) const {
    double Sum = 0;
#pragma omp parallel reduction(+ : Sum)
    for (int I = 0; I < N; ++I)
      Sum += V[I];
    return Sum;
  }
};

template <typename T> void scale(T *V, int N) {
#pragma omp for
  for (int I = 0; I < N; ++I)
    V[I] *= 2;
}
} // namespace grid

int run(double *V, int N) {
  int Count = 0;
  auto Body = [&]() {
#pragma omp parallel
    {
#pragma omp critical(c)
      ++Count;
    }
  };
  Body();
  grid::scale(V, N);
  return Count + static_cast<int>(grid::Solver().relax(V, N));
}

int main() {
  double V[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  return run(V, 8) > 0 ? 0 : 1;
}
