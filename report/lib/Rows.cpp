//===- Rows.cpp - The rows of the report ----------------------------------===//

#include "pomp/report/Rows.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

namespace pomp::report {
namespace {

/// Waiting time at and below every node, in total and per thread.
/// Waiting time per thread, sorted by thread: a node has one for its
/// subtree, and a profile has millions of nodes (a map took three times the
/// memory).
using ThreadWaits = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

struct SubtreeWait {
  std::vector<std::uint64_t> Total;
  std::vector<ThreadWaits> PerThread;
};

/// Adds From into Into, both sorted by thread.
void addWaits(ThreadWaits &Into, const ThreadWaits &From) {
  if (From.empty())
    return;
  ThreadWaits Sum;
  Sum.reserve(Into.size() + From.size());
  auto A = Into.begin();
  auto B = From.begin();
  while (A != Into.end() || B != From.end()) {
    if (B == From.end() || (A != Into.end() && A->first < B->first))
      Sum.push_back(*A++);
    else if (A == Into.end() || B->first < A->first)
      Sum.push_back(*B++);
    else
      Sum.emplace_back(A->first, (A++)->second + (B++)->second);
  }
  Sum.shrink_to_fit();
  Into = std::move(Sum);
}

SubtreeWait subtreeWait(const Profile &P) {
  SubtreeWait W;
  W.Total.assign(P.Nodes.size(), 0);
  W.PerThread.resize(P.Nodes.size());
  // Pre-order puts every child after its parent, so a backward pass has
  // finished a node's children before it adds the node to its parent.
  for (std::size_t I = P.Nodes.size(); I-- > 0;) {
    const Node &N = P.Nodes[I];
    if (N.Kind == NodeKind::Wait) {
      W.Total[I] += N.ExclusiveNs;
      ThreadWaits Own;
      for (const ThreadMetrics &M : N.PerThread)
        Own.emplace_back(M.Thread, M.ExclusiveNs);
      std::sort(Own.begin(), Own.end());
      // One entry per thread, also where a thread is listed twice.
      ThreadWaits Combined;
      for (const auto &[Thread, Ns] : Own) {
        if (!Combined.empty() && Combined.back().first == Thread)
          Combined.back().second += Ns;
        else
          Combined.emplace_back(Thread, Ns);
      }
      addWaits(W.PerThread[I], Combined);
    }
    if (N.Parent == Node::NoParent)
      continue;
    W.Total[N.Parent] += W.Total[I];
    addWaits(W.PerThread[N.Parent], W.PerThread[I]);
  }
  return W;
}

/// A visiting thread's own waiting at and below a node. Other threads'
/// waiting below it (workers' barriers under the master's parallel region)
/// counts in the row's total only: a thread's line lists what it did.
std::uint64_t threadWait(const SubtreeWait &W, std::uint32_t Node, std::uint32_t Thread) {
  const ThreadWaits &Waits = W.PerThread[Node];
  const auto It = std::lower_bound(Waits.begin(), Waits.end(), Thread,
                                   [](const std::pair<std::uint32_t, std::uint64_t> &E,
                                      std::uint32_t T) { return E.first < T; });
  return It == Waits.end() || It->first != Thread ? 0 : It->second;
}

/// A thread's work at a node: its inclusive time without its waiting at and
/// below the node (0 where the waiting of tasks it ran elsewhere exceeds it).
std::uint64_t workOf(std::uint64_t InclusiveNs, std::uint64_t WaitNs) {
  return InclusiveNs > WaitNs ? InclusiveNs - WaitNs : 0;
}

/// Adds a node's counters to a flat row: exclusive values always, inclusive
/// ones for the outermost occurrence only, as the times.
void addMetrics(const Node &N, bool Outermost, Row &R) {
  if (R.MetricExclusive.size() < N.MetricExclusive.size()) {
    R.MetricInclusive.resize(N.MetricInclusive.size(), 0);
    R.MetricExclusive.resize(N.MetricExclusive.size(), 0);
  }
  for (std::size_t I = 0; I < N.MetricExclusive.size(); ++I) {
    R.MetricExclusive[I] += N.MetricExclusive[I];
    if (Outermost)
      R.MetricInclusive[I] += N.MetricInclusive[I];
  }
}

void describe(const Profile &P, const Node &N, Row &R) {
  R.Title = P.title(N);
  R.Construct = N.Construct;
  R.Kind = N.Kind;
  if (const Region *Reg = P.regionOf(N)) {
    R.Name = Reg->Name;
    R.Location = Reg->Location;
  }
}

std::uint64_t metricOf(const ThreadShare &S, ThreadMetric M) {
  return M == ThreadMetric::Exclusive ? S.ExclusiveNs : S.InclusiveNs;
}

/// Orders rows by the key, largest first (names: alphabetically), ties by
/// first node as profile.txt does.
bool before(const Row &A, const Row &B, SortKey Key) {
  auto Larger = [&](auto X, auto Y) {
    if (X != Y)
      return X > Y;
    return A.FirstNode < B.FirstNode;
  };
  switch (Key) {
  case SortKey::Exclusive:
    return Larger(A.ExclusiveNs, B.ExclusiveNs);
  case SortKey::Inclusive:
    return Larger(A.InclusiveNs, B.InclusiveNs);
  case SortKey::Visits:
    return Larger(A.Visits, B.Visits);
  case SortKey::Imbalance:
    return Larger(A.Imbalance, B.Imbalance);
  case SortKey::Wait:
    return Larger(A.WaitNs, B.WaitNs);
  case SortKey::Name:
    if (A.Title != B.Title)
      return A.Title < B.Title;
    return A.FirstNode < B.FirstNode;
  }
  return A.FirstNode < B.FirstNode;
}

bool matches(const Row &R, const Selection &S) {
  return !S.Filter || std::regex_search(R.Title, *S.Filter);
}

/// The spellings of the sort keys on the command line, indexed by SortKey.
constexpr const char *SortKeyNames[] = {"excl", "incl", "calls", "imbalance", "wait", "name"};
static_assert(std::size(SortKeyNames) == static_cast<std::size_t>(SortKey::Name) + 1,
              "one spelling per sort key");

} // namespace

std::uint64_t Row::threadMin(ThreadMetric M) const {
  if (PerThread.empty())
    return 0;
  std::uint64_t Min = metricOf(PerThread.front(), M);
  for (const ThreadShare &S : PerThread)
    Min = std::min(Min, metricOf(S, M));
  return Min;
}

double Row::threadMean(ThreadMetric M) const {
  if (PerThread.empty())
    return 0.0;
  double Sum = 0.0;
  for (const ThreadShare &S : PerThread)
    Sum += static_cast<double>(metricOf(S, M));
  return Sum / static_cast<double>(PerThread.size());
}

std::uint64_t Row::threadMax(ThreadMetric M) const {
  std::uint64_t Max = 0;
  for (const ThreadShare &S : PerThread)
    Max = std::max(Max, metricOf(S, M));
  return Max;
}

double imbalanceOf(const std::vector<std::uint64_t> &PerThreadInclusive) {
  // The same arithmetic as libpomp's imbalanceOf() (pomp-runtime/src/core/Profile.cpp),
  // applied to the same per-thread work, so the rounded percentages agree.
  if (PerThreadInclusive.size() < 2)
    return 0.0;
  std::uint64_t Max = 0;
  double Sum = 0.0;
  for (std::uint64_t Ns : PerThreadInclusive) {
    Max = std::max(Max, Ns);
    Sum += static_cast<double>(Ns);
  }
  if (Max == 0)
    return 0.0;
  return (static_cast<double>(Max) - Sum / static_cast<double>(PerThreadInclusive.size())) /
         static_cast<double>(Max);
}

std::vector<Row> flatRows(const Profile &P) {
  const SubtreeWait Wait = subtreeWait(P);
  // Rows are keyed by what they are called (libpomp's profile.txt does the
  // same): copies of one construct inlined into several functions, which the
  // OMPT adapter sees at several code addresses, are one row.
  using Key = std::pair<std::string, std::string_view>;
  /// A row while it is being summed.
  struct Entry {
    Row R;
    std::map<std::uint32_t, ThreadShare> Shares;
    /// Each thread's work: inclusive time without its waiting below.
    std::map<std::uint32_t, std::uint64_t> OutermostWork;
  };
  std::map<Key, Entry> ByKey;
  // How many occurrences of a key are open on the walk: only the outermost
  // adds inclusive and waiting time.
  std::map<Key, int> Open;
  /// A node on the walk and the next of its children to visit.
  struct Visit {
    std::uint32_t Node;
    std::size_t NextChild;
  };
  std::vector<Visit> Pending = {{0, 0}};
  while (!Pending.empty()) {
    const std::uint32_t I = Pending.back().Node;
    const Node &N = P.Nodes[I];
    const bool IsRoot = N.Parent == Node::NoParent;
    const Key K{IsRoot ? std::string() : P.title(N), N.Event};
    if (Pending.back().NextChild == 0 && !IsRoot) {
      Entry &E = ByKey[K];
      // profile.txt names a row after its first node with anything in it.
      if (E.R.Visits == 0 && E.R.ExclusiveNs == 0 && E.R.InclusiveNs == 0) {
        E.R.FirstNode = I;
        describe(P, N, E.R);
      }
      E.R.Visits += N.Visits;
      E.R.ExclusiveNs += N.ExclusiveNs;
      const bool Outermost = Open[K] == 0;
      addMetrics(N, Outermost, E.R);
      if (Outermost) {
        E.R.InclusiveNs += N.InclusiveNs;
        E.R.WaitNs += Wait.Total[I];
      }
      for (const ThreadMetrics &M : N.PerThread) {
        ThreadShare &S = E.Shares[M.Thread];
        S.Thread = M.Thread;
        S.Visits += M.Visits;
        S.ExclusiveNs += M.ExclusiveNs;
        if (Outermost) {
          S.InclusiveNs += M.InclusiveNs;
          const std::uint64_t ThreadWait = threadWait(Wait, I, M.Thread);
          S.WaitNs += ThreadWait;
          E.OutermostWork[M.Thread] += workOf(M.InclusiveNs, ThreadWait);
        }
      }
      ++Open[K];
    }
    if (Pending.back().NextChild < N.Children.size()) {
      const std::uint32_t Child = N.Children[Pending.back().NextChild++];
      Pending.push_back({Child, 0});
      continue;
    }
    if (!IsRoot)
      --Open[K];
    Pending.pop_back();
  }

  std::vector<Row> Rows;
  for (auto &[K, E] : ByKey) {
    std::vector<std::uint64_t> Work;
    for (const auto &[Thread, Ns] : E.OutermostWork)
      Work.push_back(Ns);
    E.R.Threads = Work.size();
    E.R.Imbalance = E.R.Kind == NodeKind::Wait ? 0.0 : imbalanceOf(Work);
    for (const auto &[Thread, S] : E.Shares)
      E.R.PerThread.push_back(S);
    Rows.push_back(std::move(E.R));
  }
  std::sort(Rows.begin(), Rows.end(),
            [](const Row &A, const Row &B) { return before(A, B, SortKey::Exclusive); });
  return Rows;
}

std::vector<Row> treeRows(const Profile &P) {
  const SubtreeWait Wait = subtreeWait(P);
  std::vector<Row> Rows;
  // A row per node: growing the vector would hold it twice for a moment.
  Rows.reserve(P.Nodes.size());
  for (std::uint32_t I = 1; I < P.Nodes.size(); ++I) {
    const Node &N = P.Nodes[I];
    Row R;
    R.FirstNode = I;
    R.ParentNode = N.Parent == 0 ? Row::NoParent : N.Parent;
    R.Depth = N.Depth - 1;
    describe(P, N, R);
    // A node is one copy of its construct: its inline chain tells copies
    // inlined into different functions apart (a flat row merges them).
    R.Title = P.pathTitle(N);
    if (const Region *Reg = P.regionOf(N))
      R.Location = Profile::inlinedLocation(*Reg);
    R.Visits = N.Visits;
    R.InclusiveNs = N.InclusiveNs;
    R.ExclusiveNs = N.ExclusiveNs;
    R.WaitNs = Wait.Total[I];
    R.MetricInclusive = N.MetricInclusive;
    R.MetricExclusive = N.MetricExclusive;
    std::vector<std::uint64_t> Work;
    R.PerThread.reserve(N.PerThread.size());
    for (const ThreadMetrics &M : N.PerThread) {
      const std::uint64_t ThreadWait = threadWait(Wait, I, M.Thread);
      R.PerThread.push_back({M.Thread, M.Visits, M.InclusiveNs, M.ExclusiveNs, ThreadWait});
      Work.push_back(workOf(M.InclusiveNs, ThreadWait));
    }
    R.Threads = Work.size();
    R.Imbalance = N.Kind == NodeKind::Wait ? 0.0 : imbalanceOf(Work);
    Rows.push_back(std::move(R));
  }
  return Rows;
}

std::optional<SortKey> parseSortKey(const std::string &Text) {
  for (std::size_t I = 0; I < std::size(SortKeyNames); ++I)
    if (Text == SortKeyNames[I])
      return static_cast<SortKey>(I);
  return std::nullopt;
}

const char *sortKeyName(SortKey Key) { return SortKeyNames[static_cast<std::size_t>(Key)]; }

std::vector<Row> selectFlat(std::vector<Row> Rows, const Selection &S) {
  Rows.erase(std::remove_if(Rows.begin(), Rows.end(), [&](const Row &R) { return !matches(R, S); }),
             Rows.end());
  std::sort(Rows.begin(), Rows.end(),
            [&](const Row &A, const Row &B) { return before(A, B, S.Sort); });
  if (S.Top != 0 && Rows.size() > S.Top)
    Rows.resize(S.Top);
  return Rows;
}

std::vector<Row> selectTree(std::vector<Row> Rows, const Selection &S) {
  std::map<std::uint32_t, std::size_t> IndexOfNode;
  for (std::size_t I = 0; I < Rows.size(); ++I)
    IndexOfNode[Rows[I].FirstNode] = I;
  std::vector<std::size_t> Chosen;
  for (std::size_t I = 0; I < Rows.size(); ++I)
    if (matches(Rows[I], S))
      Chosen.push_back(I);
  auto Before = [&](std::size_t A, std::size_t B) { return before(Rows[A], Rows[B], S.Sort); };
  if (S.Top != 0 && Chosen.size() > S.Top) {
    std::sort(Chosen.begin(), Chosen.end(), Before);
    Chosen.resize(S.Top);
  }
  std::vector<bool> Keep(Rows.size(), false);
  for (std::size_t I : Chosen)
    for (std::size_t At = I; !Keep[At];) {
      Keep[At] = true;
      const auto Parent = IndexOfNode.find(Rows[At].ParentNode);
      if (Parent == IndexOfNode.end())
        break;
      At = Parent->second;
    }
  // Children of each kept row (Rows.size() stands for the top level).
  std::map<std::size_t, std::vector<std::size_t>> Children;
  for (std::size_t I = 0; I < Rows.size(); ++I) {
    if (!Keep[I])
      continue;
    const auto Parent = IndexOfNode.find(Rows[I].ParentNode);
    Children[Parent == IndexOfNode.end() ? Rows.size() : Parent->second].push_back(I);
  }
  std::vector<Row> Shown;
  std::function<void(std::size_t)> Walk = [&](std::size_t Parent) {
    auto It = Children.find(Parent);
    if (It == Children.end())
      return;
    std::vector<std::size_t> Kids = It->second;
    std::sort(Kids.begin(), Kids.end(), Before);
    // Siblings are compared only among themselves, before any of them moves.
    for (std::size_t K : Kids) {
      Shown.push_back(std::move(Rows[K]));
      Walk(K);
    }
  };
  Walk(Rows.size());
  return Shown;
}

} // namespace pomp::report
