//===- core/CallPath.h - Per-thread call-path nodes -------------*- C++ -*-===//
///
/// \file
/// The pieces of a thread's call-path tree: nodes with their metrics, an arena
/// that never moves them (contexts handed to other threads are node
/// addresses), and a hash index from (parent, key) to child. None of them is
/// shared between threads while the program runs; the tree is read by the
/// finalising thread once every thread has left its last event. The one
/// exception: another thread may read the fields a node never changes after
/// it was made (Key, Parent, Target, PathHash, Kind, Owner) of a node its
/// context named, to find the call path above it (recursion folding,
/// ThreadState.h).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_CALLPATH_H
#define POMP_RUNTIME_CORE_CALLPATH_H

#include "core/Clock.h"
#include "core/Events.h"
#include "core/Joins.h"
#include "core/Regions.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <vector>

namespace pomp::rt {

/// Identifies a child under its parent: the region and the canonical opener
/// (so a construct's enter/exit node and its begin/end node differ).
using NodeKey = std::uint64_t;

inline constexpr unsigned OpenerBits = 8;
/// A key that no region node has: the thread root's and NoChild's. Events
/// leave the opener byte's highest value unused, so no makeKey() result of a
/// region below 2^56 reaches it, not even of region 0.
inline constexpr NodeKey NoKey = ~NodeKey(0);
static_assert(EventCount < (1u << OpenerBits), "the opener byte's highest value is NoKey's");

constexpr NodeKey makeKey(RegionId Region, EventId Opener) {
  return (NodeKey(Region) << OpenerBits) | NodeKey(index(Opener));
}
constexpr RegionId keyRegion(NodeKey Key) { return static_cast<RegionId>(Key >> OpenerBits); }
constexpr EventId keyOpener(NodeKey Key) {
  return static_cast<EventId>(Key & ((NodeKey(1) << OpenerBits) - 1));
}

/// Whether every visit of Opener's nodes is tracked (Node::OpenFrame), also on
/// adapters' fast paths: the begin events that receive a context (a task body,
/// a worker's parallel or teams body), whose node a thread can enter again
/// while a visit of it is open (a task run inside a taskwait of a task of the
/// same construct).
constexpr bool visitsTracked(EventId Opener) {
  const EventId C = canonicalOpener(Opener);
  return C == EventId::Task_begin || C == EventId::Parallel_begin || C == EventId::Teams_begin;
}

/// What a node stands for.
enum class NodeKind : std::uint8_t {
  ThreadRoot, ///< the top of a thread's tree, outside every region
  Mirror,     ///< stands for a node of another thread (a fork or task context)
  Region,     ///< a region entered along this call path
  /// A region entered again below itself (recursion) whose node on the call
  /// path belongs to another thread's tree (found through a context): this
  /// thread's visits of that node. It has children of its own.
  Alias,
  /// Visits of Target made while Target is already open on this thread's
  /// stack: their time is part of the open visit's inclusive time, so they add
  /// visits and exclusive time only. Its children are Target's.
  Inner,
};

/// True for the nodes that count visits of a region (not the root, not a
/// mirror).
constexpr bool isRegionKind(NodeKind K) {
  return K == NodeKind::Region || K == NodeKind::Alias || K == NodeKind::Inner;
}

/// Node::OriginOpener of a region node: its origin above its canonical
/// opener, never 0.
constexpr std::uint16_t originOpener(RegionOrigin Origin, EventId CanonicalOpener) {
  return static_cast<std::uint16_t>((static_cast<unsigned>(Origin) + 1) << 8 |
                                    static_cast<unsigned>(CanonicalOpener));
}

struct Node;
/// What Node::LastChild points to before a node has children: a node whose
/// key no region has, so the lookup needs no null test.
extern Node NoChild;

/// One call-path node of one thread, with that thread's metrics.
struct Node {
  Node() = default;
  /// A node with only its key: NoChild.
  constexpr explicit Node(NodeKey K) : Key(K) {}

