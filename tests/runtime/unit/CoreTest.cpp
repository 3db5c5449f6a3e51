//===- CoreTest.cpp - Event sequences in, profile out ---------------------===//
///
/// \file
/// Feeds the measurement core with event sequences and synthetic timestamps
/// and checks the merged profile exactly: visits, nesting, inclusive and
/// exclusive times, per-thread values and the anomaly counters.
///
//===----------------------------------------------------------------------===//

#include "CoreTestSupport.h"

#include <cstdint>
#include <thread>
#include <vector>

namespace pomp::rt::test {
namespace {

using E = EventId;

/// A fresh core and region table per test.
class CoreTest : public CoreFixture {};

TEST_F(CoreTest, NestedRegionsGiveInclusiveAndExclusiveTimes) {
  const RegionId A = region("type=userregion*name=a*file=t.c*slines=1,1");
  const RegionId B = region("type=userregion*name=b*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  C.enter(T, A, E::User_region_begin, 100);
  C.enter(T, B, E::User_region_begin, 110);
  EXPECT_EQ(C.leave(T, B, E::User_region_end, 130), LeaveResult::Closed);
  C.enter(T, B, E::User_region_begin, 140);
  EXPECT_EQ(C.leave(T, B, E::User_region_end, 150), LeaveResult::Closed);
  EXPECT_EQ(C.leave(T, A, E::User_region_end, 200), LeaveResult::Closed);

  const Profile P = C.collect(1000, OneNsPerTick);
  const ProfileNode *NA = find(P, {{A, E::User_region_begin}});
  const ProfileNode *NB = find(P, {{A, E::User_region_begin}, {B, E::User_region_begin}});
  ASSERT_NE(NA, nullptr);
  ASSERT_NE(NB, nullptr);
  EXPECT_EQ(NA->total().Visits, 1u);
  EXPECT_EQ(NA->total().InclusiveNs, 100u);
  EXPECT_EQ(NA->total().ExclusiveNs, 70u);
  EXPECT_EQ(NB->total().Visits, 2u);
  EXPECT_EQ(NB->total().InclusiveNs, 30u);
  EXPECT_EQ(NB->total().ExclusiveNs, 30u);
  EXPECT_EQ(NB->total().MinNs, 10u);
  EXPECT_EQ(NB->total().MaxNs, 20u);
  EXPECT_EQ(P.Nodes.size(), 3u) << "root, a, a/b";
  EXPECT_EQ(P.Threads.size(), 1u);
  EXPECT_EQ(P.Threads[0].Recorded, 6u);
  for (std::uint64_t Count : P.Anomalies)
    EXPECT_EQ(Count, 0u);
}

TEST_F(CoreTest, EnterExitAndBeginEndOfOneConstructAreTwoNodes) {
  const RegionId Crit = region("type=critical*name=x*file=t.c*slines=5,5");
  ThreadState &T = *C.attachThread();
  C.enter(T, Crit, E::Critical_enter, 0);
  C.enter(T, Crit, E::Critical_begin, 40);
  C.leave(T, Crit, E::Critical_end, 50);
  C.leave(T, Crit, E::Critical_exit, 55);

  const Profile P = C.collect(100, OneNsPerTick);
  const ProfileNode *Construct = find(P, {{Crit, E::Critical_enter}});
  const ProfileNode *Block = find(P, {{Crit, E::Critical_enter}, {Crit, E::Critical_begin}});
  ASSERT_NE(Construct, nullptr);
  ASSERT_NE(Block, nullptr);
  EXPECT_TRUE(Construct->Waiting) << "a critical construct's own time is waiting for the lock";
  EXPECT_FALSE(Block->Waiting);
  EXPECT_EQ(Construct->total().ExclusiveNs, 45u);
  EXPECT_EQ(Block->total().InclusiveNs, 10u);
}

TEST_F(CoreTest, ContextSpellingsShareOneNode) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  C.enter(T, Par, E::Parallel_enter, 0);
  C.leave(T, Par, E::Parallel_exit, 10);
  C.enter(T, Par, E::Parallel_fork, 20);
  C.leave(T, Par, E::Parallel_exit, 40);

  const Profile P = C.collect(100, OneNsPerTick);
  const ProfileNode *N = find(P, {{Par, E::Parallel_enter}});
  ASSERT_NE(N, nullptr);
  EXPECT_EQ(N->total().Visits, 2u);
  EXPECT_EQ(P.Nodes.size(), 2u);
}

TEST_F(CoreTest, SingleEventsCountUnderTheCurrentRegion) {
  const RegionId Loop = region("type=for*file=t.c*slines=3,3");
  const RegionId Flush = region("type=flush*file=t.c*slines=4,4");
  ThreadState &T = *C.attachThread();
  C.event(T, Flush, E::Flush_event, 1);
  C.enter(T, Loop, E::Loop_enter, 2);
  for (int I = 0; I < 5; ++I)
    C.event(T, Loop, E::Loop_iter_event, 3 + I);
  C.leave(T, Loop, E::Loop_exit, 20);

  const Profile P = C.collect(100, OneNsPerTick);
  const ProfileNode *TopFlush = find(P, {{Flush, E::Flush_event}});
  const ProfileNode *Iter = find(P, {{Loop, E::Loop_enter}, {Loop, E::Loop_iter_event}});
  ASSERT_NE(TopFlush, nullptr);
  ASSERT_NE(Iter, nullptr);
  EXPECT_EQ(TopFlush->total().Visits, 1u);
  EXPECT_EQ(Iter->total().Visits, 5u);
  EXPECT_EQ(Iter->total().InclusiveNs, 0u);
}

TEST_F(CoreTest, WorkersHangUnderTheForkOfTheirMaster) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Work = region("type=userregion*name=w*file=t.c*slines=2,2");
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();

