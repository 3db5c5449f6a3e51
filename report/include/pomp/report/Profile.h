//===- pomp/report/Profile.h - A libpomp profile, read back -----*- C++ -*-===//
///
/// \file
/// The part of profile.json (docs/PROFILE_FORMAT.md) that pomp-report shows:
/// the header, the regions and the merged call-path tree with per-thread
/// metrics. Fields the report does not use are not kept, so newer profiles
/// with more fields load unchanged. Times are nanoseconds, as in the file.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_PROFILE_H
#define POMP_REPORT_PROFILE_H

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pomp::report {

/// What a node's exclusive time is: the `kind` field of a node.
enum class NodeKind { Root, Work, Wait, Event };

/// "work", "wait", "event", "root": the spelling of profile.json and profile.txt.
const char *kindName(NodeKind Kind);

/// One region of the program: a row of `regions`.
struct Region {
  std::uint32_t Id = 0;
  std::string Type;     ///< CTC type: "parallel", "critical", "userregion", ...
  std::string Label;    ///< for people: "critical(name)"
  std::string Name;     ///< CTC name, or ""
  std::string Location; ///< "file:line", or ""
  /// The CTC file and first and last lines of the construct (`start_lines`
  /// [0], `end_lines`[1]), for the page's source view; "" and 0 when unknown.
  std::string File;
  std::uint32_t FirstLine = 0;
  std::uint32_t LastLine = 0;
  /// `inlined_into` of an OMPT region: the functions its construct's function
  /// was inlined into, innermost first (the DWARF inline chain); empty when
  /// not inlined or unknown.
  std::vector<std::string> InlinedInto;
  /// `function`: the function the construct is in, or "".
  std::string Function;
};

/// One thread's metrics at one node: an entry of `per_thread`.
struct ThreadMetrics {
  std::uint32_t Thread = 0;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
};

/// One node of the merged call-path tree.
struct Node {
  static constexpr std::uint32_t NoParent = std::numeric_limits<std::uint32_t>::max();

  std::uint32_t Id = 0;
  std::uint32_t Parent = NoParent;
  std::uint32_t Depth = 0;
  std::uint32_t RegionId = 0; ///< 0 for the root
  /// Both are interned (Profile::intern): a profile has millions of nodes
  /// and a few dozen distinct spellings.
  std::string_view Event;     ///< the opening or single event; "" for the root
  std::string_view Construct; ///< "parallel body", "barrier", ...
  NodeKind Kind = NodeKind::Work;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  std::vector<ThreadMetrics> PerThread; ///< by thread index
  std::vector<std::uint32_t> Children;  ///< in file order
  /// Hardware counters (POMP_METRICS), in Profile::Metrics' order; empty in
  /// profiles without them.
  std::vector<std::uint64_t> MetricInclusive;
  std::vector<std::uint64_t> MetricExclusive;
};

/// How the run was made: profile.json's `run` (PROFILE_FORMAT.md); Present
/// is false for profiles written before it existed.
struct RunMetadata {
  bool Present = false;
  std::vector<std::string> CommandLine;
  std::vector<std::pair<std::string, std::string>> Settings; ///< OMP_*, POMP_*, ... by name
  std::string Host;
  std::string OpenMPRuntime; ///< "libomp", "libgomp", ... or ""
  bool OmptActive = false;
  std::string OmptReason;
  std::string Compiler;
  std::string ToolkitVersion;
};

/// A whole profile.json: nodes are in pre-order, Nodes[0] is the root and
/// every node's Id is its index.
struct Profile {
  std::string Program;
  std::int64_t Pid = 0;
  std::string StartTime; ///< ISO 8601, UTC, as written
  std::uint64_t DurationNs = 0;
  std::vector<std::uint32_t> Threads; ///< thread indices
  std::map<std::uint32_t, Region> Regions;
  std::vector<Node> Nodes;
  /// The anomaly counters, in file order.
  std::vector<std::pair<std::string, std::uint64_t>> Anomalies;
  /// The source files compiled without instrumentation (file, reason): their
  /// constructs are missing from the profile. Empty in profiles written
  /// before the field existed.
  std::vector<std::pair<std::string, std::string>> Uninstrumented;
  RunMetadata Run;
  /// The hardware counters recorded per node (profile.json's
  /// /metrics/recorded), and the requested ones that were not (name, reason).
  std::vector<std::string> Metrics;
  std::vector<std::pair<std::string, std::string>> UnavailableMetrics;

  /// The one copy of Text this profile keeps, for node strings to point
  /// into; copies of the profile share the stored strings, so they stay valid
  /// as long as any copy lives.
  std::string_view intern(std::string_view Text);

  /// The region a node belongs to, or nullptr (the root).
  const Region *regionOf(const Node &N) const;
  /// The node for people, spelled as libpomp's profile.txt and stderr summary
  /// spell it: `user region "work" @demo.c:20`, `parallel body @demo.c:7`.
  std::string title(const Node &N) const;
  /// A region's location with its DWARF inline chain where it has one, as
  /// profile.txt's call paths spell it:
  /// `lulesh.cc:2022 (CalcPressureForElems ← ApplyMaterialPropertiesForElems)`.
  static std::string inlinedLocation(const Region &R);
  /// title() with inlinedLocation(): the title of a call-path row.
  std::string pathTitle(const Node &N) const;

private:
  /// The interned strings; a set keeps every string where it is.
  std::shared_ptr<std::set<std::string, std::less<>>> Strings;
};

} // namespace pomp::report

#endif // POMP_REPORT_PROFILE_H
