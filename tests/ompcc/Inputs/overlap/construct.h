/* A header with a construct: ompinst includes its copy instead, so the instrumented text differs
 * from the source within the #include block. */
static inline int count_threads(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}
