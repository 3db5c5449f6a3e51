//===- TeamsTest.cpp - Late team ends reconstructed by the core -----------===//
///
/// \file
/// The OpenMP runtime may never deliver a worker's implicit-task end before
/// finalisation (libomp does so at shutdown). Core::closeEndedTeams() closes
/// such regions at their team's end, and only when the team instance still is
/// the one the worker joined (the master's ring reuses slots).
///
//===----------------------------------------------------------------------===//

#include "CoreTestSupport.h"

#include <vector>

namespace pomp::rt::test {
namespace {

using E = EventId;

class TeamsTest : public CoreFixture {
protected:
  /// A worker thread that entered the implicit task of Team under Fork at
  /// Start, with a barrier inside it from Start + 10.
  void joinTeam(ThreadState &Worker, TeamInstance &Team, RegionId Par, RegionId Bar, Tick Start) {
    C.enter(Worker, Par, E::Parallel_begin, Start,
            C.forkParent(Worker, Core::contextOf(Team.Id.Fork)));
    ImplicitTask &Task = Worker.Teams.Tasks.emplace_back();
    Task.Team = &Team;
    Task.Generation = Team.Generation.load();
    Task.Depth = static_cast<std::uint32_t>(Worker.Stack.depth());
    C.enter(Worker, Bar, E::Implicit_barrier_enter, Start + 10);
  }
};

TEST_F(TeamsTest, RegionsOfAnEndedTeamCloseAtItsEnd) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Bar = region("type=implicitbarrier*file=t.c*slines=1,1");
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  TeamInstance &Team = Master.Teams.nextInstance();
  Team.Id.Fork = C.enter(Master, Par, E::Parallel_enter, 0);
  joinTeam(Worker, Team, Par, Bar, 5);
  Team.ended(100);
  C.leave(Master, Par, E::Parallel_exit, 100);

  C.closeEndedTeams({&Master, &Worker});
  EXPECT_TRUE(Worker.Stack.empty());
  EXPECT_TRUE(Worker.Teams.Tasks.empty());

  const Profile P = C.collect(10000, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}});
  const ProfileNode *Wait = find(
      P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}, {Bar, E::Implicit_barrier_enter}});
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(Wait, nullptr);
  EXPECT_EQ(of(*Body, Worker.Index).InclusiveNs, 95u) << "closed at the team's end, not at 10000";
  EXPECT_EQ(of(*Wait, Worker.Index).InclusiveNs, 85u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::OpenAtFinalize)], 0u);
}

TEST_F(TeamsTest, ATeamStillRunningOrAReusedSlotIsLeftOpen) {
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Bar = region("type=implicitbarrier*file=t.c*slines=1,1");
  ThreadState &Master = *C.attachThread();
  ThreadState &Running = *C.attachThread();
  ThreadState &Stale = *C.attachThread();
  TeamInstance &Team = Master.Teams.nextInstance();
  Team.Id.Fork = C.enter(Master, Par, E::Parallel_enter, 0);
  joinTeam(Running, Team, Par, Bar, 5);
  joinTeam(Stale, Team, Par, Bar, 5);
  // The worker "Stale" joined an earlier use of the slot.
  Stale.Teams.Tasks[0].Generation -= 1;

  C.closeEndedTeams({&Master, &Running, &Stale});
  EXPECT_EQ(Running.Stack.depth(), 2u) << "the team has not ended";
  Team.ended(100);
  C.closeEndedTeams({&Stale});
  EXPECT_EQ(Stale.Stack.depth(), 2u) << "its team instance was reused";
  C.closeEndedTeams({&Running});
  EXPECT_TRUE(Running.Stack.empty());
}

