double work(int n) {
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) num_threads(2)
  for (int i = 0; i < n; ++i)
    sum += i;
  return sum;
}
