/* The static library of the sample project: a parallel reduction. */
#ifndef VECSUM_H
#define VECSUM_H
#ifdef __cplusplus
extern "C" {
#endif
double vecsum(const double *values, int count);
#ifdef __cplusplus
}
#endif
#endif
