//===- core/Teams.h - Parallel regions the OpenMP runtime reports -*- C++ -*-===//
///
/// \file
/// What the core keeps about team executions that reach it from the OpenMP
/// runtime (OMPT) rather than from instrumented code.
///
/// LLVM's libomp delivers a worker's implicit-barrier end and implicit-task end
/// late: when the worker is woken for the next parallel region, or at shutdown
/// (seed 000 and the OMPT trap list in SPEC.md). Closing the worker's regions
/// at that moment would charge it with all the time between two regions. So
/// the master records when its team ended in a TeamInstance, each worker
/// remembers which instance its implicit task belongs to, and a late end is
/// charged no later than the team's end. Regions still open at finalisation
/// whose team has ended are closed at that end (Core::closeEndedTeams()).
///
/// Each master thread owns a small ring of instances, reused round-robin: a
/// worker's late end names the previous region of the same master, never one
/// many regions back, and the generation number tells a reused slot apart.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_TEAMS_H
#define POMP_RUNTIME_CORE_TEAMS_H

#include "core/Clock.h"
#include "core/Regions.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pomp::rt {

struct Node;

/// One execution of a parallel region (a team), owned by its master thread.
struct TeamInstance {
  /// Bumped each time the slot is reused.
  std::atomic<std::uint32_t> Generation{0};
  /// The master's time at the end of the region; 0 while it runs.
  std::atomic<Tick> End{0};
  /// The node the team's implicit tasks hang under.
  Node *Fork = nullptr;
  /// The region of the parallel construct and its code address.
  RegionId Region = 0;
  const void *Code = nullptr;
  /// Instrumented code reports this region itself (POMP events): the runtime's
  /// events of the team are detail, not regions of their own.
  bool Instrumented = false;
  /// The master entered a region for the fork (as opposed to POMP doing it).
  bool ForkEntered = false;
  /// The depth of the master's stack with the fork's region open.
  std::uint32_t ForkDepth = 0;
};

/// The implicit task a thread executes for a team.
struct ImplicitTask {
  TeamInstance *Team = nullptr;
  std::uint32_t Generation = 0;
  bool Instrumented = false;
  /// Stack depth with the implicit task's region open; 0 when no region was
  /// entered for it.
  std::uint32_t Depth = 0;

  /// The team's end when it has ended and the slot was not reused since; 0
  /// otherwise.
  Tick teamEnd() const {
    if (!Team || Team->Generation.load(std::memory_order_acquire) != Generation)
      return 0;
    return Team->End.load(std::memory_order_acquire);
  }
};

/// A thread's teams: the instances it masters and the implicit tasks it runs.
struct ThreadTeams {
  /// Instances a master cycles through.
  static constexpr std::size_t RingSize = 16;
  /// Nesting depth of implicit tasks the thread keeps track of; deeper ones
  /// are measured without the late-end correction.
  static constexpr std::size_t MaxNesting = 32;

  TeamInstance Ring[RingSize];
  std::size_t NextInstance = 0;

  ImplicitTask Tasks[MaxNesting];
  std::size_t TaskDepth = 0;
  /// Implicit tasks begun beyond MaxNesting and not yet ended.
  std::size_t Overflow = 0;

  /// A fresh instance for a region this thread forks.
  TeamInstance &nextInstance() {
    TeamInstance &I = Ring[NextInstance];
    NextInstance = (NextInstance + 1) % RingSize;
    I.Generation.fetch_add(1, std::memory_order_relaxed);
    I.End.store(0, std::memory_order_relaxed);
    I.Fork = nullptr;
    I.Region = 0;
    I.Code = nullptr;
    I.Instrumented = false;
    I.ForkEntered = false;
    I.ForkDepth = 0;
    return I;
  }

  /// The innermost implicit task, or nullptr outside every team.
  ImplicitTask *innermost() {
    return TaskDepth > 0 && Overflow == 0 ? &Tasks[TaskDepth - 1] : nullptr;
  }
};

/// The locks a thread holds because omp_test_lock() set them, as the runtime
/// reported them (OMPT): a trace records no acquisition for a test, so their
/// release is not recorded either and acquisitions and releases pair.
struct TestedLocks {
  static constexpr std::size_t Capacity = 16;
  std::uint64_t Locks[Capacity] = {};
  std::size_t Count = 0;

  /// Remembers a lock a test set; false when full (its release is then
  /// recorded without an acquisition).
  bool add(std::uint64_t Lock) {
    if (Count == Capacity)
      return false;
    Locks[Count++] = Lock;
    return true;
  }
  /// Forgets Lock; true when a test had set it.
  bool remove(std::uint64_t Lock) {
    for (std::size_t I = 0; I < Count; ++I)
      if (Locks[I] == Lock) {
        Locks[I] = Locks[--Count];
        return true;
      }
    return false;
  }
};

/// Remembers which region the runtime's code addresses were registered as, so
/// that a construct seen before is found without the region table's lock.
struct CodeRegionCache {
  static constexpr std::size_t Entries = 128;
  /// A code address with its construct kind, and the region they name.
  struct Entry {
    std::uintptr_t Key = 0;
    RegionId Region = 0;
  };
  Entry Slots[Entries];

  static std::size_t slot(std::uintptr_t Key) {
    // Return addresses of neighbouring constructs differ in the low bits.
    constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
    constexpr unsigned Shift = 57;
    return static_cast<std::size_t>((Key * Multiplier) >> Shift) & (Entries - 1);
  }
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_TEAMS_H
