/* counters.c - shared counters kept consistent by every synchronisation means OpenMP offers.
 *
 * Exercises: omp_init_lock / omp_set_lock / omp_unset_lock / omp_test_lock / omp_destroy_lock,
 * the nest-lock versions of those, unnamed and named critical, atomic update / capture / read /
 * write, flush, for with the ordered clause and an ordered region, and the runtime calls
 * omp_get_num_threads, omp_get_thread_num, omp_get_max_threads, omp_in_parallel,
 * omp_set_num_threads, omp_get_dynamic, omp_set_dynamic.
 *
 * Prints per-mechanism totals (N increments each, whatever the thread count), the lines of
 * the ordered loop in iteration order, the team size after omp_set_num_threads(3), and
 * "check: OK" when every count and invariant holds.
 */
#include <omp.h>
#include <stdio.h>

#define N 10000
#define MAX_THREADS 256
#define NEST_DEPTH 3

static omp_nest_lock_t nest_lock;
static long nest_count = 0;
static int nest_ok = 1;
static int flag[MAX_THREADS]; /* flag[t]: thread t has passed the token on */

/* Takes the nest lock NEST_DEPTH + 1 times over; the owner may always re-acquire it. */
static void add_nested(int depth) {
  omp_set_nest_lock(&nest_lock);
  if (depth > 0) {
    add_nested(depth - 1);
  } else {
    nest_count++;
    /* The owner's test succeeds and returns the new nesting count. */
    int nesting = omp_test_nest_lock(&nest_lock);
    if (nesting != NEST_DEPTH + 2)
      nest_ok = 0;
    omp_unset_nest_lock(&nest_lock);
  }
  omp_unset_nest_lock(&nest_lock);
}

int main(void) {
  omp_lock_t lock;
  long lock_count = 0, test_lock_count = 0, critical_count = 0, atomic_count = 0;
  long histogram[10] = {0};
  static int ticket_seen[N];
  long next_ticket = 0, ordered_sum = 0;
  int token = 0, team_ok = 1, chain_ok = 1, in_parallel = 0;

  omp_set_dynamic(0); /* team sizes must be exactly what was asked for */
  printf("dynamic: %d\n", omp_get_dynamic());
  printf("outside: in_parallel=%d num_threads=%d\n", omp_in_parallel(), omp_get_num_threads());
  const int max_threads = omp_get_max_threads();

  omp_init_lock(&lock);
  omp_init_nest_lock(&nest_lock);

#pragma omp parallel
  {
    const int nthreads = omp_get_num_threads();
    const int me = omp_get_thread_num();
    long pending = 0;

#pragma omp single
    /* A team of one is an inactive region: omp_in_parallel() is false there. */
    if (nthreads != max_threads || nthreads > MAX_THREADS || omp_in_parallel() != (nthreads > 1))
      team_ok = 0;

#pragma omp for
    for (int i = 0; i < N; i++) {
      omp_set_lock(&lock);
      lock_count++;
      omp_unset_lock(&lock);
    }

    /* omp_test_lock: keep counting locally while the lock is busy, publish when we get it. */
#pragma omp for
    for (int i = 0; i < N; i++) {
      pending++;
      if (omp_test_lock(&lock)) {
        test_lock_count += pending;
        pending = 0;
        omp_unset_lock(&lock);
      }
    }
    if (pending > 0) {
      omp_set_lock(&lock);
      test_lock_count += pending;
      omp_unset_lock(&lock);
    }

#pragma omp for
    for (int i = 0; i < N; i++)
      add_nested(NEST_DEPTH);

#pragma omp for
    for (int i = 0; i < N; i++) {
#pragma omp critical
      critical_count++;
#pragma omp critical(histogram)
      histogram[i % 10]++;
    }

#pragma omp for
    for (int i = 0; i < N; i++) {
      long ticket;
#pragma omp atomic update
      atomic_count++;
#pragma omp atomic capture
      ticket = next_ticket++;
      ticket_seen[ticket]++; /* tickets are unique, so no two threads write one slot */
    }

    /* A token passed from thread to thread: each waits for its predecessor's flag. The flushes
     * order the plain accesses to token with the atomic flag accesses. */
    if (me > 0) {
      int ready = 0;
      while (!ready) {
#pragma omp atomic read
        ready = flag[me - 1];
      }
#pragma omp flush
    }
    if (token != me * (me - 1) / 2)
      chain_ok = 0;
    token += me;
#pragma omp flush
#pragma omp atomic write
    flag[me] = 1;

#pragma omp barrier
#pragma omp single
    if (token != nthreads * (nthreads - 1) / 2)
      chain_ok = 0;

#pragma omp for ordered schedule(dynamic, 2)
    for (int i = 0; i < 8; i++) {
      long square = (long)i * i; /* computed in any order ... */
#pragma omp ordered
      {
        ordered_sum += square; /* ... but accumulated and printed in iteration order */
        printf("ordered %d: %ld\n", i, ordered_sum);
      }
    }
  }

  omp_destroy_lock(&lock);
  omp_destroy_nest_lock(&nest_lock);

  int tickets_ok = 1, histogram_ok = 1;
  for (int i = 0; i < N; i++)
    if (ticket_seen[i] != 1)
      tickets_ok = 0;
  for (int b = 0; b < 10; b++)
    if (histogram[b] != N / 10)
      histogram_ok = 0;

  printf("lock: %ld\n", lock_count);
  printf("test_lock: %ld\n", test_lock_count);
  printf("nest_lock: %ld\n", nest_count);
  printf("critical: %ld\n", critical_count);
  printf("critical(histogram): %s\n", histogram_ok ? "even" : "UNEVEN");
  printf("atomic: %ld\n", atomic_count);
  printf("atomic capture: %ld tickets, %s\n", next_ticket, tickets_ok ? "unique" : "DUPLICATED");
  printf("flush token chain: %s\n", chain_ok ? "passed" : "BROKEN");

  int team_size = 0;
  omp_set_num_threads(3);
  printf("max_threads after omp_set_num_threads(3): %d\n", omp_get_max_threads());
#pragma omp parallel
#pragma omp single
  {
    team_size = omp_get_num_threads();
    in_parallel = omp_in_parallel();
  }
  printf("team size: %d, in_parallel=%d\n", team_size, in_parallel);

  int ok = team_ok && nest_ok && chain_ok && tickets_ok && histogram_ok && in_parallel == 1 &&
           lock_count == N && test_lock_count == N && nest_count == N && critical_count == N &&
           atomic_count == N && next_ticket == N && ordered_sum == 140 && team_size == 3;
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
