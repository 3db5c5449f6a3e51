//===- core/Core.cpp - The measurement core -------------------------------===//

#include "core/Core.h"

#include <algorithm>
#include <cmath>
#include <new>
#include <string>
#include <unistd.h>
#include <unordered_map>

namespace pomp::rt {

Core::Core(RegionTable &RegionsIn) : Regions(RegionsIn) {}

Core::~Core() = default;

ThreadState *Core::attachThread() {
  std::lock_guard<std::mutex> Lock(Registry);
  if (!Attaching)
    return nullptr;
  std::unique_ptr<ThreadState> T(
      new (std::nothrow) ThreadState(static_cast<std::uint32_t>(Threads.size()), Regions));
  if (!T)
    return nullptr;
  // The thread's trace is created here, under the lock, so that trace
  // writers never see two threads register at once.
  if (Trace && !(T->Trace = Trace->attach(T->Index)))
    return nullptr;
  T->Counters.reset(newThreadCounters());
  Threads.push_back(std::move(T));
  return Threads.back().get();
}

std::vector<ThreadState *> Core::stopAttaching() {
  std::lock_guard<std::mutex> Lock(Registry);
  Attaching = false;
  std::vector<ThreadState *> Result;
  for (const auto &T : Threads)
    Result.push_back(T.get());
  return Result;
}

std::vector<ThreadState *> Core::threads() const {
  std::lock_guard<std::mutex> Lock(Registry);
  std::vector<ThreadState *> Result;
  for (const auto &T : Threads)
    Result.push_back(T.get());
  return Result;
}

Node *Core::guessParent(ThreadState &T, RegionId Region, EventId Begin) {
  if (hasEnter(Begin) && T.current()->Key == makeKey(Region, canonicalOpener(enterOf(Begin))))
    return T.current();
  if (const std::uintptr_t Last = Regions.get(Region).LastFork.load(std::memory_order_acquire))
    return forkParent(T, Last);
  return T.current();
}

LeaveResult Core::leaveOuter(ThreadState &T, NodeKey Key, EventId Closer, Tick Now,
                             std::uint64_t Payload) {
  std::size_t Depth = T.Stack.depth();
  while (Depth > 0 && T.Stack.open(Depth - 1).Region->Key != Key)
    --Depth;
  if (Depth == 0)
    return LeaveResult::NoMatch;
  // The regions above the match lost their own end (a cancelled construct, a
  // longjmp): they end here, with the region that encloses them.
  const std::size_t Inner = T.Stack.depth() - Depth;
  for (std::size_t I = 0; I < Inner; ++I)
    leaveInnermost(T, Now);
  Counters.count(Anomaly::ClosedInnerRegions, Inner);
  closeInnermost(T, Closer, Now, Payload);
  return LeaveResult::ClosedInner;
}

void Core::restartInChild(ThreadState *Forking, Tick Now) {
  for (const std::unique_ptr<ThreadState> &T : Threads) {
    T->Trace = nullptr;
    if (T.get() != Forking) {
      T->Departed = true;
      // A thread caught inside an event by fork() never leaves it here.
      T->InEvent.store(false, std::memory_order_relaxed);
      continue;
    }
    T->Nodes.forEach([](Node &N) {
      N.Visits = 0;
      N.Folded = 0;
      N.Inclusive = 0;
      N.Nested = 0;
      N.Min = std::numeric_limits<Tick>::max();
      N.Max = 0;
    });
    // The parent's counters are the parent's threads': the child records
    // none (dropMetricsInChild() says so in its profile).
    T->Counters.reset();
    for (std::size_t I = 0; I < T->Stack.depth(); ++I) {
      Frame &F = T->Stack.open(I);
      F.Start = Now;
      F.Children = 0;
    }
    T->HandedOver = 0;
  }
  Counters.reset();
  dropMetricsInChild();
}

bool Core::suspendTask(ThreadState &T, std::size_t Base, Tick Now, SuspendedTask &Into) {
  const std::size_t Depth = T.Stack.depth();
  if (Depth <= Base)
    return false;
  Into.Regions.resize(Depth - Base);
  // Innermost first: each region's part is charged like a visit that ends
  // now (its frame below gets its duration), without counting the visit,
  // which counts once, where the task ends.
  for (std::size_t I = Depth; I-- > Base;)
    suspendRegion(T, I, Now, Into.Regions[I - Base]);
  Into.ParentContext = parentContextOf(T.Stack.open(Base).Region->Parent);
  while (T.Stack.depth() > Base) {
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "suspend", T.Stack.back().Region->Key);
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->leave(T.Stack.back().Region->Key, Now);
    T.Stack.pop();
  }
  return true;
}

