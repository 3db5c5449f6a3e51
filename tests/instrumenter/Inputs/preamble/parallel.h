// A header of the project with an OpenMP construct: it is instrumented, so a preamble that
// includes it is not precompiled.
#ifndef PARALLEL_H
#define PARALLEL_H
inline int team_size() {
  int n = 0;
#pragma omp parallel
  {
#pragma omp atomic
    n++;
  }
  return n;
}
#endif