  Node *Fork = C.enter(Master, Par, E::Parallel_fork, 0);
  const POMP_Context_t Ctx = Core::contextOf(Fork);
  for (ThreadState *T : {&Master, &Worker}) {
    C.enter(*T, Par, E::Parallel_begin_forked, 10, C.forkParent(*T, Ctx));
    C.enter(*T, Work, E::User_region_begin, 20);
    C.leave(*T, Work, E::User_region_end, T == &Master ? 50 : 80);
    C.leave(*T, Par, E::Parallel_end, 90);
  }
  C.leave(Master, Par, E::Parallel_exit, 100);

  const Profile P = C.collect(200, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}});
  const ProfileNode *W =
      find(P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}, {Work, E::User_region_begin}});
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(W, nullptr);
  EXPECT_EQ(Body->PerThread.size(), 2u);
  EXPECT_EQ(W->PerThread.size(), 2u);
  EXPECT_EQ(of(*W, Master.Index).InclusiveNs, 30u);
  EXPECT_EQ(of(*W, Worker.Index).InclusiveNs, 60u);
  EXPECT_DOUBLE_EQ(imbalance(*W), (60.0 - 45.0) / 60.0);
  EXPECT_EQ(P.Nodes.size(), 4u) << "root, parallel, body, work: the worker added no top-level node";
}

