// POMP_TRACE=1: an OTF2 archive in the experiment directory with one location per thread,
// balanced regions, fork/join and lock records that equal the profile's counts, with gcc/libgomp
// and clang-19/libomp. A tiny buffer that fills many times loses nothing; POMP_TRACE_FORMAT=both
// adds a Chrome trace of the same events; an unwritable directory is one message.
// REQUIRES: otf2-print
// UNSUPPORTED: sanitize
// RUN: %gcc -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: %clang -fopenmp -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.clang
// RUN: rm -rf %t.gcc.dir %t.clang.dir %t.tiny.dir %t.both.dir %t.file && echo x > %t.file

// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_EXPERIMENT_DIR=%t.gcc.dir %t.gcc 10 2> %t.gcc.err | %FileCheck --check-prefix=OUT %s
// RUN: %FileCheck --check-prefix=SUMMARY -DDIR=%t.gcc.dir %s < %t.gcc.err
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.gcc.dir --paths | %FileCheck --match-full-lines %s
// RUN: %otf2-print -G %t.gcc.dir/trace/traces.otf2 | %FileCheck --check-prefix=DEFS %s
// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.clang.dir %t.clang 10 | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.clang.dir --paths | %FileCheck --match-full-lines %s

// 3 threads x 10000 iterations x 6 regions + 7: some 850,000 records through 256 KiB buffers.
// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_TRACE_BUFFER=256K POMP_EXPERIMENT_DIR=%t.tiny.dir %t.gcc 10000 2> %t.tiny.err | %FileCheck --check-prefix=OUT %s
// RUN: %FileCheck --check-prefix=TINY-SUMMARY %s < %t.tiny.err
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.tiny.dir | %FileCheck --check-prefix=TINY %s

// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_TRACE_FORMAT=both POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.both.dir %t.clang 10 | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/Inputs/trace_check.py %otf2-print %t.both.dir --chrome | %FileCheck --check-prefix=BOTH %s
// RUN: grep -m1 '"name":"parallel @trace.c:' %t.both.dir/trace.json | %FileCheck --check-prefix=XEVENT %s

// RUN: env POMP_OMPT=off POMP_TRACE=1 POMP_EXPERIMENT_DIR=%t.file/exp %t.gcc 10 > %t.out3 2> %t.err3; echo "status $?" >> %t.out3
// RUN: %FileCheck --check-prefix=OUT %s < %t.out3
// RUN: %FileCheck --check-prefix=UNWRITABLE -DFILE=%t.file %s < %t.err3

#include <omp.h>

#include "pomp_omp_wrappers.h"
#include "pomplib.h"

#include <stdio.h>
#include <stdlib.h>

enum { Threads = 3 };

static POMP_Handle_t Parallel, Barrier, User, Critical, SetLock, UnsetLock, Atomic;

int main(int argc, char **argv) {
  const int Iterations = argc > 1 ? atoi(argv[1]) : 1;
  omp_lock_t Lock;
  omp_init_lock(&Lock);
  POMP_Context_t Context;
  POMP_Parallel_fork(&Parallel, 0, Threads, 1, &Context, "42*type=parallel*file=trace.c*slines=10,10**");
#pragma omp parallel num_threads(Threads) firstprivate(Context)
  {
    const int Tid = omp_get_thread_num();
    POMP_Parallel_begin_forked(Parallel, Tid, Context);
    for (int I = 0; I < Iterations; ++I) {
      POMP_User_region_begin(&User, Tid, "54*type=userregion*name=step*file=trace.c*slines=12,12**");
      POMP_Critical_enter(&Critical, Tid, "42*type=critical*file=trace.c*slines=13,14**");
#pragma omp critical
      {
        POMP_Critical_begin(Critical, Tid);
        POMP_Critical_end(Critical, Tid);
      }
      POMP_Critical_exit(Critical, Tid);
      POMP_Wrap_omp_set_lock(&SetLock, "46*type=omp_set_lock*file=trace.c*slines=15,15**", &Lock);
      POMP_Wrap_omp_unset_lock(&UnsetLock, "48*type=omp_unset_lock*file=trace.c*slines=16,16**", &Lock);
      POMP_Atomic_event(&Atomic, Tid, "40*type=atomic*file=trace.c*slines=17,17**");
      POMP_User_region_end(User, Tid);
    }
    POMP_Implicit_barrier_enter(&Barrier, Tid, "49*type=implicitbarrier*file=trace.c*slines=18,18**");
#pragma omp barrier
    POMP_Implicit_barrier_exit(Barrier, Tid);
    POMP_Parallel_end(Parallel, Tid);
  }
  POMP_Parallel_exit(Parallel, 0);
  omp_destroy_lock(&Lock);
  printf("program output\n");
  return 0;
}

// OUT: program output

// SUMMARY: pomp: profile in [[DIR]]/ (profile.txt, profile.json): 3 threads, 7 regions, {{.*}}
// SUMMARY: pomp: trace [[DIR]]/trace/traces.otf2: 442 events, 3 threads, 0 buffer flushes, no events dropped

