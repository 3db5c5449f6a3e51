/* tasks_deps.c - a blocked prefix sum driven by task dependences, plus other tasking.
 *
 * Exercises: parallel + single, task with depend(out / in / inout) on array elements,
 * depend(mutexinoutset), taskgroup with task_reduction and tasks with in_reduction, taskloop
 * with grainsize and reduction(+), taskloop with num_tasks, taskyield while waiting for a lock
 * (omp_test_lock), taskwait.
 *
 * Prints the last element of the prefix sum, the mutexinoutset and task-reduction totals, the
 * taskloop sums, the lock-protected count, and "check: OK" when all agree with serial results.
 */
#include <omp.h>
#include <stdio.h>

#define BLOCKS 16
#define BLOCK 256
#define COUNT (BLOCKS * BLOCK)

static long data[COUNT];
static long carry[BLOCKS]; /* carry[b]: sum of all elements up to the end of block b */

static long value(int i) { return (long)(i * 37 % 101) - 50; }

int main(void) {
  long mutex_total = 0, reduced = 0, loop_sum = 0, loop_sum2 = 0, locked_count = 0;
  omp_lock_t lock;
  omp_init_lock(&lock);

#pragma omp parallel
#pragma omp single
  {
    /* Prefix sum: fill and scan every block independently, then propagate the carries in block
     * order; the dependences on data[b * BLOCK] and carry[b] order the tasks of block b. */
    for (int b = 0; b < BLOCKS; b++) {
      long *blk = &data[b * BLOCK];
#pragma omp task depend(out : blk[0]) firstprivate(blk, b)
      for (int i = 0; i < BLOCK; i++)
        blk[i] = value(b * BLOCK + i);
#pragma omp task depend(inout : blk[0]) firstprivate(blk)
      for (int i = 1; i < BLOCK; i++)
        blk[i] += blk[i - 1];
      if (b == 0) {
#pragma omp task depend(in : blk[0]) depend(out : carry[0]) firstprivate(blk)
        carry[0] = blk[BLOCK - 1];
      } else {
#pragma omp task depend(in : carry[b - 1]) depend(inout : blk[0]) depend(out : carry[b])      \
    firstprivate(blk, b)
        {
          for (int i = 0; i < BLOCK; i++)
            blk[i] += carry[b - 1];
          carry[b] = blk[BLOCK - 1];
        }
      }
    }

    /* Tasks that update one variable exclusively, in whatever order they are scheduled. */
    for (int k = 1; k <= 20; k++) {
#pragma omp task depend(mutexinoutset : mutex_total) shared(mutex_total) firstprivate(k)
      mutex_total += k * k;
    }

#pragma omp taskgroup task_reduction(+ : reduced)
    {
      for (int k = 1; k <= 50; k++) {
#pragma omp task in_reduction(+ : reduced) firstprivate(k)
        reduced += k;
      }
    }

#pragma omp taskloop grainsize(100) reduction(+ : loop_sum)
    for (int i = 0; i < 10000; i++)
      loop_sum += i % 7;

#pragma omp taskloop num_tasks(8) reduction(+ : loop_sum2)
    for (int i = 0; i < 1000; i++)
      loop_sum2 += (long)i * i;

    for (int k = 0; k < 32; k++) {
#pragma omp task shared(lock, locked_count)
      {
        /* Let other tasks run on this thread instead of blocking it on the lock. */
        while (!omp_test_lock(&lock)) {
#pragma omp taskyield
        }
        locked_count++;
        omp_unset_lock(&lock);
      }
    }
#pragma omp taskwait
  }
  omp_destroy_lock(&lock);

  long running = 0;
  int prefix_ok = 1;
  for (int i = 0; i < COUNT; i++) {
    running += value(i);
    if (data[i] != running)
      prefix_ok = 0;
  }
  long serial_sum = 0, serial_sum2 = 0;
  for (int i = 0; i < 10000; i++)
    serial_sum += i % 7;
  for (int i = 0; i < 1000; i++)
    serial_sum2 += (long)i * i;

  printf("prefix sum: last %ld, carry of block 7 %ld\n", data[COUNT - 1], carry[7]);
  printf("mutexinoutset total: %ld\n", mutex_total);
  printf("task reduction: %ld\n", reduced);
  printf("taskloop grainsize sum: %ld, num_tasks sum: %ld\n", loop_sum, loop_sum2);
  printf("lock count: %ld\n", locked_count);
  int ok = prefix_ok && data[COUNT - 1] == running && mutex_total == 2870 && reduced == 1275 &&
           loop_sum == serial_sum && loop_sum2 == serial_sum2 && locked_count == 32;
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
