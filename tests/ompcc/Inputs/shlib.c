/* An instrumented shared library: its constructor binds its handles when it is loaded. */
int shlib_threads(void) {
  int n = 0;
#pragma omp parallel
  {
#pragma omp atomic
    ++n;
  }
  return n;
}
