#include <cstdio>
#include "parallel.h"

int main() {
  std::printf("%d\n", team_size() > 0);
  return 0;
}