TEST_F(CoreTest, NestedForksThreeDeepOnRealThreads) {
  // Level L's team members fork level L+1; each fork's workers run on threads
  // of their own. Every innermost body must end up under the whole path.
  const RegionId Par[3] = {region("type=parallel*file=n.c*slines=1,1"),
                           region("type=parallel*file=n.c*slines=2,2"),
                           region("type=parallel*file=n.c*slines=3,3")};
  constexpr int TeamSize = 2;
  constexpr int Depth = 3;
  Tick Clock = 0;

  /// One team member's part of the nested forks, recursively.
  struct Team {
    static void run(Core &C, const RegionId *Par, int Level, POMP_Context_t Ctx, ThreadState &T,
                    Tick &Clock) {
      C.enter(T, Par[Level], E::Parallel_begin_forked, ++Clock, C.forkParent(T, Ctx));
      if (Level + 1 < Depth) {
        Node *Fork = C.enter(T, Par[Level + 1], E::Parallel_fork, ++Clock);
        const POMP_Context_t Inner = Core::contextOf(Fork);
        // The member is the master of the inner team; its workers are new threads.
        std::vector<std::thread> Workers;
        std::vector<Tick> Clocks(TeamSize - 1, Clock);
        for (int W = 0; W + 1 < TeamSize; ++W)
          Workers.emplace_back([&, W] {
            ThreadState &WT = *C.attachThread();
            run(C, Par, Level + 1, Inner, WT, Clocks[W]);
          });
        for (std::thread &Th : Workers)
          Th.join();
        run(C, Par, Level + 1, Inner, T, Clock);
        C.leave(T, Par[Level + 1], E::Parallel_exit, ++Clock);
      }
      C.leave(T, Par[Level], E::Parallel_end, ++Clock);
    }
  };

  ThreadState &Initial = *C.attachThread();
  Node *Fork = C.enter(Initial, Par[0], E::Parallel_fork, ++Clock);
  const POMP_Context_t Ctx = Core::contextOf(Fork);
  std::thread Worker([&] {
    Tick WorkerClock = 1;
    Team::run(C, Par, 0, Ctx, *C.attachThread(), WorkerClock);
  });
  Worker.join();
  Team::run(C, Par, 0, Ctx, Initial, Clock);
  C.leave(Initial, Par[0], E::Parallel_exit, ++Clock);

  const Profile P = C.collect(Clock + 1, OneNsPerTick);
  const ProfileNode *Innermost = find(P, {{Par[0], E::Parallel_enter},
                                          {Par[0], E::Parallel_begin},
                                          {Par[1], E::Parallel_enter},
                                          {Par[1], E::Parallel_begin},
                                          {Par[2], E::Parallel_enter},
                                          {Par[2], E::Parallel_begin}});
  ASSERT_NE(Innermost, nullptr);
  // 2 x 2 x 2 members at the innermost level, each visiting once.
  EXPECT_EQ(Innermost->total().Visits, 8u);
  EXPECT_EQ(Innermost->PerThread.size(), 8u);
  const ProfileNode *Middle = find(P, {{Par[0], E::Parallel_enter},
                                       {Par[0], E::Parallel_begin},
                                       {Par[1], E::Parallel_enter},
                                       {Par[1], E::Parallel_begin}});
  ASSERT_NE(Middle, nullptr);
  EXPECT_EQ(Middle->total().Visits, 4u);
  // Nothing else: root + 6 nodes on the path.
  EXPECT_EQ(P.Nodes.size(), 7u);
  EXPECT_EQ(P.Threads.size(), 8u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::InvalidContext)], 0u);
}

TEST_F(CoreTest, PlainBeginUsesTheMastersFrameOrTheLastFork) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Outer = region("type=userregion*name=o*file=t.c*slines=9,9");
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  C.enter(Master, Outer, E::User_region_begin, 0);
  Node *Fork = C.enter(Master, Par, E::Parallel_enter, 1);
  C.noteFork(Par, Fork);
  EXPECT_EQ(C.guessParent(Master, Par, E::Parallel_begin), Fork);
  C.enter(Master, Par, E::Parallel_begin, 2, C.guessParent(Master, Par, E::Parallel_begin));
  C.enter(Worker, Par, E::Parallel_begin, 2, C.guessParent(Worker, Par, E::Parallel_begin));
  C.leave(Worker, Par, E::Parallel_end, 5);
  C.leave(Master, Par, E::Parallel_end, 6);
  C.leave(Master, Par, E::Parallel_exit, 7);
  C.leave(Master, Outer, E::User_region_end, 8);

  const Profile P = C.collect(10, OneNsPerTick);
  const ProfileNode *Body =
      find(P, {{Outer, E::User_region_begin}, {Par, E::Parallel_enter}, {Par, E::Parallel_begin}});
  ASSERT_NE(Body, nullptr);
  EXPECT_EQ(Body->PerThread.size(), 2u);
}

