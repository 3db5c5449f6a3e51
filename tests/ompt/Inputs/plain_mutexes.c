/* Mutexes acquired in code nobody instrumented (compiled without ompcc), for
 * mutex_acquisitions.c: the OpenMP runtime reports them, instrumented code does not. */
#include <omp.h>

void plain_nest_lock(omp_nest_lock_t *Lock, int *Count) {
  omp_set_nest_lock(Lock);
  ++*Count;
  omp_unset_nest_lock(Lock);
}

void plain_lock(omp_lock_t *Lock, int *Count) {
  omp_set_lock(Lock);
  ++*Count;
  omp_unset_lock(Lock);
}

void plain_critical(int *Count) {
#pragma omp critical(plain)
  ++*Count;
}

void plain_ordered(int *Count) {
#pragma omp for ordered
  for (int I = 0; I < 4; ++I) {
#pragma omp ordered
    ++*Count;
  }
}
