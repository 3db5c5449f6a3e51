//===- core/ThreadState.h - What the core keeps per thread ------*- C++ -*-===//
///
/// \file
/// Everything an event touches lives here, owned by one thread: its call-path
/// tree, the stack of regions it is in, and small caches. Nothing here is
/// locked; the only field another thread reads while this one runs is InEvent,
/// which finalisation uses to wait until the thread has left its event (and
/// the unchanging fields of nodes that contexts name, CallPath.h).
///
/// Recursion folding keeps the tree bounded when regions recur below
/// themselves (recursive functions, recursive tasks): a region entered where
/// the call path above (across contexts, so a task's creation chain counts)
/// already has its node is counted at that node instead of a new, deeper one.
/// All of that is decided once per (parent, key), when the child is first
/// looked up (childSlow); LastChild never holds a node that folding made
/// reachable in more than one way (Node::Recursive): the fast paths find such
/// a node in a small cache of childSlow()'s answers (cachedSlowChild),
/// which also holds the children beyond a parent's two latest (a region with
/// three or more constructs in a loop), and track its visits as the general
/// path does. Such a node may be entered
/// while it is open on the stack: that visit goes to its Inner node, which
/// keeps its time out of the inclusive time (docs/PROFILE_FORMAT.md,
/// "Recursion").
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_THREADSTATE_H
#define POMP_RUNTIME_CORE_THREADSTATE_H

#include "core/CallPath.h"
#include "core/Joins.h"
#include "core/Metrics.h"
#include "core/Tasks.h"
#include "core/Teams.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace pomp::rt {

class ThreadTrace;

/// One open region on a thread's stack.
struct Frame {
  Node *Region;
  Tick Start;
  /// Time spent in regions nested in this one on this thread: what its
  /// exclusive time leaves out.
  Tick Children;
};
// FrameStack marks a hand-over for a barrier's enter in a frame address's low bit.
static_assert(alignof(Frame) > 1);

/// A worker's late implicit-task end whose regions came off its stack before
/// their team's end was read (Core::deferLateEnd()): charged once the
/// master's log has the end in a line it no longer writes.
struct DeferredEnd {
  /// Regions a deferred end holds at most: the implicit task or parallel
  /// body, its implicit barrier, a worksharing region of a combined construct.
  static constexpr std::size_t MaxFrames = 3;
  const TeamInstance *Team;
  std::uint16_t Generation;
  std::uint16_t Count;
  /// TeamEndLog::lineOf(Generation).
  std::uint32_t Line;
  /// The regions, outermost first, as they were open.
  Frame Frames[MaxFrames];
};

/// The stack of a thread's open regions. Its bottom is a sentinel frame for
/// the thread's root, so the innermost frame always exists and the hot path
/// needs no emptiness tests; it grows (allocates) only when nesting gets
/// deeper than ever before on the thread (warm-up).
class FrameStack {
public:
  explicit FrameStack(Node *Root);

  /// True when no region is open.
  bool empty() const { return Top == Data.get(); }
  /// The number of open regions.
  std::size_t depth() const { return static_cast<std::size_t>(Top - Data.get()); }
  /// The innermost open region, or the sentinel. The stack keeps a pointer to
  /// it rather than a size: the hot path reaches the frame with one load.
  Frame &back() { return *Top; }
  const Frame &back() const { return *Top; }
  /// Open region I counted from the outermost (0), 0 <= I < depth().
  Frame &open(std::size_t I) { return Data[I + 1]; }
  const Frame &open(std::size_t I) const { return Data[I + 1]; }

