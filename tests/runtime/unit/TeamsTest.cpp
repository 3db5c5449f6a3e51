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
  /// The parallel construct most tests fork and its implicit barrier.
  const RegionId Par = region("type=parallel*file=t.c*slines=1,1");
  const RegionId Bar = region("type=implicitbarrier*file=t.c*slines=1,1");

  /// Par's body and its barrier in a profile (nullptr when missing).
  const ProfileNode *body(const Profile &P) const {
    return find(P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}});
  }
  const ProfileNode *wait(const Profile &P) const {
    return find(
        P, {{Par, E::Parallel_enter}, {Par, E::Parallel_begin}, {Bar, E::Implicit_barrier_enter}});
  }

  /// A worker thread that entered the implicit task of Team under Fork at
  /// Start, with a barrier inside it from Start + 10.
  void joinTeam(ThreadState &Worker, TeamInstance &Team, RegionId Body, RegionId Barrier,
                Tick Start) {
    C.enter(Worker, Body, E::Parallel_begin, Start,
            C.forkParent(Worker, Core::contextOf(Team.Id.Fork)));
    ImplicitTask &Task = Worker.Teams.Tasks.emplace_back();
    Task.Team = &Team;
    Task.Generation = Team.Generation.load();
    Task.Depth = static_cast<std::uint32_t>(Worker.Stack.depth());
    C.enter(Worker, Barrier, E::Implicit_barrier_enter, Start + 10);
  }
  /// A team Master forks at Fork.
  TeamInstance &forkTeam(ThreadState &Master, RegionId Construct, Tick Fork) {
    TeamInstance &Team = Master.Teams.nextInstance();
    Team.Id.Fork = C.enter(Master, Construct, E::Parallel_enter, Fork);
    return Team;
  }
  /// Its end at End, and the master's exit.
  void endTeam(ThreadState &Master, TeamInstance &Team, RegionId Construct, Tick End) {
    Team.ended(End);
    Team.Running = false;
    C.leave(Master, Construct, E::Parallel_exit, End);
  }
  /// The late end of Worker's innermost implicit task, deferred (Core::deferLateEnd()).
  ::testing::AssertionResult deferLateEnd(ThreadState &Worker) {
    ImplicitTask &Task = Worker.Teams.Tasks.back();
    Task.MayEndLate = true;
    const bool Deferred = C.deferLateEnd(Worker, Task);
    Worker.Teams.Tasks.pop_back();
    if (!Deferred)
      return ::testing::AssertionFailure() << "the late end was not deferred";
    return ::testing::AssertionSuccess();
  }
};

TEST_F(TeamsTest, RegionsOfAnEndedTeamCloseAtItsEnd) {
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  TeamInstance &Team = forkTeam(Master, Par, 0);
  joinTeam(Worker, Team, Par, Bar, 5);
  Team.ended(100);
  C.leave(Master, Par, E::Parallel_exit, 100);

  C.closeEndedTeams({&Master, &Worker});
  EXPECT_TRUE(Worker.Stack.empty());
  EXPECT_TRUE(Worker.Teams.Tasks.empty());

  const Profile P = C.collect(10000, OneNsPerTick);
  const ProfileNode *Body = body(P);
  const ProfileNode *Wait = wait(P);
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(Wait, nullptr);
  EXPECT_EQ(of(*Body, Worker.Index).InclusiveNs, 95u) << "closed at the team's end, not at 10000";
  EXPECT_EQ(of(*Wait, Worker.Index).InclusiveNs, 85u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::OpenAtFinalize)], 0u);
}

TEST_F(TeamsTest, ATeamStillRunningOrAReusedSlotIsLeftOpen) {
  ThreadState &Master = *C.attachThread();
  ThreadState &Running = *C.attachThread();
  ThreadState &Stale = *C.attachThread();
  TeamInstance &Team = forkTeam(Master, Par, 0);
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

// A worker with nothing below its implicit task defers its late ends: its regions come off the
// stack at once, and are charged at their teams' ends when an end falls in the next line of the
// master's log (the earlier line is finished then) or at finalisation.
TEST_F(TeamsTest, DeferredLateEndsAreChargedAtTheirTeamsEnds) {
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  constexpr std::size_t Teams = TeamEndLog::PerLine + 2;
  for (std::size_t I = 0; I < Teams; ++I) {
    const Tick Fork = 100 * I + 1;
    TeamInstance &Team = forkTeam(Master, Par, Fork);
    joinTeam(Worker, Team, Par, Bar, Fork + 1);
    endTeam(Master, Team, Par, Fork + 20);
    // The worker's late end, at the next fork.
    ASSERT_TRUE(deferLateEnd(Worker)) << "team " << I;
    EXPECT_TRUE(Worker.Stack.empty());
    // The first line's seven ends wait until an end falls in the second.
    const std::size_t Waiting = I < TeamEndLog::PerLine ? I + 1 : I + 1 - TeamEndLog::PerLine;
    EXPECT_EQ(Worker.DeferredCount, Waiting) << "team " << I;
  }
  C.closeEndedTeams({&Master, &Worker});
  EXPECT_EQ(Worker.DeferredCount, 0u);

  const Profile P = C.collect(100000, OneNsPerTick);
  const ProfileNode *Body = body(P);
  const ProfileNode *Wait = wait(P);
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(Wait, nullptr);
  EXPECT_EQ(of(*Body, Worker.Index).Visits, Teams);
  EXPECT_EQ(of(*Body, Worker.Index).InclusiveNs, 19u * Teams) << "each closed at its team's end";
  EXPECT_EQ(of(*Body, Worker.Index).MaxNs, 19u);
  EXPECT_EQ(of(*Body, Worker.Index).ExclusiveNs, 10u * Teams);
  EXPECT_EQ(of(*Wait, Worker.Index).InclusiveNs, 9u * Teams);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::LateJoinUnknown)], 0u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::OpenAtFinalize)], 0u);
}

