/* OpenMP constructs in a header: instrumented in a copy of the header (headers.test). */
static inline int header_work(int n) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < n; i++)
    sum += 1;
#pragma omp barrier
  return sum;
}
