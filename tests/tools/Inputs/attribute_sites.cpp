// Sites written in the attribute syntax, as corpus_runner.py's scanner must count them.
int main() {
  int s = 0;
  [[omp::directive(parallel for reduction(+ : s))]]
  for (int i = 0; i < 10; i++)
    s += i;
  [[omp::sequence(directive(parallel), omp::directive(single))]]
  { s += 1; }
  [[using omp: directive(barrier)]];
  [[omp::decl(declare simd)]] int f(int);
  // [[omp::directive(parallel)]] in a comment is no site.
#pragma omp parallel
  _Pragma("omp critical") s += 1;
  return s;
}
