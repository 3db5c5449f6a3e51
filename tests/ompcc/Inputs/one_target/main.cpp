#include <cstdio>
extern "C" double work(int n);
int main() {
  std::printf("sum %.1f\n", work(100));
  return 0;
}
