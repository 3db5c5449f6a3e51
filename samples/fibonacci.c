/* fibonacci.c - task-parallel Fibonacci numbers.
 *
 * Exercises: parallel + single, task with shared / firstprivate, the if and final clauses
 * (cutoffs below which tasks are undeferred resp. final), omp_in_final, taskwait, taskgroup,
 * atomic update (counting task constructs encountered).
 *
 * Prints fib(n) for a few n computed by tasks, the number of task constructs encountered (a
 * property of the recursion tree, independent of the thread count), and "check: OK" when every
 * value matches an iterative computation.
 */
#include <omp.h>
#include <stdio.h>

#define IF_CUTOFF 22    /* for n <= this, the child tasks are undeferred: if(0) */
#define FINAL_CUTOFF 16 /* for n <= this, the child tasks are final: they recurse serially */

static long tasks_encountered = 0;

static long fib_serial(int n) { return n < 2 ? n : fib_serial(n - 1) + fib_serial(n - 2); }

static long fib(int n) {
  long x, y;
  if (n < 2)
    return n;
  /* Inside a final task every descendant would be an included task anyway; skip the overhead. */
  if (omp_in_final())
    return fib_serial(n);

#pragma omp atomic update
  tasks_encountered += 2;

#pragma omp task shared(x) firstprivate(n) if(n > IF_CUTOFF) final(n <= FINAL_CUTOFF)
  x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n) if(n > IF_CUTOFF) final(n <= FINAL_CUTOFF)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

static long fib_iterative(int n) {
  long a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    long t = a + b;
    a = b;
    b = t;
  }
  return a;
}

int main(void) {
  enum { COUNT = 5 };
  const int ns[COUNT] = {1, 10, 20, 25, 30};
  long results[COUNT];
  int ok = 1;

#pragma omp parallel shared(results, ok)
#pragma omp single
  {
#pragma omp taskgroup
    {
      for (int k = 0; k < COUNT; k++) {
#pragma omp task firstprivate(k) shared(results)
        results[k] = fib(ns[k]);
      }
    }
    /* The taskgroup has waited for the whole task trees, so the results are complete here. */
    for (int k = 0; k < COUNT; k++) {
      printf("fib(%d) = %ld\n", ns[k], results[k]);
      if (results[k] != fib_iterative(ns[k]))
        ok = 0;
    }
  }

  printf("tasks: %ld\n", tasks_encountered);
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