  void push(Node *Region, Tick Start) {
    if (__builtin_expect(Top == Last, 0))
      grow();
    HandOverAt = 0;
    *++Top = {Region, Start, 0};
  }
  /// True when push() will not allocate.
  bool hasRoom() const { return Top != Last; }
  /// Makes room for one push() (may allocate).
  void makeRoom() {
    if (__builtin_expect(Top == Last, 0))
      grow();
  }
  /// True when two push()es will not allocate.
  bool hasRoomForTwo() const { return Last - Top >= 2; }
  /// The frame push() would fill, made the innermost one (requires hasRoom()).
  Frame &claimWithRoom() {
    HandOverAt = 0;
    return *++Top;
  }
  /// Removes the innermost open region (requires !empty()).
  void pop() {
    HandOverAt = 0;
    --Top;
  }
  /// Removes every open region.
  void clear() {
    HandOverAt = 0;
    Top = Data.get();
  }

  /// An implicit barrier's exit, just popped at Now, hands its time to the exit
  /// of the region now innermost: the instrumenter writes the two calls next to
  /// each other, so a second clock read would time only the call between them.
  void handOver(Tick Now) {
    HandOverAt = forExit(Top);
    HandOverTick = Now;
  }
  /// The time handOver() left for the innermost region's exit when nothing
  /// came between (no frame pushed or popped, no other event: dropHandOver());
  /// Now() otherwise. Called before that exit's pop.
  template <typename ClockFn> Tick takeHandOver(ClockFn &&Now) const {
    return HandOverAt == forExit(Top) ? HandOverTick : Now();
  }
  /// A single's or a section's end, just popped at Now, hands its time to the
  /// implicit barrier the instrumenter enters right after it: only the
  /// runtime's end of the part comes between. Not to the construct's exit,
  /// which a copyprivate's broadcast and barrier may precede.
  void handOverToBarrier(Tick Now) {
    HandOverAt = forBarrier(Top);
    HandOverTick = Now;
  }
  /// The time handOverToBarrier() left for an implicit barrier entered in the
  /// innermost region when nothing came between; Now() otherwise. Called
  /// before the barrier's frame is pushed.
  template <typename ClockFn> Tick takeBarrierHandOver(ClockFn &&Now) const {
    return HandOverAt == forBarrier(Top) ? HandOverTick : Now();
  }
  /// pop() for a construct's exit at Now, which hands its time to the enter
  /// of the construct the instrumenter wrote right after it or repeats in a
  /// loop, when there is one (ctc::RegionDescriptor::AfterConstruct: only
  /// brief code runs between the two calls). Made by every exit: an enter
  /// takes it only when its node says that it follows a construct
  /// (Node::AfterConstruct).
  void popHandingOver(Tick Now) {
    // The time goes to the frame given up, whose line the exit has just
    // read; two stores to the stack's own fields cost a pair of events some
    // 3 ns (docs/PERFORMANCE.md, session 38).
    Top->Start = Now;
    --Top;
    HandOverAt = forSibling(Top);
  }
  /// A begin just pushed the innermost frame: a construct the instrumenter
  /// wrote first in the block may start at the begin's time, the frame's
  /// start.
  void markBegun() { HandOverAt = forChild(Top); }
  /// The time popHandingOver() left for an enter in the innermost region,
  /// or the start of the innermost region just begun (markBegun()), when
  /// nothing came between; Now() otherwise. Called before the enter's frame
  /// is pushed.
  template <typename ClockFn> Tick takeSiblingHandOver(ClockFn &&Now) const {
    if (HandOverAt == forSibling(Top))
      return Top[1].Start;
    return HandOverAt == forChild(Top) ? Top->Start : Now();
  }
  /// An event that opens or closes no region came: the time handed over is
  /// no longer the next exit's or enter's.
  void dropHandOver() { HandOverAt = 0; }

private:
  void grow();

