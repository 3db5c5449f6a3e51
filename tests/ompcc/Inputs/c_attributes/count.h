/* A project header with a directive in the attribute syntax (c_attributes.test). */
static inline int count_threads(void) {
  int n = 0;
  [[omp::directive(parallel num_threads(2))]]
  {
#pragma omp atomic
    n++;
  }
  return n;
}
