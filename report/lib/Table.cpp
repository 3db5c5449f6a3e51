//===- Table.cpp - The report as text and JSON ----------------------------===//

#include "pomp/report/Table.h"

#include "pomp/ctc/SourceRoot.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <sstream>
#include <string_view>

namespace pomp::report {
namespace {

constexpr double NsPerSecond = 1e9;
constexpr double Percent = 100.0;
/// Spaces per call-path level, as in profile.txt.
constexpr int IndentPerLevel = 2;
/// The narrowest column of a hardware counter.
constexpr std::size_t MinMetricWidth = 12;
/// Version of the --json output; fields are only ever added.
constexpr int JsonReportVersion = 1;

double seconds(std::uint64_t Ns) { return static_cast<double>(Ns) / NsPerSecond; }

/// Spaces before a tree row's title.
std::string indent(int Columns) { return std::string(static_cast<std::size_t>(Columns), ' '); }

const char *metricName(ThreadMetric M) {
  return M == ThreadMetric::Exclusive ? "exclusive" : "inclusive";
}

std::uint64_t shareMetric(const ThreadShare &S, ThreadMetric M) {
  return M == ThreadMetric::Exclusive ? S.ExclusiveNs : S.InclusiveNs;
}

} // namespace

std::string uninstrumentedWarning(const Profile &P) {
  if (P.Uninstrumented.empty())
    return {};
  const std::size_t N = P.Uninstrumented.size();
  return "WARNING: " + std::to_string(N) + (N == 1 ? " source file was" : " source files were") +
         " compiled without instrumentation; their OpenMP constructs are not in this profile:";
}

std::string runSummary(const RunMetadata &M) {
  if (!M.Present)
    return {};
  std::string Text;
  std::string Line;
  for (const std::string &A : M.CommandLine)
    Line += (Line.empty() ? "" : " ") + A;
  if (!Line.empty())
    Text += "command: " + Line + "\n";
  std::string Settings;
  for (const auto &[Name, Value] : M.Settings)
    Settings += (Settings.empty() ? "" : " ") + Name + "=" + Value;
  Text += "settings: " + (Settings.empty() ? std::string("none") : Settings) + "\n";
  Text += "host: " + (M.Host.empty() ? std::string("unknown") : M.Host) +
          "   OpenMP runtime: " + (M.OpenMPRuntime.empty() ? "none" : M.OpenMPRuntime) +
          "   OMPT: " + (M.OmptActive ? "active (" : "inactive (") + M.OmptReason + ")" +
          "   compiler: " + (M.Compiler.empty() ? std::string("unknown") : M.Compiler) +
          "   pomp " + M.ToolkitVersion + "\n";
  return Text;
}

std::string regionCounts(const Profile &P) {
  std::set<std::uint32_t> Entered;
  for (const Node &N : P.Nodes)
    if (N.Parent != Node::NoParent && N.Visits > 0)
      Entered.insert(N.RegionId);
  const std::size_t Never = P.Regions.size() - std::min(P.Regions.size(), Entered.size());
  return fmt::format("regions: {} registered, {} entered, {} never entered (not reached, or their "
                     "events were off);\na row is one part of a region: parallel and parallel body "
                     "are two rows of one region",
                     P.Regions.size(), Entered.size(), Never);
}

std::string commonRoot(const Profile &P) {
  pomp::ctc::SourceRoot Root;
  for (const auto &[Id, R] : P.Regions)
    Root.add(R.Location);
  return Root.root();
}

std::string shortTitle(const std::string &Title, const std::string &Root) {
  if (Root.empty())
    return Title;
  const std::string Full = "@" + Root;
  const std::size_t At = Title.find(Full);
  if (At == std::string::npos)
    return Title;
  return Title.substr(0, At + 1) + Title.substr(At + Full.size());
}

std::string waitingSummary(const Profile &P) {
  std::uint64_t WaitNs = 0;
  for (const Node &N : P.Nodes)
    if (N.Kind == NodeKind::Wait)
      WaitNs += N.ExclusiveNs;
  const double ThreadTimeNs =
      static_cast<double>(P.DurationNs) * static_cast<double>(P.Threads.size());
  return fmt::format("waiting: {:.6f} s, {:.1f}% of the threads' time ({} threads x {:.6f} s)",
                     seconds(WaitNs),
                     ThreadTimeNs > 0 ? Percent * static_cast<double>(WaitNs) / ThreadTimeNs : 0.0,
                     P.Threads.size(), seconds(P.DurationNs));
}

std::string formatSeconds(std::uint64_t Ns) { return fmt::format("{:.6f}", seconds(Ns)); }

std::string formatPercent(double Fraction) { return fmt::format("{:.1f}%", Percent * Fraction); }

void writeTable(std::ostream &Text, const Profile &P, const std::vector<Row> &Rows,
                const TableOptions &O) {
  // fmt: no line buffer, so a title of any length is printed whole.
  Text << fmt::format("POMP report of {} (pid {}), started {}, {:.6f} s, {} threads, {} regions\n",
                      P.Program, P.Pid, P.StartTime, seconds(P.DurationNs), P.Threads.size(),
                      P.Regions.size());
  Text << runSummary(P.Run);
  Text << regionCounts(P) << "\n";
  Text << waitingSummary(P) << "\n";
  if (!P.Uninstrumented.empty()) {
    Text << "\n" << uninstrumentedWarning(P) << "\n";
    for (const auto &[File, Reason] : P.Uninstrumented)
      Text << "  " << File << ": " << Reason << "\n";
  }
  const std::string Root = commonRoot(P);
  if (!Root.empty())
    Text << "paths: relative to " << Root << " (full paths in --json)\n";
  Text << (O.Tree ? "\nCall paths" : "\nRegions, summed over threads and call paths");
  Text << "; " << O.Selection << ".\n";
  Text << fmt::format("min/avg/max: per-thread {} time; imbalance: {};\n", metricName(O.Metric),
                      ImbalanceDefinition);
  Text << "wait: waiting time (barriers, locks, taskwait, critical and ordered entry) in the "
          "region.\n";
  if (!P.Metrics.empty())
    Text << "Hardware counters (POMP_METRICS): exclusive and inclusive per counter, before kind.\n";
  for (const auto &[Name, Reason] : P.UnavailableMetrics)
    Text << "Not recorded: " << Name << " (" << Reason << ")\n";
  // Each counter's two columns, as wide as its name.
  std::vector<std::size_t> Widths;
  std::string MetricHeader;
  for (const std::string &Name : P.Metrics) {
    Widths.push_back(std::max<std::size_t>(Name.size() + 6, MinMetricWidth));
    MetricHeader += fmt::format("{:>{}} {:>{}} ", Name + "[excl]", Widths.back(), Name + "[incl]",
                                Widths.back());
  }
  Text << fmt::format("{:>14} {:>14} {:>12} {:>7} {:>10} {:>10} {:>10} {:>9} {:>12} {}{:<5} {}\n",
                      "exclusive[s]", "inclusive[s]", "visits", "threads", "min[s]", "avg[s]",
                      "max[s]", "imbalance", "wait[s]", MetricHeader, "kind",
                      O.Tree ? "call path" : "region");
  for (const Row &R : Rows) {
    const int Indent = O.Tree ? IndentPerLevel * static_cast<int>(R.Depth) : 0;
    std::string MetricValues;
    for (std::size_t I = 0; I < Widths.size(); ++I) {
      const bool Has = I < R.MetricExclusive.size();
      MetricValues += fmt::format("{:>{}} {:>{}} ", Has ? R.MetricExclusive[I] : 0, Widths[I],
                                  Has ? R.MetricInclusive[I] : 0, Widths[I]);
    }
    Text << fmt::format(
        "{:14.6f} {:14.6f} {:12} {:7} {:10.6f} {:10.6f} {:10.6f} {:8.1f}% {:12.6f} {}{:<5} {}{}\n",
        seconds(R.ExclusiveNs), seconds(R.InclusiveNs), R.Visits, R.Threads,
        seconds(R.threadMin(O.Metric)), R.threadMean(O.Metric) / NsPerSecond,
        seconds(R.threadMax(O.Metric)), Percent * R.Imbalance, seconds(R.WaitNs), MetricValues,
        kindName(R.Kind), indent(Indent), shortTitle(R.Title, Root));
    if (!O.Threads)
      continue;
    // Counters are shown per row only: their per-thread values are in profile.json.
    std::string MetricBlank;
    for (std::size_t Width : Widths)
      MetricBlank += fmt::format("{:>{}} {:>{}} ", "", Width, "", Width);
    for (const ThreadShare &S : R.PerThread)
      Text << fmt::format(
          "{:14.6f} {:14.6f} {:12} {:7} {:10} {:10.6f} {:10} {:9} {:12.6f} {}{:<5} {}thread {}\n",
          seconds(S.ExclusiveNs), seconds(S.InclusiveNs), S.Visits, "", "",
          seconds(shareMetric(S, O.Metric)), "", "", seconds(S.WaitNs), MetricBlank, "",
          indent(Indent + IndentPerLevel), S.Thread);
  }
  std::string Anomalies;
  for (const auto &[Name, Count] : P.Anomalies)
    if (Count != 0)
      Anomalies += fmt::format(" {}={}", Name, Count);
  Text << (Anomalies.empty() ? "\nanomalies: none\n" : "\nanomalies:" + Anomalies + "\n");
}

std::string renderTable(const Profile &P, const std::vector<Row> &Rows, const TableOptions &O) {
  std::ostringstream Text;
  writeTable(Text, P, Rows, O);
  return Text.str();
}

namespace {

using OrderedJson = nlohmann::ordered_json;

/// The indentation of the dumps (one space per level), and where the rows go
/// in the dump of the rest: an empty array cannot occur unquoted elsewhere.
constexpr int JsonIndent = 1;
constexpr std::string_view RowsPlaceholder = "\n \"rows\": []";

std::string dumpJson(const OrderedJson &Value) {
  // Invalid UTF-8 in names (a hand-written profile) must not abort the report.
  return Value.dump(JsonIndent, ' ', false, OrderedJson::error_handler_t::replace);
}

OrderedJson rowJson(const Row &R, const TableOptions &O, const std::vector<std::string> &Names) {
  OrderedJson J = OrderedJson::object();
  J["node"] = R.FirstNode;
  if (O.Tree) {
    J["depth"] = R.Depth;
    J["parent"] = R.ParentNode == Row::NoParent ? OrderedJson(nullptr) : OrderedJson(R.ParentNode);
  }
  J["title"] = R.Title;
  J["construct"] = R.Construct;
  J["name"] = R.Name;
  J["location"] = R.Location;
  J["kind"] = kindName(R.Kind);
  J["visits"] = R.Visits;
  J["inclusive_ns"] = R.InclusiveNs;
  J["exclusive_ns"] = R.ExclusiveNs;
  J["wait_ns"] = R.WaitNs;
  J["threads"] = R.Threads;
  J["imbalance"] = R.Imbalance;
  J["thread_metric"] = metricName(O.Metric);
  J["thread_min_ns"] = R.threadMin(O.Metric);
  J["thread_avg_ns"] = R.threadMean(O.Metric);
  J["thread_max_ns"] = R.threadMax(O.Metric);
  OrderedJson Threads = OrderedJson::array();
  for (const ThreadShare &S : R.PerThread)
    Threads.push_back({{"thread", S.Thread},
                       {"visits", S.Visits},
                       {"inclusive_ns", S.InclusiveNs},
                       {"exclusive_ns", S.ExclusiveNs},
                       {"wait_ns", S.WaitNs}});
  J["per_thread"] = std::move(Threads);
  if (!R.MetricExclusive.empty()) {
    OrderedJson Metrics = OrderedJson::object();
    for (std::size_t I = 0; I < R.MetricExclusive.size() && I < Names.size(); ++I)
      Metrics[Names[I]] = {{"inclusive", R.MetricInclusive[I]},
                           {"exclusive", R.MetricExclusive[I]}};
    J["metrics"] = std::move(Metrics);
  }
  return J;
}

} // namespace

void writeJson(std::ostream &Text, const Profile &P, const std::vector<Row> &Rows,
               const TableOptions &O) {
  // Keys in the order written, which reads better than sorted.
  OrderedJson Out = OrderedJson::object();
  Out["schema"] = "pomp-report";
  Out["version"] = JsonReportVersion;
  Out["program"] = P.Program;
  Out["pid"] = P.Pid;
  Out["duration_ns"] = P.DurationNs;
  Out["mode"] = O.Tree ? "tree" : "regions";
  Out["selection"] = O.Selection;
  Out["rows"] = OrderedJson::array();
  OrderedJson Anomalies = OrderedJson::object();
  for (const auto &[Name, Count] : P.Anomalies)
    Anomalies[Name] = Count;
  Out["anomalies"] = std::move(Anomalies);
  OrderedJson Uninstrumented = OrderedJson::array();
  for (const auto &[File, Reason] : P.Uninstrumented)
    Uninstrumented.push_back({{"file", File}, {"reason", Reason}});
  Out["uninstrumented"] = std::move(Uninstrumented);
  // Only with hardware counters, so reports of other profiles stay as they were.
  if (!P.Metrics.empty() || !P.UnavailableMetrics.empty()) {
    OrderedJson Unavailable = OrderedJson::array();
    for (const auto &[Name, Reason] : P.UnavailableMetrics)
      Unavailable.push_back({{"name", Name}, {"reason", Reason}});
    Out["metrics"] = {{"recorded", P.Metrics}, {"unavailable", std::move(Unavailable)}};
  }
  // The rows (a tree has one per node) are written one by one into the dump
  // of the rest, each indented as the whole document's dump would indent it:
  // a document of them all took six times the output's size.
  const std::string Rest = dumpJson(Out);
  const std::size_t At = Rest.find(RowsPlaceholder);
  Text << std::string_view(Rest).substr(0, At + RowsPlaceholder.size() - 1);
  if (Rows.empty()) {
    Text << "]";
  } else {
    const std::string RowIndent(2 * JsonIndent, ' ');
    for (std::size_t I = 0; I < Rows.size(); ++I) {
      Text << (I == 0 ? "\n" : ",\n") << RowIndent;
      // Raw line breaks in a dump are its layout (strings escape theirs).
      for (const char C : dumpJson(rowJson(Rows[I], O, P.Metrics))) {
        Text << C;
        if (C == '\n')
          Text << RowIndent;
      }
    }
    Text << "\n" << std::string(JsonIndent, ' ') << "]";
  }
  Text << std::string_view(Rest).substr(At + RowsPlaceholder.size()) << "\n";
}

std::string renderJson(const Profile &P, const std::vector<Row> &Rows, const TableOptions &O) {
  std::ostringstream Text;
  writeJson(Text, P, Rows, O);
  return Text.str();
}

} // namespace pomp::report