  /// makeKey() for a Region node; the context value for a Mirror.
  NodeKey Key = 0;
  /// nullptr for a ThreadRoot and a Mirror.
  Node *Parent = nullptr;
  /// The child entered last from here: repeated regions find their node with
  /// one comparison.
  Node *LastChild = &NoChild;
  /// The child entered last before LastChild: a body that alternates between
  /// two children (a lock's set and unset, a barrier and a single) finds
  /// both with at most two comparisons.
  Node *OtherChild = &NoChild;
  std::uint64_t Visits = 0;
  Tick Inclusive = 0;
  /// For the node of a fork whose team closes its join late: when the
  /// team's executions ended (Joins.h). Beside the fields a visit's end
  /// writes, so that the master's exit writes one line.
  JoinRecord Join;
  /// The time of the regions nested in this node's visits on this thread,
  /// which its exclusive time leaves out (per visit at most the visit's own
  /// time). Subtracted once, at finalisation, rather than per visit.
  Tick Nested = 0;
  Tick Min = std::numeric_limits<Tick>::max();
  Tick Max = 0;
  /// Visits that came here by recursion folding: the region was entered again
  /// below itself on its call path and the visit was counted at the node
  /// already on the path.
  std::uint64_t Folded = 0;
  /// A Mirror: the node its context names, nullptr when it names none. An
  /// Alias or Inner node: the node it counts visits of.
  Node *Target = nullptr;
  /// The Inner node of this one, made on its first nested visit.
  Node *InnerNode = nullptr;
  /// Identifies the node's call path as the merge sees it (region keys from
  /// the program root, mirrors followed): equal for the nodes of every thread
  /// that merge into one.
  std::uint64_t PathHash = 0;
  /// The arena that made the node: which thread's tree it belongs to.
  const void *Owner = nullptr;
  /// For nodes whose visits are tracked (Recursive ones and those entered with
  /// a context): the stack index of the open visit that counts inclusive time,
  /// valid while that frame still holds this node.
  std::uint32_t OpenFrame = NotOpen;
  NodeKind Kind = NodeKind::Region;
  /// Reached in more than one way (recursion folding, a twin path, an Inner
  /// parent): every visit is tracked (OpenFrame), so no LastChild or
  /// OtherChild ever points here, except from a twin path's parents to a node
  /// whose opener's visits are always tracked (visitsTracked()); the fast
  /// paths find it in the thread's cache of the general path's lookups
  /// (ThreadState::cachedSlowChild()) and track it as the general path
  /// does.
  bool Recursive = false;
  /// A Mirror whose context names a node of this thread: it stands for that
  /// node itself.
  bool OwnTarget = false;
  /// Inclusive minus nested time.
  Tick exclusive() const { return Inclusive - Nested; }

  /// With POMP_METRICS: the node's counter sums (ThreadCounters::newSums()),
  /// made on the first visit that ends; nullptr otherwise.
  std::uint64_t *Counters = nullptr;

  /// Scratch for the merge at finalisation: the merged node's index plus one.
  std::uint32_t Merged = 0;
  /// For the nodes of a region (isRegionKind()): originOpener() of the
  /// region's source (from the region table) and the key's opener, made with
  /// the node; 0 for the other nodes. Most callbacks of instrumented code ask
  /// whether a given source opened the thread's innermost region with a given
  /// opener (they find POMP's region of their construct and return): one
  /// comparison instead of a look-up in the region table. In the node's tail
  /// padding, so that the node keeps its size.
  std::uint16_t OriginOpener = 0;
  /// A construct's node entered with its enter event when the construct comes
  /// right after another one, first in a block a begin opened or first in a
  /// loop that repeats it, with only brief code between
  /// (ctc::RegionDescriptor::AfterConstruct): the enter's fast path takes that
  /// exit's or begin's time when it was handed over
  /// (FrameStack::popHandingOver(), markBegun()). Made with the node; in the
  /// tail padding too.
  bool AfterConstruct = false;

  static constexpr std::uint32_t NotOpen = std::numeric_limits<std::uint32_t>::max();
};

/// Allocates nodes in chunks; nodes never move and live as long as the arena.
/// Its chunks are listed in the process's NodeDirectory, so that a context
/// from another thread can be checked before it is followed.
class NodeArena {
public:
  static constexpr std::size_t ChunkNodes = 256;

