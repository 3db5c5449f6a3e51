/* pomp_check.c - a checking POMP library for the instrumenter's tests.
 *
 * Implements every routine of pomplib.h (from pomp_events.def) and checks
 * what instrumented code calls: every first event carries a well-formed CTC
 * string, later events use a handle that was bound, and on every thread each
 * exit/end closes the innermost open enter/begin of the same handle. It
 * counts each event and, at POMP_Finalize() (or exit), prints the counts and
 * any violation to the file named by POMP_CHECK_OUTPUT (default: stderr).
 * Any violation also makes the process exit with status 3 at the end, so a
 * test cannot pass over it.
 */
#include "pomplib.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Role { ROLE_ENTER, ROLE_EXIT, ROLE_BEGIN, ROLE_END, ROLE_EVENT };

enum EventId {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) EVENT_##Name,
#include "pomp_events.def"
  EVENT_COUNT
};

static const char *const EventNames[EVENT_COUNT] = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) #Name,
#include "pomp_events.def"
};

#define MAX_DEPTH 1024
#define MAX_VIOLATIONS 32
#define MAX_HANDLES 100000

static unsigned long Counts[EVENT_COUNT];
static unsigned long NextHandle;
static unsigned long ViolationCount;
static char Violations[MAX_VIOLATIONS][160];
static pthread_mutex_t ViolationLock = PTHREAD_MUTEX_INITIALIZER;
static int Finalized;

/* Per thread: the open regions, innermost last. */
static __thread POMP_Handle_t OpenHandles[MAX_DEPTH];
static __thread int OpenEvents[MAX_DEPTH];
static __thread int Depth;

static void violation(const char *Event, const char *What) {
  pthread_mutex_lock(&ViolationLock);
  if (ViolationCount < MAX_VIOLATIONS)
    snprintf(Violations[ViolationCount], sizeof Violations[0], "%s: %s", Event, What);
  ++ViolationCount;
  pthread_mutex_unlock(&ViolationLock);
}

static int wellFormedCtc(const char *Ctc) {
  size_t Length;
  const char *Star;
  if (!Ctc)
    return 0;
  Length = strlen(Ctc);
  Star = strchr(Ctc, '*');
  return Star && Star != Ctc && Length >= 3 && strcmp(Ctc + Length - 2, "**") == 0 &&
         (size_t)atol(Ctc) == strlen(Star);
}

static void push(int Event, POMP_Handle_t Handle) {
  if (Depth >= MAX_DEPTH) {
    violation(EventNames[Event], "nesting too deep");
    return;
  }
  OpenHandles[Depth] = Handle;
  OpenEvents[Depth] = Event;
  ++Depth;
}

static void pop(int Event, POMP_Handle_t Handle) {
  if (Depth == 0) {
    violation(EventNames[Event], "closes a region that is not open");
    return;
  }
  if (OpenHandles[Depth - 1] != Handle) {
    char What[128];
    snprintf(What, sizeof What, "closes handle %lu but the innermost open region is %s of %lu",
             (unsigned long)Handle, EventNames[OpenEvents[Depth - 1]],
             (unsigned long)OpenHandles[Depth - 1]);
    violation(EventNames[Event], What);
  }
  --Depth;
}

static void record(int Event, int Role, POMP_Handle_t Handle) {
  __atomic_fetch_add(&Counts[Event], 1, __ATOMIC_RELAXED);
  if (Role == ROLE_ENTER || Role == ROLE_BEGIN)
    push(Event, Handle);
  else if (Role == ROLE_EXIT || Role == ROLE_END)
    pop(Event, Handle);
}

