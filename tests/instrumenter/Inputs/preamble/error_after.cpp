#include <vector>

int broken() {
  std::vector<int> v;
#pragma omp parallel
  v.push_back(1);
  return v.no_such_member();
}
