/* A fake OpenMP runtime for tests that replay an order of OMPT callbacks on two threads: libpomp
 * is started as its OMPT tool, two threads A and B take turns (each posts the other's semaphore
 * and waits for its own), and the tool is finalised when both have returned. No OpenMP runtime
 * is involved. Included by one test file each; everything here is static. */
#ifndef POMP_TESTS_OMPT_TWO_THREAD_RUNTIME_H
#define POMP_TESTS_OMPT_TWO_THREAD_RUNTIME_H

#include <omp-tools.h>
#include <pthread.h>
#include <semaphore.h>

enum { CallbackSlots = 64 };

static ompt_callback_t Callbacks[CallbackSlots];
static sem_t TurnA, TurnB;

static ompt_set_result_t setCallback(ompt_callbacks_t Which, ompt_callback_t Callback) {
  Callbacks[Which] = Callback;
  return ompt_set_always;
}

static ompt_interface_fn_t lookup(const char *Name) {
  (void)Name;
  return (ompt_interface_fn_t)setCallback;
}

static void schedule(ompt_data_t *Prior, ompt_task_status_t Status, ompt_data_t *Next) {
  ((ompt_callback_task_schedule_t)Callbacks[ompt_callback_task_schedule])(Prior, Status, Next);
}

static void threadBegin(ompt_data_t *Thread) {
  ((ompt_callback_thread_begin_t)Callbacks[ompt_callback_thread_begin])(ompt_thread_worker, Thread);
}

/* Starts libpomp as the tool, runs A and B to their ends and finalises it: 0, or 1 when the
 * tool did not start. */
static int runTwoThreads(void *(*A)(void *), void *(*B)(void *)) {
  ompt_start_tool_result_t *Tool = ompt_start_tool(201611, "fake runtime 1.0");
  if (!Tool)
    return 1;
  ompt_data_t ToolData = {0};
  if (!Tool->initialize(lookup, 0, &ToolData))
    return 1;
  sem_init(&TurnA, 0, 0);
  sem_init(&TurnB, 0, 0);
  pthread_t ThreadA, ThreadB;
  pthread_create(&ThreadA, NULL, A, NULL);
  pthread_create(&ThreadB, NULL, B, NULL);
  pthread_join(ThreadA, NULL);
  pthread_join(ThreadB, NULL);
  Tool->finalize(&ToolData);
  return 0;
}

#endif