void Core::resumeTask(ThreadState &T, const SuspendedTask &Task, Tick Now) {
  Node *Parent = Task.ParentContext ? forkParent(T, Task.ParentContext) : T.Root;
  for (const SuspendedTask::OpenRegion &R : Task.Regions) {
    bool Folded;
    Node *N = T.child(Parent, R.Key, Folded);
    if (N->Recursive || visitsTracked(keyOpener(R.Key)))
      N = T.trackedVisit(N);
    T.Stack.makeRoom();
    resumeRegion(T, N, R, Now);
    // Counters cannot be carried across threads: a resumed task's regions
    // count from here (docs/RUNTIME.md, "Hardware counters").
    if (__builtin_expect(T.Counters != nullptr, 0))
      T.Counters->enter(T.Stack.depth());
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "resume", N->Key);
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->enter(N->Key, keyOpener(R.Key), Now, 0);
    Parent = N;
  }
}

void Core::noteLateJoin(ThreadState &T, POMP_Context_t Fork) {
  // Above the team's body are the regions the skipped code would have closed:
  // the implicit barrier and, for a combined construct, its worksharing
  // region. The body is there: late joins are given only to forks whose
  // begin events are active (newForkBits()). Without it (monitoring switched
  // off in between) nothing is noted, and what stays open is counted later.
  constexpr std::size_t Searched = 8;
  const std::size_t Depth = T.Stack.depth();
  for (std::size_t I = 1; I <= Searched && I <= Depth; ++I) {
    if (keyOpener(T.Stack.open(Depth - I).Region->Key) != canonicalOpener(EventId::Parallel_begin))
      continue;
    // The fork's node is the master's frame below the body. A worker has a
    // mirror of it, which holds the node once checked to be one
    // (ThreadState::mirror()): a context that named no node is never
    // followed. (The body's parent may be another team's mirror: bodies of
    // the same call path share a node, "twin paths".)
    Node *ForkNode = Depth - I > 0 ? T.Stack.open(Depth - I - 1).Region : nullptr;
    bool Alone = false;
    if (ForkNode && contextOf(ForkNode) == forkNode(Fork)) {
      // The master: alone in a serialized team, which no worker waits for.
      Alone = TeamSize && TeamSize() == 1;
    } else {
      ForkNode = T.mirror(forkNode(Fork));
      if (ForkNode->Kind == NodeKind::Mirror)
        ForkNode = ForkNode->Target;
      if (!ForkNode)
        return;
    }
    const PendingJoin Join{static_cast<std::uint32_t>(Depth - I), forkSequence(Fork), ForkNode,
                           Alone};
    // A combined construct asks twice, once for its worksharing region.
    if (T.PendingJoins.empty() || T.PendingJoins.back().Fork != Join.Fork ||
        T.PendingJoins.back().Sequence != Join.Sequence)
      T.PendingJoins.push_back(Join);
    return;
  }
}

void Core::closeJoins(ThreadState &T, bool Finalizing) {
  while (!T.PendingJoins.empty()) {
    const PendingJoin Join = T.PendingJoins.back();
    Tick End = 0;
    if (T.Stack.depth() > Join.Depth) {
      switch (Join.Fork->Join.endOf(Join.Sequence, End)) {
      case JoinRecord::Lookup::Ended:
        break;
      case JoinRecord::Lookup::NotRecorded:
        // At finalisation: the master has not left the region, which stays
        // open like any other (open_at_finalize). Otherwise the runtime
        // released this thread before the master reached its Parallel_exit
        // (the thread began another master's team at once).
        if (Finalizing)
          return;
        End = Clock::now();
        break;
      case JoinRecord::Lookup::Overwritten:
        // The record holds a later team's end, which says nothing of this
        // one: the regions end at their last start (Joins.h).
        Counters.count(Anomaly::LateJoinUnknown);
        End = 0;
        break;
      }
      // Never before the regions' last start: two cores' clocks would give
      // them negative time.
      unwindJoin(T, Join.Depth, std::max(End, T.Stack.back().Start));
    }
    T.PendingJoins.pop_back();
  }
}

void Core::closeOwnJoin(ThreadState &T, NodeKey Key, Tick Now) {
  if (T.PendingJoins.empty())
    return;
  const PendingJoin Join = T.PendingJoins.back();
  // Only the master's own team: its fork's region right below the body.
  if (Join.Depth == 0 || Join.Depth > T.Stack.depth() ||
      T.Stack.open(Join.Depth - 1).Region->Key != Key)
    return;
  T.PendingJoins.pop_back();
  unwindJoin(T, Join.Depth, Now);
  if (!Join.Alone)
    Join.Fork->Join.ended(Join.Sequence, Now);
}