// A pool thread that works for two masters (nested teams) defers ends of both logs: an end of
// another log than the oldest one's reads the waiting ones and keeps a team that has not ended
// yet (its master is still inside it) until it has; each is charged at its own team's end.
TEST_F(TeamsTest, DeferredEndsOfTwoMastersWaitForTheirTeams) {
  ThreadState &First = *C.attachThread();
  ThreadState &Second = *C.attachThread();
  ThreadState &Pool = *C.attachThread();
  // A team of the first master that the pool thread leaves late, before the team ended.
  TeamInstance &Running = forkTeam(First, Par, 0);
  joinTeam(Pool, Running, Par, Bar, 5);
  ASSERT_TRUE(deferLateEnd(Pool));
  // A team of the second master, ended.
  TeamInstance &Ended = forkTeam(Second, Par, 100);
  joinTeam(Pool, Ended, Par, Bar, 105);
  endTeam(Second, Ended, Par, 130);
  ASSERT_TRUE(deferLateEnd(Pool));
  EXPECT_EQ(Pool.DeferredCount, 2u) << "the first team has not ended: kept";
  // Another team of the first master, in the oldest end's line.
  endTeam(First, Running, Par, 200);
  TeamInstance &Next = forkTeam(First, Par, 201);
  joinTeam(Pool, Next, Par, Bar, 205);
  ASSERT_TRUE(deferLateEnd(Pool));
  EXPECT_EQ(Pool.DeferredCount, 3u) << "the oldest end is of this line: nothing read yet";
  endTeam(First, Next, Par, 230);
  C.closeEndedTeams({&First, &Second, &Pool});
  EXPECT_EQ(Pool.DeferredCount, 0u);

  const Profile P = C.collect(100000, OneNsPerTick);
  const ProfileNode *Body = body(P);
  ASSERT_NE(Body, nullptr);
  EXPECT_EQ(of(*Body, Pool.Index).Visits, 3u);
  EXPECT_EQ(of(*Body, Pool.Index).InclusiveNs, 195u + 25u + 25u) << "each at its own team's end";
  EXPECT_EQ(of(*Body, Pool.Index).MaxNs, 195u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::LateJoinUnknown)], 0u);
}

// A deferred end whose line the master filled again before the worker read it (the worker idled
// through 56 of its master's teams) is unknown: counted, its regions closed at their last start.
// Regions below the implicit task keep the ends from being deferred.
TEST_F(TeamsTest, ADeferredEndTooFarBackIsCounted) {
  ThreadState &Master = *C.attachThread();
  ThreadState &Worker = *C.attachThread();
  TeamInstance &Team = forkTeam(Master, Par, 0);
  joinTeam(Worker, Team, Par, Bar, 5);
  ASSERT_TRUE(deferLateEnd(Worker));
  endTeam(Master, Team, Par, 100);
  for (std::size_t I = 0; I < TeamEndLog::PerLine * TeamEndLog::Lines; ++I) {
    TeamInstance &Next = Master.Teams.nextInstance();
    Next.ended(200 + I);
    Next.Running = false;
  }
  C.closeEndedTeams({&Master, &Worker});
  const Profile P = C.collect(100000, OneNsPerTick);
  const ProfileNode *Body = body(P);
  ASSERT_NE(Body, nullptr);
  EXPECT_EQ(of(*Body, Worker.Index).Visits, 1u);
  EXPECT_EQ(of(*Body, Worker.Index).InclusiveNs, 10u) << "closed at the barrier's start";
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::LateJoinUnknown)], 1u);

  // With a region below the implicit task (a nested team), the ends close in order.
  ThreadState &Nested = *C.attachThread();
  TeamInstance &Outer = Master.Teams.nextInstance();
  Outer.Id.Fork = C.enter(Master, Par, E::Parallel_enter, 1000);
  C.enter(Nested, Bar, E::Implicit_barrier_enter, 1000);
  joinTeam(Nested, Outer, Par, Bar, 1001);
  Nested.Teams.Tasks.back().MayEndLate = true;
  EXPECT_FALSE(C.deferLateEnd(Nested, Nested.Teams.Tasks.back()));
  EXPECT_EQ(Nested.Stack.depth(), 3u);
}

