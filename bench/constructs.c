/* constructs.c - N executions of one OpenMP construct, for instruction counts.
 *
 *     constructs <parallel|parallelfor|reduction|barrier|single|for|lock|task|ptask|pair|nested> [N]
 *
 * bench/instr_count.py runs it under callgrind with two values of N: the difference of the
 * instruction counts divided by the difference of N is what one construct costs all threads
 * together (task: one single construct that creates two tasks; ptask: each thread creates one
 * task, as EPCC taskbench's PARALLEL TASK does; pair: each thread creates two tasks and waits
 * for them, written one after another as fib does; nested: each thread's task creates two
 * untied tasks and waits for them, as NESTED TASK does), whatever the machine's load. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static volatile int Sink;
enum { MaxThreads = 64 };
int main(int argc, char **argv) {
  const char *What = argc > 1 ? argv[1] : "parallel";
  const int N = argc > 2 ? atoi(argv[2]) : 1000;
  int X = 0;
  /* One lock per thread: an uncontended set/unset pair, as EPCC's LOCK_UNCONTENDED (a shared
   * lock makes a thread spin in libomp for as long as valgrind runs the other). */
  omp_lock_t L[MaxThreads];
  for (int T = 0; T < MaxThreads; ++T)
    omp_init_lock(&L[T]);
  if (!strcmp(What, "parallel")) {
    for (int I = 0; I < N; ++I) {
#pragma omp parallel
      Sink = 1;
    }
  } else if (!strcmp(What, "parallelfor")) {
    for (int I = 0; I < N; ++I) {
#pragma omp parallel for
      for (int J = 0; J < 2; ++J)
        Sink = J;
    }
  } else if (!strcmp(What, "reduction")) {
    for (int I = 0; I < N; ++I) {
#pragma omp parallel reduction(+ : X)
      X += 1;
    }
  } else {
#pragma omp parallel reduction(+ : X)
    for (int I = 0; I < N; ++I) {
      if (!strcmp(What, "barrier")) {
#pragma omp barrier
      } else if (!strcmp(What, "single")) {
#pragma omp single
        Sink = 1;
      } else if (!strcmp(What, "for")) {
#pragma omp for
        for (int J = 0; J < 2; ++J)
          Sink = J;
      } else if (!strcmp(What, "lock")) {
        omp_lock_t *Own = &L[omp_get_thread_num() % MaxThreads];
        omp_set_lock(Own);
        X++;
        omp_unset_lock(Own);
      } else if (!strcmp(What, "ptask")) {
#pragma omp task
        Sink = I;
      } else if (!strcmp(What, "pair")) {
        /* ompinst marks the second task and the taskwait afterConstruct=1: their enters take
         * the exit time of the construct before them. */
#pragma omp task
        Sink = I;
#pragma omp task
        Sink = I + 1;
#pragma omp taskwait
      } else if (!strcmp(What, "nested")) {
        /* The untied tasks' block holds no directive: instrumented, their CTC strings say so
         * (directiveFree=1), and libpomp does not follow them between threads. */
#pragma omp task
        {
          for (int J = 0; J < 2; ++J) {
#pragma omp task untied
            Sink = J;
          }
#pragma omp taskwait
        }
      } else if (!strcmp(What, "task")) {
#pragma omp single
        {
          for (int J = 0; J < 2; ++J) {
#pragma omp task
            Sink = J;
          }
        }
      }
    }
  }
  for (int T = 0; T < MaxThreads; ++T)
    omp_destroy_lock(&L[T]);
  printf("%d\n", X + Sink);
  return 0;
}