  NodeArena() = default;
  NodeArena(const NodeArena &) = delete;
  NodeArena &operator=(const NodeArena &) = delete;
  ~NodeArena();

  Node *allocate() {
    if (Used == ChunkNodes || Chunks.empty())
      addChunk();
    Node *N = new (&Chunks.back()[Used++]) Node;
    N->Owner = this;
    Published.store(size(), std::memory_order_release);
    return N;
  }

  /// True when N is a node this arena handed out (another thread may call it
  /// through NodeDirectory, with the directory's lock held).
  bool handedOut(std::size_t Chunk, std::size_t Index) const {
    return Chunk * ChunkNodes + Index < Published.load(std::memory_order_acquire);
  }

  /// Calls F(Node&) for every allocated node, in allocation order.
  template <typename Fn> void forEach(Fn &&F) {
    for (std::size_t C = 0; C < Chunks.size(); ++C) {
      const std::size_t N = C + 1 == Chunks.size() ? Used : ChunkNodes;
      for (std::size_t I = 0; I < N; ++I)
        F(Chunks[C][I]);
    }
  }

  std::size_t size() const { return Chunks.empty() ? 0 : (Chunks.size() - 1) * ChunkNodes + Used; }

private:
  void addChunk();

  /// Each holds ChunkNodes nodes, constructed as they are handed out
  /// (LazyChunk.h): all of them but the last chunk's from Used on.
  std::vector<Node *> Chunks;
  std::size_t Used = 0;
  /// size(), for other threads.
  std::atomic<std::size_t> Published{0};
};

/// Every node arena's chunks, so that a context (a node address another
/// thread passed on) is followed only when it names a node: a garbage context
/// must not crash the program. Looked up once per mirror, when it is made.
namespace NodeDirectory {
/// The node Address names, or nullptr when it names none.
const Node *find(std::uintptr_t Address);
/// Held across fork() (pthread_atfork), with the core's other locks.
void lockForFork();
void unlockAfterFork();
} // namespace NodeDirectory

/// Open-addressing hash from (parent, key) to a child node. Mirrors are
/// indexed with a null parent and the context as key; the nodes of call paths
/// with PathTag as parent and their PathHash as key.
class ChildIndex {
public:
  explicit ChildIndex(std::size_t InitialCapacity = MinCapacity);

  /// One (parent, key) -> child entry; an empty slot has no child. Folded:
  /// the child is a node further up the call path (recursion folding).
  struct Slot {
    const Node *Parent = nullptr;
    NodeKey Key = 0;
    Node *Child = nullptr;
    bool Folded = false;
  };

  /// The entry of (Parent, Key), or one without a child.
  const Slot &lookup(const Node *Parent, NodeKey Key) const {
    for (std::size_t I = hash(Parent, Key) & (Slots.size() - 1);;
         I = (I + 1) & (Slots.size() - 1)) {
      const Slot &S = Slots[I];
      if (!S.Child || (S.Parent == Parent && S.Key == Key))
        return S;
    }
  }
  Node *find(const Node *Parent, NodeKey Key) const { return lookup(Parent, Key).Child; }

  /// Adds a child that find() did not find; may allocate (grows at half load).
  void insert(const Node *Parent, NodeKey Key, Node *Child, bool Folded = false);

  std::size_t size() const { return Used; }

  /// The parent of the entries that find a node by its call path.
  static const Node *const PathTag;

private:
  static constexpr std::size_t MinCapacity = 64;

  static std::size_t hash(const Node *Parent, NodeKey Key) {
    // Fibonacci hashing of both words: node addresses share their low bits.
    constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
    constexpr unsigned Shift = 29;
    std::uint64_t H = (reinterpret_cast<std::uintptr_t>(Parent) ^ (Key * Multiplier)) * Multiplier;
    return static_cast<std::size_t>(H ^ (H >> Shift));
  }

  void grow();

  std::vector<Slot> Slots;
  std::size_t Used = 0;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_CALLPATH_H
