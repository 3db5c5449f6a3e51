#include <vector>

int broken() {
  std::vector<int> v;
  return v.no_such_member();
}
