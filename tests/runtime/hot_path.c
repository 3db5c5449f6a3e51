// The hot path after a thread's warm-up: no allocation and no system call but the clock. A worker
// thread warms up, then runs a million events of many kinds under a seccomp filter that kills the
// process on any system call but write, exit and clock_gettime, while malloc and friends count
// their calls. (Seccomp's strict mode would also disable the TSC.)
// UNSUPPORTED: sanitize
// RUN: %gcc -O1 -Wall -Wextra -Werror -pthread -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t.gcc
// RUN: rm -rf %t.dir
// RUN: env POMP_EXPERIMENT_DIR=%t.dir POMP_QUIET=1 %t.gcc | %FileCheck %s
// RUN: python3 %S/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE %s
// The same with clock_gettime, where every event takes the library's general path:
// RUN: rm -rf %t.mono
// RUN: env POMP_CLOCK=monotonic POMP_EXPERIMENT_DIR=%t.mono POMP_QUIET=1 %t.gcc | %FileCheck %s
// RUN: python3 %S/Inputs/profile_tree.py %t.mono | %FileCheck --check-prefix=TREE %s

#define _GNU_SOURCE
#include "pomplib.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

// Every allocation function, counting while Counting is set.
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);
static volatile int Counting;
static volatile long Allocations;
void *malloc(size_t N) {
  Allocations += Counting;
  return __libc_malloc(N);
}
void *calloc(size_t N, size_t S) {
  Allocations += Counting;
  return __libc_calloc(N, S);
}
void *realloc(void *P, size_t N) {
  Allocations += Counting;
  return __libc_realloc(P, N);
}
void *memalign(size_t A, size_t N) {
  Allocations += Counting;
  return __libc_memalign(A, N);
}
void *aligned_alloc(size_t A, size_t N) { return memalign(A, N); }
int posix_memalign(void **P, size_t A, size_t N) {
  *P = memalign(A, N);
  return *P ? 0 : 12;
}
void free(void *P) { __libc_free(P); }

enum { Warmup = 2, Iterations = 50000, EventsPerIteration = 20 };

static POMP_Handle_t Par, Work, Loop, Bar, Atom, Crit, Lock, Task;
static POMP_Context_t ForkContext;
static int Failures;

static void iteration(void) {
  POMP_Context_t TaskContext;
  Failures += POMP_Parallel_begin_forked(Par, 1, ForkContext) != 0;
  Failures += POMP_User_region_begin(&Work, 1, "47*type=userregion*name=w*file=hot.c*slines=2,2**") != 0;
  Failures += POMP_Loop_enter(&Loop, 1, 1, 0, 1, 1, "33*type=for*file=hot.c*slines=3,3**") != 0;
  Failures += POMP_Loop_iter_event(Loop, 1, 0) != 0;
  Failures += POMP_Loop_iter_event(Loop, 1, 1) != 0;
  Failures += POMP_Loop_exit(Loop, 1) != 0;
  Failures += POMP_Atomic_event(&Atom, 1, "36*type=atomic*file=hot.c*slines=4,4**") != 0;
  Failures += POMP_Critical_enter(&Crit, 1, "38*type=critical*file=hot.c*slines=5,5**") != 0;
  Failures += POMP_Critical_begin(Crit, 1) != 0;
  Failures += POMP_Critical_end(Crit, 1) != 0;
  Failures += POMP_Critical_exit(Crit, 1) != 0;
  Failures += POMP_Set_lock_enter(&Lock, 1, 42, "37*type=setlock*file=hot.c*slines=6,6**") != 0;
  Failures += POMP_Set_lock_exit(Lock, 1, 42) != 0;
  Failures += POMP_Task_create_enter(&Task, 1, 1, &TaskContext, "34*type=task*file=hot.c*slines=7,7**") != 0;
  Failures += POMP_Task_begin(Task, 1, TaskContext) != 0;
  Failures += POMP_Task_end(Task, 1) != 0;
  Failures += POMP_Task_create_exit(Task, 1) != 0;
  Failures += POMP_User_region_end(Work, 1) != 0;
  Failures += POMP_Barrier_enter(&Bar, 1, "37*type=barrier*file=hot.c*slines=8,8**") != 0;
  Failures += POMP_Barrier_exit(Bar, 1) != 0;
  Failures += POMP_Parallel_end(Par, 1) != 0;
}

static void say(const char *Text) {
  ssize_t Ignored = write(STDOUT_FILENO, Text, strlen(Text));
  (void)Ignored;
}

/// Allows write, exit and clock_gettime; kills the process on any other system call.
static int allowOnlyTheClock(void) {
  struct sock_filter Filter[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 3, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 2, 0),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime, 1, 0),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog Program = {sizeof Filter / sizeof Filter[0], Filter};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
  return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &Program);
}

static void *worker(void *Arg) {
  (void)Arg;
  for (int I = 0; I < Warmup; ++I)
    iteration();
  Counting = 1;
  if (allowOnlyTheClock() != 0) {
    say("seccomp unavailable\n");
    Counting = 0;
    return NULL;
  }
  for (int I = 0; I < Iterations; ++I)
    iteration();
  Counting = 0;
  say("events done\n");
  // The filter allows only exit, not what glibc's thread exit may call.
  syscall(SYS_exit, 0);
  return NULL;
}

int main(void) {
  POMP_Init();
  Failures += POMP_Parallel_fork(&Par, 0, 2, 1, &ForkContext, "38*type=parallel*file=hot.c*slines=1,1**") != 0;
  pthread_t Thread;
  pthread_create(&Thread, NULL, worker, NULL);
  pthread_join(Thread, NULL);
  Failures += POMP_Parallel_exit(Par, 0) != 0;
  printf("events: %d, allocations: %ld, failures: %d\n",
         (Warmup + Iterations) * EventsPerIteration, Allocations, Failures);
  return POMP_Finalize();
}

// CHECK: events done
// CHECK-NEXT: events: 1000040, allocations: 0, failures: 0

// TREE: parallel @hot.c:1 visits=1 threads=1
// TREE-NEXT: parallel body @hot.c:1 visits=50002 threads=1
// TREE-NEXT: user region "w" @hot.c:2 visits=50002 threads=1
