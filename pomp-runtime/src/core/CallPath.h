//===- core/CallPath.h - Per-thread call-path nodes -------------*- C++ -*-===//
///
/// \file
/// The pieces of a thread's call-path tree: nodes with their metrics, an arena
/// that never moves them (contexts handed to other threads are node
/// addresses), and a hash index from (parent, key) to child. None of them is
/// shared between threads while the program runs; the tree is read by the
/// finalising thread once every thread has left its last event.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_CALLPATH_H
#define POMP_RUNTIME_CORE_CALLPATH_H

#include "core/Clock.h"
#include "core/Events.h"
#include "core/Regions.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
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

/// What a node stands for.
enum class NodeKind : std::uint8_t {
  ThreadRoot, ///< the top of a thread's tree, outside every region
  Mirror,     ///< stands for a node of another thread (a fork or task context)
  Region,     ///< a region entered along this call path
};

struct Node;
/// What Node::LastChild points to before a node has children: a node whose
/// key no region has, so the lookup needs no null test.
extern Node NoChild;

/// One call-path node of one thread, with that thread's metrics.
struct Node {
  /// makeKey() for a Region node; the context value for a Mirror.
  NodeKey Key = 0;
  /// nullptr for a ThreadRoot and a Mirror.
  Node *Parent = nullptr;
  /// The child entered last from here: repeated regions find their node with
  /// one comparison.
  Node *LastChild = &NoChild;
  std::uint64_t Visits = 0;
  Tick Inclusive = 0;
  /// The time of the regions nested in this node's visits on this thread,
  /// which its exclusive time leaves out (per visit at most the visit's own
  /// time). Subtracted once, at finalisation, rather than per visit.
  Tick Nested = 0;
  Tick Min = std::numeric_limits<Tick>::max();
  Tick Max = 0;
  NodeKind Kind = NodeKind::Region;
  /// Inclusive minus nested time.
  Tick exclusive() const { return Inclusive - Nested; }

  /// Scratch for the merge at finalisation: the merged node's index plus one.
  std::uint32_t Merged = 0;
};

/// Allocates nodes in chunks; nodes never move and live as long as the arena.
class NodeArena {
public:
  static constexpr std::size_t ChunkNodes = 256;

  Node *allocate() {
    if (Used == ChunkNodes || Chunks.empty()) {
      Chunks.push_back(std::make_unique<Node[]>(ChunkNodes));
      Used = 0;
    }
    return &Chunks.back()[Used++];
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
  std::vector<std::unique_ptr<Node[]>> Chunks;
  std::size_t Used = 0;
};

/// Open-addressing hash from (parent, key) to a child node. Mirrors are
/// indexed with a null parent and the context as key.
class ChildIndex {
public:
  explicit ChildIndex(std::size_t InitialCapacity = MinCapacity);

  Node *find(const Node *Parent, NodeKey Key) const {
    for (std::size_t I = hash(Parent, Key) & (Slots.size() - 1);;
         I = (I + 1) & (Slots.size() - 1)) {
      const Slot &S = Slots[I];
      if (!S.Child)
        return nullptr;
      if (S.Parent == Parent && S.Key == Key)
        return S.Child;
    }
  }

  /// Adds a child that find() did not find; may allocate (grows at half load).
  void insert(const Node *Parent, NodeKey Key, Node *Child);

  std::size_t size() const { return Used; }

private:
  static constexpr std::size_t MinCapacity = 64;

  /// One (parent, key) -> child entry; an empty slot has no child.
  struct Slot {
    const Node *Parent = nullptr;
    NodeKey Key = 0;
    Node *Child = nullptr;
  };

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
