/* Included only with -include on the command line (headers.test). */
static inline int forced_work(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}
