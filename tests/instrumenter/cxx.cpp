// C++: a template is instrumented once, in its pattern, and works for every instantiation;
// lambdas, member functions, range-based for under omp for, class-type private variables whose
// constructors and destructors the clauses run, and main's finalisation on every way out.
// RUN: %ompinst %s -o %t.cpp --no-line-directives -- -std=c++17
// RUN: %strip-checks %t.cpp | %FileCheck %s
// RUN: %run-equivalence --gcc %gxx --clang %clangxx --flags "-O1 -std=c++17" --original %s --instrumented %t.cpp | %FileCheck --check-prefix=EVENTS %s
#include <atomic>
#include <cstdio>
#include <numeric>
#include <vector>

// CHECK: extern "C" void POMP_Init_cxx_cpp_{{[0-9a-f]+}}(void);

template <typename T> T parallelSum(const std::vector<T> &values) {
  T sum = T();
  // CHECK: { POMP_Context_t pomp_ctx_[[P:[0-9]+]]; pomp_ctx_[[P]] = POMP_Parallel_fork_ctx_notid(&pomp_handle_[[P]],
  // CHECK-NEXT: #pragma omp parallel firstprivate(pomp_ctx_[[P]])
  // CHECK-NEXT: { int pomp_join_[[P]]; POMP_Parallel_begin_forked_notid(pomp_handle_[[P]], pomp_ctx_[[P]]); { POMP_Loop_enter_notid(
  // CHECK-NEXT: #pragma omp for reduction(+ : sum) nowait
#pragma omp parallel for reduction(+ : sum)
  for (std::size_t i = 0; i < values.size(); ++i)
    sum += values[i];
  return sum;
}

struct Counter {
  static std::atomic<int> Live;
  Counter() { ++Live; }
  Counter(const Counter &) { ++Live; }
  ~Counter() { --Live; }
};
std::atomic<int> Counter::Live{0};

class Grid {
public:
  explicit Grid(int n) : Cells(n, 1) {}
  int total() const {
    int sum = 0;
    // CHECK: POMP_Loop_enter_notid(&pomp_handle_[[L:[0-9]+]], -1, 0, 0, 0, pomp_ctc_[[L]]);
    // CHECK-NEXT: #pragma omp for reduction(+ : sum) nowait
#pragma omp parallel
#pragma omp for reduction(+ : sum)
    for (int cell : Cells)
      sum += cell;
    return sum;
  }

private:
  std::vector<int> Cells;
};

int main() {
  // CHECK: int main() { POMP_Init(); struct pomp_main_guard { ~pomp_main_guard() { POMP_Finalize(); } } pomp_main_guard_instance;
  std::vector<int> ints(100);
  std::iota(ints.begin(), ints.end(), 1);
  std::vector<double> doubles(10, 0.5);
  const int intSum = parallelSum(ints);
  const double doubleSum = parallelSum(doubles);
  int fromLambda = 0;
  auto work = [&fromLambda](int n) {
    // CHECK: #pragma omp parallel reduction(+ : fromLambda) num_threads(pomp_num_threads_{{[0-9]+}}) firstprivate(pomp_ctx_{{[0-9]+}})
#pragma omp parallel reduction(+ : fromLambda) num_threads(n)
    fromLambda += 1;
  };
  work(2);
  Counter outside;
  int caught = 0;
#pragma omp parallel private(outside) reduction(+ : caught)
  {
    try {
      throw 1;
    } catch (int) {
      caught += 1;
    }
  }
  std::printf("ints=%d doubles=%.1f grid=%d lambda=%d live=%d caught=%s\n", intSum, doubleSum,
              Grid(50).total(), fromLambda, Counter::Live.load(), caught > 0 ? "yes" : "no");
  return 0;
}

// The template's one parallel for runs for both instantiations.
// EVENTS-LABEL: threads 2
// EVENTS: Parallel_fork 5
// EVENTS: violations 0