bool Core::deferLateEnd(ThreadState &T, const ImplicitTask &Task) {
  const std::size_t Depth = T.Stack.depth();
  if (Task.Depth != 1 || Depth > DeferredEnd::MaxFrames || T.Trace || T.Counters || DebugEvents)
    return false;
  const std::uint32_t Line = TeamEndLog::lineOf(Task.Generation);
  // The master ended this team after every earlier one of its teams: once an
  // end falls in a new line, the older lines are finished and read once.
  if (const std::size_t Count = T.DeferredCount;
      Count != 0 && (Count == ThreadState::DeferredLimit || T.Deferred[0].Line != Line ||
                     T.Deferred[0].Team->Log != Task.Team->Log))
    return deferAfterResolving(T, Task, Line);
  addDeferred(T, Task, Line, Depth);
  return true;
}

bool Core::deferAfterResolving(ThreadState &T, const ImplicitTask &Task, std::uint32_t Line) {
  resolveLateEnds(T, T.DeferredCount == ThreadState::DeferredLimit, Task.Team->Log, Line);
  addDeferred(T, Task, Line, T.Stack.depth());
  return true;
}

void Core::resolveLateEnds(ThreadState &T, bool All, const TeamEndLog *OpenLog,
                           std::uint32_t OpenLine) {
  const std::size_t Count = T.DeferredCount;
  std::size_t Kept = 0;
  for (std::size_t I = 0; I < Count; ++I) {
    DeferredEnd &D = T.Deferred[I];
    bool Keep = !All && D.Line == OpenLine && D.Team->Log == OpenLog;
    Tick End = 0;
    if (!Keep) {
      switch (D.Team->lookupEnd(D.Generation, End)) {
      case TeamEndLog::Lookup::Ended:
        break;
      case TeamEndLog::Lookup::NotYet:
        // The team runs (or its master has not got to its end): kept, unless
        // everything must be charged now.
        Keep = !All;
        if (All)
          End = Clock::now();
        break;
      case TeamEndLog::Lookup::Overwritten:
        Counters.count(Anomaly::LateJoinUnknown);
        End = D.Frames[D.Count - 1].Start;
        break;
      }
    }
    if (Keep) {
      if (Kept != I)
        T.Deferred[Kept] = D;
      ++Kept;
      continue;
    }
    // Charged as unwindJoin() would have charged them at the late end; the
    // outermost's time goes to a sentinel, as it went to the stack's.
    Frame Sentinel{T.Root, 0, 0};
    for (std::size_t F = D.Count; F-- > 0;)
      charge(D.Frames[F], F != 0 ? D.Frames[F - 1] : Sentinel, End);
  }
  T.DeferredCount = Kept;
}

void Core::closeEndedTeams(const std::vector<ThreadState *> &Selected) {
  for (ThreadState *T : Selected) {
    if (T->Departed)
      continue;
    resolveLateEnds(*T, /*All=*/true);
    closeJoins(*T, /*Finalizing=*/true);
    std::vector<ImplicitTask> &Tasks = T->Teams.Tasks;
    while (!Tasks.empty()) {
      const ImplicitTask &Task = Tasks.back();
      // An implicit task without a region of its own (instrumented code
      // reports it) holds nothing to close.
      if (Task.Depth == 0) {
        Tasks.pop_back();
        continue;
      }
      const Tick End = Task.teamEnd();
      if (End == 0)
        break;
      if (T->Stack.depth() >= Task.Depth)
        unwindTo(*T, Task.Depth - 1, End);
      Tasks.pop_back();
    }
  }
}

void Core::printEvent(const ThreadState &T, const char *What, NodeKey Key) const {
  const Region &R = Regions.get(keyRegion(Key));
  std::string Line = std::to_string(T.Index);
  Line += ' ';
  Line += What;
  Line += ' ';
  Line += info(keyOpener(Key)).Name;
  Line += ' ';
  Line += R.Label;
  if (!R.Location.empty()) {
    Line += ' ';
    Line += R.Location;
  }
  Line += R.Origin == RegionOrigin::Ompt ? " [ompt]\n" : " [pomp]\n";
  // One write per line: lines of different threads never mix.
  [[maybe_unused]] const ssize_t Written = ::write(STDERR_FILENO, Line.data(), Line.size());
}

