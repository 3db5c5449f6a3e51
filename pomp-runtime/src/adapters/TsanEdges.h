//===- adapters/TsanEdges.h - Task edges for ThreadSanitizer ----*- C++ -*-===//
///
/// \file
/// The happens-before edge from a completed task to the next task's
/// allocation, which both adapters declare in a TSan build of libpomp.
/// docs/RELIABILITY.md, "ThreadSanitizer".
///
//===----------------------------------------------------------------------===//

#ifndef POMP_RUNTIME_ADAPTERS_TSANEDGES_H
#define POMP_RUNTIME_ADAPTERS_TSANEDGES_H

#if defined(__SANITIZE_THREAD__)
#define POMP_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define POMP_TSAN 1
#endif
#endif

#ifdef POMP_TSAN
extern "C" void __tsan_acquire(void *Address);
extern "C" void __tsan_release(void *Address);
#endif

namespace pomp::rt::tsan {

// libomp hands a new task the memory of a completed one from its own free
// lists, which TSan does not see, and the creating code writes the new task's
// firstprivate copies there. Every task completion releases one object, and
// the TSan build's __kmpc_omp_task_alloc (OmptAdapter.cpp) acquires it after
// each allocation, so the completed task's reads come before those writes.
// The OMPT adapter releases at the task_schedule callback of a completed task;
// the POMP adapter at Task_end, the last thing an instrumented task body does,
// for the runs where another OMPT tool (archer) or none reports completions.
// In any other build these are empty and cost nothing.
#ifdef POMP_TSAN
/// The object every task completion releases and every task allocation,
/// taskwait, taskgroup and barrier end and task start acquires.
inline char TaskCompletion;
inline void releaseTasks() { __tsan_release(&TaskCompletion); }
inline void acquireTasks() { __tsan_acquire(&TaskCompletion); }
#else
inline void releaseTasks() {}
inline void acquireTasks() {}
#endif

} // namespace pomp::rt::tsan

#endif // POMP_RUNTIME_ADAPTERS_TSANEDGES_H
