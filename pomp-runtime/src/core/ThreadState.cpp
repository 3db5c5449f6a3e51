//===- core/ThreadState.cpp - What the core keeps per thread --------------===//

#include "core/ThreadState.h"

#include "core/LazyChunk.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace pomp::rt {
namespace {
/// Stack frames reserved up front: deeper nesting is rare and grows the stack
/// once (warm-up).
constexpr std::size_t InitialStackDepth = 64;

/// The PathHash of every thread's root (and of what a garbage context names:
/// the merge puts it at the top level).
constexpr std::uint64_t RootPathHash = 0x243f6a8885a308d3ull;

/// The PathHash of a child Key of a node with PathHash Parent (splitmix64's
/// finaliser over both).
std::uint64_t childPathHash(std::uint64_t Parent, NodeKey Key) {
  constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
  constexpr std::uint64_t Mix1 = 0xbf58476d1ce4e5b9ull, Mix2 = 0x94d049bb133111ebull;
  constexpr unsigned Shift1 = 30, Shift2 = 27, Shift3 = 31;
  std::uint64_t H = Parent ^ (Key * Multiplier + Multiplier);
  H = (H ^ (H >> Shift1)) * Mix1;
  H = (H ^ (H >> Shift2)) * Mix2;
  return H ^ (H >> Shift3);
}

/// The region node whose call path N stands for: mirrors, aliases and inner
/// nodes are followed to their targets; nullptr for a root (or what a garbage
/// context names). Reads only fields that never change once a node is made.
const Node *pathNode(const Node *N) {
  while (N) {
    switch (N->Kind) {
    case NodeKind::ThreadRoot:
      return nullptr;
    case NodeKind::Region:
      return N;
    case NodeKind::Mirror:
    case NodeKind::Alias:
    case NodeKind::Inner:
      N = N->Target;
      break;
    }
  }
  return nullptr;
}

/// True when A and B stand for the same call path (the same merged node).
bool samePath(const Node *A, const Node *B) {
  A = pathNode(A);
  B = pathNode(B);
  while (A != B) {
    if (!A || !B || A->Key != B->Key)
      return false;
    A = pathNode(A->Parent);
    B = pathNode(B->Parent);
  }
  return true;
}

/// The nearest region node with Key on the call path that ends at Parent
/// (Parent included), across contexts: where a region recurs.
const Node *onPath(const Node *Parent, NodeKey Key) {
  for (const Node *N = pathNode(Parent); N; N = pathNode(N->Parent))
    if (N->Key == Key)
      return N;
  return nullptr;
}

/// The process's node chunks: start address -> (arena, chunk number).
struct Directory {
  std::mutex Lock;
  std::map<std::uintptr_t, std::pair<const NodeArena *, std::size_t>> Chunks;
};
Directory &directory() {
  // Never destroyed: arenas of threads still running at exit unregister late.
  static Directory *D = new Directory;
  return *D;
}
} // namespace

const Node *const ChildIndex::PathTag = &NoChild;

Node NoChild{NoKey};

NodeArena::~NodeArena() {
  Directory &D = directory();
  std::lock_guard<std::mutex> Guard(D.Lock);
  for (std::size_t C = 0; C < Chunks.size(); ++C) {
    D.Chunks.erase(reinterpret_cast<std::uintptr_t>(Chunks[C]));
    freeLazyChunk(Chunks[C], C + 1 == Chunks.size() ? Used : ChunkNodes);
  }
}

void NodeArena::addChunk() {
  Chunks.push_back(allocateLazyChunk<Node>(ChunkNodes));
  Used = 0;
  Directory &D = directory();
  std::lock_guard<std::mutex> Guard(D.Lock);
  D.Chunks[reinterpret_cast<std::uintptr_t>(Chunks.back())] = {this, Chunks.size() - 1};
}

