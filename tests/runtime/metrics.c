// Hardware counters per region (POMP_METRICS, issue 16) with PAPI's perf software events, which
// need no CPU counters: each thread's "touch" region faults in Pages fresh pages, so its
// perf::PAGE-FAULTS are at least Pages, inclusive and exclusive, on each thread and under the
// right call path ("work" includes them, "idle" has none of its own to speak of).
// REQUIRES: papi
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %gcc -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -lpthread -Wl,-rpath,%pomp_lib -o %t/prog
// RUN: cd %t && env POMP_QUIET=1 POMP_EXPERIMENT_DIR=exp POMP_METRICS='perf::PAGE-FAULTS, perf::TASK-CLOCK' %t/prog 2> %t/err
// RUN: count 0 < %t/err
// RUN: python3 %S/Inputs/metrics_check.py %t/exp perf::PAGE-FAULTS 64 | %FileCheck --match-full-lines %s
// RUN: %pomp-report --tree %t/exp | %FileCheck --check-prefix=REPORT %s
// RUN: %pomp-report --json %t/exp | %FileCheck --check-prefix=JSON %s
// RUN: rm -rf %t

#include "pomplib.h"

#include <pthread.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

enum { Pages = 64 };

static POMP_Handle_t Work, Touch, Idle;

static void touch(void) {
  const size_t PageSize = (size_t)sysconf(_SC_PAGESIZE);
  POMP_User_region_begin(&Touch, 0, "55*type=userregion*name=touch*file=metrics.c*slines=1,1**");
  char *Memory = mmap(NULL, Pages * PageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  if (Memory != MAP_FAILED) {
    for (size_t I = 0; I < Pages; ++I)
      Memory[I * PageSize] = 1;
    munmap(Memory, Pages * PageSize);
  }
  POMP_User_region_end(Touch, 0);
}

static void *work(void *Unused) {
  (void)Unused;
  POMP_User_region_begin(&Work, 0, "54*type=userregion*name=work*file=metrics.c*slines=2,2**");
  touch();
  POMP_User_region_end(Work, 0);
  return NULL;
}

int main(void) {
  work(NULL);
  POMP_User_region_begin(&Idle, 0, "54*type=userregion*name=idle*file=metrics.c*slines=3,3**");
  POMP_User_region_end(Idle, 0);
  pthread_t Thread;
  if (pthread_create(&Thread, NULL, work, NULL) != 0 || pthread_join(Thread, NULL) != 0)
    return 1;
  return 0;
}

// CHECK:      requested: perf::PAGE-FAULTS perf::TASK-CLOCK
// CHECK-NEXT: recorded: perf::PAGE-FAULTS perf::TASK-CLOCK
// CHECK-NEXT: /work threads=2 inclusive>=64:yes exclusive>=64:no each-thread:yes
// CHECK-NEXT: /work/touch threads=2 inclusive>=64:yes exclusive>=64:yes each-thread:yes
// CHECK-NEXT: /idle threads=1 inclusive>=64:no exclusive>=64:no each-thread:no

// REPORT:      Hardware counters (POMP_METRICS): exclusive and inclusive per counter, before kind.
// REPORT:      perf::PAGE-FAULTS[excl] perf::PAGE-FAULTS[incl] perf::TASK-CLOCK[excl] perf::TASK-CLOCK[incl] kind  call path
// REPORT-NEXT: {{.*}} work  user region "work" @metrics.c:2
// REPORT-NEXT: {{.*}} work    user region "touch" @metrics.c:1

// JSON:      "metrics": {
// JSON-NEXT:   "perf::PAGE-FAULTS": {
// JSON-NEXT:    "inclusive": {{[0-9]+}},
// JSON-NEXT:    "exclusive": {{[0-9]+}}
// JSON:      "recorded": [
// JSON-NEXT:   "perf::PAGE-FAULTS",
// JSON-NEXT:   "perf::TASK-CLOCK"
// JSON-NEXT:  ],
// JSON-NEXT:  "unavailable": []