  std::unique_ptr<Frame[]> Data;
  /// The innermost frame and the last one there is room for.
  Frame *Top = nullptr;
  Frame *Last = nullptr;
  /// The innermost frame a hand-over was made for, its low bits saying
  /// whether it is for an exit (0), a barrier's enter (1), a following
  /// construct's enter (2) or the enter of the first construct in a block
  /// just begun (3) (frames are aligned); 0: none. And the time the first two
  /// hand over.
  static std::uintptr_t forExit(const Frame *F) { return reinterpret_cast<std::uintptr_t>(F); }
  static std::uintptr_t forBarrier(const Frame *F) { return forExit(F) | 1U; }
  static std::uintptr_t forSibling(const Frame *F) { return forExit(F) | 2U; }
  static std::uintptr_t forChild(const Frame *F) { return forExit(F) | 3U; }
  static_assert(alignof(Frame) >= 4, "hand-overs keep their kind in a frame address's low bits");
  std::uintptr_t HandOverAt = 0;
  Tick HandOverTick = 0;
};

/// Remembers which region recently came with which CTC string pointer, so a
/// construct whose handle is a local variable (zero on every execution) finds
/// its region without the table's lock. Entries are checked against the
/// region's string before use: a pointer may be reused for another string.
struct CtcCache {
  static constexpr std::size_t Entries = 64;
  /// A CTC string pointer and the region it named last time.
  struct Entry {
    const char *Ctc = nullptr;
    RegionId Region = 0;
  };
  Entry Slots[Entries];

  static std::size_t slot(const char *Ctc) {
    // CTC strings are tens of bytes long, so the lowest address bits say little.
    constexpr unsigned AlignmentBits = 4;
    return (reinterpret_cast<std::uintptr_t>(Ctc) >> AlignmentBits) & (Entries - 1);
  }
};

/// A mutex acquisition whose region instrumented code has just entered
/// (ThreadState::PompAcquisition).
enum class Acquisition : std::uint8_t { None, Lock, NestLock, Critical, Ordered };

/// The measurement state of one thread.
class ThreadState {
public:
  /// Regions is the table of the regions the thread's nodes stand for.
  ThreadState(std::uint32_t Index, const RegionTable &Regions);
  ThreadState(const ThreadState &) = delete;
  ThreadState &operator=(const ThreadState &) = delete;

  /// Set while the thread is inside an event routine: guards against re-entry
  /// and tells finalisation to wait.
  std::atomic<bool> InEvent{false};

  /// The acquisition whose region instrumented code has just entered (its
  /// Set_lock_enter, Set_nest_lock_enter, Critical_enter or Ordered_enter was
  /// recorded), until the OpenMP runtime reports the mutex acquired or POMP's
  /// next event of the construct comes. The runtime's acquire and acquired
  /// callbacks of it come in between, with nothing to record: they find that
  /// here instead of on the stack, without the callback protocol (this
  /// thread's flag, the phase) that reading the stack needs. Written and read
  /// by this thread only, and never by finalisation.
  Acquisition PompAcquisition = Acquisition::None;

  /// The thread's number in the profile: the order in which threads raised
  /// their first event (0 is normally the thread that initialised the library).
  const std::uint32_t Index;

  /// The node new regions are entered under: the innermost open region, or the
  /// thread's root.
  Node *current() const { return Stack.back().Region; }

  /// The node that counts a visit of Key under Parent, created on first use
  /// (warm-up allocation): Parent's child, or with recursion the node further
  /// up the call path (Folded is then set).
  Node *child(Node *Parent, NodeKey Key, bool &Folded) {
    Node *C = Parent->LastChild;
    if (__builtin_expect(C->Key == Key, 1) ||
        __builtin_expect((C = Parent->OtherChild)->Key == Key, 1)) {
      Folded = false;
      return C;
    }
    return childSlow(Parent, Key, Folded);
  }
  Node *child(Node *Parent, NodeKey Key) {
    bool Folded;
    return child(Parent, Key, Folded);
  }