// A team's end outlives its slot: a member whose end comes late reads its team's end even after
// the master reused the slot for new teams (the log keeps the last 56 teams' ends), and nothing
// once the log's line holds later teams' ends.
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
  EXPECT_EQ(Team.endOf(First), 100u) << "another line of the log";
  EXPECT_EQ(Team.endOf(static_cast<std::uint16_t>(Team.Generation.load())), 200u);
  // Teams that end in every line of the log: the first team's line is taken.
  for (std::size_t I = 0; I < TeamEndLog::PerLine * TeamEndLog::Lines; ++I) {
    TeamInstance &Next = Teams.nextInstance();
    Next.ended(300 + I);
    Next.Running = false;
  }
  EXPECT_EQ(Team.endOf(First), 0u) << "a later team's end is not this team's";
  Tick End = 0;
  EXPECT_EQ(Team.lookupEnd(First, End), TeamEndLog::Lookup::Overwritten);
}

// The log numbers forks modulo its period: lines wrap with them, and a line's tag tells an end
// not written yet from one overwritten.
TEST_F(TeamsTest, TheLogWrapsWithTheForkNumbers) {
  TeamEndLog Log;
  Tick End = 0;
  std::uint16_t Sequence = 0;
  for (std::uint32_t I = 0; I + 3 < TeamEndLog::Period; ++I)
    Sequence = TeamEndLog::next(Sequence);
  const std::uint16_t Last = Sequence;
  EXPECT_TRUE(Log.ended(Last, 10));
  const std::uint16_t Wrapped = TeamEndLog::next(TeamEndLog::next(TeamEndLog::next(Last)));
  EXPECT_EQ(Wrapped, 0u);
  EXPECT_EQ(Log.endOf(Wrapped, End), TeamEndLog::Lookup::NotYet);
  EXPECT_TRUE(Log.ended(Wrapped, 20));
  EXPECT_EQ(Log.endOf(Wrapped, End), TeamEndLog::Lookup::Ended);
  EXPECT_EQ(End, 20u);
  EXPECT_EQ(Log.endOf(Last, End), TeamEndLog::Lookup::Ended) << "the line before the wrap";
  EXPECT_EQ(End, 10u);
  // A team that ended after its line was taken by later teams (it outlived 56 nested teams).
  const std::uint16_t Outer = Sequence = Wrapped;
  for (std::uint32_t I = 0; I < TeamEndLog::PerLine * TeamEndLog::Lines; ++I)
    Sequence = TeamEndLog::next(Sequence);
  EXPECT_TRUE(Log.ended(Sequence, 30));
  EXPECT_EQ(Log.endOf(Outer, End), TeamEndLog::Lookup::Overwritten);
  EXPECT_FALSE(Log.ended(Outer, 40)) << "would overwrite a later team's end";
  EXPECT_EQ(Log.endOf(Sequence, End), TeamEndLog::Lookup::Ended);
  EXPECT_EQ(End, 30u);
}

// libomp 19 can report a nested team's end to its master with the parallel data of a team it
// gave back to its pool, which another thread's fork took meanwhile (samples/nested.c, 4
// threads; found by ThreadSanitizer): the master's own innermost team is the one that ends.
TEST_F(TeamsTest, ATeamEndNamingAnotherThreadsTeamEndsTheMastersOwn) {
  ThreadTeams Master, Other;
  TeamInstance &Outer = Master.nextInstance();
  TeamInstance &Inner = Master.nextInstance();
  TeamInstance &Foreign = Other.nextInstance();
  bool IsForeign = true;
  EXPECT_EQ(Master.endForked(&Foreign, IsForeign), &Inner);
  EXPECT_TRUE(IsForeign);
  EXPECT_EQ(Master.endForked(&Outer, IsForeign), &Outer);
  EXPECT_FALSE(IsForeign);
  EXPECT_EQ(Other.endForked(&Foreign, IsForeign), &Foreign);
  EXPECT_FALSE(IsForeign);
  // A thread that forked nothing ends what the runtime names.
  EXPECT_EQ(Master.endForked(&Foreign, IsForeign), &Foreign);
  EXPECT_FALSE(IsForeign);
}

// Such a team's end is kept in its instance.
TEST_F(TeamsTest, AnEndTheLogCannotTakeStaysInTheInstance) {
  ThreadTeams Teams;
  TeamInstance &Outer = Teams.nextInstance();
  const auto OuterGeneration = static_cast<std::uint16_t>(Outer.Generation.load());
  for (std::size_t I = 0; I < TeamEndLog::PerLine * TeamEndLog::Lines; ++I) {
    TeamInstance &Inner = Teams.nextInstance();
    Inner.ended(100 + I);
    Inner.Running = false;
  }
  Outer.ended(1000);
  EXPECT_EQ(Outer.endOf(OuterGeneration), 1000u);
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
