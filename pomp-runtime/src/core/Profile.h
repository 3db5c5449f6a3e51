//===- core/Profile.h - The merged call-path profile ------------*- C++ -*-===//
///
/// \file
/// What finalisation produces from the threads' trees: one call-path tree for
/// the program in which every node keeps the metrics of each thread that
/// visited it, so load imbalance stays visible. Times are in nanoseconds.
/// docs/PROFILE_FORMAT.md describes how it is written.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_PROFILE_H
#define POMP_RUNTIME_CORE_PROFILE_H

#include "core/Anomalies.h"
#include "core/Events.h"
#include "core/Regions.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace pomp::rt {

/// One thread's metrics at one node.
struct ThreadMetrics {
  std::uint32_t Thread = 0;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  std::uint64_t MinNs = 0; ///< shortest visit (0 for single events)
  std::uint64_t MaxNs = 0; ///< longest visit
  /// Visits that came to the node by recursion folding (docs/PROFILE_FORMAT.md).
  std::uint64_t FoldedVisits = 0;
  /// Visits made while a visit of the node was open on the same thread: in
  /// Visits and ExclusiveNs, their time already in InclusiveNs.
  std::uint64_t NestedVisits = 0;
  /// Hardware counters (POMP_METRICS), in MetricsReport::Recorded's order;
  /// empty when none were recorded here.
  std::vector<std::uint64_t> CounterInclusive;
  std::vector<std::uint64_t> CounterExclusive;
};

/// One node of the merged tree.
struct ProfileNode {
  static constexpr std::uint32_t NoParent = std::numeric_limits<std::uint32_t>::max();

  std::uint32_t Parent = NoParent;
  /// 0 for the program root.
  RegionId Region = 0;
  /// The canonical opener (or single event) that identifies the node.
  EventId Opener = EventId{};
  /// The node's exclusive time is waiting (barriers, locks, critical entry).
  bool Waiting = false;
  /// Per thread, sorted by thread.
  std::vector<ThreadMetrics> PerThread;
  /// Indices of the children, sorted by (region, opener).
  std::vector<std::uint32_t> Children;

  /// Sums over the threads (Min and Max over them).
  ThreadMetrics total() const;
};

/// Per-thread facts.
struct ProfileThread {
  std::uint32_t Index = 0;
  std::uint64_t Recorded = 0; ///< events recorded
  /// Regions the OpenMP runtime reported that instrumented code then reported
  /// itself (Core::discardInnermost): entered, never counted.
  std::uint64_t HandedOver = 0;
};

/// The merged profile. Nodes[0] is the program root; parents come before
/// their children (pre-order).
struct Profile {
  std::vector<ProfileNode> Nodes;
  std::vector<ProfileThread> Threads;
  AnomalyCounts Anomalies{};
};

/// "parallel", "parallel body", "loop chunk", "task create", "barrier": the
/// construct part an event names, for people.
std::string constructName(EventId Opener);

/// What a node of region Id opened by Opener is, for people: the construct
/// name of its event ("parallel body"), or for a region of the OMPT adapter's
/// whose type no construct name covers, its label. The one spelling
/// of profile.json's `construct`, profile.txt, the OTF2 and Chrome traces.
std::string nodeConstruct(RegionId Id, EventId Opener, const RegionTable &Regions);

/// The construct with the region's name and location:
/// `implicit barrier @demo.c:12`, `critical body "lock" @x.c:3`.
std::string nodeTitle(RegionId Id, EventId Opener, const RegionTable &Regions);

/// nodeTitle() with the DWARF inline chain of an OMPT region where there is
/// one (inlinedLocation()): the title of a call-path node, where copies of a
/// construct inlined into different functions are different nodes.
std::string nodePathTitle(RegionId Id, EventId Opener, const RegionTable &Regions);

/// Imbalance of per-thread times: (max - mean) / max, 0 when there are fewer
/// than two threads or no time. The profile applies it to each thread's work
/// (inclusive time without the waiting at and below the node on that thread),
/// so that a loop whose barrier absorbs its imbalance still shows it, and in
/// every mode alike (PROFILE_FORMAT.md, "imbalance").
double imbalanceOf(const std::vector<std::uint64_t> &PerThread);

/// Imbalance of a node's per-thread inclusive times (no waiting subtracted).
double imbalance(const ProfileNode &Node);

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_PROFILE_H
