#include "warn.h"
int main(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += seven();
  return n > 0 ? 0 : 1;
}