const Node *NodeDirectory::find(std::uintptr_t Address) {
  Directory &D = directory();
  std::lock_guard<std::mutex> Guard(D.Lock);
  auto It = D.Chunks.upper_bound(Address);
  if (It == D.Chunks.begin())
    return nullptr;
  --It;
  const std::uintptr_t Offset = Address - It->first;
  if (Offset % sizeof(Node) != 0 || Offset / sizeof(Node) >= NodeArena::ChunkNodes)
    return nullptr;
  const auto &[Arena, Chunk] = It->second;
  if (!Arena->handedOut(Chunk, Offset / sizeof(Node)))
    return nullptr;
  return reinterpret_cast<const Node *>(Address);
}

void NodeDirectory::lockForFork() { directory().Lock.lock(); }
void NodeDirectory::unlockAfterFork() { directory().Lock.unlock(); }

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
  Root->PathHash = RootPathHash;
  return Root;
}
} // namespace

ThreadState::ThreadState(std::uint32_t ThreadIndex, const RegionTable &RegionsOfNodes)
    : Index(ThreadIndex), Root(makeRoot(Nodes)), Stack(Root), Regions(RegionsOfNodes) {
  PendingJoins.reserve(PendingJoinsReserved);
  // The OMPT adapter's fast path returns a resumed task's record to the
  // spares only where that allocates nothing.
  SpareSuspended.reserve(SpareSuspendedLimit);
}

Node *ThreadState::mirror(std::uintptr_t Context) {
  Node *M = recentMirror(Context);
  if (M == nullptr) {
    M = Children.find(nullptr, Context);
    if (!M) {
      // Checked once, here: walks of the call path follow Target only.
      Node *Named = const_cast<Node *>(NodeDirectory::find(Context));
      M = Nodes.allocate();
      M->Kind = NodeKind::Mirror;
      M->Key = Context;
      M->Target = Named;
      M->OwnTarget = Named && Named->Owner == &Nodes;
      M->PathHash = Named ? Named->PathHash : RootPathHash;
      Children.insert(nullptr, Context, M);
    }
  }
  if (M != LastMirror) {
    OtherMirror = LastMirror;
    LastMirror = M;
  }
  RecentMirrors[mirrorSlot(Context)] = M;
  return M->OwnTarget ? M->Target : M;
}

Node *ThreadState::newNode(NodeKind Kind, NodeKey Key, Node *Parent, std::uint64_t Hash) {
  Node *N = Nodes.allocate();
  N->Kind = Kind;
  N->Key = Key;
  N->Parent = Parent;
  N->PathHash = Hash;
  if (isRegionKind(Kind)) {
    const Region &R = Regions.get(keyRegion(Key));
    N->OriginOpener = originOpener(R.Origin, keyOpener(Key));
    N->AfterConstruct =
        R.Descriptor.AfterConstruct && info(keyOpener(Key)).EventRole == Role::ENTER;
  }
  return N;
}

Node *ThreadState::localNodeOf(const Node *Path) {
  Node *L = Children.find(ChildIndex::PathTag, Path->PathHash);
  return L && samePath(L, Path) ? L : nullptr;
}

Node *ThreadState::localChildOf(const Node *Parent, NodeKey Key, std::uint64_t Hash) {
  Node *L = Children.find(ChildIndex::PathTag, Hash);
  if (!L)
    return nullptr;
  const Node *P = pathNode(L);
  return P && P->Key == Key && samePath(P->Parent, Parent) ? L : nullptr;
}