TEST_F(TeamsTest, NestedTeamsCloseInnermostFirst) {
  const RegionId Outer = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Inner = region("type=parallel*file=t.c*slines=2,2");
  const RegionId Bar = region("type=implicitbarrier*file=t.c*slines=2,2");
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  TeamInstance &OuterTeam = Master.Teams.nextInstance();
  OuterTeam.Id.Fork = C.enter(Master, Outer, E::Parallel_enter, 0);
  joinTeam(Worker, OuterTeam, Outer, Bar, 1);
  C.leave(Worker, Bar, E::Implicit_barrier_exit, 20);
  // The worker forks the inner team itself and its own worker is elsewhere.
  TeamInstance &InnerTeam = Worker.Teams.nextInstance();
  InnerTeam.Id.Fork = C.enter(Worker, Inner, E::Parallel_enter, 30);
  joinTeam(Worker, InnerTeam, Inner, Bar, 40);
  InnerTeam.ended(60);
  OuterTeam.ended(80);

  C.closeEndedTeams({&Worker});
  // The inner implicit task closed at 60; the outer one at 80, with the inner
  // fork (never closed by its end event) inside it.
  EXPECT_TRUE(Worker.Stack.empty());
  const Profile P = C.collect(1000, OneNsPerTick);
  const ProfileNode *InnerBody = find(P, {{Outer, E::Parallel_enter},
                                          {Outer, E::Parallel_begin},
                                          {Inner, E::Parallel_enter},
                                          {Inner, E::Parallel_begin}});
  ASSERT_NE(InnerBody, nullptr);
  EXPECT_EQ(of(*InnerBody, Worker.Index).InclusiveNs, 20u);
  const ProfileNode *OuterBody = find(P, {{Outer, E::Parallel_enter}, {Outer, E::Parallel_begin}});
  ASSERT_NE(OuterBody, nullptr);
  EXPECT_EQ(of(*OuterBody, Worker.Index).InclusiveNs, 79u);
}

// A slot's end belongs to one generation: a member whose end comes late reads its team's end even
// after the master reused the slot for a new team (the fork writes only the master's own line),
// and nothing once the new team ended too.
TEST_F(TeamsTest, ATeamsEndOutlivesTheForkThatReusesItsSlot) {
  ThreadTeams Teams;
  TeamInstance &Team = Teams.nextInstance();
  const auto First = static_cast<std::uint16_t>(Team.Generation.load());
  EXPECT_EQ(Team.endOf(First), 0u) << "running";
  Team.ended(100);
  Team.Running = false;
  EXPECT_EQ(Team.endOf(First), 100u);
  for (std::size_t I = 0; I < ThreadTeams::RingSize; ++I)
    Teams.nextInstance().Running = false;
  ASSERT_NE(static_cast<std::uint16_t>(Team.Generation.load()), First) << "the slot was reused";
  EXPECT_EQ(Team.endOf(First), 100u);
  Team.ended(200);
  EXPECT_EQ(Team.endOf(First), 0u) << "a later team's end is not this team's";
  EXPECT_EQ(Team.endOf(static_cast<std::uint16_t>(Team.Generation.load())), 200u);
}

// A master inside 100 nested teams masters 100 running teams: none of their instances may be
// reused for the next one (issue 13: from the 17th nested region a worker's subtree hung under
// the wrong node). Ended teams are reused round-robin.
TEST_F(TeamsTest, RunningTeamsAreNeverReused) {
  ThreadState &Master = *C.attachThread();
  constexpr std::size_t Depth = 100;
  std::vector<TeamInstance *> Nested;
  for (std::size_t I = 0; I < Depth; ++I) {
    TeamInstance &Team = Master.Teams.nextInstance();
    for (TeamInstance *Outer : Nested)
      ASSERT_NE(Outer, &Team) << "level " << I;
    Nested.push_back(&Team);
  }
  EXPECT_EQ(Master.Teams.Ring.size(), Depth);
  for (auto It = Nested.rbegin(); It != Nested.rend(); ++It)
    (*It)->Running = false;
  // All ended: the ring does not grow any more.
  for (std::size_t I = 0; I < 2 * Depth; ++I)
    Master.Teams.nextInstance().Running = false;
  EXPECT_EQ(Master.Teams.Ring.size(), Depth);
}

} // namespace
} // namespace pomp::rt::test
