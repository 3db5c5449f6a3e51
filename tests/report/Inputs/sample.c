/* The program pomp-report's tests measure, instrumented by hand as ompinst would do it. Its shape
 * is fixed so that the tests can check exact visit counts and the order of the largest regions:
 *
 *   user region "setup"     master only, 1 visit of 4 units             (~8 ms exclusive)
 *   parallel, 3 threads     forked with a context (POMP_Parallel_fork)
 *     set lock              each thread once, holding the lock 1/2 unit (waiting, ~3 ms)
 *     user region "compute" Rounds visits per thread of (thread + 1) units (~48 ms, imbalanced)
 *     barrier               after each compute (waiting, ~24 ms)
 *   function "fib"          fib(5) on the master: 15 visits, recursive
 *
 * A unit is 2 ms of sleep. The largest regions are compute, barrier and setup, in an order that
 * load may change; the rest take < 4 ms. The parallel region (~24 ms on the master) is the hottest
 * call path, well ahead of setup, so the page's "hottest path" is one path even under load. The source locations in the CTC strings are the ones the tests name,
 * not this file's lines. */
#include "pomplib.h"

#include <omp.h>
#include <stdio.h>
#include <time.h>

#define CTC_SETUP "69*type=userregion*name=setup*file=sample.c*slines=20,20*elines=22,22**"
#define CTC_PAR "56*type=parallel*file=sample.c*slines=30,30*elines=45,45**"
#define CTC_LOCK "42*type=setlock*file=sample.c*slines=33,33**"
#define CTC_COMPUTE "71*type=userregion*name=compute*file=sample.c*slines=37,37*elines=39,39**"
#define CTC_BARRIER "42*type=barrier*file=sample.c*slines=40,40**"
#define CTC_FIB "65*type=function*name=fib*file=sample.c*slines=12,12*elines=16,16**"

enum { Rounds = 4, Threads = 3, SetupUnits = 4, FibArgument = 5 };
static const long UnitNs = 2000000;
static const long NsPerSecond = 1000000000;

static POMP_Handle_t Setup, Par, Lock, Compute, Barrier, Fib;

static void sleepNs(long Ns) {
  struct timespec T = {Ns / NsPerSecond, Ns % NsPerSecond};
  while (nanosleep(&T, &T) != 0) {
  }
}

static int fib(int N) {
  POMP_Function_begin(&Fib, 0, CTC_FIB);
  int R = N < 2 ? N : fib(N - 1) + fib(N - 2);
  POMP_Function_end(Fib, 0);
  return R;
}

int main(void) {
  omp_lock_t L;
  omp_init_lock(&L);
  POMP_Init();

  POMP_User_region_begin(&Setup, 0, CTC_SETUP);
  sleepNs(SetupUnits * UnitNs);
  POMP_User_region_end(Setup, 0);

  POMP_Context_t Fork;
  POMP_Parallel_fork(&Par, 0, Threads, 1, &Fork, CTC_PAR);
#pragma omp parallel num_threads(Threads) firstprivate(Fork)
  {
    int Tid = omp_get_thread_num();
    POMP_Parallel_begin_forked(Par, Tid, Fork);
    POMP_Set_lock_enter(&Lock, Tid, (POMP_Lock_id_t)&L, CTC_LOCK);
    omp_set_lock(&L);
    POMP_Set_lock_exit(Lock, Tid, (POMP_Lock_id_t)&L);
    sleepNs(UnitNs / 2);
    omp_unset_lock(&L);
    for (int R = 0; R < Rounds; ++R) {
      POMP_User_region_begin(&Compute, Tid, CTC_COMPUTE);
      sleepNs(UnitNs * (Tid + 1));
      POMP_User_region_end(Compute, Tid);
      POMP_Barrier_enter(&Barrier, Tid, CTC_BARRIER);
#pragma omp barrier
      POMP_Barrier_exit(Barrier, Tid);
    }
    POMP_Parallel_end(Par, Tid);
  }
  POMP_Parallel_exit(Par, 0);

  printf("fib %d\n", fib(FibArgument));
  omp_destroy_lock(&L);
  return POMP_Finalize();
}
