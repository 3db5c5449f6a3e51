/* loops.c - worksharing loops with every schedule kind and the loop-related clauses.
 *
 * Exercises: for with schedule(static), schedule(static, chunk), schedule(dynamic, chunk),
 * schedule(nonmonotonic: dynamic, chunk), schedule(guided, chunk), schedule(runtime),
 * reduction(+), collapse(2), lastprivate (static schedules only), nowait on independent loops
 * followed by an explicit barrier, order(concurrent), simd with reduction, for simd, parallel
 * for simd, masked, and a combined parallel for.
 *
 * Every loop marks the iterations it ran, so each prints an integer checksum and whether every
 * iteration ran exactly once; the output does not depend on the schedule, thread count or
 * OMP_SCHEDULE. Ends with "check: OK".
 */
#include <omp.h>
#include <stdio.h>

#define N 1000
#define ROWS 30
#define COLS 40

static int hits[N];
static int grid[ROWS][COLS];
static int ok = 1;

static long weight(int i) { return (long)i * i % 97; }

/* Verifies and clears the iteration marks of the previous loop, and prints its checksum. */
static void report(const char *name, long sum) {
  long expected = 0;
  int once = 1;
  for (int i = 0; i < N; i++) {
    expected += weight(i);
    once = once && hits[i] == 1;
    hits[i] = 0;
  }
  printf("%s: sum %ld, each iteration once: %s\n", name, sum, once ? "yes" : "NO");
  ok = ok && once && sum == expected;
}

int main(void) {
  long s_static = 0, s_chunked = 0, s_dynamic = 0, s_nonmono = 0, s_guided = 0, s_runtime = 0;
  int last = -1, last_chunked = -1, evens = 0, odds = 0, masked_thread = -1;

#pragma omp parallel
  {
#pragma omp for schedule(static) reduction(+ : s_static) lastprivate(last)
    for (int i = 0; i < N; i++) {
      hits[i]++;
      s_static += weight(i);
      last = i;
    }
#pragma omp masked
    {
      masked_thread = omp_get_thread_num();
      report("schedule(static)", s_static);
    }
#pragma omp barrier /* masked has no barrier, and report() resets hits[] */

#pragma omp for schedule(static, 7) reduction(+ : s_chunked) lastprivate(last_chunked)
    for (int i = 0; i < N; i++) {
      hits[i]++;
      s_chunked += weight(i);
      last_chunked = i * 2;
    }
#pragma omp single
    report("schedule(static, 7)", s_chunked);

#pragma omp for schedule(dynamic, 16) reduction(+ : s_dynamic)
    for (int i = 0; i < N; i++) {
      hits[i]++;
      s_dynamic += weight(i);
    }
#pragma omp single
    report("schedule(dynamic, 16)", s_dynamic);

#pragma omp for schedule(nonmonotonic : dynamic, 4) reduction(+ : s_nonmono)
    for (int i = 0; i < N; i++) {
      hits[i]++;
      s_nonmono += weight(i);
    }
#pragma omp single
    report("schedule(nonmonotonic : dynamic, 4)", s_nonmono);

#pragma omp for schedule(guided, 8) reduction(+ : s_guided)
    for (int i = N - 1; i >= 0; i--) {
      hits[i]++;
      s_guided += weight(i);
    }
#pragma omp single
    report("schedule(guided, 8)", s_guided);

#pragma omp for schedule(runtime) reduction(+ : s_runtime)
    for (int i = 0; i < N; i += 1) {
      hits[i]++;
      s_runtime += weight(i);
    }
#pragma omp single
    report("schedule(runtime)", s_runtime);

    /* Two loops that touch disjoint data need no barrier between them, only after both. */
#pragma omp for collapse(2) nowait
    for (int r = 0; r < ROWS; r++)
      for (int c = 0; c < COLS; c++)
        grid[r][c] = r * COLS + c;
#pragma omp for nowait reduction(+ : evens, odds) order(concurrent)
    for (int i = 0; i < N; i++) {
      if (i % 2 == 0)
        evens++;
      else
        odds++;
    }
#pragma omp barrier
  }
  printf("lastprivate: %d and %d\n", last, last_chunked);
  printf("masked ran on thread %d\n", masked_thread);
  printf("nowait loops: evens %d, odds %d\n", evens, odds);
  ok = ok && last == N - 1 && last_chunked == 2 * (N - 1) && masked_thread == 0 && evens == N / 2 &&
       odds == N / 2;

  long grid_sum = 0, expected_grid = (long)ROWS * COLS * (ROWS * COLS - 1) / 2;
#pragma omp parallel for collapse(2) reduction(+ : grid_sum)
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++)
      grid_sum += grid[r][c];
  printf("collapse(2) grid sum: %ld\n", grid_sum);
  ok = ok && grid_sum == expected_grid;

  static int a[N], b[N], c[N];
  long dot = 0, dot_for = 0;
#pragma omp simd
  for (int i = 0; i < N; i++) {
    a[i] = i % 13;
    b[i] = 3 - i % 5;
  }
#pragma omp simd reduction(+ : dot)
  for (int i = 0; i < N; i++)
    dot += a[i] * b[i];
#pragma omp parallel for simd
  for (int i = 0; i < N; i++)
    c[i] = a[i] + 2 * b[i];
#pragma omp parallel
#pragma omp for simd reduction(+ : dot_for)
  for (int i = 0; i < N; i++)
    dot_for += (long)c[i] * a[i];

  long serial_dot = 0, serial_dot_for = 0;
  for (int i = 0; i < N; i++) {
    serial_dot += (i % 13) * (3 - i % 5);
    serial_dot_for += (long)((i % 13) + 2 * (3 - i % 5)) * (i % 13);
  }
  printf("simd dot: %ld, for simd dot: %ld\n", dot, dot_for);
  ok = ok && dot == serial_dot && dot_for == serial_dot_for;

  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
