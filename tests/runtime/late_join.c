// POMP only (gcc's libgomp, or libomp with POMP_OMPT=off): the teams of instrumented code skip the
// explicit join barrier ompinst adds, and each thread closes its body and implicit barrier itself:
// the master at its Parallel_exit, a worker at its next team, charged no later than the team's end
// (docs/RUNTIME.md, "Late joins"). Counts are exact; a worker's waiting ends with its team's join,
// not when it starts its next team; a construct serialized later leaves its workers' team end alone;
// a worker that idles while its construct runs again without it is counted (late_join_unknown) and
// closes its regions at their last start, one that libgomp ends at a smaller team closes them as it
// ends, at its team's end.
// UNSUPPORTED: sanitize
// RUN: rm -rf %t && mkdir -p %t
// RUN: %ompcc --cc=%gcc -fopenmp -O1 %s -o %t/gcc
// RUN: %ompcc --cc=%clang -fopenmp -O1 %s -o %t/clang
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/gcc.exp %t/gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/gcc.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/gcc.exp --shrunk-line 94 | %FileCheck --check-prefixes=TIMES,GNU %s
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_OMPT=off POMP_EXPERIMENT_DIR=%t/clang.exp %t/clang | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/clang.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/clang.exp --shrunk-line 94 | %FileCheck --check-prefixes=TIMES,LLVM %s
// The general path of every event (clock_gettime) closes the same regions:
// RUN: env OMP_NUM_THREADS=3 POMP_QUIET=1 POMP_CLOCK=monotonic POMP_EXPERIMENT_DIR=%t/mono.exp %t/gcc | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/profile_tree.py %t/mono.exp | %FileCheck --match-full-lines %s
// RUN: python3 %S/Inputs/late_join_check.py %t/mono.exp --shrunk-line 94 | %FileCheck --check-prefixes=TIMES,GNU %s
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
enum { FirstTeamMs = 30, SecondTeamMs = 200 };

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

  // The same construct again with two threads, their masters working FirstTeamMs and then
  // SecondTeamMs once all are in: the third thread's team end is overwritten (libomp keeps the
  // thread idle), or read when the thread ends (libgomp ends it at the smaller team).
  for (int R = 0; R < 2; ++R) {
    Arrived = 0;
#pragma omp parallel num_threads(3 - R)
    {
      __atomic_add_fetch(&Arrived, 1, __ATOMIC_SEQ_CST);
      if (omp_get_thread_num() == 0) {
        while (__atomic_load_n(&Arrived, __ATOMIC_SEQ_CST) < omp_get_num_threads())
          sched_yield();
        sleepMs(R == 0 ? FirstTeamMs : SecondTeamMs);
      }
    }
  }
#pragma omp parallel num_threads(3)
  Sink = 5;

  printf("sum %ld inner %d\n", Sum, Inner);
  return 0;
}

// OUT: sum 9990000 inner 4

// CHECK: threads: {{[3-9]}}
// CHECK-NEXT: parallel @{{.*}}late_join.c:50 (main) visits=10 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:50 (main) visits=30 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:50 (main) visits=30 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:65 (main) visits=20 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:65 (main) visits=60 threads=3
// CHECK-NEXT:     loop @{{.*}}late_join.c:65 (main) visits=60 threads=3
// CHECK-NEXT:       implicit barrier @{{.*}}late_join.c:65 (main) visits=60 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:72 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:72 (main) visits=2 threads=2
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:72 (main) visits=2 threads=2
// CHECK-NEXT:     parallel @{{.*}}late_join.c:74 (main) visits=2 threads=2
// CHECK-NEXT:       parallel body @{{.*}}late_join.c:74 (main) visits=4 threads={{[34]}}
// CHECK-NEXT:         implicit barrier @{{.*}}late_join.c:74 (main) visits=4 threads={{[34]}}
// CHECK-NEXT:         atomic event @{{.*}}late_join.c:76 (main) visits=4 threads={{[34]}}
// CHECK-NEXT: parallel @{{.*}}late_join.c:83 (main) visits=100 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:83 (main) visits=102 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:83 (main) visits=102 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:86 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:86 (main) visits=3 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:86 (main) visits=3 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:94 (main) visits=2 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:94 (main) visits=5 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:94 (main) visits=5 threads=3
// CHECK-NEXT: parallel @{{.*}}late_join.c:104 (main) visits=1 threads=1
// CHECK-NEXT:   parallel body @{{.*}}late_join.c:104 (main) visits=3 threads=3
// CHECK-NEXT:     implicit barrier @{{.*}}late_join.c:104 (main) visits=3 threads=3
// CHECK-NEXT: anomalies: {{none|late_join_unknown=1}}

// TIMES: workers' waiting in the first region: 2 threads, each between 25 and 400 ms
// TIMES-NEXT: the master's waiting there: under 25 ms
// GNU-NEXT: the thread only in the first team: waited until its team's end
// GNU-NEXT: late_join_unknown=0
// LLVM-NEXT: the thread only in the first team: waited until its last start
// LLVM-NEXT: late_join_unknown=1

// TRACED: anomalies: none
