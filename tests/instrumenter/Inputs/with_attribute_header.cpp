#include "attribute_header.hpp"
#include <cstdio>

int main() {
  std::printf("%d\n", kernel(100));
  return 0;
}
