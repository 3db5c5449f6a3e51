// The program of the sample project (C++): uses the static and the shared library.
#include "scale.h"
#include "vecsum.h"

#include <cstdio>
#include <vector>

int main() {
  const int Count = 1000;
  std::vector<double> Values(Count, 1.0);
  int Threads = scale(Values.data(), Count, 2.0);
  double Sum = vecsum(Values.data(), Count);
  int Singles = 0;
#pragma omp parallel
  {
#pragma omp single
    ++Singles;
  }
  std::printf("sum %.1f, threads %s, singles %d\n", Sum, Threads > 0 ? "ok" : "none", Singles);
  return Sum == 2.0 * Count ? 0 : 1;
}
