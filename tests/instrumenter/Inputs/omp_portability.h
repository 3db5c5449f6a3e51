/* A portability layer as real code has them: OpenMP directives behind macros. */
#ifndef OMP_PORTABILITY_H
#define OMP_PORTABILITY_H
#define PRAGMA(x) _Pragma(#x)
#define OMP(x) PRAGMA(omp x)
#define OMP_PARALLEL_FOR_SUM(v) OMP(parallel for reduction(+ : v))
#define OMP_PARALLEL_SINGLE _Pragma("omp parallel") _Pragma("omp single")
#define OMP_BARRIER _Pragma("omp barrier")
/* The associated statement is part of the expansion. */
#define OMP_PARALLEL_DO(stmt) _Pragma("omp parallel") { stmt; }
/* Other pragmas in the same expansion. */
#define OMP_FOR_NO_WARNINGS                                                                        \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wunused-variable\"")         \
      _Pragma("omp for")
#define OMP_END_NO_WARNINGS _Pragma("GCC diagnostic pop")
#endif
