/* Included by kern.hpp: a header without OpenMP that includes nothing rewritten (headers.test). */
#ifndef UTIL_H
#define UTIL_H
static inline double util_scale(double x, double f) { return x * f; }
#endif
