/* mixed_kernel.c: the C half of mixed_main.f90, called through bind(C): a parallel loop with a
 * reduction over the array the Fortran program owns. */
long mixed_weighted_sum(const int *values, int n) {
  long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
  for (int i = 0; i < n; ++i)
    total += (long)(i + 1) * values[i];
  return total;
}