  /// The node childSlow() gave for Key under Parent, with Folded as it set
  /// it; nullptr when not cached. The fast paths ask when LastChild and
  /// OtherChild miss: a node reached in more than one way (Node::Recursive),
  /// which they never hold, or a parent's third or later child.
  Node *cachedSlowChild(const Node *Parent, NodeKey Key, bool &Folded) const {
    const SlowChild &E = SlowChildren[slowChildSlot(Parent, Key)];
    if (E.Parent != Parent || E.Key != Key)
      return nullptr;
    Folded = E.Folded;
    return E.Child;
  }

  /// The node standing for another thread's node (a fork or task context); a
  /// context naming a node of this thread gives that node.
  Node *mirror(std::uintptr_t Context);
  /// mirror() when it is one of the two used last; nullptr otherwise. Two:
  /// a thread that runs the tasks of a construct that every thread of its
  /// team creates alternates between its own context and another's.
  Node *cachedMirror(std::uintptr_t Context) const {
    Node *M = recentMirror(Context);
    if (M == nullptr)
      return nullptr;
    return M->OwnTarget ? M->Target : M;
  }

  /// True when a visit of N that counts inclusive time is open on the stack
  /// (N's visits must be tracked: Node::OpenFrame).
  bool isOpen(const Node *N) const {
    return N->OpenFrame < Stack.depth() && Stack.open(N->OpenFrame).Region == N;
  }
  /// The node a tracked visit of N is pushed as: N itself, noted as the open
  /// visit, or its Inner node when a visit of N is open already.
  Node *trackedVisit(Node *N) {
    if (isOpen(N))
      return inner(N);
    N->OpenFrame = static_cast<std::uint32_t>(Stack.depth());
    return N;
  }
  /// trackedVisit() for the fast paths, which never allocate: nullptr, and
  /// nothing changed, when it would make N's Inner node.
  Node *trackedVisitMade(Node *N) {
    if (isOpen(N))
      return N->InnerNode;
    N->OpenFrame = static_cast<std::uint32_t>(Stack.depth());
    return N;
  }

