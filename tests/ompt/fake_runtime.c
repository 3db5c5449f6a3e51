// libpomp driven by a fake OpenMP runtime that calls its OMPT interface directly: kinds a newer
// runtime might report are counted as "other" and ignored, omp_control_tool's pause/start/end map
// to POMP_Off/POMP_On/POMP_Finalize, a flush is acknowledged, an unknown command is ignored, and
// callbacks after finalisation change nothing. No OpenMP runtime is involved.
// UNSUPPORTED: sanitize
// RUN: %clang -O1 -Wall -Wextra -Werror -I%pomp_include %s -L%pomp_lib -lpomp -Wl,-rpath,%pomp_lib -o %t
// RUN: rm -rf %t.dir
// RUN: env POMP_VERBOSE=1 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.dir %t 2>&1 | %FileCheck %s
// RUN: python3 %S/../runtime/Inputs/profile_tree.py %t.dir | %FileCheck --check-prefix=TREE --match-full-lines %s
// RUN: env POMP_OMPT=off POMP_VERBOSE=1 %t 2>&1 | %FileCheck --check-prefix=OFF %s
// RUN: rm -rf %t.bad.dir
// RUN: env POMP_OMPT=maybe POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t.bad.dir %t 2>&1 | %FileCheck --check-prefix=BAD %s

#include <omp-tools.h>
#include <stdio.h>
#include <string.h>

enum { CallbackSlots = 64, ControlStart = 1, ControlPause = 2, ControlFlush = 3, ControlEnd = 4 };

static ompt_callback_t Callbacks[CallbackSlots];

static ompt_set_result_t setCallback(ompt_callbacks_t Which, ompt_callback_t Callback) {
  Callbacks[Which] = Callback;
  // This runtime cannot deliver flushes, and says so.
  return Which == ompt_callback_flush ? ompt_set_never : ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *Name) {
  return strcmp(Name, "ompt_set_callback") == 0 ? (ompt_interface_fn_t)setCallback : NULL;
}

static void parallelRegion(const void *Code) {
  ompt_data_t Encountering = {0}, Parallel = {0};
  ((ompt_callback_parallel_begin_t)Callbacks[ompt_callback_parallel_begin])(
      &Encountering, NULL, &Parallel, 1, ompt_parallel_team, Code);
  ((ompt_callback_parallel_end_t)Callbacks[ompt_callback_parallel_end])(
      &Parallel, &Encountering, ompt_parallel_team, Code);
}

static int control(uint64_t Command) {
  return ((ompt_callback_control_tool_t)Callbacks[ompt_callback_control_tool])(Command, 0, NULL,
                                                                               NULL);
}

int main(void) {
  ompt_start_tool_result_t *Tool = ompt_start_tool(201611, "fake runtime 1.0");
  if (!Tool) {
    puts("no tool");
    return 0;
  }
  ompt_data_t ToolData = {0}, Thread = {0}, Parallel = {0}, Task = {0}, None = {0};
  if (!Tool->initialize(lookup, 0, &ToolData))
    return 1;
  const void *Code = (const void *)&main;
  ((ompt_callback_thread_begin_t)Callbacks[ompt_callback_thread_begin])(ompt_thread_initial,
                                                                        &Thread);
  ((ompt_callback_work_t)Callbacks[ompt_callback_work])((ompt_work_t)99, ompt_scope_begin,
                                                        &Parallel, &Task, 1, Code);
  ((ompt_callback_sync_region_t)Callbacks[ompt_callback_sync_region])(
      (ompt_sync_region_t)99, ompt_scope_begin, &Parallel, &Task, Code);
  ((ompt_callback_mutex_acquire_t)Callbacks[ompt_callback_mutex_acquire])((ompt_mutex_t)99, 0, 0,
                                                                          1, Code);
  ((ompt_callback_dispatch_t)Callbacks[ompt_callback_dispatch])(&Parallel, &Task,
                                                                (ompt_dispatch_t)99, None);
  printf("unknown command: %d\n", control(99));
  printf("pause: %d\n", control(ControlPause));
  parallelRegion(Code);
  printf("start: %d\n", control(ControlStart));
  parallelRegion(Code);
  printf("flush: %d\n", control(ControlFlush));
  printf("end: %d\n", control(ControlEnd));
  parallelRegion(Code);
  ((ompt_callback_thread_end_t)Callbacks[ompt_callback_thread_end])(&Thread);
  Tool->finalize(&ToolData);
  puts("done");
  return 0;
}

// CHECK: pomp: OMPT: tool of fake runtime 1.0: 20 callbacks registered
// CHECK: pomp: OMPT: always delivered: thread_begin, thread_end, parallel_begin,
// CHECK: pomp: OMPT: not always delivered: flush=never
// CHECK: unknown command: 1
// CHECK: pause: 0
// CHECK: start: 0
// CHECK: flush: 0
// CHECK: end: 0
// CHECK: done

// Only the region between start and end, and the five unknown kinds.
// TREE:      threads: 1
// TREE-NEXT: parallel{{( @.*)?}} visits=1 threads=1
// TREE-NEXT: anomalies: ompt_other_kind=5

// OFF: pomp: OMPT: off (POMP_OMPT=off): measuring POMP events only
// OFF: no tool

// An invalid value is named with the accepted ones, and the default (on) is used.
// BAD: pomp: POMP_OMPT="maybe" is not valid (accepted: on, off); using on
// BAD: done
