//===- core/Core.h - The measurement core -----------------------*- C++ -*-===//
///
/// \file
/// The one owner of measurement state. Adapters (the POMP adapter now, the
/// OMPT adapter next) only translate their events into the operations below,
/// each given the thread's state, a region, the event and a timestamp:
///
///   enter(T, region, opener, now, parent)   an enter or begin event
///   leave(T, region, closer, now)           an exit or end event
///   event(T, region, event, now)            a single event
///
/// plus the parent rules for regions that start on another thread than the one
/// that created them (forkParent, guessParent). A trace (trace/Trace.h) plugs
/// in at the same three operations: with a TraceSink set, each thread's state
/// points to its ThreadTrace, which sees every enter, leave and event. Payload
/// carries what a trace needs beyond the region (lock ids, team sizes).
///
/// Exclusive time is measured on each thread's stack: a region's duration is
/// charged to the region below it on the same thread, whatever the region's
/// parent in the tree. That keeps the times right for tasks, which hang under
/// the place that created them but run inside whatever the executing thread
/// was doing (a taskwait, a barrier).
///
/// Threads are identified by the core, not by the thread ids events carry.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_CORE_H
#define POMP_RUNTIME_CORE_CORE_H

#include "core/Anomalies.h"
#include "core/Profile.h"
#include "core/Regions.h"
#include "core/ThreadState.h"
#include "trace/Trace.h"

#include <memory>
#include <mutex>
#include <vector>

namespace pomp::rt {

/// How a closing event matched the thread's open regions.
enum class LeaveResult {
  Closed,      ///< it closed the innermost open region
  ClosedInner, ///< it closed an outer region and the regions inside it
  NoMatch,     ///< no open region matches; nothing changed
};

/// The measurement core: per-thread states, the call-path rules and the merge.
class Core {
public:
  explicit Core(RegionTable &Regions);
  Core(const Core &) = delete;
  Core &operator=(const Core &) = delete;
  ~Core();

  /// Creates and registers the state of a new thread; nullptr once the core
  /// stopped accepting threads (finalisation) or when memory ran out.
  ThreadState *attachThread();

  /// Enters a region under Parent: an enter or begin event. With recursion
  /// the visit may count at a node further up the call path, or at a node's
  /// Inner node when that node is open on this thread already (ThreadState.h).
  Node *enter(ThreadState &T, RegionId Region, EventId Opener, Tick Now, Node *Parent,
              std::uint64_t Payload = 0) {
    bool Folded;
    Node *N = T.child(Parent, makeKey(Region, canonicalOpener(Opener)), Folded);
    if (__builtin_expect(N->Recursive || visitsTracked(Opener), 0)) {
      N = T.trackedVisit(N);
      N->Folded += Folded ? 1 : 0;
    }
    T.Stack.push(N, Now);
    if (__builtin_expect(T.Counters != nullptr, 0))
      T.Counters->enter(T.Stack.depth());
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "enter", N->Key);
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->enter(N->Key, Opener, Now, Payload);
    return N;
  }
  /// Enters a region under the thread's innermost open region.
  Node *enter(ThreadState &T, RegionId Region, EventId Opener, Tick Now) {
    return enter(T, Region, Opener, Now, T.current());
  }

  /// Leaves the open region that Closer closes: an exit or end event. When the
  /// region is not the innermost one, the regions inside it are closed too
  /// and counted; when it is not open at all, nothing changes.
  LeaveResult leave(ThreadState &T, RegionId Region, EventId Closer, Tick Now,
                    std::uint64_t Payload = 0) {
    const NodeKey Key = makeKey(Region, canonicalOpener(Closer));
    // The sentinel at the bottom of the stack has the root's key, which no
    // region has: no emptiness test needed.
    if (__builtin_expect(T.Stack.back().Region->Key == Key, 1)) {
      closeInnermost(T, Closer, Now, Payload);
      return LeaveResult::Closed;
    }
    return leaveOuter(T, Key, Closer, Now, Payload);
  }

