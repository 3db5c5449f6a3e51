//===- core/Joins.h - Teams that skip their explicit join barrier -*- C++ -*-===//
///
/// \file
/// When no OpenMP runtime reports join barriers (POMP only: libgomp, or
/// libomp with POMP_OMPT=off), instrumented teams still skip the explicit
/// barrier ompinst puts before Parallel_end, which cost as much as a second
/// join (docs/PERFORMANCE.md). Each thread then leaves its implicit barrier
/// and its parallel body open in the runtime's join:
///
///  - the master closes them at its Parallel_exit, right after the join, and
///    records in the fork's node when its team ended (JoinRecord);
///  - a worker cannot know when the join released it: it remembers the team
///    (a PendingJoin) and closes its regions at its next event that begins a
///    team it did not fork, when the thread ends (libgomp ends the threads a
///    smaller team does not need; Lifecycle.cpp) or at finalisation, charging
///    them no later than the team's end the master recorded.
///
/// That is what the merged mode does with OMPT's late implicit-task ends
/// (Teams.h), without a runtime to tell. The team travels in the fork's
/// context (Core::LateJoinBit and the fork's sequence number in the bits
/// above a node's address), so a worker reads nothing the master wrote at the
/// fork: its only cross-core read is the fork node's JoinRecord, at its next
/// team.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_JOINS_H
#define POMP_RUNTIME_CORE_JOINS_H

#include "core/Clock.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace pomp::rt {

struct Node;

/// When the executions of one fork's node ended: kept in the master's node of
/// the fork (Node::Join), written by the master at its Parallel_exit and read
/// by the team's workers at their next team. A node's record is overwritten
/// only when its master forks the same call path again without the worker (a
/// smaller team); that worker then closes its regions at their last start,
/// counted as an anomaly (Anomaly::LateJoinUnknown). The master writes the
/// line it writes at the exit anyway (the node's visit and time).
class JoinRecord {
public:
  /// The bits of a fork's sequence number its context carries.
  static constexpr unsigned SequenceBits = 17;
  static constexpr std::uint32_t SequenceMask = (std::uint32_t{1} << SequenceBits) - 1;

  /// The sequence number of a fork of a node with Visits completed visits:
  /// the master reads it from its own node, without writing at the fork a
  /// line its workers read.
  static std::uint32_t sequenceOf(std::uint64_t Visits) {
    return static_cast<std::uint32_t>(Visits) & SequenceMask;
  }

  /// The master of fork Sequence: its team ended at End.
  void ended(std::uint32_t Sequence, Tick End) {
    // A seqlock: a reader that overlaps the write sees two different tags.
    Tag.store(Writing, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    this->End.store(End, std::memory_order_relaxed);
    Tag.store(Sequence, std::memory_order_release);
  }

  /// What a worker learns of fork Sequence's end.
  enum class Lookup {
    Ended,       ///< End holds the team's end
    NotRecorded, ///< the master has not reached its Parallel_exit yet
    Overwritten, ///< the record holds a later fork's end
  };
  Lookup endOf(std::uint32_t Sequence, Tick &Result) const {
    // A write in progress is three stores: a reader that overlaps one reads
    // again, a few times, and otherwise takes the team as just ended.
    constexpr int Attempts = 3;
    for (int Attempt = 0; Attempt < Attempts; ++Attempt) {
      const std::uint32_t Before = Tag.load(std::memory_order_acquire);
      Result = End.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (Before != Tag.load(std::memory_order_relaxed) || Before == Writing)
        continue;
      if (Before == Sequence)
        return Lookup::Ended;
      if (Before == Empty)
        return Lookup::NotRecorded;
      // Sequence numbers wrap: within half their range, a tag behind
      // Sequence is an earlier fork's, one ahead of it a later fork's.
      const std::uint32_t Ahead = (Before - Sequence) & SequenceMask;
      return Ahead < (SequenceMask + 1) / 2 ? Lookup::Overwritten : Lookup::NotRecorded;
    }
    return Lookup::NotRecorded;
  }

private:
  static constexpr std::uint32_t Empty = ~std::uint32_t{0};
  static constexpr std::uint32_t Writing = Empty - 1;

  std::atomic<std::uint32_t> Tag{Empty};
  std::atomic<Tick> End{0};
};

/// A team of this thread whose implicit barrier and body it left open in the
/// runtime's join.
struct PendingJoin {
  /// The stack depth below the team's body: what closing the team leaves.
  std::uint32_t Depth = 0;
  /// The fork's sequence number (JoinRecord::SequenceBits of it).
  std::uint32_t Sequence = 0;
  /// The master's node of the fork, whose record has the team's end.
  Node *Fork = nullptr;
  /// The thread was its team's only thread (a serialized region): no worker
  /// needs the team's end, and the record keeps an older team's.
  bool Alone = false;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_JOINS_H
