// A #pragma ends the precompiled part (#pragma pomp, declare target...): only <cstdio> is.
#include <cstdio>
#pragma pomp inst begin(whole)
#include <vector>

int main() {
  std::vector<int> v(3, 1);
  std::printf("%zu\n", v.size());
#pragma pomp inst end(whole)
  return 0;
}
