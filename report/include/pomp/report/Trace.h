//===- pomp/report/Trace.h - A timeline from an OTF2 trace ------*- C++ -*-===//
///
/// \file
/// Reads an OTF2 archive with the OTF2 reader API into what a timeline draws:
/// one lane per location (thread), and on it the intervals between matching
/// Enter and Leave events with their nesting depth. It uses only the String,
/// Region, Location and ClockProperties definitions and the Enter and Leave
/// events, so any OTF2 archive works, not only libpomp's.
///
/// A timeline must stay small enough for a browser, whatever the trace's size:
/// each lane keeps at most IntervalsPerLane intervals (the longest, which are
/// the ones visible at any zoom) and at most Lanes lanes are kept; the other
/// visits of a lane are summed into at most BinsPerLane stretches of time per
/// depth, so that every visit is still drawn; the counts of what was left out
/// are kept, so the page can say so.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_TRACE_H
#define POMP_REPORT_TRACE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pomp::report {

/// A region definition of the trace.
struct TraceRegion {
  std::string Name;
  std::string File; ///< "" when the trace has no source file for it
  std::uint32_t Line = 0;
};

/// One visit of a region on one location.
struct Interval {
  std::uint64_t StartNs = 0; ///< since the first event of the trace
  std::uint64_t DurationNs = 0;
  std::uint32_t Depth = 0;  ///< 0 for a region entered on an empty stack
  std::uint32_t Region = 0; ///< index into Timeline::Regions
};

/// The visits of one lane and depth not kept as intervals, in one stretch of
/// time (docs/REPORT.md, "The timeline"): every visit is drawn, the short
/// ones that do not fit the limit as the share of time they cover.
struct Bin {
  std::uint32_t Index = 0; ///< the stretch [Index * BinNs, (Index + 1) * BinNs)
  std::uint32_t Depth = 0;
  std::uint64_t BusyNs = 0; ///< time the visits cover in the stretch
  std::uint64_t Visits = 0; ///< visits that start in the stretch
  std::uint32_t Region = 0; ///< the region of the longest of them (Timeline::Regions)
  /// Stretches Index.. Index + Run - 1 alike: the same busy time and region,
  /// no visit starting after the first (one long visit covering them).
  std::uint32_t Run = 1;
};

/// One location (a thread) of the trace.
struct Lane {
  std::uint64_t Location = 0;
  std::string Name;
  std::vector<Interval> Intervals;  ///< by start time, at most the limit
  std::uint64_t TotalIntervals = 0; ///< before the limit
  std::uint32_t MaxDepth = 0;
  std::uint64_t UnmatchedLeaves = 0; ///< Leave events with no open Enter
  std::uint64_t OpenAtEnd = 0;       ///< Enters never left, closed at the lane's last event
  /// The visits beyond the limit, aggregated: stretches of BinNs, non-empty
  /// ones only, by depth and index.
  std::uint64_t BinNs = 0;
  std::vector<Bin> Bins;
  std::uint64_t BinnedVisits = 0; ///< TotalIntervals - Intervals.size()
};

/// Bounds on what a timeline keeps.
struct TimelineLimits {
  static constexpr std::size_t DefaultIntervalsPerLane = 2000;
  static constexpr std::size_t DefaultLanes = 256;
  std::size_t IntervalsPerLane = DefaultIntervalsPerLane;
  std::size_t Lanes = DefaultLanes;
  /// Stretches a lane's aggregated visits are summed into, per depth.
  static constexpr std::size_t BinsPerLane = 1024;
};

/// What a timeline draws.
struct Timeline {
  std::string Path;
  std::vector<TraceRegion> Regions;
  std::vector<Lane> Lanes;          ///< by location id, at most the limit
  std::uint64_t TotalLanes = 0;     ///< locations in the trace
  std::uint64_t EndNs = 0;          ///< the last event, since the first
  std::uint64_t TicksPerSecond = 0; ///< the trace's timer resolution
  TimelineLimits Limits;
};

/// The archive libpomp writes in an experiment directory: trace/traces.otf2.
std::string traceAnchorIn(const std::string &ExperimentDir);

/// Reads the archive whose anchor file (`*.otf2`) is AnchorPath. On failure
/// returns false and sets Error.
bool readTimeline(const std::string &AnchorPath, const TimelineLimits &Limits, Timeline &Out,
                  std::string &Error);

} // namespace pomp::report

#endif // POMP_REPORT_TRACE_H