// 3 x (10 x 6 + 2) + 1 regions entered, one lock acquisition and release per iteration.
// CHECK:      locations: 3
// CHECK-NEXT: ENTER: 187
// CHECK-NEXT: LEAVE: 187
// CHECK-NEXT: THREAD_FORK: 1
// CHECK-NEXT: THREAD_JOIN: 1
// CHECK-NEXT: THREAD_ACQUIRE_LOCK: 30
// CHECK-NEXT: THREAD_RELEASE_LOCK: 30
// CHECK-NEXT: THREAD_TASK_CREATE: 0
// CHECK-NEXT: THREAD_TASK_SWITCH: 0
// CHECK-NEXT: THREAD_TASK_COMPLETE: 0
// CHECK-NEXT: flushes: 0
// The master's stack starts at the parallel construct, the two workers' at its body.
// CHECK-NEXT: parallel @trace.c:10 locations=1
// CHECK-NEXT:   parallel body @trace.c:10 locations=1
// CHECK-NEXT:     implicit barrier @trace.c:18 locations=1
// CHECK-NEXT:     user region "step" @trace.c:12 locations=1
// CHECK-NEXT:       atomic event @trace.c:17 locations=1
// CHECK-NEXT:       critical @trace.c:13 locations=1
// CHECK-NEXT:         critical body @trace.c:13 locations=1
// CHECK-NEXT:       set lock @trace.c:15 locations=1
// CHECK-NEXT:       unset lock event @trace.c:16 locations=1
// CHECK-NEXT: parallel body @trace.c:10 locations=2
// CHECK-NEXT:   implicit barrier @trace.c:18 locations=2
// CHECK-NEXT:   user region "step" @trace.c:12 locations=2
// CHECK-NEXT:     atomic event @trace.c:17 locations=2
// CHECK-NEXT:     critical @trace.c:13 locations=2
// CHECK-NEXT:       critical body @trace.c:13 locations=2
// CHECK-NEXT:     set lock @trace.c:15 locations=2
// CHECK-NEXT:     unset lock event @trace.c:16 locations=2
// CHECK-EMPTY:

// DEFS: CLOCK_PROPERTIES {{.*}}Ticks per Seconds: {{[1-9][0-9]*}}, Global Offset: {{[0-9]+}}, Length: {{[1-9][0-9]*}}
// DEFS: SYSTEM_TREE_NODE {{.*}}Class: "machine"
// DEFS: SYSTEM_TREE_NODE {{.*}}Class: "node"
// DEFS: LOCATION_GROUP {{.*}}Type: PROCESS
// DEFS: LOCATION {{.*}}Name: "thread 0"{{.*}}Type: CPU_THREAD
// DEFS: REGION {{.*}}Name: "parallel @trace.c:10"{{.*}}Role: CODE, Paradigm: "OpenMP" <3>{{.*}}File: "trace.c" <{{[0-9]+}}>, Begin: 10, End: 10
// DEFS: REGION {{.*}}Name: "parallel body @trace.c:10"{{.*}}Role: PARALLEL
// DEFS: REGION {{.*}}Name: "user region "step" @trace.c:12"{{.*}}Role: CODE, Paradigm: USER
// DEFS: REGION {{.*}}Name: "critical @trace.c:13"{{.*}}Role: CRITICAL{{.*}}Begin: 13, End: 14
// DEFS: REGION {{.*}}Name: "critical body @trace.c:13"{{.*}}Role: CRITICAL_SBLOCK
// DEFS: REGION {{.*}}Name: "set lock @trace.c:15"{{.*}}Role: WRAPPER
// DEFS: REGION {{.*}}Name: "atomic event @trace.c:17"{{.*}}Role: ATOMIC
// DEFS: REGION {{.*}}Name: "implicit barrier @trace.c:18"{{.*}}Role: IMPLICIT_BARRIER

// TINY-SUMMARY: pomp: trace {{.*}}: 420022 events, 3 threads, {{[1-9][0-9]+}} buffer flushes, no events dropped
// TINY:      locations: 3
// TINY-NEXT: ENTER: 180007
// TINY-NEXT: LEAVE: 180007
// TINY-NEXT: THREAD_FORK: 1
// TINY-NEXT: THREAD_JOIN: 1
// TINY-NEXT: THREAD_ACQUIRE_LOCK: 30000
// TINY-NEXT: THREAD_RELEASE_LOCK: 30000
// TINY-NEXT: THREAD_TASK_CREATE: 0
// TINY-NEXT: THREAD_TASK_SWITCH: 0
// TINY-NEXT: THREAD_TASK_COMPLETE: 0
// TINY-NEXT: flushes > 0

// BOTH: locations: 3
// BOTH: chrome: 187 events, balanced
// A visit is one complete event with its duration, the file's base name in its name and the
// source location in its args.
// XEVENT: {"name":"parallel @trace.c:{{[0-9]+}}","ph":"X","pid":{{[0-9]+}},"tid":0,"ts":{{[0-9]+\.[0-9][0-9][0-9]}},"dur":{{[0-9]+\.[0-9][0-9][0-9]}},"args":{"file":"trace.c","line":10}},

// UNWRITABLE: pomp: cannot create directory '[[FILE]]/exp': Not a directory; no trace or profile written
// UNWRITABLE-NOT: pomp