  NodeArena Nodes;
  Node *Root;
  FrameStack Stack;
  ChildIndex Children;
  CtcCache Ctcs;
  /// Teams the OpenMP runtime reported (OMPT) and their code addresses.
  ThreadTeams Teams;
  CodeRegionCache Codes;
  TestedLocks Tested;
  /// The explicit tasks the thread executes as the runtime reported their
  /// switches (OMPT), innermost last (Tasks.h).
  std::vector<RunningTask> RunningTasks;
  /// Records of suspended tasks the thread resumed, kept for its next
  /// suspension: a task that moves between threads at every part needed two
  /// allocations per move. At most SpareSuspendedLimit.
  std::vector<std::unique_ptr<SuspendedTask>> SpareSuspended;
  static constexpr std::size_t SpareSuspendedLimit = 64;
  /// Teams whose regions this thread left open in the runtime's join, innermost
  /// last (Joins.h). Room for PendingJoinsReserved without allocating.
  std::vector<PendingJoin> PendingJoins;
  static constexpr std::size_t PendingJoinsReserved = 32;
  /// Regions dropped uncounted because another source reports them.
  std::uint64_t HandedOver = 0;
  /// While tracing without the runtime's task records: the trace's tokens of
  /// the instrumented tasks this thread is executing, innermost last (0 for
  /// one without a token).
  std::vector<std::uint32_t> TaskTokens;
  /// Where the core also hands this thread's events when a trace is written
  /// (trace/Trace.h); nullptr otherwise. Set when the thread attaches.
  ThreadTrace *Trace = nullptr;
  /// The thread's hardware counters (POMP_METRICS, core/Metrics.h); nullptr
  /// when none are recorded. Set when the thread attaches.
  std::unique_ptr<ThreadCounters> Counters;
  /// In a child created by fork(): a thread of the parent, which does not
  /// exist in the child. Its nodes stay for the contexts that name them; it
  /// contributes nothing to the child's profile.
  bool Departed = false;
  /// Late implicit-task ends not charged yet, oldest first (Teams.h). On
  /// the heap: 2.8 KB inside the state moved the fields every event reads.
  static constexpr std::size_t DeferredLimit = 32;
  std::unique_ptr<DeferredEnd[]> Deferred = std::make_unique<DeferredEnd[]>(DeferredLimit);
  std::size_t DeferredCount = 0;

private:
  Node *childSlow(Node *Parent, NodeKey Key, bool &Folded);
  /// The entry for a child looked up for the first time.
  ChildIndex::Slot addChild(Node *Parent, NodeKey Key);
  /// This thread's node of the call path Path stands for (Path->PathHash),
  /// nullptr when it has none.
  Node *localNodeOf(const Node *Path);
  /// The same for the call path of a child Key of Parent.
  Node *localChildOf(const Node *Parent, NodeKey Key, std::uint64_t Hash);
  /// Makes N reachable only through the general path (Node::Recursive) and
  /// finds its open visit, which the fast path did not track.
  void makeRecursive(Node *N);
  Node *inner(Node *N);
  Node *newNode(NodeKind Kind, NodeKey Key, Node *Parent, std::uint64_t Hash);
  /// A lookup childSlow() answered. Its answer never changes (nodes never
  /// move; the index keeps the first answer and its Folded; a node made
  /// Recursive later stays the same node), so an entry stays true until
  /// another lookup takes its slot.
  struct SlowChild {
    const Node *Parent = nullptr;
    NodeKey Key = 0;
    Node *Child = nullptr;
    bool Folded = false;
  };
  /// The two small caches below are direct-mapped by a multiplicative hash.
  static constexpr unsigned CacheSlotBits = 6;
  static constexpr std::size_t CacheSlots = std::size_t{1} << CacheSlotBits;
  static std::size_t cacheSlot(std::uint64_t Value) {
    return static_cast<std::size_t>((Value * 0x9E3779B97F4A7C15ull) >> (64 - CacheSlotBits));
  }
  /// Recursive tasks and functions alternate between a few (parent, key)
  /// pairs per recursion level: the enter and begin events of BOTS's fib,
  /// nqueens or uts took the general path every time (some 40 % of
  /// libpomp's time in them, docs/PERFORMANCE.md, session 36). So did every
  /// construct of a loop over three or more in one region, which cycle
  /// through LastChild and OtherChild (session 37).
  static std::size_t slowChildSlot(const Node *Parent, NodeKey Key) {
    return cacheSlot((reinterpret_cast<std::uintptr_t>(Parent) >> 4) ^ Key ^ (Key >> 17));
  }
  std::unique_ptr<SlowChild[]> SlowChildren = std::make_unique<SlowChild[]>(CacheSlots);
  /// Never null: NoChild until the first mirrors.
  Node *LastMirror = &NoChild;
  Node *OtherMirror = &NoChild;
  /// More mirrors by their contexts (a context's mirror never changes):
  /// recursive tasks begin under many creation nodes (BOTS's fib under its two
  /// task sites' nodes and their Inner nodes, from both threads), which two
  /// entries did not hold. Never null: NoChild until a mirror takes a slot.
  static std::size_t mirrorSlot(std::uintptr_t Context) { return cacheSlot(Context >> 4); }
  std::unique_ptr<Node *[]> RecentMirrors = [] {
    auto Slots = std::make_unique<Node *[]>(CacheSlots);
    for (std::size_t I = 0; I < CacheSlots; ++I)
      Slots[I] = &NoChild;
    return Slots;
  }();
  /// The mirror of Context when it is one of the recent ones; nullptr
  /// otherwise.
  Node *recentMirror(std::uintptr_t Context) const {
    Node *M = LastMirror;
    if (M->Key != Context && (M = OtherMirror)->Key != Context &&
        (M = RecentMirrors[mirrorSlot(Context)])->Key != Context)
      return nullptr;
    return M;
  }
  const RegionTable &Regions;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_THREADSTATE_H
