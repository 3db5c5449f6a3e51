// Bodies of the main file without OpenMP are skipped (BodySkipping.h); the output must be the
// same as with every body built. Each function below holds OpenMP the raw scan must see, or is
// shaped to mislead a brace match.
// RUN: rm -rf %t && mkdir %t
// RUN: %ompinst %s -o %t/skip.cpp -- -std=c++17
// RUN: %ompinst %s -o %t/all.cpp --no-skip-bodies -- -std=c++17
// RUN: diff %t/skip.cpp %t/all.cpp
// RUN: %FileCheck %s < %t/skip.cpp
// RUN: rm -rf %t
#include <omp.h>

#define PARALLEL _Pragma("omp parallel")
#define INDIRECT PARALLEL
#define PASTE(a, b) a##b
#define OPEN {
#define CLOSE }
#define LOCK_CALL(l) omp_set_lock(l)
#define PLAIN_CALL(x) (x + 1)

struct Holder {
  int Values[2];
  int Count;
  // A braced member initialiser before the body.
  Holder() : Values{1, 2}, Count{0} {
#pragma omp parallel
    Count = 1;
  }
  void inClass() { PLAIN_CALL(Count); }
};

// A function try block with a catch clause after the body.
void tryBlock() try {
  int X = PLAIN_CALL(1);
  (void)X;
} catch (...) {
  INDIRECT {
    int Y = 0;
    (void)Y;
  }
}

// A macro that expands to _Pragma, through another macro.
void throughMacro() {
  INDIRECT {}
}

// An API call written through a macro and one written as it is.
void apiCalls(omp_lock_t *L) {
  LOCK_CALL(L);
  omp_unset_lock(L);
}

// A body whose braces come partly from macros.
int macroBraces(int X) OPEN return PLAIN_CALL(X);
CLOSE

// Token pasting may produce an OpenMP name.
int pasted() { return PASTE(omp_get_, thread_num)(); }

// A preprocessor conditional inside the body.
int conditional(int X) {
#if 1
  return X;
#else
  return -X;
#endif
}

template <typename T> T templated(T X) {
  auto Lambda = [&] {
#pragma omp parallel for
    for (int I = 0; I < 2; ++I)
      X += 0;
  };
  Lambda();
  return X;
}

// A system header between a function's head and its body: the tokens of system headers are not
// watched, so the tokens before it do not decide the body (built).
void afterHeader()
#include <stdbool.h>
{
  INDIRECT {}
}

// Plain bodies, skipped.
int plain(int X) { return X * 2; }
struct Plain {
  int get() const { return 3; }
};

int main() {
  omp_lock_t L;
  omp_init_lock(&L);
  apiCalls(&L);
  tryBlock();
  throughMacro();
  afterHeader();
  Holder H;
  return templated(macroBraces(plain(conditional(pasted()))));
}

// The forks of the constructor, the catch clause, throughMacro, afterHeader and the lambda; the
// CHECK lines are copied into the output too, hence the braces.
// CHECK-COUNT-5: POMP_Parallel_{{fork}}_ctx_notid(&
// CHECK-NOT: POMP_Parallel_{{fork}}_ctx_notid(&
