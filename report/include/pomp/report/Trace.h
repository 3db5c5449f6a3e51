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
/// the ones visible at any zoom) and at most Lanes lanes are kept; the counts
/// of what was left out are kept, so the page can say so.
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

/// One location (a thread) of the trace.
struct Lane {
  std::uint64_t Location = 0;
  std::string Name;
  std::vector<Interval> Intervals;  ///< by start time, at most the limit
  std::uint64_t TotalIntervals = 0; ///< before the limit
  std::uint32_t MaxDepth = 0;
  std::uint64_t UnmatchedLeaves = 0; ///< Leave events with no open Enter
  std::uint64_t OpenAtEnd = 0;       ///< Enters never left, closed at the lane's last event
};

/// Bounds on what a timeline keeps.
struct TimelineLimits {
  static constexpr std::size_t DefaultIntervalsPerLane = 2000;
  static constexpr std::size_t DefaultLanes = 256;
  std::size_t IntervalsPerLane = DefaultIntervalsPerLane;
  std::size_t Lanes = DefaultLanes;
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