TEST_F(CoreTest, PlainBeginWithoutAnyForkStaysAtTheThreadsPosition) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  ThreadState &Worker = *C.attachThread();
  C.enter(Worker, Par, E::Parallel_begin, 0, C.guessParent(Worker, Par, E::Parallel_begin));
  C.leave(Worker, Par, E::Parallel_end, 3);
  const Profile P = C.collect(10, OneNsPerTick);
  ASSERT_NE(find(P, {{Par, E::Parallel_begin}}), nullptr);
}

TEST_F(CoreTest, MissingEndIsClosedByTheEnclosingExit) {
  const RegionId Loop = region("type=for*file=t.c*slines=3,3");
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  C.enter(T, Par, E::Parallel_begin, 0);
  C.enter(T, Loop, E::Loop_enter, 10);
  // Cancellation: the loop's exit never comes.
  EXPECT_EQ(C.leave(T, Par, E::Parallel_end, 50), LeaveResult::ClosedInner);
  EXPECT_TRUE(T.Stack.empty());

  const Profile P = C.collect(100, OneNsPerTick);
  const ProfileNode *L = find(P, {{Par, E::Parallel_begin}, {Loop, E::Loop_enter}});
  ASSERT_NE(L, nullptr);
  EXPECT_EQ(L->total().InclusiveNs, 40u);
  EXPECT_EQ(find(P, {{Par, E::Parallel_begin}})->total().ExclusiveNs, 10u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::ClosedInnerRegions)], 1u);
}

TEST_F(CoreTest, UnmatchedEndChangesNothing) {
  const RegionId A = region("type=userregion*name=a*file=t.c*slines=1,1");
  const RegionId B = region("type=userregion*name=b*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  C.enter(T, A, E::User_region_begin, 0);
  EXPECT_EQ(C.leave(T, B, E::User_region_end, 5), LeaveResult::NoMatch);
  // The same region, but an exit that closes an enter, does not close a begin.
  EXPECT_EQ(C.leave(T, A, E::Function_exit, 6), LeaveResult::NoMatch);
  ASSERT_EQ(T.Stack.depth(), 1u);
  EXPECT_EQ(C.leave(T, A, E::User_region_end, 9), LeaveResult::Closed);
  const Profile P = C.collect(10, OneNsPerTick);
  EXPECT_EQ(find(P, {{A, E::User_region_begin}})->total().InclusiveNs, 9u);
  EXPECT_EQ(P.Nodes.size(), 2u);
}

TEST_F(CoreTest, RegionsOpenAtFinalizationAreClosedThereAndCounted) {
  const RegionId A = region("type=userregion*name=a*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  C.enter(T, A, E::User_region_begin, 10);
  C.enter(T, A, E::User_region_begin, 20);
  const Profile P = C.collect(100, OneNsPerTick);
  // The inner visit recurs into the outer one's node (FoldingTest.cpp).
  const ProfileNode *Outer = find(P, {{A, E::User_region_begin}});
  ASSERT_NE(Outer, nullptr);
  EXPECT_EQ(Outer->total().Visits, 2u);
  EXPECT_EQ(Outer->total().InclusiveNs, 90u);
  EXPECT_EQ(Outer->total().ExclusiveNs, 90u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::OpenAtFinalize)], 2u);
}

TEST_F(CoreTest, GarbageContextGoesToTheTopLevel) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  ThreadState &T = *C.attachThread();
  constexpr POMP_Context_t Garbage = 0x1234;
  C.enter(T, Par, E::Parallel_begin_forked, 0, C.forkParent(T, Garbage));
  C.leave(T, Par, E::Parallel_end, 3);
  const Profile P = C.collect(10, OneNsPerTick);
  ASSERT_NE(find(P, {{Par, E::Parallel_begin}}), nullptr);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::InvalidContext)], 1u);
}

