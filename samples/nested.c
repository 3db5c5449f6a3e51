/* nested.c - parallel regions nested three levels deep.
 *
 * Exercises: omp_set_max_active_levels / omp_get_max_active_levels, omp_set_dynamic, three
 * nested parallel regions each with num_threads(2), omp_get_level, omp_get_active_level,
 * omp_get_ancestor_thread_num, omp_get_team_size, omp_get_thread_num, atomic update of a
 * per-level counter.
 *
 * Every level names its team size, so the counts do not depend on OMP_NUM_THREADS. Prints, for
 * max-active-levels 3 and then 2, the number of threads that ran at each level (2, 4, 8 and
 * then 2, 4, 4: the innermost regions become inactive teams of one), the innermost level and
 * active level, and whether the ancestor thread numbers gave every innermost thread a distinct
 * path; then "check: OK".
 */
#include <omp.h>
#include <stdio.h>

#define LEVELS 3

static int threads_at[LEVELS + 1]; /* threads_at[l]: threads that ran at nesting level l */
static int path_seen[1 << LEVELS];
static int levels_ok;

/* Records the calling thread at the current level; the innermost level also checks the
 * ancestry and marks the path of thread numbers that leads to it. */
static void visit(int level) {
#pragma omp atomic update
  threads_at[level]++;
  if (omp_get_level() != level || omp_get_ancestor_thread_num(level) != omp_get_thread_num() ||
      omp_get_ancestor_thread_num(0) != 0)
    levels_ok = 0;
  if (level < LEVELS)
    return;
  int path = 0;
  for (int l = 1; l <= LEVELS; l++)
    path = 2 * path + omp_get_ancestor_thread_num(l);
#pragma omp atomic update
  path_seen[path]++;
}

static int run(int max_active) {
  int active_innermost = -1, innermost_team = -1;
  omp_set_max_active_levels(max_active);
  for (int l = 0; l <= LEVELS; l++)
    threads_at[l] = 0;
  for (int p = 0; p < 1 << LEVELS; p++)
    path_seen[p] = 0;
  levels_ok = 1;

#pragma omp parallel num_threads(2)
  {
    visit(1);
#pragma omp parallel num_threads(2)
    {
      visit(2);
#pragma omp parallel num_threads(2)
      {
        visit(3);
        if (omp_get_ancestor_thread_num(1) == 0 && omp_get_ancestor_thread_num(2) == 0 &&
            omp_get_thread_num() == 0) {
          active_innermost = omp_get_active_level();
          innermost_team = omp_get_team_size(3);
        }
      }
    }
  }

  int distinct = 0;
  for (int p = 0; p < 1 << LEVELS; p++)
    distinct += path_seen[p] > 0;
  printf("max_active_levels %d:", omp_get_max_active_levels());
  for (int l = 1; l <= LEVELS; l++)
    printf(" level %d: %d threads%s", l, threads_at[l], l < LEVELS ? "," : "\n");
  printf("  innermost: active level %d, team size %d, %d distinct ancestor paths\n",
         active_innermost, innermost_team, distinct);

  int inner = max_active >= LEVELS ? 2 : 1; /* inactive regions run with a team of one */
  return levels_ok && threads_at[1] == 2 && threads_at[2] == 4 && threads_at[3] == 4 * inner &&
         active_innermost == (max_active >= LEVELS ? 3 : 2) && innermost_team == inner &&
         distinct == 4 * inner;
}

int main(void) {
  omp_set_dynamic(0); /* num_threads(2) must give exactly two threads */
  int ok = run(3);
  ok = run(2) && ok;
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
