//===- FoldingTest.cpp - Recursion folding in the call-path tree ----------===//
///
/// \file
/// Recursive regions and recursive tasks fed to the core with synthetic
/// timestamps: the tree keeps one node per call path without repetitions
/// (docs/PROFILE_FORMAT.md, "Recursion"), visits stay exact, inclusive time
/// counts each stretch of time once per node and thread, exclusive time stays
/// what the thread spent there.
///
//===----------------------------------------------------------------------===//

#include "CoreTestSupport.h"

#include <cstdint>
#include <map>

namespace pomp::rt::test {
namespace {

using E = EventId;

/// A fresh core and region table per test.
class FoldingTest : public CoreFixture {};

TEST_F(FoldingTest, RecursiveRegionCountsAtItsNodeAndItsTimeOnce) {
  // f(3) calls f(2) calls f(1): 0 [1 [2 3] 5] 9.
  const RegionId F = region("type=function*name=f*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  C.enter(T, F, E::Function_begin, 0);
  C.enter(T, F, E::Function_begin, 1);
  C.enter(T, F, E::Function_begin, 2);
  C.leave(T, F, E::Function_end, 3);
  C.leave(T, F, E::Function_end, 5);
  C.leave(T, F, E::Function_end, 9);
  const Profile P = C.collect(10, OneNsPerTick);
  ASSERT_EQ(P.Nodes.size(), 2u) << "the program root and f";
  const ThreadMetrics M = P.Nodes[1].total();
  EXPECT_EQ(M.Visits, 3u);
  EXPECT_EQ(M.InclusiveNs, 9u) << "the outermost visit only";
  EXPECT_EQ(M.ExclusiveNs, 9u) << "(9 - 4) + (4 - 1) + 1";
  EXPECT_EQ(M.MinNs, 1u);
  EXPECT_EQ(M.MaxNs, 9u);
  EXPECT_EQ(M.FoldedVisits, 2u);
  EXPECT_EQ(M.NestedVisits, 2u);
}

TEST_F(FoldingTest, MutualRecursionKeepsOneNodePerSiteSequence) {
  // a -> b -> a -> b -> a, one tick of own time per visit on the way down.
  const RegionId A = region("type=function*name=a*file=t.c*slines=1,1");
  const RegionId B = region("type=function*name=b*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  Tick Now = 0;
  const RegionId Order[] = {A, B, A, B, A};
  for (RegionId R : Order)
    C.enter(T, R, E::Function_begin, Now++);
  for (int I = 4; I >= 0; --I)
    C.leave(T, Order[I], E::Function_end, Now++);
  const Profile P = C.collect(Now, OneNsPerTick);
  ASSERT_EQ(P.Nodes.size(), 3u) << "root, a, a/b";
  const ProfileNode *NA = find(P, {{A, E::Function_begin}});
  const ProfileNode *NB = find(P, {{A, E::Function_begin}, {B, E::Function_begin}});
  ASSERT_NE(NA, nullptr);
  ASSERT_NE(NB, nullptr);
  EXPECT_EQ(NA->total().Visits, 3u);
  EXPECT_EQ(NB->total().Visits, 2u);
  EXPECT_EQ(NA->total().InclusiveNs, 9u);
  EXPECT_EQ(NB->total().InclusiveNs, 7u);
  EXPECT_EQ(NA->total().ExclusiveNs + NB->total().ExclusiveNs, 9u) << "all of the thread's time";
  EXPECT_EQ(NA->total().FoldedVisits, 2u) << "a entered below a, twice";
  EXPECT_EQ(NA->total().NestedVisits, 2u);
  EXPECT_EQ(NB->total().NestedVisits, 1u);
}

TEST_F(FoldingTest, DeepRecursionStaysOneNode) {
  const RegionId F = region("type=function*name=f*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  constexpr int Depth = 20000;
  for (int I = 0; I < Depth; ++I)
    C.enter(T, F, E::Function_begin, I);
  for (int I = Depth; I > 0; --I)
    C.leave(T, F, E::Function_end, 2 * Depth - I);
  const Profile P = C.collect(3 * Depth, OneNsPerTick);
  ASSERT_EQ(P.Nodes.size(), 2u);
  EXPECT_EQ(P.Nodes[1].total().Visits, static_cast<std::uint64_t>(Depth));
  EXPECT_EQ(P.Nodes[1].total().InclusiveNs, static_cast<std::uint64_t>(2 * Depth - 1));
  EXPECT_EQ(P.Nodes[1].total().ExclusiveNs, static_cast<std::uint64_t>(2 * Depth - 1));
  EXPECT_EQ(P.Nodes[1].total().FoldedVisits, static_cast<std::uint64_t>(Depth - 1));
}

TEST_F(FoldingTest, SiblingTaskRunInsideATaskwaitCountsItsTimeOnce) {
  // Two tasks of one construct; the thread runs the second inside the first's
  // taskwait. No recursion, but the task's node is open when it is entered
  // again: the inner visit adds its visit and exclusive time only.
  const RegionId Task = region("type=task*file=t.c*slines=1,1");
  const RegionId Wait = region("type=taskwait*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  Node *Create = C.enter(T, Task, E::Task_create_enter, 0);
  const POMP_Context_t Ctx = Core::contextOf(Create);
  C.leave(T, Task, E::Task_create_exit, 1);
  C.enter(T, Task, E::Task_create_enter, 1);
  C.leave(T, Task, E::Task_create_exit, 2);
  C.enter(T, Task, E::Task_begin, 10, C.forkParent(T, Ctx));
  C.enter(T, Wait, E::Taskwait_enter, 12);
  C.enter(T, Task, E::Task_begin, 13, C.forkParent(T, Ctx));
  C.leave(T, Task, E::Task_end, 20);
  C.leave(T, Wait, E::Taskwait_exit, 21);
  C.leave(T, Task, E::Task_end, 30);

  const Profile P = C.collect(40, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Task, E::Task_create_enter}, {Task, E::Task_begin}});
  ASSERT_NE(Body, nullptr);
  EXPECT_EQ(Body->total().Visits, 2u);
  EXPECT_EQ(Body->total().InclusiveNs, 20u) << "the outer visit, which holds the inner one";
  EXPECT_EQ(Body->total().ExclusiveNs, 11u + 7u);
  EXPECT_EQ(Body->total().NestedVisits, 1u);
  EXPECT_EQ(Body->total().FoldedVisits, 0u);
}

/// fib(N) with tasks, as DataRaceBench's DRB105: each call of N >= 2 creates
/// two tasks and waits for them. Two threads; which one runs a task alternates
/// with N, so task creation chains cross between the threads' trees.
class TaskFib {
public:
  TaskFib(Core &C, ThreadState &T0, ThreadState &T1, RegionId A, RegionId B, RegionId Wait)
      : C(C), Threads{&T0, &T1}, A(A), B(B), Wait(Wait) {}

  /// The body of a fib(N) call on thread Who.
  void body(int Who, int N) {
    if (N < 2)
      return;
    ThreadState &T = *Threads[Who];
    const POMP_Context_t ContextA = create(T, A);
    const POMP_Context_t ContextB = create(T, B);
    C.enter(T, Wait, E::Taskwait_enter, Now++);
    run(N % 2 == 0 ? 1 - Who : Who, A, ContextA, N - 1);
    run(Who, B, ContextB, N - 2);
    C.leave(T, Wait, E::Taskwait_exit, Now++);
  }

  Tick Now = 0;
  std::map<RegionId, std::uint64_t> Tasks;

private:
  POMP_Context_t create(ThreadState &T, RegionId R) {
    const POMP_Context_t Context = Core::contextOf(C.enter(T, R, E::Task_create_enter, Now++));
    C.leave(T, R, E::Task_create_exit, Now++);
    return Context;
  }

  void run(int Who, RegionId R, POMP_Context_t Context, int N) {
    ThreadState &T = *Threads[Who];
    ++Tasks[R];
    C.enter(T, R, E::Task_begin, Now++, C.forkParent(T, Context));
    body(Who, N);
    C.leave(T, R, E::Task_end, Now++);
  }

  Core &C;
  ThreadState *Threads[2];
  RegionId A, B, Wait;
};

TEST_F(FoldingTest, RecursiveTasksAcrossThreadsGiveABoundedTreeAndExactCounts) {
  const RegionId Main = region("type=userregion*name=main*file=t.c*slines=1,1");
  const RegionId A = region("type=task*file=t.c*slines=7,7");
  const RegionId B = region("type=task*file=t.c*slines=9,9");
  const RegionId Wait = region("type=taskwait*file=t.c*slines=11,11");
  ThreadState &T0 = *C.attachThread();
  ThreadState &T1 = *C.attachThread();
  TaskFib Fib(C, T0, T1, A, B, Wait);
  constexpr int N = 16;
  C.enter(T0, Main, E::User_region_begin, Fib.Now++);
  Fib.body(0, N);
  C.leave(T0, Main, E::User_region_end, Fib.Now++);
  const Profile P = C.collect(Fib.Now, OneNsPerTick);

  // root, main, per task site: create, task, and below each task its taskwait
  // and the creations of the site not yet on the path with their tasks.
  EXPECT_LT(P.Nodes.size(), 20u);
  std::map<std::pair<RegionId, EventId>, std::uint64_t> Visits;
  std::uint64_t T0Exclusive = 0;
  for (std::size_t I = 1; I < P.Nodes.size(); ++I) {
    const ProfileNode &Node = P.Nodes[I];
    Visits[{Node.Region, Node.Opener}] += Node.total().Visits;
    T0Exclusive += of(Node, 0).ExclusiveNs;
    for (const ThreadMetrics &M : Node.PerThread)
      EXPECT_LE(M.ExclusiveNs, M.InclusiveNs) << "node " << I << " thread " << M.Thread;
  }
  const std::uint64_t Calls = Fib.Tasks[A];
  EXPECT_EQ(Fib.Tasks[A], Fib.Tasks[B]);
  EXPECT_EQ((Visits[{A, E::Task_begin}]), Fib.Tasks[A]);
  EXPECT_EQ((Visits[{B, E::Task_begin}]), Fib.Tasks[B]);
  EXPECT_EQ((Visits[{A, E::Task_create_enter}]), Calls);
  EXPECT_EQ((Visits[{Wait, E::Taskwait_enter}]), Calls);
  // Thread 0 was inside main all the time: its exclusive times add up to it.
  const ProfileNode *MainNode = find(P, {{Main, E::User_region_begin}});
  ASSERT_NE(MainNode, nullptr);
  EXPECT_EQ(T0Exclusive, of(*MainNode, 0).InclusiveNs);
  EXPECT_EQ(MainNode->total().InclusiveNs, Fib.Now - 1);
  // A task of site A under a task of site A folded back onto the first one.
  const ProfileNode *TaskA =
      find(P, {{Main, E::User_region_begin}, {A, E::Task_create_enter}, {A, E::Task_begin}});
  ASSERT_NE(TaskA, nullptr);
  EXPECT_EQ(find(P, {{Main, E::User_region_begin},
                     {A, E::Task_create_enter},
                     {A, E::Task_begin},
                     {A, E::Task_create_enter}}),
            nullptr);
  std::uint64_t Folded = 0;
  for (const ProfileNode &Node : P.Nodes)
    Folded += Node.total().FoldedVisits;
  EXPECT_GT(Folded, 0u);
}

TEST_F(FoldingTest, TasksOfEveryThreadTakeTheFastPathOnTheThreadThatRunsThem) {
  // Both threads of a team create tasks of one construct; thread 1 runs its
  // own and thread 0's, as at a barrier. The task body has one node for both
  // parents (a twin path: thread 1's creation node and its mirror of thread
  // 0's are the same call path), and after the first visit through each
  // parent both contexts and the node come from the fast path's caches, as
  // the POMP adapter finds them, with its visits tracked: a task run while a
  // visit is open takes the general path (its Inner node).
  const RegionId Par = region("type=parallel*file=t.c*slines=1,9");
  const RegionId Task = region("type=task*file=t.c*slines=3,3");
  const RegionId Wait = region("type=taskwait*file=t.c*slines=5,5");
  ThreadState &T0 = *C.attachThread();
  ThreadState &T1 = *C.attachThread();
  Tick Now = 0;
  const POMP_Context_t Fork = Core::contextOf(C.enter(T0, Par, E::Parallel_fork, Now++));
  C.enter(T0, Par, E::Parallel_begin_forked, Now++, C.forkParent(T0, Fork));
  C.enter(T1, Par, E::Parallel_begin_forked, Now++, C.forkParent(T1, Fork));
  auto create = [&](ThreadState &T) {
    const POMP_Context_t Context = Core::contextOf(C.enter(T, Task, E::Task_create_enter, Now++));
    C.leave(T, Task, E::Task_create_exit, Now++);
    return Context;
  };
  const NodeKey Body = makeKey(Task, E::Task_begin);
  constexpr int Rounds = 5;
  int FastVisits = 0;
  for (int Round = 0; Round < Rounds; ++Round) {
    const POMP_Context_t Contexts[] = {create(T0), create(T1)};
    for (POMP_Context_t Context : Contexts) {
      Node *Parent = Core::cachedForkParent(T1, Context);
      Node *N = Parent ? Core::cachedChild(T1, Parent, Body) : nullptr;
      if (N && Core::enterCachedTracked(T1, N, [&] { return Now++; })) {
        ++FastVisits;
      } else {
        EXPECT_LE(Round, 1) << "after two rounds both parents hold the node";
        C.enter(T1, Task, E::Task_begin, Now++, C.forkParent(T1, Context));
      }
      C.leave(T1, Task, E::Task_end, Now++);
    }
  }
  // The general path: the first visit through each parent, and the second
  // through thread 0's mirror, whose cache the twin's discovery cleared.
  EXPECT_EQ(FastVisits, 2 * Rounds - 3);
  // Thread 0's task, and inside its taskwait thread 1's: the node is open.
  const POMP_Context_t Outer = create(T0);
  const POMP_Context_t Inner = create(T1);
  Node *N = Core::cachedChild(T1, Core::cachedForkParent(T1, Outer), Body);
  ASSERT_NE(N, nullptr);
  ASSERT_NE(Core::enterCachedTracked(T1, N, [&] { return Now++; }), nullptr);
  C.enter(T1, Wait, E::Taskwait_enter, Now++);
  Node *Again = Core::cachedChild(T1, Core::cachedForkParent(T1, Inner), Body);
  EXPECT_EQ(Again, N) << "one node for both parents";
  EXPECT_EQ(Core::enterCachedTracked(T1, Again, [&] { return Now++; }), nullptr);
  C.enter(T1, Task, E::Task_begin, Now++, C.forkParent(T1, Inner));
  C.leave(T1, Task, E::Task_end, Now++);
  C.leave(T1, Wait, E::Taskwait_exit, Now++);
  C.leave(T1, Task, E::Task_end, Now++);
  C.leave(T1, Par, E::Parallel_end, Now++);
  C.leave(T0, Par, E::Parallel_end, Now++);
  C.leave(T0, Par, E::Parallel_exit, Now++);

  const Profile P = C.collect(Now, OneNsPerTick);
  const ProfileNode *Merged = find(P, {{Par, E::Parallel_enter},
                                       {Par, E::Parallel_begin},
                                       {Task, E::Task_create_enter},
                                       {Task, E::Task_begin}});
  ASSERT_NE(Merged, nullptr);
  EXPECT_EQ(of(*Merged, 1).Visits, 2u * Rounds + 2);
  EXPECT_EQ(of(*Merged, 1).NestedVisits, 1u);
  EXPECT_EQ(of(*Merged, 0).Visits, 0u);
}

TEST_F(FoldingTest, GarbageContextIsNotFollowed) {
  // A context that names no node: the task goes to the top level, and the
  // search for recursion does not read through it.
  const RegionId Task = region("type=task*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  constexpr POMP_Context_t Garbage = 0x1000;
  C.enter(T, Task, E::Task_begin, 0, C.forkParent(T, Garbage));
  C.enter(T, Task, E::Task_create_enter, 1);
  C.leave(T, Task, E::Task_create_exit, 2);
  C.leave(T, Task, E::Task_end, 3);
  const Profile P = C.collect(10, OneNsPerTick);
  ASSERT_NE(find(P, {{Task, E::Task_begin}, {Task, E::Task_create_enter}}), nullptr);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::InvalidContext)], 1u);
}

} // namespace
} // namespace pomp::rt::test
