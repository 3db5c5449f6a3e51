//===- core/Anomalies.h - Counted irregularities ----------------*- C++ -*-===//
///
/// \file
/// Things that went wrong in the event stream but must not stop the program:
/// counted with atomics from any thread (only on these rare paths, never on
/// the hot path) and reported once, at finalisation, in the profile and in the
/// summary on stderr.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_ANOMALIES_H
#define POMP_RUNTIME_CORE_ANOMALIES_H

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pomp::rt {

/// X(Enumerator, json name, sentence for people)
#define POMP_ANOMALIES(X)                                                                          \
  X(UnmatchedClose, "unmatched_close",                                                             \
    "end/exit events with no open begin/enter on their thread (POMP_ERROR_UNBALANCED)")            \
  X(ClosedInnerRegions, "closed_inner_regions",                                                    \
    "regions closed implicitly because an enclosing region ended first (e.g. cancellation)")       \
  X(OpenAtFinalize, "open_at_finalize", "regions still open at finalisation, closed there")        \
  X(SkippedAfterSwitch, "skipped_after_switch",                                                    \
    "later events of constructs entered while their events were off (ignored)")                    \
  X(InvalidContext, "invalid_context",                                                             \
    "fork or task contexts that name no region: their regions were put at the top level")          \
  X(InvalidHandle, "invalid_handle", "events with a handle the library did not give out")          \
  X(MissingCtc, "missing_ctc", "events with a zero handle and no CTC string")                      \
  X(MalformedCtc, "malformed_ctc", "events and POMP_Get_handle calls with a malformed CTC string") \
  X(InvalidArgument, "invalid_argument", "events with a NULL pointer where a result is stored")    \
  X(Reentrant, "reentrant", "events raised while the same thread was inside an event")             \
  X(BusyAtFinalize, "busy_at_finalize",                                                            \
    "threads still inside an event when finalisation waited for them: their data is left out")     \
  X(LateJoinUnknown, "late_join_unknown",                                                          \
    "team ends a worker found overwritten (it idled through thousands of forks): its regions "     \
    "of the team closed at their last start")                                                      \
  X(OmptOtherKind, "ompt_other_kind",                                                              \
    "OMPT callbacks with a kind this library does not know (a newer runtime): counted, ignored")   \
  X(OmptForeignTeamEnd, "ompt_foreign_team_end",                                                   \
    "parallel_end callbacks that named another thread's team (libomp's nested teams): the "        \
    "calling thread's own innermost team ended there")

/// The kinds of anomalies.
enum class Anomaly : std::uint8_t {
#define POMP_ANOMALY_ENUM(Enumerator, Json, Text) Enumerator,
  POMP_ANOMALIES(POMP_ANOMALY_ENUM)
#undef POMP_ANOMALY_ENUM
};

inline constexpr std::size_t AnomalyCount = 0
#define POMP_ANOMALY_COUNT(Enumerator, Json, Text) +1
    POMP_ANOMALIES(POMP_ANOMALY_COUNT)
#undef POMP_ANOMALY_COUNT
    ;

/// Names and sentences of the anomalies, indexed by Anomaly.
struct AnomalyInfo {
  std::string_view Json;
  std::string_view Text;
};
inline constexpr std::array<AnomalyInfo, AnomalyCount> AnomalyInfos = {{
#define POMP_ANOMALY_INFO(Enumerator, Json, Text) {Json, Text},
    POMP_ANOMALIES(POMP_ANOMALY_INFO)
#undef POMP_ANOMALY_INFO
}};

/// A snapshot of the counters.
using AnomalyCounts = std::array<std::uint64_t, AnomalyCount>;

/// The counters of one measurement.
class Anomalies {
public:
  void count(Anomaly A, std::uint64_t N = 1) {
    Counters[static_cast<std::size_t>(A)].fetch_add(N, std::memory_order_relaxed);
  }
  AnomalyCounts snapshot() const {
    AnomalyCounts Result{};
    for (std::size_t I = 0; I < AnomalyCount; ++I)
      Result[I] = Counters[I].load(std::memory_order_relaxed);
    return Result;
  }
  /// Sets every counter to zero (a child created by fork() starts afresh).
  void reset() {
    for (std::atomic<std::uint64_t> &C : Counters)
      C.store(0, std::memory_order_relaxed);
  }

private:
  std::array<std::atomic<std::uint64_t>, AnomalyCount> Counters{};
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_ANOMALIES_H