ChildIndex::Slot ThreadState::addChild(Node *Parent, NodeKey Key) {
  ChildIndex::Slot S{Parent, Key, nullptr, false};
  if (const Node *Above = onPath(Parent, Key)) {
    // Recursion: the visit counts at the node already on the call path. When
    // that node is another thread's, this thread counts its visits at an
    // Alias of it, which is this thread's node of that call path from now on.
    S.Folded = true;
    S.Child = localNodeOf(Above);
    if (!S.Child) {
      S.Child = newNode(NodeKind::Alias, Key, Parent, Above->PathHash);
      S.Child->Target = const_cast<Node *>(Above);
      if (!Children.find(ChildIndex::PathTag, Above->PathHash))
        Children.insert(ChildIndex::PathTag, Above->PathHash, S.Child);
    }
    makeRecursive(S.Child);
  } else {
    const std::uint64_t Hash = childPathHash(Parent->PathHash, Key);
    // The same call path reached through another parent (a context of a
    // thread whose node stands for one of this thread's): one node for both,
    // so that an open visit of it is recognised whichever way it was entered.
    S.Child = localChildOf(Parent, Key, Hash);
    if (S.Child) {
      makeRecursive(S.Child);
    } else {
      S.Child = newNode(NodeKind::Region, Key, Parent, Hash);
      if (!Children.find(ChildIndex::PathTag, Hash))
        Children.insert(ChildIndex::PathTag, Hash, S.Child);
    }
  }
  Children.insert(Parent, Key, S.Child, S.Folded);
  return S;
}

Node *ThreadState::childSlow(Node *Parent, NodeKey Key, bool &Folded) {
  // The children of an Inner node are its target's.
  Node *Base = Parent->Kind == NodeKind::Inner ? Parent->Target : Parent;
  ChildIndex::Slot S = Children.lookup(Base, Key);
  if (!S.Child)
    S = addChild(Base, Key);
  Node *C = S.Child;
  if (Base != Parent)
    makeRecursive(C);
  else if (!C->Recursive ||
           (!S.Folded && C->Kind == NodeKind::Region && visitsTracked(keyOpener(C->Key)))) {
    // A twin path's node of such an opener (a task body whose tasks several
    // threads create, run by a thread that created some of them) takes the
    // fast path from either parent: it tracks the visits too.
    if (Parent->LastChild != C)
      Parent->OtherChild = Parent->LastChild;
    Parent->LastChild = C;
  }
  SlowChildren[slowChildSlot(Parent, Key)] = {Parent, Key, C, S.Folded};
  Folded = S.Folded;
  return C;
}

void ThreadState::makeRecursive(Node *N) {
  if (N->Recursive)
    return;
  N->Recursive = true;
  if (N->Parent && N->Parent->LastChild == N)
    N->Parent->LastChild = &NoChild;
  if (N->Parent && N->Parent->OtherChild == N)
    N->Parent->OtherChild = &NoChild;
  // A visit the fast path entered, untracked: the outermost one counts.
  for (std::size_t I = 0; I < Stack.depth(); ++I)
    if (Stack.open(I).Region == N) {
      N->OpenFrame = static_cast<std::uint32_t>(I);
      break;
    }
}

Node *ThreadState::inner(Node *N) {
  if (!N->InnerNode) {
    Node *I = newNode(NodeKind::Inner, N->Key, N->Parent, N->PathHash);
    I->Target = N;
    I->Recursive = true;
    N->InnerNode = I;
  }
  return N->InnerNode;
}

ChildIndex::ChildIndex(std::size_t InitialCapacity) {
  std::size_t Capacity = MinCapacity;
  while (Capacity < InitialCapacity)
    Capacity *= 2;
  Slots.resize(Capacity);
}

void ChildIndex::insert(const Node *Parent, NodeKey Key, Node *Child, bool Folded) {
  // Keep the load at most one half so that probe sequences stay short.
  if (2 * (Used + 1) > Slots.size())
    grow();
  std::size_t I = hash(Parent, Key) & (Slots.size() - 1);
  while (Slots[I].Child)
    I = (I + 1) & (Slots.size() - 1);
  Slots[I] = {Parent, Key, Child, Folded};
  ++Used;
}

void ChildIndex::grow() {
  std::vector<Slot> Old(Slots.size() * 2);
  Old.swap(Slots);
  Used = 0;
  for (const Slot &S : Old)
    if (S.Child)
      insert(S.Parent, S.Key, S.Child, S.Folded);
}

} // namespace pomp::rt
