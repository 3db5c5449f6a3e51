//===- core/ThreadState.cpp - What the core keeps per thread --------------===//

#include "core/ThreadState.h"

#include <algorithm>

namespace pomp::rt {
namespace {
/// Stack frames reserved up front: deeper nesting is rare and grows the stack
/// once (warm-up).
constexpr std::size_t InitialStackDepth = 64;
} // namespace

Node NoChild = {NoKey};

FrameStack::FrameStack(Node *Root)
    : Data(new Frame[InitialStackDepth]), Top(Data.get()),
      Last(Data.get() + InitialStackDepth - 1) {
  *Top = {Root, 0, 0};
}

void FrameStack::grow() {
  const std::size_t Capacity = static_cast<std::size_t>(Last - Data.get()) + 1;
  const std::size_t Used = depth() + 1;
  std::unique_ptr<Frame[]> Bigger(new Frame[2 * Capacity]);
  std::copy(Data.get(), Data.get() + Used, Bigger.get());
  Data = std::move(Bigger);
  Top = Data.get() + Used - 1;
  Last = Data.get() + 2 * Capacity - 1;
}

namespace {
Node *makeRoot(NodeArena &Nodes) {
  Node *Root = Nodes.allocate();
  Root->Kind = NodeKind::ThreadRoot;
  // The root is the stack's sentinel frame: no closing event may match it.
  Root->Key = NoKey;
  return Root;
}
} // namespace

ThreadState::ThreadState(std::uint32_t ThreadIndex)
    : Index(ThreadIndex), Root(makeRoot(Nodes)), Stack(Root) {}

Node *ThreadState::mirror(std::uintptr_t Context) {
  if (LastMirror->Key == Context)
    return LastMirror;
  Node *M = Children.find(nullptr, Context);
  if (!M) {
    M = Nodes.allocate();
    M->Kind = NodeKind::Mirror;
    M->Key = Context;
    Children.insert(nullptr, Context, M);
  }
  LastMirror = M;
  return M;
}

Node *ThreadState::childSlow(Node *Parent, NodeKey Key) {
  Node *C = Children.find(Parent, Key);
  if (!C) {
    C = Nodes.allocate();
    C->Key = Key;
    C->Parent = Parent;
    Children.insert(Parent, Key, C);
  }
  Parent->LastChild = C;
  return C;
}

ChildIndex::ChildIndex(std::size_t InitialCapacity) {
  std::size_t Capacity = MinCapacity;
  while (Capacity < InitialCapacity)
    Capacity *= 2;
  Slots.resize(Capacity);
}

void ChildIndex::insert(const Node *Parent, NodeKey Key, Node *Child) {
  // Keep the load at most one half so that probe sequences stay short.
  if (2 * (Used + 1) > Slots.size())
    grow();
  std::size_t I = hash(Parent, Key) & (Slots.size() - 1);
  while (Slots[I].Child)
    I = (I + 1) & (Slots.size() - 1);
  Slots[I] = {Parent, Key, Child};
  ++Used;
}

void ChildIndex::grow() {
  std::vector<Slot> Old(Slots.size() * 2);
  Old.swap(Slots);
  Used = 0;
  for (const Slot &S : Old)
    if (S.Child)
      insert(S.Parent, S.Key, S.Child);
}

} // namespace pomp::rt
