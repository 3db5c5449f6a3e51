/* No #include: the plugin has no preamble to compile while ompinst runs; gcc only starts. */
int work(int n) {
  int s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; ++i)
    s += i;
  return s;
}
