//===- core/Tasks.h - Explicit tasks that move between threads --*- C++ -*-===//
///
/// \file
/// What the core keeps about the explicit tasks a thread executes, as the
/// OpenMP runtime reports their switches (OMPT task_schedule).
///
/// A thread's regions live on its own stack, but a task's regions belong to
/// the task: an untied task may be suspended on one thread with regions open
/// (its task region, a task creation inside it, ...) and resumed on another,
/// where its next event closes one of them. LLVM's libomp runs an untied task
/// in parts: each part ends with a switch back to the task the thread came
/// from, and the next part may run on any thread of the team. So the regions
/// a task opened on a thread since it started or resumed there are taken off
/// that thread's stack when the task is suspended (Core::suspendTask), kept
/// here, and opened again on the thread that resumes it (Core::resumeTask),
/// at the same call path. Each thread is charged with the time the task ran
/// on it; the visit counts once, on the thread where the region ends, with
/// the region's whole duration (the time the task waited in a queue left
/// out) as its minimum or maximum.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_TASKS_H
#define POMP_RUNTIME_CORE_TASKS_H

#include "core/CallPath.h"
#include "core/Clock.h"

#include <cstdint>
#include <vector>

namespace pomp::rt {

/// An explicit task a thread executes: the tasks form a stack, since a task
/// runs only at a scheduling point of the one below it.
struct RunningTask {
  /// The runtime's identity of the task (its ompt_data_t) and of the task the
  /// thread switched from; a switch back to From suspends the task.
  const void *Task = nullptr;
  const void *From = nullptr;
  /// The thread's stack depth when the task started or resumed: the regions
  /// above it are the task's.
  std::uint32_t Base = 0;
  /// True when the task's own task region is among them (the OMPT adapter
  /// opened it; POMP closes the regions of an instrumented task itself).
  /// Kept here because the runtime may free the task's data before this
  /// thread learns that the task ended.
  bool OwnsRegion = false;
};

/// The regions a suspended task had open, outermost first, with the times
/// that move with them.
struct SuspendedTask {
  /// One open region: its key, how long it ran (on every thread so far) and
  /// the part of that in regions nested in it, charged where they ran, and
  /// the time of its nested regions its frame had gathered.
  struct OpenRegion {
    NodeKey Key;
    Tick Executed;
    Tick NestedPart;
    Tick Children;
  };
  /// What the runtime's task data held before the task was suspended.
  std::uint64_t Value = 0;
  /// The context of the outermost region's parent (its node, or the node a
  /// mirror stands for); 0 when it hung at the thread's root.
  std::uintptr_t ParentContext = 0;
  std::vector<OpenRegion> Regions;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_TASKS_H
