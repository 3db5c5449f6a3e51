/* Clang accepts _BitInt in C; gcc 12 does not: the error is gcc's, on line 4, once. */
int narrow(int x) {
#pragma omp parallel
  { _BitInt(8) b = x; (void)b; }
  return x;
}
