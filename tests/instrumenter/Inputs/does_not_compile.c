/* A source with an error (errors.test). */
int main(void) {
#pragma omp parallel
  return undeclared;
}
