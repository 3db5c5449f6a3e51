/* A genuine error on line 6: reported once, by the real compiler, here. */
int bad(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += i
  return s;
}