namespace {

/// Index of a merged node's child: (parent index, key).
struct MergedChildKey {
  std::uint32_t Parent;
  NodeKey Key;
  bool operator==(const MergedChildKey &O) const { return Parent == O.Parent && Key == O.Key; }
};
/// Hash of a MergedChildKey.
struct MergedChildHash {
  std::size_t operator()(const MergedChildKey &K) const {
    constexpr NodeKey Multiplier = 0x9e3779b97f4a7c15ull;
    return std::hash<NodeKey>()((K.Key ^ K.Parent) * Multiplier);
  }
};

/// A merged node while the trees are being merged.
struct Building {
  std::uint32_t Parent;
  NodeKey Key;
  std::vector<ThreadMetrics> PerThread;
};

/// Merges the per-thread trees into one, following mirrors across threads.
class Merger {
public:
  Merger(const std::vector<ThreadState *> &Threads, double NsPerTick, Anomalies &Counters)
      : NsPerTick(NsPerTick), Counters(Counters) {
    Nodes.push_back({ProfileNode::NoParent, 0, {}});
    for (ThreadState *T : Threads)
      T->Nodes.forEach([&](Node &N) {
        N.Merged = 0;
        ByAddress.emplace(reinterpret_cast<std::uintptr_t>(&N), &N);
      });
  }

  void addThread(ThreadState &T) {
    T.Nodes.forEach([&](Node &N) {
      // A node without visits may hold the time of parts of a task that
      // ended on another thread (core/Tasks.h).
      if (!isRegionKind(N.Kind) || (N.Visits == 0 && N.Inclusive == 0))
        return;
      addMetrics(resolve(&N), T.Index, N);
    });
  }

  Profile finish();

private:
  static constexpr std::uint32_t InProgress = std::numeric_limits<std::uint32_t>::max();
  static constexpr std::uint32_t RootIndex = 0;

  std::uint32_t childOf(std::uint32_t Parent, NodeKey Key) {
    auto [It, Inserted] =
        ChildIndex.try_emplace({Parent, Key}, static_cast<std::uint32_t>(Nodes.size()));
    if (Inserted)
      Nodes.push_back({Parent, Key, {}});
    return It->second;
  }

  /// The merged index of a node: its parent's (or, for a mirror, its
  /// context's) merged node plus its own key; for an Alias or Inner node, its
  /// target's. Iterative, as call paths get deep.
  std::uint32_t resolve(Node *N) {
    std::vector<Node *> Chain;
    std::uint32_t Base = RootIndex;
    for (Node *Cur = N;;) {
      if (Cur->Merged == InProgress) {
        // Only contexts that name a node created after them form a cycle.
        Counters.count(Anomaly::InvalidContext);
        break;
      }
      if (Cur->Merged != 0) {
        Base = Cur->Merged - 1;
        break;
      }
      if (Cur->Kind == NodeKind::ThreadRoot) {
        Cur->Merged = RootIndex + 1;
        break;
      }
      Cur->Merged = InProgress;
      Chain.push_back(Cur);
      if (Cur->Kind == NodeKind::Mirror) {
        auto Target = ByAddress.find(static_cast<std::uintptr_t>(Cur->Key));
        if (Target == ByAddress.end()) {
          Counters.count(Anomaly::InvalidContext);
          break;
        }
        Cur = Target->second;
      } else if (Cur->Kind == NodeKind::Alias || Cur->Kind == NodeKind::Inner) {
        Cur = Cur->Target;
      } else {
        Cur = Cur->Parent;
      }
    }
    for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
      if ((*It)->Kind == NodeKind::Region)
        Base = childOf(Base, (*It)->Key);
      (*It)->Merged = Base + 1;
    }
    return Base;
  }

