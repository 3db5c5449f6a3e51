/* A host teams construct: context_by_pointer.c compiles its instrumented form. */
int main(void) {
  int n = 0;
#pragma omp teams num_teams(2) reduction(+ : n)
  n++;
  return n > 0 ? 0 : 1;
}