  /// Closes the innermost open region (requires one) as its own closing
  /// event would: for adapters that found the region themselves, and for
  /// regions that end with an enclosing one. A trace gets the closing event
  /// too (the join of a fork, the acquisition of a lock; Payload the lock).
  void leaveInnermost(ThreadState &T, Tick Now, std::uint64_t Payload = 0) {
    closeInnermost(T, closerOf(keyOpener(T.Stack.back().Region->Key)), Now, Payload);
  }

  /// Closes open regions until Depth are left open (the regions of a team
  /// whose end events came late or never). Without a trace, counters or the
  /// event printer a close is its charge alone: the master of every team of
  /// instrumented code closes the regions its skipped join barrier left open
  /// here, on the fork-join's critical path.
  void unwindTo(ThreadState &T, std::size_t Depth, Tick Now) {
    if (__builtin_expect(T.Trace != nullptr || T.Counters != nullptr || DebugEvents, 0)) {
      while (T.Stack.depth() > Depth)
        leaveInnermost(T, Now);
      return;
    }
    chargeDownTo(T, Depth, Now);
  }

  /// Takes the innermost open region off the stack without counting it: an
  /// adapter found that another source reports the same construct instance
  /// (its node keeps no visit of it).
  void discardInnermost(ThreadState &T, Tick Now) {
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "discard", T.Stack.back().Region->Key);
    // A trace already has its enter: it gets a leave, so that it stays
    // balanced (a region of the runtime's, just before POMP's).
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->leave(T.Stack.back().Region->Key, Now);
    T.Stack.pop();
    ++T.HandedOver;
  }

  /// Drops the innermost open region when the OpenMP runtime reported it with
  /// Opener: instrumented code is about to report the same construct instance
  /// (a masked construct, whose runtime begin comes before POMP's).
  void replaceRuntimeRegion(ThreadState &T, EventId Opener, Tick Now) {
    if (T.current()->OriginOpener == originOpener(RegionOrigin::Ompt, canonicalOpener(Opener)))
      discardInnermost(T, Now);
  }

  /// Where a trace's token of an instrumented task travels in its POMP task
  /// context: above the node address (user-space addresses of x86-64 and
  /// AArch64 have 47 or 48 bits; the token has 17, TaskTable::Tokens).
  static constexpr unsigned TaskTokenShift = 47;
  static constexpr POMP_Context_t TaskNodeMask = (POMP_Context_t(1) << TaskTokenShift) - 1;

  /// The bit of a fork context (Parallel_fork's) that tells the team to skip
  /// the explicit barrier ompinst puts before Parallel_end: the OpenMP runtime
  /// reports the team's join barrier (OMPT), whose end closes the regions the
  /// instrumented code left open in its place (POMP_Join_barrier_needed,
  /// docs/OMPT.md "The join barrier"). Node addresses are aligned: bit 0 of
  /// a context is free.
  static constexpr POMP_Context_t JoinBit = 1;
  static_assert(alignof(Node) > JoinBit, "node addresses leave the join bit free");
  /// JoinBit while the runtime reports join barriers and implicit task ends
  /// (set by the OMPT adapter at its initialisation, cleared when the runtime
  /// finalises its tool), 0 otherwise. One value for the whole process, read
  /// once per fork: every thread of a team takes the same branch, because
  /// they all test the context the master got.
  static void setRuntimeJoins(bool On) {
    ForkJoinBit.store(On ? JoinBit : 0, std::memory_order_relaxed);
  }
  static POMP_Context_t forkJoinBit() { return ForkJoinBit.load(std::memory_order_relaxed); }

  /// Set with JoinBit when no runtime reports join barriers (POMP only): the
  /// team's threads close what they leave open in the join themselves, and
  /// the fork's sequence number rides above the node's address (Joins.h).
  static constexpr POMP_Context_t LateJoinBit = 2;
  static_assert(alignof(Node) > (JoinBit | LateJoinBit), "node addresses leave both bits free");
  static constexpr unsigned ForkSequenceShift = TaskTokenShift;
  static_assert(JoinRecord::SequenceBits + ForkSequenceShift <= 64, "the sequence fits a context");
  /// Late joins on or off (Lifecycle.cpp: on when no OMPT runtime can report
  /// joins and nothing reads events in their order); setRuntimeJoins() replaces it.
  static void setLateJoins(bool On) {
    ForkJoinBit.store(On ? JoinBit | LateJoinBit : 0, std::memory_order_relaxed);
  }
  /// The bits a new fork's context carries beside its node. BeginActive:
  /// whether the team's begin events are recorded, without which its threads
  /// would not find what to close; such a team runs its explicit barrier.
  static POMP_Context_t newForkBits(bool BeginActive, Node &Fork) {
    const POMP_Context_t Bits = forkJoinBit();
    if (!(Bits & LateJoinBit))
      return Bits;
    if (!BeginActive)
      return 0;
    return Bits |
           (static_cast<POMP_Context_t>(JoinRecord::sequenceOf(Fork.Visits)) << ForkSequenceShift);
  }
  /// The node a fork context names, without the bits newForkBits() added.
  static POMP_Context_t forkNode(POMP_Context_t Fork) {
    return Fork & TaskNodeMask & ~(JoinBit | LateJoinBit);
  }
  static bool isLateJoin(POMP_Context_t Fork) { return (Fork & LateJoinBit) != 0; }
  static std::uint32_t forkSequence(POMP_Context_t Fork) {
    return static_cast<std::uint32_t>(Fork >> ForkSequenceShift) & JoinRecord::SequenceMask;
  }

  /// POMP_Join_barrier_needed() told T to skip its team's explicit join
  /// barrier with a late-join context: T remembers the team, to close its
  /// body and implicit barrier later (Joins.h).
  static void noteLateJoin(ThreadState &T, POMP_Context_t Fork);
  /// The OpenMP runtime's omp_get_num_threads(), found at initialisation
  /// (nullptr without a runtime): tells noteLateJoin() a serialized team.
  static inline int (*TeamSize)() = nullptr;
  /// T begins a team it did not fork: the teams it left open in earlier joins
  /// have ended; closes their regions no later than each team's end.
  void closeStaleJoins(ThreadState &T) { closeJoins(T, /*Finalizing=*/false); }
  /// The master's Parallel_exit (Key is its fork's): closes what its team
  /// left open in the join at Now and records the team's end for its workers.
  void closeOwnJoin(ThreadState &T, NodeKey Key, Tick Now);

  /// The OpenMP runtime gives task records (OMPT task callbacks): POMP's task
  /// events then add none (a trace would get every task twice).
  void setRuntimeTaskRecords(bool On) { RuntimeTaskRecords.store(On, std::memory_order_relaxed); }
  bool runtimeTaskRecords() const { return RuntimeTaskRecords.load(std::memory_order_relaxed); }

  /// Hands a trace a task record of the OpenMP runtime's (a profile has no
  /// use for it).
  static void traceTask(ThreadState &T, ThreadTrace::TaskRecord What, std::uint64_t Task,
                        Tick Now) {
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->task(What, Task, Now);
  }

  /// The region of the thread's innermost open region; nullptr when none is.
  const Region *innermostRegion(const ThreadState &T) const {
    const Node *N = T.current();
    return isRegionKind(N->Kind) ? &Regions.get(keyRegion(N->Key)) : nullptr;
  }

  /// True when Closer would close the thread's innermost open region.
  static bool closesInnermost(const ThreadState &T, RegionId Region, EventId Closer) {
    return T.Stack.back().Region->Key == makeKey(Region, canonicalOpener(Closer));
  }

  /// A single event: counts a visit of its node, which has no duration.
  void event(ThreadState &T, RegionId Region, EventId E, Tick Now, std::uint64_t Payload = 0) {
    Node *N = T.child(T.current(), makeKey(Region, canonicalOpener(E)));
    ++N->Visits;
    // The profile needs no time for single events; a trace does.
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->event(N->Key, E, Now, Payload);
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "event", N->Key);
  }

  //--- The common cases, for adapters' fast paths -----------------------//
  // Each either completes an operation above exactly as it would, or returns
  // "no" before changing anything. They do not feed a trace: while one is
  // written, Activation's fast bits are clear and adapters never get here.

  /// The node enter(T, ..., Parent) would enter when it is one of Parent's
  /// two most recent children and the stack has room; nullptr otherwise.
  static Node *cachedChild(const ThreadState &T, Node *Parent, NodeKey Key) {
    Node *N = Parent->LastChild;
    if (N->Key != Key)
      N = Parent->OtherChild;
    return N->Key == Key && T.Stack.hasRoom() ? N : nullptr;
  }
  /// Enters a node cachedChild() returned. The frame is claimed before the
  /// clock is read, so that no stack bookkeeping waits for the clock.
  template <typename ClockFn> static void enterCached(ThreadState &T, Node *N, ClockFn &&Now) {
    Frame &F = T.Stack.claimWithRoom();
    F = {N, Now(), 0};
  }
  /// enterCached() for an opener whose visitsTracked(): a visit of N while
  /// one is open already counts at N's Inner node, as in enter(); nullptr when
  /// that node is not made yet (the general path makes it).
  template <typename ClockFn>
  static Node *enterCachedTracked(ThreadState &T, Node *N, ClockFn &&Now) {
    N = T.trackedVisitMade(N);
    if (__builtin_expect(N != nullptr, 1))
      enterCached(T, N, Now);
    return N;
  }
  /// The node a visit of Key under Parent is pushed as, when the thread's
  /// general path found that child before and cachedChild() does not hold it
  /// (ThreadState::cachedSlowChild(): a node reached by recursion, a
  /// parent's third child) and the stack has room: what enter() decides for
  /// it (the open visit's Inner node, the folded count), for enterCached() to
  /// push; nullptr otherwise. A node that is neither recursive nor tracked is
  /// never open where it is entered again, so it is pushed itself.
  static Node *cachedSlowVisit(ThreadState &T, Node *Parent, NodeKey Key) {
    bool Folded;
    Node *N = T.cachedSlowChild(Parent, Key, Folded);
    if (N == nullptr || !T.Stack.hasRoom() || (N = T.trackedVisitMade(N)) == nullptr)
      return nullptr;
    N->Folded += Folded ? 1 : 0;
    return N;
  }
  /// cachedSlowVisit() for a visit of no duration (chargeInstant()),
  /// which pushes nothing: the node enter() and an immediate leave() would
  /// charge, with the folded count; nullptr when not cached, or when it would
  /// be an Inner node not made yet. A task created in a task of the same
  /// construct (OMPT only's creation regions) no longer reads the clock twice.
  static Node *cachedSlowInstant(ThreadState &T, Node *Parent, NodeKey Key) {
    bool Folded;
    Node *N = T.cachedSlowChild(Parent, Key, Folded);
    if (N != nullptr && T.isOpen(N))
      N = N->InnerNode;
    if (N != nullptr)
      N->Folded += Folded ? 1 : 0;
    return N;
  }
  /// Counts a single event of a node cachedChild() returned.
  static void eventCached(Node *N) { ++N->Visits; }
  /// Charges a visit of no duration to a node cachedChild() returned, as an
  /// enter and leave at one time would, without the clock or the stack.
  static void chargeInstant(Node *N) {
    ++N->Visits;
    if (N->Min != 0)
      N->Min = 0;
  }
  /// True when the innermost open region has this key: leave() is pop().
  static bool innermostIs(const ThreadState &T, NodeKey Key) {
    return T.Stack.back().Region->Key == Key;
  }
  /// What forkParent() returns when it needs no lookup; nullptr otherwise.
  static Node *cachedForkParent(ThreadState &T, POMP_Context_t Context) {
    if (contextOf(T.current()) == Context)
      return T.current();
    return T.cachedMirror(Context);
  }

  /// Closes the innermost open region (requires one) and charges its time.
  static void pop(ThreadState &T, Tick Now) {
    const Frame F = T.Stack.back();
    T.Stack.pop();
    charge(F, T.Stack.back(), Now);
    if (__builtin_expect(T.Counters != nullptr, 0))
      T.Counters->leave(T.Stack.depth() + 1, F.Region->Counters);
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->leave(F.Region->Key, Now);
  }
  /// pop() reading the clock itself, after the frame was taken off.
  template <typename ClockFn> static void popCached(ThreadState &T, ClockFn &&Now) {
    const Frame F = T.Stack.back();
    T.Stack.pop();
    charge(F, T.Stack.back(), Now());
  }
  /// Charges a frame taken off the stack with its time, and the frame below
  /// it (the sentinel below the outermost region ignores it) with the time
  /// its exclusive time leaves out.
  static void charge(const Frame &F, Frame &Below, Tick Now) {
    const Tick Duration = Now > F.Start ? Now - F.Start : 0;
    Node &N = *F.Region;
    ++N.Visits;
    N.Inclusive += Duration;
    // At most the visit's own time: a visit never has negative exclusive time.
    N.Nested += Duration > F.Children ? F.Children : Duration;
    // New extremes are rare after a few visits: predicted branches that
    // usually store nothing.
    if (__builtin_expect(Duration < N.Min, 0))
      N.Min = Duration;
    if (__builtin_expect(Duration > N.Max, 0))
      N.Max = Duration;
    Below.Children += Duration;
  }

  /// The context another thread passes back to forkParent() to start its
  /// regions under N.
  static POMP_Context_t contextOf(const Node *N) { return reinterpret_cast<POMP_Context_t>(N); }

  /// The parent for a region that starts with a context from a fork or task
  /// creation: the context's node itself when it is this thread's innermost
  /// region (the master of a team), else a mirror that the merge resolves to
  /// it. The context is not dereferenced here: the merge checks that it names
  /// a node before following it.
  Node *forkParent(ThreadState &T, POMP_Context_t Context) {
    if (contextOf(T.current()) == Context)
      return T.current();
    return T.mirror(Context);
  }

  /// The parent for a begin event that came without a context (code
  /// instrumented by hand with the paper's POMP_Parallel_begin): the thread's
  /// own enter of the same construct when it is the innermost open region (the
  /// master), else the most recent plain fork of the region published by
  /// noteFork() (a worker), else the thread's innermost region.
  Node *guessParent(ThreadState &T, RegionId Region, EventId Begin);

  /// Publishes a plain enter's node as its region's most recent fork.
  void noteFork(RegionId Region, const Node *N) {
    Regions.get(Region).LastFork.store(contextOf(N), std::memory_order_release);
  }

  /// Takes the regions above Base off T's stack without counting them, for a
  /// task that is suspended and may resume on another thread (Tasks.h): the
  /// frame below is charged with the time they ran on T, a trace gets their
  /// leaves. Into is filled with them; false when none is open above Base.
  bool suspendTask(ThreadState &T, std::size_t Base, Tick Now, SuspendedTask &Into);
  /// Opens a suspended task's regions again on T, at the same call path, as
  /// if they had run here since their start less the time the task waited.
  void resumeTask(ThreadState &T, const SuspendedTask &Task, Tick Now);

  //--- suspendTask() and resumeTask() one region at a time, for the fast
  // path of a task with one region open (its own task region): no trace,
  // counters or event printer, and the caller made sure of the room.

  /// Charges open region I (0 outermost) of T with its part up to Now, as a
  /// visit that ends then but is not counted, and records it in Into.
  static void suspendRegion(ThreadState &T, std::size_t I, Tick Now,
                            SuspendedTask::OpenRegion &Into) {
    const Frame &F = T.Stack.open(I);
    const Tick Part = Now > F.Start ? Now - F.Start : 0;
    const Tick NestedPart = Part > F.Children ? F.Children : Part;
    Node &N = *F.Region;
    N.Inclusive += Part;
    N.Nested += NestedPart;
    // The sentinel below the outermost region counts nothing.
    if (I > 0)
      T.Stack.open(I - 1).Children += Part;
    Into = {N.Key, Part, NestedPart, F.Children};
  }
  /// The context of a suspended task's outermost region's parent
  /// (SuspendedTask::ParentContext).
  static std::uintptr_t parentContextOf(const Node *Parent) {
    if (!Parent || Parent->Kind == NodeKind::ThreadRoot)
      return 0;
    if (Parent->Kind == NodeKind::Mirror)
      return static_cast<std::uintptr_t>(Parent->Key);
    return contextOf(Parent);
  }
  /// Pushes the visit of N that resumes the suspended region R (requires
  /// room on the stack): it starts as long ago as the task ran, so that its
  /// end sees the visit's whole duration (minimum, maximum), and the parts
  /// charged where they ran are taken off in advance: each thread is charged
  /// with the time the task ran on it. Modulo 2^64: the end adds them back.
  static void resumeRegion(ThreadState &T, Node *N, const SuspendedTask::OpenRegion &R, Tick Now) {
    T.Stack.back().Children -= R.Executed;
    N->Inclusive -= R.Executed;
    N->Nested -= R.NestedPart;
    Frame &F = T.Stack.claimWithRoom();
    F = {N, Now - R.Executed, R.Children};
  }

  /// Closes, at their team's end, the regions of implicit tasks whose end the
  /// OpenMP runtime had not delivered yet (Teams.h). None of the threads may
  /// be inside an event.
  void closeEndedTeams(const std::vector<ThreadState *> &Selected);
  /// A worker's late implicit-task end of Task whose regions are all of T's
  /// open ones (Teams.h): takes them off the stack without reading the team's
  /// end, a line the master writes, and charges them once the master's log
  /// holds the end in a line it has finished (resolveLateEnds()). False when
  /// they must close now: regions below them, more than a DeferredEnd holds,
  /// or a trace, counters or the debug output, which need the ends in order.
  bool deferLateEnd(ThreadState &T, const ImplicitTask &Task);
  /// Charges T's deferred ends but those of OpenLog's line OpenLine, which
  /// its master still writes, and those whose team has not ended; with All
  /// every one (finalisation, a full list), those still unknown at the time.
  void resolveLateEnds(ThreadState &T, bool All, const TeamEndLog *OpenLog = nullptr,
                       std::uint32_t OpenLine = 0);

  /// POMP_DEBUG_EVENTS: print every enter, leave and single event on stderr,
  /// one line each, starting with the thread's index (for `sort -n -s`).
  void setDebugEvents(bool On) { DebugEvents = On; }
  bool debugEvents() const { return DebugEvents; }

  Anomalies &anomalies() { return Counters; }
  RegionTable &regions() { return Regions; }

  /// Makes every thread that attaches from now on feed this trace (set at
  /// initialisation, before any thread attached; the core does not own it).
  void setTraceSink(TraceSink *Sink) { Trace = Sink; }
  /// Whether a trace is written.
  bool tracing() const { return Trace != nullptr; }

  /// The registry's lock and the node directory's, held across fork()
  /// (pthread_atfork), in the order attachThread() takes them.
  void lockForFork() {
    Registry.lock();
    NodeDirectory::lockForFork();
  }
  void unlockAfterFork() {
    NodeDirectory::unlockAfterFork();
    Registry.unlock();
  }

  /// In a child created by fork(), in the thread that forked (Forking, or
  /// nullptr when it had no state): forgets everything measured before Now.
  /// Forking's regions still open count as entered at Now; every other thread
  /// of the parent is Departed; no thread feeds a trace; the anomaly counters
  /// restart.
  void restartInChild(ThreadState *Forking, Tick Now);

  /// Stops accepting new threads; returns the registered ones.
  std::vector<ThreadState *> stopAttaching();

  /// The threads registered so far (threads must not be running events).
  std::vector<ThreadState *> threads() const;

  /// Closes every region still open at End, merges the trees of these threads
  /// and returns the profile. None of them may be inside an event.
  Profile collect(Tick End, double NsPerTick, const std::vector<ThreadState *> &Selected);
  /// The same for every registered thread.
  Profile collect(Tick End, double NsPerTick) { return collect(End, NsPerTick, threads()); }

