/* noop_ompt_tool.c - an OMPT tool whose callbacks do nothing: the floor of any OMPT-based
 * measurement (TARGETS.md's "NOOP OMPT" column). bench/ompt_overhead.py loads it through
 * OMP_TOOL_LIBRARIES. It registers the callbacks of parallel regions, implicit tasks, barriers
 * (sync_region and sync_region_wait) and worksharing.
 *
 * Built with -DNOOP_LIBPOMP_CALLBACKS and -I pomp-runtime/src/adapters/ompt it registers instead
 * exactly the callbacks libpomp registers (its OmptCallbacks.def): tasks, mutexes, locks, masked,
 * flush, cancel and the rest too. libomp does work of its own for each callback a tool registers
 * (a task's switch, for one, costs it more with task_schedule registered), so this build is the
 * floor of a tool that records what libpomp records; a callback added to the list without a stub
 * here fails the build. */
#include <omp-tools.h>

static void onParallelBegin(ompt_data_t *Task, const ompt_frame_t *Frame, ompt_data_t *Parallel,
                            unsigned int Requested, int Flags, const void *Code) {
  (void)Task, (void)Frame, (void)Parallel, (void)Requested, (void)Flags, (void)Code;
}
static void onParallelEnd(ompt_data_t *Parallel, ompt_data_t *Task, int Flags, const void *Code) {
  (void)Parallel, (void)Task, (void)Flags, (void)Code;
}
static void onImplicitTask(ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                           ompt_data_t *Task, unsigned int Threads, unsigned int Index,
                           int Flags) {
  (void)Endpoint, (void)Parallel, (void)Task, (void)Threads, (void)Index, (void)Flags;
}
static void onSync(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                   ompt_data_t *Task, const void *Code) {
  (void)Kind, (void)Endpoint, (void)Parallel, (void)Task, (void)Code;
}
static void onWork(ompt_work_t Kind, ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel,
                   ompt_data_t *Task, uint64_t Count, const void *Code) {
  (void)Kind, (void)Endpoint, (void)Parallel, (void)Task, (void)Count, (void)Code;
}

#ifdef NOOP_LIBPOMP_CALLBACKS
/* One stub per row of OmptCallbacks.def, with that callback's signature. */
static void noop_thread_begin(ompt_thread_t Kind, ompt_data_t *Thread) { (void)Kind, (void)Thread; }
static void noop_thread_end(ompt_data_t *Thread) { (void)Thread; }
#define noop_parallel_begin onParallelBegin
#define noop_parallel_end onParallelEnd
#define noop_implicit_task onImplicitTask
#define noop_work onWork
#define noop_sync_region onSync
#define noop_reduction onSync
static void noop_dispatch(ompt_data_t *Parallel, ompt_data_t *Task, ompt_dispatch_t Kind,
                          ompt_data_t Instance) {
  (void)Parallel, (void)Task, (void)Kind, (void)Instance;
}
static void noop_mutex_acquire(ompt_mutex_t Kind, unsigned int Hint, unsigned int Impl,
                               ompt_wait_id_t Wait, const void *Code) {
  (void)Kind, (void)Hint, (void)Impl, (void)Wait, (void)Code;
}
#define noop_lock_init noop_mutex_acquire
static void noop_mutex(ompt_mutex_t Kind, ompt_wait_id_t Wait, const void *Code) {
  (void)Kind, (void)Wait, (void)Code;
}
#define noop_mutex_acquired noop_mutex
#define noop_mutex_released noop_mutex
#define noop_lock_destroy noop_mutex
static void noop_nest_lock(ompt_scope_endpoint_t Endpoint, ompt_wait_id_t Wait, const void *Code) {
  (void)Endpoint, (void)Wait, (void)Code;
}
static void noop_task_create(ompt_data_t *Encountering, const ompt_frame_t *Frame,
                             ompt_data_t *New, int Flags, int HasDependences, const void *Code) {
  (void)Encountering, (void)Frame, (void)New, (void)Flags, (void)HasDependences, (void)Code;
}
static void noop_task_schedule(ompt_data_t *Prior, ompt_task_status_t Status, ompt_data_t *Next) {
  (void)Prior, (void)Status, (void)Next;
}
static void noop_masked(ompt_scope_endpoint_t Endpoint, ompt_data_t *Parallel, ompt_data_t *Task,
                        const void *Code) {
  (void)Endpoint, (void)Parallel, (void)Task, (void)Code;
}
static void noop_flush(ompt_data_t *Thread, const void *Code) { (void)Thread, (void)Code; }
static void noop_cancel(ompt_data_t *Task, int Flags, const void *Code) {
  (void)Task, (void)Flags, (void)Code;
}
static int noop_control_tool(uint64_t Command, uint64_t Modifier, void *Arg, const void *Code) {
  (void)Command, (void)Modifier, (void)Arg, (void)Code;
  return 1; /* omp_control_tool_ignored */
}
#endif

static int initialize(ompt_function_lookup_t Lookup, int Device, ompt_data_t *Data) {
  (void)Device, (void)Data;
  ompt_set_callback_t Set = (ompt_set_callback_t)Lookup("ompt_set_callback");
#ifdef NOOP_LIBPOMP_CALLBACKS
#define POMP_OMPT_CALLBACK(Name) Set(ompt_callback_##Name, (ompt_callback_t)noop_##Name);
#include "OmptCallbacks.def"
#else
  Set(ompt_callback_parallel_begin, (ompt_callback_t)onParallelBegin);
  Set(ompt_callback_parallel_end, (ompt_callback_t)onParallelEnd);
  Set(ompt_callback_implicit_task, (ompt_callback_t)onImplicitTask);
  Set(ompt_callback_sync_region, (ompt_callback_t)onSync);
  Set(ompt_callback_sync_region_wait, (ompt_callback_t)onSync);
  Set(ompt_callback_work, (ompt_callback_t)onWork);
#endif
  return 1;
}

static void finalize(ompt_data_t *Data) { (void)Data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int Version, const char *Runtime) {
  (void)Version, (void)Runtime;
  static ompt_start_tool_result_t Result = {initialize, finalize, {0}};
  return &Result;
}