static int32_t first(int Event, int Role, POMP_Handle_t *Handle, const char *Ctc) {
  POMP_Handle_t Current;
  if (!Handle) {
    violation(EventNames[Event], "NULL handle pointer");
    return POMP_ERROR_INVALID_ARGUMENT;
  }
  if (!wellFormedCtc(Ctc))
    violation(EventNames[Event], "malformed or missing CTC string");
  Current = __atomic_load_n(Handle, __ATOMIC_ACQUIRE);
  if (Current == 0) {
    POMP_Handle_t Fresh = __atomic_add_fetch(&NextHandle, 1, __ATOMIC_RELAXED);
    POMP_Handle_t Expected = 0;
    if (__atomic_compare_exchange_n(Handle, &Expected, Fresh, 0, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
      Current = Fresh;
    else
      Current = Expected;
  }
  record(Event, Role, Current);
  return POMP_SUCCESS;
}

static int32_t next(int Event, int Role, POMP_Handle_t Handle) {
  if (Handle == 0 || Handle > MAX_HANDLES)
    violation(EventNames[Event], "handle was never bound by a first event");
  record(Event, Role, Handle);
  return POMP_SUCCESS;
}

#define POMP_CHECK_FIRST(Name, Role) first(EVENT_##Name, ROLE_##Role, handle, ctc)
#define POMP_CHECK_NEXT(Name, Role) next(EVENT_##Name, ROLE_##Role, handle)
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  int32_t POMP_##Name Params { return POMP_CHECK_##Handle(Name, Role); }
#include "pomp_events.def"

/* The forms that return the context (pomp_context_forms.h): the same events.
 * Built with -DPOMP_CONTEXT_BY_POINTER, this is a library without them, as
 * one that implements only the pointer routines, and pomplib.h defines them
 * in the instrumented file instead. */
#ifndef POMP_CONTEXT_BY_POINTER
POMP_Context_t POMP_Parallel_fork_ctx(POMP_Handle_t *handle, int32_t thread_id, int32_t num_threads,
                                      int32_t if_expr_result, const char ctc[]) {
  POMP_Context_t Context = 0;
  POMP_Parallel_fork(handle, thread_id, num_threads, if_expr_result, &Context, ctc);
  return Context;
}
POMP_Context_t POMP_Teams_enter_ctx(POMP_Handle_t *handle, int32_t thread_id, int32_t num_teams,
                                    int32_t thread_limit, const char ctc[]) {
  POMP_Context_t Context = 0;
  POMP_Teams_enter(handle, thread_id, num_teams, thread_limit, &Context, ctc);
  return Context;
}
POMP_Context_t POMP_Task_create_enter_ctx(POMP_Handle_t *handle, int32_t thread_id,
                                          int32_t if_expr_result, const char ctc[]) {
  POMP_Context_t Context = 0;
  POMP_Task_create_enter(handle, thread_id, if_expr_result, &Context, ctc);
  return Context;
}

/* The forms without the thread id (POMP_API.md): the same events. A library
 * without the context forms (POMP_CONTEXT_BY_POINTER) has none of these
 * either; the instrumented file defines them as macros then. The second
 * parameter is the thread id but in Section_begin's, whose form takes the
 * section number in its place (same type, unused here). */
#define POMP_CHECK_WITHOUT_THREAD_ID(First, ThreadId, ...) (First, ##__VA_ARGS__)
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  int32_t POMP_##Name##_notid POMP_CHECK_WITHOUT_THREAD_ID Params {                                \
    return POMP_CHECK_##Handle(Name, Role);                                                        \
  }
#include "pomp_events.def"
POMP_Context_t POMP_Parallel_fork_ctx_notid(POMP_Handle_t *handle, int32_t num_threads,
                                            int32_t if_expr_result, const char ctc[]) {
  return POMP_Parallel_fork_ctx(handle, -1, num_threads, if_expr_result, ctc);
}
POMP_Context_t POMP_Teams_enter_ctx_notid(POMP_Handle_t *handle, int32_t num_teams,
                                          int32_t thread_limit, const char ctc[]) {
  return POMP_Teams_enter_ctx(handle, -1, num_teams, thread_limit, ctc);
}
POMP_Context_t POMP_Task_create_enter_ctx_notid(POMP_Handle_t *handle, int32_t if_expr_result,
                                                const char ctc[]) {
  return POMP_Task_create_enter_ctx(handle, -1, if_expr_result, ctc);
}
#endif

static void report(void) {
  const char *Path = getenv("POMP_CHECK_OUTPUT");
  FILE *Out = Path ? fopen(Path, "w") : stderr;
  int I;
  unsigned long V;
  if (!Out)
    Out = stderr;
  for (I = 0; I < EVENT_COUNT; ++I)
    if (Counts[I])
      fprintf(Out, "pomp-check: %s %lu\n", EventNames[I], Counts[I]);
  if (Depth != 0)
    fprintf(Out, "pomp-check: violation: %d regions still open on the initial thread\n", Depth);
  for (V = 0; V < ViolationCount && V < MAX_VIOLATIONS; ++V)
    fprintf(Out, "pomp-check: violation: %s\n", Violations[V]);
  fprintf(Out, "pomp-check: violations %lu\n", ViolationCount + (Depth != 0));
  if (Out != stderr)
    fclose(Out);
}

static void finalize(void) {
  if (Finalized)
    return;
  Finalized = 1;
  report();
}

static void exitStatus(void) {
  finalize();
  if (ViolationCount || Depth)
    _Exit(3);
}

__attribute__((weak)) void POMP_Init_Handles(void) {}

int32_t POMP_Init(void) {
  static int Initialized;
  if (!Initialized) {
    Initialized = 1;
    atexit(exitStatus);
    POMP_Init_Handles();
  }
  return POMP_SUCCESS;
}
int32_t POMP_Finalize(void) {
  finalize();
  return POMP_SUCCESS;
}
int32_t POMP_On(void) { return POMP_SUCCESS; }
int32_t POMP_Off(void) { return POMP_SUCCESS; }
int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  if (!wellFormedCtc(ctc))
    violation("Get_handle", "malformed CTC string");
  if (*handle == 0)
    *handle = __atomic_add_fetch(&NextHandle, 1, __ATOMIC_RELAXED);
  return POMP_SUCCESS;
}
int32_t POMP_Set_level(int32_t group, int32_t level) {
  (void)group;
  (void)level;
  return POMP_SUCCESS;
}
int32_t POMP_Get_level(int32_t group, int32_t *level) {
  (void)group;
  *level = POMP_LEVEL_BEGINEND;
  return POMP_SUCCESS;
}
const char *POMP_Error_string(int32_t error) { return error ? "error" : "success"; }
const char *POMP_Last_error_message(void) { return ""; }

/* The explicit join barrier always runs here: the checks see every event. */
int32_t POMP_Join_barrier_needed(POMP_Context_t fork_context) {
  (void)fork_context;
  return 1;
}