private:
  void closeInnermost(ThreadState &T, EventId Closer, Tick Now, std::uint64_t Payload) {
    const NodeKey Key = T.Stack.back().Region->Key;
    if (__builtin_expect(T.Trace != nullptr, 0))
      T.Trace->closing(Key, Closer, Now, Payload);
    if (__builtin_expect(DebugEvents, 0))
      printEvent(T, "leave", Key);
    pop(T, Now);
  }

  /// Closes T's pending joins (Joins.h), innermost first; at finalisation
  /// only those whose team's end is known.
  void closeJoins(ThreadState &T, bool Finalizing);
  /// deferLateEnd() when older lines are finished (or the list is full):
  /// charges those first, out of the common path.
  [[gnu::noinline]] bool deferAfterResolving(ThreadState &T, const ImplicitTask &Task,
                                             std::uint32_t Line);
  /// Moves T's Depth open regions into a new deferred end of Task.
  static void addDeferred(ThreadState &T, const ImplicitTask &Task, std::uint32_t Line,
                          std::size_t Depth) {
    DeferredEnd &D = T.Deferred[T.DeferredCount++];
    D.Team = Task.Team;
    D.Generation = Task.Generation;
    D.Count = static_cast<std::uint16_t>(Depth);
    D.Line = Line;
    for (std::size_t I = 0; I < Depth; ++I)
      D.Frames[I] = T.Stack.open(I);
    T.Stack.clear();
  }
  /// unwindTo() for the regions of a late join: no trace or counters read
  /// their ends (Lifecycle.cpp turns late joins off for both). Kept apart from
  /// unwindTo(): POMP only's late joins sent through it took 50 instructions
  /// more per region (PERFORMANCE.md, session 27).
  void unwindJoin(ThreadState &T, std::size_t Depth, Tick Now) {
    if (__builtin_expect(DebugEvents, 0)) {
      unwindTo(T, Depth, Now);
      return;
    }
    chargeDownTo(T, Depth, Now);
  }
  /// Takes the regions above Depth off T's stack and charges them, each as
  /// its close would without a trace or counters.
  static void chargeDownTo(ThreadState &T, std::size_t Depth, Tick Now) {
    while (T.Stack.depth() > Depth) {
      const Frame F = T.Stack.back();
      T.Stack.pop();
      charge(F, T.Stack.back(), Now);
    }
  }
  LeaveResult leaveOuter(ThreadState &T, NodeKey Key, EventId Closer, Tick Now,
                         std::uint64_t Payload);
  void printEvent(const ThreadState &T, const char *What, NodeKey Key) const;

  static inline std::atomic<POMP_Context_t> ForkJoinBit{0};
  bool DebugEvents = false;
  std::atomic<bool> RuntimeTaskRecords{false};
  RegionTable &Regions;
  Anomalies Counters;
  mutable std::mutex Registry;
  std::vector<std::unique_ptr<ThreadState>> Threads;
  bool Attaching = true;
  TraceSink *Trace = nullptr;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_CORE_H
