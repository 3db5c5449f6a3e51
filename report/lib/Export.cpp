//===- Export.cpp - The profile for other viewers -------------------------===//

#include "pomp/report/Export.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace pomp::report {
namespace {

constexpr double NsPerSecond = 1e9;

/// A title as one frame of a folded stack: ';' separates frames and a line
/// break ends the sample, so neither may stand in a name.
std::string foldedFrame(std::string Title) {
  for (char &C : Title) {
    if (C == ';')
      C = ',';
    else if (C == '\n' || C == '\r')
      C = ' ';
  }
  return Title;
}

/// Seconds with nanosecond digits: the numbers are exact and round-trip.
std::string seconds(std::uint64_t Ns) {
  char Text[32];
  std::snprintf(Text, sizeof Text, "%.9f", static_cast<double>(Ns) / NsPerSecond);
  return Text;
}

/// Threads that visited a node (entries of per_thread).
std::size_t threadsOf(const Node &N) { return N.PerThread.size(); }

} // namespace

std::optional<ExportFormat> parseExportFormat(const std::string &Text) {
  if (Text == "folded")
    return ExportFormat::Folded;
  if (Text == "hatchet")
    return ExportFormat::Hatchet;
  return std::nullopt;
}

void writeFolded(std::ostream &Out, const Profile &P) {
  // Nodes come in pre-order: the path of a node is its parent's path and its
  // own frame, kept per depth.
  std::vector<std::string> PathAt;
  for (const Node &N : P.Nodes) {
    if (N.Parent == Node::NoParent)
      continue;
    const std::size_t Depth = N.Depth;
    PathAt.resize(Depth + 1);
    const std::string Frame = foldedFrame(P.pathTitle(N));
    PathAt[Depth] = Depth <= 1 ? Frame : PathAt[Depth - 1] + ";" + Frame;
    if (N.ExclusiveNs > 0)
      Out << PathAt[Depth] << ' ' << N.ExclusiveNs << '\n';
  }
}

void writeHatchet(std::ostream &Out, const Profile &P) {
  // Written node by node rather than as one JSON value: a profile can have
  // millions of nodes. The pre-order and depths say where each node closes.
  const auto Open = [&](const Node &N, const std::string &Name, const std::string &Type) {
    Out << "{\"frame\": {\"name\": " << nlohmann::json(Name).dump()
        << ", \"type\": " << nlohmann::json(Type).dump()
        << "}, \"metrics\": {\"time (inc)\": " << seconds(N.InclusiveNs)
        << ", \"time\": " << seconds(N.ExclusiveNs) << ", \"visits\": " << N.Visits
        << ", \"threads\": " << threadsOf(N) << "}, \"children\": [";
  };
  Out << "[";
  std::vector<std::uint32_t> OpenDepths; // depths of the nodes not yet closed
  for (const Node &N : P.Nodes) {
    while (!OpenDepths.empty() && OpenDepths.back() >= N.Depth) {
      Out << "]}";
      OpenDepths.pop_back();
    }
    if (N.Parent != Node::NoParent && P.Nodes[N.Parent].Children.front() != N.Id)
      Out << ",";
    Out << "\n" << std::string(N.Depth, ' ');
    if (N.Parent == Node::NoParent) {
      // The root has no times of its own: the program's time is the sum of
      // its top regions' (the profile's duration is wall-clock time, not
      // thread time).
      Node Root = N;
      for (const std::uint32_t Child : N.Children)
        Root.InclusiveNs += P.Nodes[Child].InclusiveNs;
      Open(Root, P.Program.empty() ? "program" : P.Program, "program");
    } else {
      Open(N, P.pathTitle(N), std::string(N.Construct));
    }
    OpenDepths.push_back(N.Depth);
  }
  while (!OpenDepths.empty()) {
    Out << "]}";
    OpenDepths.pop_back();
  }
  Out << "\n]\n";
}

} // namespace pomp::report
