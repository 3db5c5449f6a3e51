/* A unit ompinst rejects (a misspelt POMP user region, line 5) but every compiler accepts. */
int broken(int n) {
  int sum = 0;
#pragma omp parallel for reduction(+ : sum)
#pragma pomp userregion strat(r)
  for (int i = 0; i < n; ++i)
    sum += 2 * i;
  return sum;
}
