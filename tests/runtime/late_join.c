// POMP only (gcc's libgomp, or libomp with POMP_OMPT=off): the teams of instrumented code skip the
// explicit join barrier ompinst adds, and each thread closes its body and implicit barrier itself:
// the master at its Parallel_exit, a worker at its next team, charged no later than the team's end
// (docs/RUNTIME.md, "Late joins"). Counts are exact; a worker's waiting ends with its team's join,
// not when it starts its next team; a construct serialized later leaves its workers' team end alone;
// a worker that idles while its construct runs again without it is counted (late_join_unknown).
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompcc --cc=%gcc -fopenmp -O1 %s -o %t/gcc
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t/clang
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/gcc.exp %t/gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/gcc.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/gcc.exp | %FileCheck --check-prefix=TIMES %s
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_OMPT=off POMP_EXPERIMENT_DIR=%t/clang.exp %t/clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/clang.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/clang.exp | %FileCheck --check-prefix=TIMES %s
// The general path of every event (clock_gettime) closes the same regions:
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_CLOCK=monotonic POMP_EXPERIMENT_DIR=%t/mono.exp %t/gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/mono.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/mono.exp | %FileCheck --check-prefix=TIMES %s
// With a trace every thread runs the explicit barrier again (events in their order): no anomaly.
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_TRACE=1 POMP_EXPERIMENT_DIR=%t/trace.exp %t/gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/trace.exp | %FileCheck --check-prefix=TRACED %s
// RUN: rm -rf %t

#include <omp.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

// Rounds of a team whose master works InsideMs while the others wait at the join, and then
// BetweenMs alone: a worker's waiting must come to about Rounds * InsideMs, not Rounds * BetweenMs.
enum { Rounds = 10, InsideMs = 5, BetweenMs = 50 };
enum { LoopRounds = 20, Iterations = 1000 };
enum { Serialized = 100 };

static void sleepMs(int Ms) {
  struct timespec Time = {0, Ms * 1000000L};
  nanosleep(&Time, NULL);
}

static volatile int Sink;
static int Arrived;

int main(void) {
  for (int R = 0; R < Rounds; ++R) {
#pragma omp parallel num_threads(3)
    {
      // All are in the team before the master starts working: a worker woken late under load
      // would otherwise wait less.
      __atomic_add_fetch(&Arrived, 1, __ATOMIC_SEQ_CST);
      while (__atomic_load_n(&Arrived, __ATOMIC_SEQ_CST) < (R + 1) * omp_get_num_threads())
        sched_yield();
      if (omp_get_thread_num() == 0)
        sleepMs(InsideMs);
    }
    sleepMs(BetweenMs);
  }

  long Sum = 0;
  for (int R = 0; R < LoopRounds; ++R) {
#pragma omp parallel for num_threads(3) reduction(+ : Sum) schedule(static)
    for (int I = 0; I < Iterations; ++I)
      Sum += I;
  }

  omp_set_max_active_levels(2);
  int Inner = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
      Inner++;
    }
  }

  // The same construct, serialized after its first run: its workers' team end stays.
  for (int R = 0; R < Serialized; ++R) {
#pragma omp parallel num_threads(3) if (R == 0)
    Sink = 2;
  }
#pragma omp parallel num_threads(3)
  Sink = 3;

  // The same construct again with two threads: the third thread's team end is overwritten.
  for (int R = 0; R < 2; ++R) {
#pragma omp parallel num_threads(3 - R)
    Sink = 4;
  }
#pragma omp parallel num_threads(3)
  Sink = 5;

  printf("sum %ld inner %d\n", Sum, Inner);
  return 0;
}

// OUT: sum 9990000 inner 4

// CHECK: threads: {{[3-9]}}
// CHECK-NEXT: parallel @{{.*}}late_join.c:47 (main) visits=10 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:47 (main) visits=30 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:47 (main) visits=30 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:62 (main) visits=20 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:62 (main) visits=60 threads=3
// CHECK-NEXT:     loop @{{.*}}late_join.c:62 (main) visits=60 threads=3
// CHECK-NEXT:       implicit barrier @{{.*}}late_join.c:62 (main) visits=60 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:69 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:69 (main) visits=2 threads=2
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:69 (main) visits=2 threads=2
// CHECK-NEXT:     parallel @{{.*}}late_join.c:71 (main) visits=2 threads=2
// CHECK-NEXT:       parallel body @{{.*}}late_join.c:71 (main) visits=4 threads={{[34]}}
// CHECK-NEXT:         implicit barrier @{{.*}}late_join.c:71 (main) visits=4 threads={{[34]}}
// CHECK-NEXT:         atomic event @{{.*}}late_join.c:73 (main) visits=4 threads={{[34]}}
// CHECK-NEXT: parallel @{{.*}}late_join.c:80 (main) visits=100 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:80 (main) visits=102 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:80 (main) visits=102 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:83 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:83 (main) visits=3 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:83 (main) visits=3 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:88 (main) visits=2 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:88 (main) visits=5 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:88 (main) visits=5 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:91 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:91 (main) visits=3 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:91 (main) visits=3 threads=3
// CHECK-NEXT: anomalies: late_join_unknown=1

// TIMES: workers' waiting in the first region: 2 threads, each between 25 and 400 ms
// TIMES-NEXT: the master's waiting there: under 25 ms

// TRACED: anomalies: none