TEST_F(CoreTest, TasksHangUnderTheirCreationButChargeTimeWhereTheyRan) {
  const RegionId Task = region("type=task*file=t.c*slines=1,1");
  const RegionId Wait = region("type=taskwait*file=t.c*slines=5,5");
  ThreadState &T = *C.attachThread();
  Node *Create = C.enter(T, Task, E::Task_create_enter, 0);
  const POMP_Context_t Ctx = Core::contextOf(Create);
  C.leave(T, Task, E::Task_create_exit, 2);
  C.enter(T, Wait, E::Taskwait_enter, 10);
  // The thread runs the deferred task inside the taskwait.
  C.enter(T, Task, E::Task_begin, 12, C.forkParent(T, Ctx));
  C.leave(T, Task, E::Task_end, 42);
  C.leave(T, Wait, E::Taskwait_exit, 50);

  const Profile P = C.collect(100, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Task, E::Task_create_enter}, {Task, E::Task_begin}});
  const ProfileNode *TW = find(P, {{Wait, E::Taskwait_enter}});
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(TW, nullptr);
  EXPECT_EQ(Body->total().InclusiveNs, 30u);
  EXPECT_EQ(TW->total().InclusiveNs, 40u);
  EXPECT_EQ(TW->total().ExclusiveNs, 10u) << "the task's time is not waiting";
  EXPECT_TRUE(TW->Waiting);
}

