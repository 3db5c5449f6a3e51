// The last part of an untied task that ends without an event (a race libomp resolves silently).
// libomp counts the parts of an untied task in flight: a part that queues the task's rest reports
// its switch first, but returns afterwards. When another thread resumes the task and runs its last
// part before that return, the last part ends with no task_schedule event (the count is not yet
// zero), and the completion is reported later, on the thread whose part returned last. A fake
// runtime replays that order with two threads: the thread that ran the last part must end the
// task's region at its next event (here a barrier, once after the part and once around it), not
// hang its later regions under the finished task; the completing thread, which no longer runs the
// task, must change nothing. Seen once in 150 loaded runs of untied_tasks.c before the fix
// (an implicit barrier under the task).
// UNSUPPORTED: sanitize
// RUN: %clang -g -O0 -Wall -Wextra -Werror -I%pomp_include %s -lpthread -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --match-full-lines %s
// RUN: rm -rf %t.dir

#include "Inputs/two_thread_runtime.h"

#include <stdio.h>

static ompt_data_t ImplicitA, ImplicitB, Parallel, TaskAfter, TaskInside;

static void barrier(ompt_scope_endpoint_t Endpoint, ompt_data_t *Task, const void *Code) {
  ((ompt_callback_sync_region_t)Callbacks[ompt_callback_sync_region])(
      ompt_sync_region_barrier_explicit, Endpoint, &Parallel, Task, Code);
}

// The code addresses name the regions: one function per scenario. A code address is a return
// address, which names the call before it: one byte into the function names the function.
static void taskAfter(void) {}
static void taskInside(void) {}
#define CODE(Function) ((const void *)((const char *)&Function + 1))

// Thread A creates each task, runs its first part, and completes it after B ran the last part.
static void *threadA(void *Unused) {
  (void)Unused;
  ompt_data_t Thread = {0};
  threadBegin(&Thread);
  ompt_data_t *Tasks[] = {&TaskAfter, &TaskInside};
  const void *Codes[] = {CODE(taskAfter), CODE(taskInside)};
  for (int I = 0; I < 2; ++I) {
    ((ompt_callback_task_create_t)Callbacks[ompt_callback_task_create])(
        &ImplicitA, NULL, Tasks[I], ompt_task_explicit | ompt_task_untied, 0, Codes[I]);
    schedule(&ImplicitA, ompt_task_switch, Tasks[I]);
    // The part queues the task's rest, which reports the switch back first.
    schedule(Tasks[I], ompt_task_switch, &ImplicitA);
    sem_post(&TurnB);
    sem_wait(&TurnA);
    // A's part returns last: the completion is reported here.
    schedule(Tasks[I], ompt_task_complete, &ImplicitA);
    sem_post(&TurnB);
    sem_wait(&TurnA);
  }
  return NULL;
}

// Thread B runs each task's last part, which ends without an event.
static void *threadB(void *Unused) {
  (void)Unused;
  ompt_data_t Thread = {0};
  threadBegin(&Thread);
  // After the part: B's next region is a barrier of its own.
  sem_wait(&TurnB);
  schedule(&ImplicitB, ompt_task_switch, &TaskAfter);
  sem_post(&TurnA);
  sem_wait(&TurnB);
  barrier(ompt_scope_begin, &ImplicitB, CODE(taskAfter));
  barrier(ompt_scope_end, &ImplicitB, CODE(taskAfter));
  sem_post(&TurnA);
  // Around the part: B runs it while it waits in a barrier, which then ends.
  sem_wait(&TurnB);
  barrier(ompt_scope_begin, &ImplicitB, CODE(taskInside));
  schedule(&ImplicitB, ompt_task_switch, &TaskInside);
  sem_post(&TurnA);
  sem_wait(&TurnB);
  barrier(ompt_scope_end, &ImplicitB, CODE(taskInside));
  sem_post(&TurnA);
  return NULL;
}

int main(void) {
  if (runTwoThreads(threadA, threadB) != 0)
    return 1;
  puts("done");
  return 0;
}

// OUT: done

// Each task region ends once, under its creation (its time on both threads); each barrier is B's
// own, after or around the task's last part.
// CHECK:      threads: 2
// CHECK-NEXT: task create @{{.*}}untied_last_part.c:31 (taskAfter) visits=1 threads=1
// CHECK-NEXT:   task @{{.*}}untied_last_part.c:31 (taskAfter) visits=1 threads=2
// CHECK-NEXT: barrier @{{.*}}untied_last_part.c:31 (taskAfter) visits=1 threads=1
// CHECK-NEXT: task create @{{.*}}untied_last_part.c:32 (taskInside) visits=1 threads=1
// CHECK-NEXT:   task @{{.*}}untied_last_part.c:32 (taskInside) visits=1 threads=2
// CHECK-NEXT: barrier @{{.*}}untied_last_part.c:32 (taskInside) visits=1 threads=1
// CHECK-NEXT: anomalies: none