  std::uint64_t toNs(Tick Ticks) const {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(Ticks) * NsPerTick));
  }

  void addMetrics(std::uint32_t Index, std::uint32_t Thread, const Node &N) {
    std::vector<ThreadMetrics> &PerThread = Nodes[Index].PerThread;
    // Threads are added in index order, so this thread's entry is the last one.
    if (PerThread.empty() || PerThread.back().Thread != Thread) {
      PerThread.emplace_back();
      PerThread.back().Thread = Thread;
      PerThread.back().MinNs = std::numeric_limits<std::uint64_t>::max();
    }
    ThreadMetrics &M = PerThread.back();
    M.Visits += N.Visits;
    // An Inner node's visits ran inside an open visit of the same node, whose
    // inclusive time holds theirs already.
    if (N.Kind == NodeKind::Inner)
      M.NestedVisits += N.Visits;
    else
      M.InclusiveNs += toNs(N.Inclusive);
    M.ExclusiveNs += toNs(N.exclusive());
    M.FoldedVisits += N.Folded;
    if (N.Counters) {
      const std::size_t Count = metricsReport().Recorded.size();
      M.CounterInclusive.resize(Count, 0);
      M.CounterExclusive.resize(Count, 0);
      for (std::size_t I = 0; I < Count; ++I) {
        if (N.Kind != NodeKind::Inner)
          M.CounterInclusive[I] += N.Counters[I];
        M.CounterExclusive[I] += N.Counters[I] - N.Counters[Count + I];
      }
    }
    const std::uint64_t Min = N.Min == std::numeric_limits<Tick>::max() ? 0 : toNs(N.Min);
    M.MinNs = std::min(M.MinNs, Min);
    M.MaxNs = std::max(M.MaxNs, toNs(N.Max));
  }

  double NsPerTick;
  Anomalies &Counters;
  std::vector<Building> Nodes;
  std::unordered_map<MergedChildKey, std::uint32_t, MergedChildHash> ChildIndex;
  std::unordered_map<std::uintptr_t, Node *> ByAddress;
};

Profile Merger::finish() {
  // A node and its Inner node are rounded to nanoseconds one by one: their
  // exclusive times may exceed the inclusive time by the rounding, which the
  // ticks never do.
  for (Building &B : Nodes)
    for (ThreadMetrics &M : B.PerThread) {
      M.ExclusiveNs = std::min(M.ExclusiveNs, M.InclusiveNs);
      for (std::size_t I = 0; I < M.CounterExclusive.size(); ++I)
        M.CounterExclusive[I] = std::min(M.CounterExclusive[I], M.CounterInclusive[I]);
    }
  // Children sorted by key give the same order in every run of a program.
  std::vector<std::vector<std::uint32_t>> Children(Nodes.size());
  for (std::uint32_t I = 1; I < Nodes.size(); ++I)
    Children[Nodes[I].Parent].push_back(I);
  for (auto &List : Children)
    std::sort(List.begin(), List.end(),
              [&](std::uint32_t A, std::uint32_t B) { return Nodes[A].Key < Nodes[B].Key; });

  Profile P;
  P.Nodes.reserve(Nodes.size());
  std::vector<std::uint32_t> NewIndex(Nodes.size());
  std::vector<std::uint32_t> Pending = {RootIndex};
  while (!Pending.empty()) {
    const std::uint32_t Old = Pending.back();
    Pending.pop_back();
    NewIndex[Old] = static_cast<std::uint32_t>(P.Nodes.size());
    ProfileNode Out;
    Out.Parent = Old == RootIndex ? ProfileNode::NoParent : NewIndex[Nodes[Old].Parent];
    if (Old != RootIndex) {
      Out.Region = keyRegion(Nodes[Old].Key);
      Out.Opener = keyOpener(Nodes[Old].Key);
      Out.Waiting = isWaitingOpener(Out.Opener);
      P.Nodes[Out.Parent].Children.push_back(NewIndex[Old]);
    }
    Out.PerThread = std::move(Nodes[Old].PerThread);
    P.Nodes.push_back(std::move(Out));
    // Reverse, so that the first child is visited first.
    Pending.insert(Pending.end(), Children[Old].rbegin(), Children[Old].rend());
  }
  return P;
}

} // namespace

Profile Core::collect(Tick End, double NsPerTick, const std::vector<ThreadState *> &Selected) {
  // A forked child's departed threads only hold the nodes its contexts name.
  std::vector<ThreadState *> All;
  for (ThreadState *T : Selected)
    if (!T->Departed)
      All.push_back(T);
  for (ThreadState *T : All) {
    const std::size_t Open = T->Stack.depth();
    while (!T->Stack.empty())
      leaveInnermost(*T, End);
    Counters.count(Anomaly::OpenAtFinalize, Open);
  }
  Merger M(Selected, NsPerTick, Counters);
  for (ThreadState *T : All)
    M.addThread(*T);
  Profile P = M.finish();
  for (ThreadState *T : All) {
    // Each visit of a region was an opening and a closing event; of a single
    // event, that event.
    std::uint64_t Events = 0;
    T->Nodes.forEach([&](const Node &N) {
      if (isRegionKind(N.Kind))
        Events += info(keyOpener(N.Key)).EventRole == Role::EVENT ? N.Visits : 2 * N.Visits;
    });
    P.Threads.push_back({T->Index, Events, T->HandedOver});
  }
  P.Anomalies = Counters.snapshot();
  return P;
}

} // namespace pomp::rt