TEST_F(CoreTest, TimestampsGoingBackwardsGiveNoNegativeTimes) {
  // A thread that moved to a core whose clock lags: an end before its begin
  // counts as 0, and nested time longer than the visit's own leaves that
  // visit's exclusive time at 0 instead of wrapping around.
  const RegionId A = region("type=userregion*name=a*file=t.c*slines=1,1");
  const RegionId B = region("type=userregion*name=b*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  C.enter(T, A, E::User_region_begin, 100);
  C.enter(T, B, E::User_region_begin, 80);
  C.leave(T, B, E::User_region_end, 95);
  C.leave(T, A, E::User_region_end, 90);
  C.enter(T, A, E::User_region_begin, 200);
  C.leave(T, A, E::User_region_end, 203);

  const Profile P = C.collect(1000, OneNsPerTick);
  const ProfileNode *NA = find(P, {{A, E::User_region_begin}});
  const ProfileNode *NB = find(P, {{A, E::User_region_begin}, {B, E::User_region_begin}});
  ASSERT_NE(NA, nullptr);
  ASSERT_NE(NB, nullptr);
  EXPECT_EQ(NB->total().InclusiveNs, 15u);
  EXPECT_EQ(NA->total().Visits, 2u);
  EXPECT_EQ(NA->total().InclusiveNs, 3u);
  EXPECT_EQ(NA->total().MinNs, 0u);
  EXPECT_EQ(NA->total().MaxNs, 3u);
  EXPECT_EQ(NA->total().ExclusiveNs, 3u) << "the second visit's own time";
}

TEST_F(CoreTest, ManyChildrenOfOneNodeAreFoundAgain) {
  ThreadState &T = *C.attachThread();
  std::vector<RegionId> Ids;
  constexpr int Regions = 500;
  for (int I = 0; I < Regions; ++I)
    Ids.push_back(region("type=userregion*name=r" + std::to_string(I) + "*file=t.c*slines=1,1"));
  constexpr int Rounds = 3;
  Tick Now = 0;
  for (int Round = 0; Round < Rounds; ++Round)
    for (RegionId R : Ids) {
      C.enter(T, R, E::User_region_begin, Now++);
      C.leave(T, R, E::User_region_end, Now++);
    }
  const Profile P = C.collect(Now, OneNsPerTick);
  ASSERT_EQ(P.Nodes.size(), static_cast<std::size_t>(Regions) + 1);
  for (std::size_t I = 1; I < P.Nodes.size(); ++I)
    EXPECT_EQ(P.Nodes[I].total().Visits, static_cast<std::uint64_t>(Rounds));
}

TEST_F(CoreTest, ChildrenAreOrderedByRegionAndTicksConvertToNanoseconds) {
  const RegionId A = region("type=userregion*name=a*file=t.c*slines=1,1");
  const RegionId B = region("type=userregion*name=b*file=t.c*slines=2,2");
  ThreadState &T = *C.attachThread();
  C.enter(T, B, E::User_region_begin, 0);
  C.leave(T, B, E::User_region_end, 10);
  C.enter(T, A, E::User_region_begin, 10);
  C.leave(T, A, E::User_region_end, 30);
  constexpr double HalfNsPerTick = 0.5;
  const Profile P = C.collect(40, HalfNsPerTick);
  ASSERT_EQ(P.Nodes[0].Children.size(), 2u);
  EXPECT_EQ(P.Nodes[P.Nodes[0].Children[0]].Region, A);
  EXPECT_EQ(P.Nodes[P.Nodes[0].Children[0]].total().InclusiveNs, 10u);
  EXPECT_EQ(P.Nodes[P.Nodes[0].Children[1]].total().InclusiveNs, 5u);
}

TEST_F(CoreTest, EveryNodeNamesTheSourceAndOpenerOfItsRegion) {
  // The OMPT adapter's callbacks decide from the innermost node's
  // OriginOpener alone whether instrumented code reports their construct
  // (most of them return there): a region node carries its region's origin
  // and its canonical opener, every other node 0.
  const RegionId Pomp = region("type=barrier*file=t.c*slines=1,1");
  pomp::ctc::RegionDescriptor Barrier;
  Barrier.Type = "barrier";
  Barrier.Kind = pomp::ctc::regionKindFromSpelling("barrier");
  const RegionId Ompt =
      Regions.registerDescriptor("ompt:barrier@0x10", Barrier, RegionOrigin::Ompt, 0x10).Id;
  ASSERT_NE(Ompt, 0u);
  ThreadState &T = *C.attachThread();
  EXPECT_EQ(T.current()->OriginOpener, 0u) << "the thread's root";
  C.enter(T, Pomp, E::Implicit_barrier_enter, 0);
  const std::uint16_t PompBarrier =
      originOpener(RegionOrigin::Pomp, canonicalOpener(E::Implicit_barrier_enter));
  EXPECT_EQ(T.current()->OriginOpener, PompBarrier);
  C.enter(T, Ompt, E::Implicit_barrier_enter, 1);
  const std::uint16_t OmptBarrier =
      originOpener(RegionOrigin::Ompt, canonicalOpener(E::Implicit_barrier_enter));
  EXPECT_EQ(T.current()->OriginOpener, OmptBarrier);
  EXPECT_NE(OmptBarrier, PompBarrier);
  // Entered again below itself: the node that counts the nested visit says
  // the same.
  C.enter(T, Pomp, E::Implicit_barrier_enter, 2);
  EXPECT_EQ(T.current()->OriginOpener, PompBarrier);
  C.leave(T, Pomp, E::Implicit_barrier_exit, 3);
  C.leave(T, Ompt, E::Implicit_barrier_exit, 4);
  C.leave(T, Pomp, E::Implicit_barrier_exit, 5);
  EXPECT_EQ(T.current()->OriginOpener, 0u);
  // A fork context's mirror on another thread stands for no region.
  const POMP_Context_t Fork = Core::contextOf(C.enter(T, Pomp, E::Parallel_fork, 6));
  ThreadState &Worker = *C.attachThread();
  EXPECT_EQ(C.forkParent(Worker, Fork)->OriginOpener, 0u);
}

TEST_F(CoreTest, NoThreadsAttachAfterStopping) {
  EXPECT_NE(C.attachThread(), nullptr);
  EXPECT_EQ(C.stopAttaching().size(), 1u);
  EXPECT_EQ(C.attachThread(), nullptr);
}

} // namespace
} // namespace pomp::rt::test
