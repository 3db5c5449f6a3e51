/* The C half of the mixed project: called from Fortran through bind(C). */
void scale_vector(double *v, int n, double factor) {
#pragma omp parallel for
  for (int i = 0; i < n; ++i)
    v[i] *= factor;
}
