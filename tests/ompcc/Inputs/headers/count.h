/* A C header with a static inline function holding constructs, included by a.c and b.c: each
   has its own copy of the function, and both share the construct's handle (headers.test). */
static inline int count_threads(void) {
  int n = 0;
#pragma omp parallel reduction(+ : n)
  n += 1;
  return n;
}
