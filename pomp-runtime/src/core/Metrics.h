//===- core/Metrics.h - Hardware counters per region (PAPI) -----*- C++ -*-===//
///
/// \file
/// POMP_METRICS=<PAPI events, comma-separated> records counters per call-path
/// node, like time: at every enter and leave the thread reads its counters,
/// and a node sums per metric the inclusive value of its visits and the part
/// its nested regions took (docs/RUNTIME.md, "Hardware counters"). PAPI is
/// opened with dlopen() at initialisation (libpapi.so.7.0), so libpomp never
/// depends on it: a program measured without POMP_METRICS never loads it.
///
/// Without POMP_METRICS the core pays one predictable branch per enter and
/// leave (ThreadState::Counters is null). With it, the adapters' fast paths
/// are off, as with a trace, so every event reaches the core.
///
/// Events that PAPI does not know or cannot count here are named in one
/// message each, with PAPI's reason, recorded in profile.json ("metrics") and
/// left out; the run goes on with the others.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_METRICS_H
#define POMP_RUNTIME_CORE_METRICS_H

#include "core/Config.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pomp::rt {

inline constexpr OptionSpec MetricsOption = {
    "POMP_METRICS", OptionType::Path, "", "PAPI event names, comma-separated",
    "Hardware counters recorded per region (PAPI, e.g. PAPI_TOT_CYC,PAPI_L2_TCM or "
    "perf::PAGE-FAULTS); unknown or unavailable events are reported and left out"};
inline constexpr OptionSpec MetricsOptions[] = {MetricsOption};

/// A requested event that is not recorded, and why.
struct UnavailableMetric {
  std::string Name;
  std::string Reason;
};

/// What became of POMP_METRICS, for profile.json.
struct MetricsReport {
  std::vector<std::string> Requested;
  std::vector<std::string> Recorded;
  std::vector<UnavailableMetric> Unavailable;
  /// Threads whose own event set could not be made or started: their
  /// regions count 0 (metricsThreadFailures()).
  std::uint64_t ThreadsWithout = 0;
  /// PAPI's reason for the first of them.
  std::string ThreadReason;
};

/// The most counters recorded at once.
inline constexpr std::size_t MaxMetrics = 8;

/// Splits a POMP_METRICS value at commas (white space around names ignored);
/// false with Error set when a name is empty, repeated or more than
/// MaxMetrics are given.
bool parseMetricList(const std::string &Value, std::vector<std::string> &Names, std::string &Error);

/// One thread's counters: its PAPI event set, the values read when each open
/// frame started and what its nested regions took, and the nodes' sums.
class ThreadCounters {
public:
  explicit ThreadCounters(std::size_t Metrics) : Count(Metrics) {}

  /// Called after a frame was pushed at stack depth Depth (1 for the
  /// outermost region).
  void enter(std::size_t Depth);
  /// Called after the frame of Region at Depth was popped: adds the visit's
  /// values to Region's sums and to the frame below.
  void leave(std::size_t Depth, std::uint64_t *&Sums);
  /// A node's sums: Count inclusive values, then Count nested ones.
  std::uint64_t *newSums();

  std::size_t count() const { return Count; }

private:
  bool read(std::int64_t *Values);

  std::size_t Count;
  // Unused in a build without PAPI, where read() always fails.
  [[maybe_unused]] int EventSet = -1;
  [[maybe_unused]] bool Started = false;
  [[maybe_unused]] bool Failed = false;
  /// Per depth: Count start values, then Count nested values.
  std::vector<std::int64_t> Frames;
  /// Chunks of node sums, never moved (nodes keep pointers into them).
  std::vector<std::unique_ptr<std::uint64_t[]>> SumChunks;
  std::size_t SumsUsed = 0;
};

/// Reads POMP_METRICS (a message into Messages when it is invalid), loads
/// PAPI and checks each event. True when at least one event is recorded.
bool initializeMetrics(const OptionSource &Options, std::vector<std::string> &Messages);
/// What initializeMetrics() decided, with the threads that had no counters.
const MetricsReport &metricsReport();
/// "" or the message for the user about threads without counters.
std::string metricsThreadMessage();
/// In a child created by fork(): the recorded events become unavailable
/// (the parent's PAPI state counts the parent's threads).
void dropMetricsInChild();
/// A new thread's counters, or nullptr when none are recorded.
ThreadCounters *newThreadCounters();

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_METRICS_H
