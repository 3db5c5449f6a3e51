/* noop_ompt_tool.c - an OMPT tool whose callbacks do nothing: the floor of any OMPT-based
 * measurement (TARGETS.md's "NOOP OMPT" column). bench/ompt_overhead.py loads it through
 * OMP_TOOL_LIBRARIES. It registers the callbacks libpomp registers for parallel regions,
 * implicit tasks, barriers and worksharing. */
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

static int initialize(ompt_function_lookup_t Lookup, int Device, ompt_data_t *Data) {
  (void)Device, (void)Data;
  ompt_set_callback_t Set = (ompt_set_callback_t)Lookup("ompt_set_callback");
  Set(ompt_callback_parallel_begin, (ompt_callback_t)onParallelBegin);
  Set(ompt_callback_parallel_end, (ompt_callback_t)onParallelEnd);
  Set(ompt_callback_implicit_task, (ompt_callback_t)onImplicitTask);
  Set(ompt_callback_sync_region, (ompt_callback_t)onSync);
  Set(ompt_callback_sync_region_wait, (ompt_callback_t)onSync);
  Set(ompt_callback_work, (ompt_callback_t)onWork);
  return 1;
}

static void finalize(ompt_data_t *Data) { (void)Data; }

ompt_start_tool_result_t *ompt_start_tool(unsigned int Version, const char *Runtime) {
  (void)Version, (void)Runtime;
  static ompt_start_tool_result_t Result = {initialize, finalize, {0}};
  return &Result;
}
