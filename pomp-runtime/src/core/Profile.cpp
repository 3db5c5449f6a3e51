//===- core/Profile.cpp - The merged call-path profile --------------------===//

#include "core/Profile.h"

#include <algorithm>
#include <cctype>

namespace pomp::rt {

ThreadMetrics ProfileNode::total() const {
  ThreadMetrics Sum;
  Sum.MinNs = PerThread.empty() ? 0 : std::numeric_limits<std::uint64_t>::max();
  for (const ThreadMetrics &M : PerThread) {
    Sum.Visits += M.Visits;
    Sum.InclusiveNs += M.InclusiveNs;
    Sum.ExclusiveNs += M.ExclusiveNs;
    Sum.MinNs = std::min(Sum.MinNs, M.MinNs);
    Sum.MaxNs = std::max(Sum.MaxNs, M.MaxNs);
    Sum.FoldedVisits += M.FoldedVisits;
    Sum.NestedVisits += M.NestedVisits;
    if (Sum.CounterInclusive.size() < M.CounterInclusive.size()) {
      Sum.CounterInclusive.resize(M.CounterInclusive.size(), 0);
      Sum.CounterExclusive.resize(M.CounterExclusive.size(), 0);
    }
    for (std::size_t I = 0; I < M.CounterInclusive.size(); ++I) {
      Sum.CounterInclusive[I] += M.CounterInclusive[I];
      Sum.CounterExclusive[I] += M.CounterExclusive[I];
    }
  }
  return Sum;
}

std::string constructName(EventId Opener) {
  std::string Name(eventStem(Opener));
  for (char &C : Name)
    C = C == '_' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  const Role R = info(Opener).EventRole;
  // A begin/end pair inside an enter/exit pair is the construct's block; a
  // begin/end pair alone (section, master, task, user region) is the construct.
  if (R == Role::BEGIN && hasEnter(Opener))
    Name += " body";
  else if (R == Role::EVENT)
    Name += " event";
  return Name;
}

double imbalanceOf(const std::vector<std::uint64_t> &PerThread) {
  if (PerThread.size() < 2)
    return 0.0;
  std::uint64_t Max = 0;
  double Sum = 0.0;
  for (const std::uint64_t Ns : PerThread) {
    Max = std::max(Max, Ns);
    Sum += static_cast<double>(Ns);
  }
  if (Max == 0)
    return 0.0;
  const double Mean = Sum / static_cast<double>(PerThread.size());
  return (static_cast<double>(Max) - Mean) / static_cast<double>(Max);
}

double imbalance(const ProfileNode &Node) {
  std::vector<std::uint64_t> Inclusive;
  for (const ThreadMetrics &M : Node.PerThread)
    Inclusive.push_back(M.InclusiveNs);
  return imbalanceOf(Inclusive);
}

std::string nodeConstruct(RegionId Id, EventId Opener, const RegionTable &Regions) {
  if (Id != 0 && Regions.isValid(Id)) {
    const Region &R = Regions.get(Id);
    if (R.Origin == RegionOrigin::Ompt && R.Descriptor.Kind == pomp::ctc::RegionKind::Unknown &&
        !R.Label.empty())
      return R.Label;
    // libpomp-mpi's regions (docs/MPI.md): `MPI "MPI_Allreduce"`.
    if (R.Descriptor.Type == MpiRegionType)
      return "MPI";
  }
  return constructName(Opener);
}

namespace {
std::string titleWith(RegionId Id, EventId Opener, const RegionTable &Regions, bool Inlining) {
  std::string Title = nodeConstruct(Id, Opener, Regions);
  if (Id != 0 && Regions.isValid(Id)) {
    const Region &R = Regions.get(Id);
    if (!R.Descriptor.Name.empty())
      Title += " \"" + R.Descriptor.Name + "\"";
    if (!R.Location.empty())
      Title += " @" + (Inlining ? inlinedLocation(R) : R.Location);
  }
  return Title;
}
} // namespace

std::string nodeTitle(RegionId Id, EventId Opener, const RegionTable &Regions) {
  return titleWith(Id, Opener, Regions, false);
}

std::string nodePathTitle(RegionId Id, EventId Opener, const RegionTable &Regions) {
  return titleWith(Id, Opener, Regions, true);
}

} // namespace pomp::rt
