/* sections.c - independent analyses of one data set run as OpenMP sections.
 *
 * Exercises: sections / section inside a parallel region with nowait, lastprivate and
 * private, an explicit barrier before a single combines the results, and a combined
 * parallel sections construct with firstprivate, lastprivate and reduction(+).
 *
 * Prints the results of each section (minimum, maximum, sum, count of primes, longest
 * Collatz chain), the section that lastprivate took its value from, the sum of the
 * quarter-sums computed by parallel sections, and "check: OK" when everything matches a
 * serial computation.
 */
#include <stdio.h>

#define COUNT 20000

static int data[COUNT];

static void fill(void) {
  unsigned state = 12345u;
  for (int i = 0; i < COUNT; i++) {
    state = state * 1103515245u + 12345u;
    data[i] = (int)((state >> 8) % 100000u);
  }
}

static int is_prime(int n) {
  if (n < 2)
    return 0;
  for (int d = 2; d * d <= n; d++)
    if (n % d == 0)
      return 0;
  return 1;
}

static int collatz_length(long n) {
  int steps = 0;
  for (; n != 1 && n > 0; steps++)
    n = n % 2 ? 3 * n + 1 : n / 2;
  return steps;
}

int main(void) {
  int min = 0, max = 0, primes = 0, longest = 0, longest_at = 0, last_section = 0;
  long sum = 0;
  int i;

  fill();

#pragma omp parallel private(i)
  {
#pragma omp sections nowait lastprivate(last_section)
    {
#pragma omp section
      {
        min = max = data[0];
        for (i = 1; i < COUNT; i++) {
          if (data[i] < min)
            min = data[i];
          if (data[i] > max)
            max = data[i];
        }
        last_section = 1;
      }
#pragma omp section
      {
        for (i = 0; i < COUNT; i++)
          sum += data[i];
        last_section = 2;
      }
#pragma omp section
      {
        for (i = 0; i < COUNT; i++)
          primes += is_prime(data[i]);
        last_section = 3;
      }
#pragma omp section
      {
        for (i = 0; i < COUNT; i++) {
          int len = collatz_length(data[i]);
          if (len > longest) {
            longest = len;
            longest_at = i;
          }
        }
        last_section = 4;
      }
    }
    /* nowait dropped the sections' barrier, and single has none on entry. */
#pragma omp barrier
#pragma omp single
    printf("min %d, max %d, sum %ld, primes %d, longest collatz %d (data[%d] = %d)\n", min, max,
           sum, primes, longest, longest_at, data[longest_at]);
  }
  printf("lastprivate from section %d\n", last_section);

  /* Quarter sums. Sections only read quarter: firstprivate makes one copy per thread, not one
   * per section, so a section that changed it would affect the next one on that thread. */
  long total = 0;
  int quarter = COUNT / 4, end = 0;
#pragma omp parallel sections firstprivate(quarter) lastprivate(end) reduction(+ : total)
  {
#pragma omp section
    for (end = 0; end < quarter; end++)
      total += data[end];
#pragma omp section
    for (end = quarter; end < 2 * quarter; end++)
      total += data[end];
#pragma omp section
    for (end = 2 * quarter; end < 3 * quarter; end++)
      total += data[end];
#pragma omp section
    for (end = 3 * quarter; end < COUNT; end++)
      total += data[end];
  }
  printf("parallel sections total %ld, last end %d\n", total, end);

  int smin = data[0], smax = data[0], sprimes = 0, slongest = 0;
  long ssum = 0;
  for (i = 0; i < COUNT; i++) {
    smin = data[i] < smin ? data[i] : smin;
    smax = data[i] > smax ? data[i] : smax;
    ssum += data[i];
    sprimes += is_prime(data[i]);
    if (collatz_length(data[i]) > slongest)
      slongest = collatz_length(data[i]);
  }
  int ok = min == smin && max == smax && sum == ssum && primes == sprimes && longest == slongest &&
           last_section == 4 && total == ssum && end == COUNT;
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
