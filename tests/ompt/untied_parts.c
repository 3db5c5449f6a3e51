// The parts of instrumented untied tasks, replayed by a fake runtime in libomp's order, with the
// POMP events of the instrumented code. Most of their task switches change only the thread's
// stack of running tasks and take the OMPT adapter's shortcut (switchOnlyMovesRunningTasks): a part
// that ends with nothing open, the start of a part, a completion after Task_end. The others must
// still take the full path: a part that ends with regions open (they move to the thread that
// resumes the task), the resumption, a switch from a task this adapter does not follow. An
// untied task whose CTC says that its block holds no directive (`directiveFree=1`) is not followed
// at all: its task data stays 0, as a tied task's, and its body runs in its second part on B. Each
// region must end once, where POMP ends it, with no anomaly.
// UNSUPPORTED: sanitize
// RUN: %clang -g -O0 -Wall -Wextra -Werror -I%pomp_include %s -lpthread -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t | %FileCheck --check-prefix=OUT %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --match-full-lines %s
// RUN: rm -rf %t.dir

#include "Inputs/two_thread_runtime.h"

#include <pomplib.h>
#include <stdio.h>

static int Failures;

static ompt_data_t ImplicitA, ImplicitB, Moving, Staying, Child, Plain;
static POMP_Handle_t MovingTask, Wait, StayingTask, ChildTask, StayingWait, PlainTask;
static POMP_Context_t MovingContext, StayingContext, ChildContext, PlainContext;

// POMP's Task_create_enter and _exit around the runtime's task creation, as in instrumented code.
static void createTask(POMP_Handle_t *Handle, POMP_Context_t *Context, const char *Ctc,
                       ompt_data_t *Parent, ompt_data_t *Task, int Flags) {
  Failures += POMP_Task_create_enter(Handle, 0, 1, Context, Ctc) != 0;
  ((ompt_callback_task_create_t)Callbacks[ompt_callback_task_create])(
      Parent, NULL, Task, ompt_task_explicit | Flags, 0, (const void *)&createTask);
  Failures += POMP_Task_create_exit(*Handle, 0) != 0;
}

static void *threadA(void *Unused) {
  (void)Unused;
  ompt_data_t Thread = {0};
  threadBegin(&Thread);
  // An untied task that moves: its first part is empty (clang's untied tasks start with one).
  createTask(&MovingTask, &MovingContext, "45*type=task*file=untied_parts.c*slines=60,60**",
             &ImplicitA, &Moving, ompt_task_untied);
  Failures += Moving.value == 0;
  schedule(&ImplicitA, ompt_task_switch, &Moving);
  schedule(&Moving, ompt_task_switch, &ImplicitA);
  // Its second part ends in a taskwait: the task region and the taskwait move to B.
  schedule(&ImplicitA, ompt_task_switch, &Moving);
  Failures += POMP_Task_begin(MovingTask, 0, MovingContext) != 0;
  Failures += POMP_Taskwait_enter(&Wait, 0, "49*type=taskwait*file=untied_parts.c*slines=61,61**") != 0;
  schedule(&Moving, ompt_task_switch, &ImplicitA);
  sem_post(&TurnB);
  sem_wait(&TurnA);
  // An untied task that stays: a tied child runs inside it at its taskwait.
  createTask(&StayingTask, &StayingContext, "45*type=task*file=untied_parts.c*slines=62,62**",
             &ImplicitA, &Staying, ompt_task_untied);
  schedule(&ImplicitA, ompt_task_switch, &Staying);
  Failures += POMP_Task_begin(StayingTask, 0, StayingContext) != 0;
  createTask(&ChildTask, &ChildContext, "45*type=task*file=untied_parts.c*slines=63,63**", &Staying,
             &Child, 0);
  Failures += POMP_Taskwait_enter(&StayingWait, 0,
                                  "49*type=taskwait*file=untied_parts.c*slines=64,64**");
  schedule(&Staying, ompt_task_switch, &Child);
  Failures += POMP_Task_begin(ChildTask, 0, ChildContext) != 0;
  Failures += POMP_Task_end(ChildTask, 0) != 0;
  schedule(&Child, ompt_task_complete, &Staying);
  Failures += POMP_Taskwait_exit(StayingWait, 0) != 0;
  Failures += POMP_Task_end(StayingTask, 0) != 0;
  schedule(&Staying, ompt_task_complete, &ImplicitA);
  // A directive-free untied task: its empty first part here, its body on B.
  createTask(&PlainTask, &PlainContext, "73*type=task*file=untied_parts.c*slines=65,65*hasUntied=1*directiveFree=1**", &ImplicitA, &Plain,
             ompt_task_untied);
  Failures += Plain.value != 0;
  schedule(&ImplicitA, ompt_task_switch, &Plain);
  schedule(&Plain, ompt_task_switch, &ImplicitA);
  sem_post(&TurnB);
  return NULL;
}

// B resumes the moving task in its taskwait and completes it, then runs the directive-free task.
static void *threadB(void *Unused) {
  (void)Unused;
  ompt_data_t Thread = {0};
  threadBegin(&Thread);
  sem_wait(&TurnB);
  schedule(&ImplicitB, ompt_task_switch, &Moving);
  Failures += POMP_Taskwait_exit(Wait, 1) != 0;
  Failures += POMP_Task_end(MovingTask, 1) != 0;
  schedule(&Moving, ompt_task_complete, &ImplicitB);
  sem_post(&TurnA);
  sem_wait(&TurnB);
  schedule(&ImplicitB, ompt_task_switch, &Plain);
  Failures += POMP_Task_begin(PlainTask, 1, PlainContext) != 0;
  Failures += POMP_Task_end(PlainTask, 1) != 0;
  schedule(&Plain, ompt_task_complete, &ImplicitB);
  return NULL;
}

int main(void) {
  if (runTwoThreads(threadA, threadB) != 0)
    return 1;
  printf("failures %d\n", Failures);
  return 0;
}

// OUT: failures 0

// The moving task's region and its taskwait end once each, with their time on both threads; the
// staying task holds its taskwait, and the child's region hangs under its creation in the task.
// CHECK:      threads: 2
// CHECK-NEXT: task create @{{.*}}untied_parts.c:60 visits=1 threads=1
// CHECK-NEXT:   task @{{.*}}untied_parts.c:60 visits=1 threads=2
// CHECK-NEXT:     taskwait @{{.*}}untied_parts.c:61 visits=1 threads=2
// CHECK-NEXT: task create @{{.*}}untied_parts.c:62 visits=1 threads=1
// CHECK-NEXT:   task @{{.*}}untied_parts.c:62 visits=1 threads=1
// CHECK-NEXT:     task create @{{.*}}untied_parts.c:63 visits=1 threads=1
// CHECK-NEXT:       task @{{.*}}untied_parts.c:63 visits=1 threads=1
// CHECK-NEXT:     taskwait @{{.*}}untied_parts.c:64 visits=1 threads=1
// CHECK-NEXT: task create @{{.*}}untied_parts.c:65 visits=1 threads=1
// CHECK-NEXT:   task @{{.*}}untied_parts.c:65 visits=1 threads=1
// CHECK-NEXT: anomalies: none
