/* The shared library of the sample project: a parallel loop and a critical section. */
#ifndef SCALE_H
#define SCALE_H
#ifdef __cplusplus
extern "C" {
#endif
/* Multiplies every value by factor; returns how many threads took part. */
int scale(double *values, int count, double factor);
#ifdef __cplusplus
}
#endif
#endif
