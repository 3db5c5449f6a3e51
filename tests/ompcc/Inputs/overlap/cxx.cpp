// C++ with the standard headers, a lambda and a template: the compile parses <vector> and
// <numeric> while ompinst does.
#include <cstdio>
#include <numeric>
#include <vector>

template <typename T> T total(const std::vector<T> &v) {
  T s = 0;
#pragma omp parallel for reduction(+ : s)
  for (std::size_t i = 0; i < v.size(); ++i)
    s += v[i];
  return s;
}

int main() {
  std::vector<long> v(1000);
  std::iota(v.begin(), v.end(), 1);
  auto twice = [](long x) { return 2 * x; };
  std::printf("%ld %ld\n", total(v), twice(std::accumulate(v.begin(), v.end(), 0L)));
  return 0;
}
