//===- ApiTest.cpp - The C API of libpomp in whole-program scenarios ------===//
///
/// \file
/// Scenarios that drive libpomp through pomplib.h like a program does, each in
/// a process of its own (a gtest death test), since the library initialises
/// and finalises once per process: the stress test (64 threads, nested
/// parallel regions three deep, a million events per thread), regions of known
/// duration, threads racing to bind one zero handle, finalisation while a
/// thread still raises events, and auto-finalisation at exit.
///
/// A scenario returns "" on success or what went wrong; the child prints that
/// and exits with status 1, which fails the test with the message.
///
//===----------------------------------------------------------------------===//

#include "ApiTestSupport.h"
#include "CoreTestSupport.h"

#include "core/Clock.h"
#include "core/Lifecycle.h"
#include "core/Profile.h"

#include "pomplib.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dirent.h>
#include <omp.h>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef POMP_TEST_STRESS_PAIRS
#error "the build defines POMP_TEST_STRESS_PAIRS, the begin/end pairs per thread of the stress test"
#endif

namespace pomp::rt::test {
namespace {

//--- Stress ---------------------------------------------------------------//

constexpr int StressLevels = 3;
constexpr int StressTeam = 4;
constexpr int StressLeaves = StressTeam * StressTeam * StressTeam;
constexpr long StressPairs = POMP_TEST_STRESS_PAIRS;

/// What the stress test's threads share.
struct StressState {
  POMP_Handle_t Parallel[StressLevels] = {};
  std::string ParallelCtc[StressLevels];
  POMP_Handle_t Hot = 0;
  std::string HotCtc = ctcString("type=userregion*name=hot*file=stress.cpp*slines=9,9");
  std::atomic<int> Arrived{0};
  std::atomic<long> Errors{0};
};

void stressLevel(StressState &S, int Depth) {
  POMP_Context_t Context = 0;
  S.Errors += POMP_Parallel_fork(&S.Parallel[Depth], omp_get_thread_num(), StressTeam, 1, &Context,
                                 S.ParallelCtc[Depth].c_str()) != POMP_SUCCESS;
#pragma omp parallel num_threads(StressTeam) firstprivate(Context)
  {
    const int Tid = omp_get_thread_num();
    S.Errors += POMP_Parallel_begin_forked(S.Parallel[Depth], Tid, Context) != POMP_SUCCESS;
    if (Depth + 1 < StressLevels) {
      stressLevel(S, Depth + 1);
    } else {
      // All leaves at once: 64 distinct threads whatever the runtime reuses.
      ++S.Arrived;
      while (S.Arrived.load() < StressLeaves)
        std::this_thread::yield();
      long Bad = 0;
      for (long I = 0; I < StressPairs; ++I) {
        Bad += POMP_User_region_begin(&S.Hot, Tid, S.HotCtc.c_str()) != POMP_SUCCESS;
        Bad += POMP_User_region_end(S.Hot, Tid) != POMP_SUCCESS;
      }
      S.Errors += Bad;
    }
    S.Errors += POMP_Parallel_end(S.Parallel[Depth], Tid) != POMP_SUCCESS;
  }
  S.Errors += POMP_Parallel_exit(S.Parallel[Depth], omp_get_thread_num()) != POMP_SUCCESS;
}

std::string stressScenario() {
  quietExperiment("stress");
  Failures F;
  StressState S;
  for (int L = 0; L < StressLevels; ++L)
    S.ParallelCtc[L] =
        ctcString("type=parallel*name=level" + std::to_string(L) +
                  "*file=stress.cpp*slines=" + std::to_string(L + 1) + "," + std::to_string(L + 1));
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  omp_set_max_active_levels(StressLevels);
  stressLevel(S, 0);
  F.equal(S.Errors.load(), 0, "events that failed");
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  F.equal(P->Threads.size(), std::size_t(StressLeaves), "threads");
  const EventId Fork = EventId::Parallel_enter;
  const EventId Body = EventId::Parallel_begin;
  const ProfileNode *Hot = findPath(*P, {{"level0", Fork},
                                         {"level0", Body},
                                         {"level1", Fork},
                                         {"level1", Body},
                                         {"level2", Fork},
                                         {"level2", Body},
                                         {"hot", EventId::User_region_begin}});
  if (!Hot)
    return F.text() + "the hot region is not under its three parallel regions\n";
  F.equal(Hot->total().Visits, std::uint64_t(StressLeaves) * StressPairs, "visits of hot");
  F.equal(Hot->PerThread.size(), std::size_t(StressLeaves), "threads of hot");
  for (const ThreadMetrics &M : Hot->PerThread)
    F.equal(M.Visits, std::uint64_t(StressPairs), "visits of hot on one thread");
  const ProfileNode *Middle =
      findPath(*P, {{"level0", Fork}, {"level0", Body}, {"level1", Fork}, {"level1", Body}});
  F.check(Middle && Middle->total().Visits == StressTeam * StressTeam, "level 1 bodies");
  // root + 7 nodes on the path: nothing went anywhere else.
  F.equal(P->Nodes.size(), std::size_t(8), "nodes");
  for (std::size_t A = 0; A < AnomalyCount; ++A)
    F.equal(P->Anomalies[A], 0u, std::string("anomaly ") + std::string(AnomalyInfos[A].Json));
  return F.text();
}

TEST_F(ApiTest, Stress64ThreadsNestedThreeDeep) { EXPECT_SCENARIO(stressScenario); }

//--- Known durations ------------------------------------------------------//

using SteadyNs = std::uint64_t;

SteadyNs steadyNow() {
  timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return static_cast<SteadyNs>(Ts.tv_sec) * 1000000000u + static_cast<SteadyNs>(Ts.tv_nsec);
}

void busyFor(SteadyNs Ns) {
  const SteadyNs End = steadyNow() + Ns;
  while (steadyNow() < End) {
  }
}

/// The library's time must agree with the test's own clock. The test reads
/// its clock on both sides of each of the library's calls: a span the library
/// measures lies between the test's span inside the calls (from after the
/// begin to before the end) and the one outside them, so a preemption next
/// to a call (the machine is shared with other tests) widens the outside span
/// only and moves nothing out of bounds. Each bound is then loosened by 10 %
/// plus 1 ms per visit (ASan builds on a loaded 2-core machine): a wrong clock
/// rate or a wrong exclusive time is off by far more.
struct Bracket {
  SteadyNs Inside = 0;
  SteadyNs Outside = 0;
};

bool within(std::uint64_t Measured, Bracket Expected, int Visits) {
  constexpr double Relative = 0.10;
  constexpr double AbsolutePerVisit = 1000000;
  const double Slack = AbsolutePerVisit * Visits;
  const double M = static_cast<double>(Measured);
  return M >= static_cast<double>(Expected.Inside) * (1 - Relative) - Slack &&
         M <= static_cast<double>(Expected.Outside) * (1 + Relative) + Slack;
}

std::string describe(const char *What, std::uint64_t Measured, Bracket Expected) {
  return std::string(What) + " " + std::to_string(Measured) + " not in " +
         std::to_string(Expected.Inside) + ".." + std::to_string(Expected.Outside);
}

std::string knownDurationsScenario(const char *ClockName) {
  quietExperiment(std::string("durations-") + ClockName);
  ::setenv("POMP_CLOCK", ClockName, 1);
  Failures F;
  constexpr SteadyNs Ms = 1000000;
  constexpr int Rounds = 3;
  const std::string OuterCtc = ctcString("type=userregion*name=outer*file=d.c*slines=1,1");
  const std::string InnerCtc = ctcString("type=userregion*name=inner*file=d.c*slines=2,2");
  const std::string SleepCtc = ctcString("type=userregion*name=sleep*file=d.c*slines=3,3");
  POMP_Handle_t Outer = 0, Inner = 0, Sleep = 0;
  Bracket OuterSpan, InnerSpan, SleepSpan;
  // Initialisation (clock calibration) and binding the handles happen before
  // the clock is read and would be in the test's spans but not in the
  // library's: get them done first, as pomp-link's POMP_Init_Handles does.
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  F.equal(POMP_Get_handle(&Outer, OuterCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  F.equal(POMP_Get_handle(&Inner, InnerCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  F.equal(POMP_Get_handle(&Sleep, SleepCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  for (int R = 0; R < Rounds; ++R) {
    const SteadyNs OuterBefore = steadyNow();
    POMP_User_region_begin(&Outer, 0, OuterCtc.c_str());
    const SteadyNs OuterBegun = steadyNow();
    busyFor(10 * Ms);
    const SteadyNs InnerBefore = steadyNow();
    POMP_User_region_begin(&Inner, 0, InnerCtc.c_str());
    const SteadyNs InnerBegun = steadyNow();
    busyFor(15 * Ms);
    const SteadyNs InnerEnding = steadyNow();
    POMP_User_region_end(Inner, 0);
    const SteadyNs InnerAfter = steadyNow();
    busyFor(5 * Ms);
    const SteadyNs OuterEnding = steadyNow();
    POMP_User_region_end(Outer, 0);
    const SteadyNs OuterAfter = steadyNow();
    OuterSpan.Inside += OuterEnding - OuterBegun;
    OuterSpan.Outside += OuterAfter - OuterBefore;
    InnerSpan.Inside += InnerEnding - InnerBegun;
    InnerSpan.Outside += InnerAfter - InnerBefore;
  }
  // Time asleep is time in the region too: the profile measures wall-clock time.
  const SteadyNs SleepBefore = steadyNow();
  POMP_User_region_begin(&Sleep, 0, SleepCtc.c_str());
  const SteadyNs SleepBegun = steadyNow();
  timespec Nap{0, static_cast<long>(20 * Ms)};
  nanosleep(&Nap, nullptr);
  const SteadyNs SleepEnding = steadyNow();
  POMP_User_region_end(Sleep, 0);
  SleepSpan = {SleepEnding - SleepBegun, steadyNow() - SleepBefore};

  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  const ProfileNode *O = findPath(*P, {{"outer", EventId::User_region_begin}});
  const ProfileNode *I =
      findPath(*P, {{"outer", EventId::User_region_begin}, {"inner", EventId::User_region_begin}});
  const ProfileNode *S = findPath(*P, {{"sleep", EventId::User_region_begin}});
  if (!O || !I || !S)
    return "regions missing";
  const ThreadMetrics OT = O->total(), IT = I->total(), ST = S->total();
  F.equal(OT.Visits, std::uint64_t(Rounds), "visits of outer");
  F.equal(IT.Visits, std::uint64_t(Rounds), "visits of inner");
  F.check(within(OT.InclusiveNs, OuterSpan, Rounds),
          describe("outer inclusive", OT.InclusiveNs, OuterSpan));
  // Outer's exclusive time: outer's span without inner's, each bound taken
  // with the other's opposite bound.
  const Bracket OuterOwn{OuterSpan.Inside - InnerSpan.Outside,
                         OuterSpan.Outside - InnerSpan.Inside};
  F.check(within(OT.ExclusiveNs, OuterOwn, 2 * Rounds),
          describe("outer exclusive", OT.ExclusiveNs, OuterOwn));
  F.check(within(IT.InclusiveNs, InnerSpan, Rounds),
          describe("inner inclusive", IT.InclusiveNs, InnerSpan));
  F.equal(IT.ExclusiveNs, IT.InclusiveNs, "inner exclusive");
  F.check(IT.MinNs <= IT.MaxNs && IT.MinNs >= 15 * Ms && IT.MaxNs <= InnerSpan.Outside,
          "inner min/max " + std::to_string(IT.MinNs) + ".." + std::to_string(IT.MaxNs));
  F.check(within(ST.InclusiveNs, SleepSpan, 1),
          describe("sleep inclusive", ST.InclusiveNs, SleepSpan));
  return F.text();
}

TEST_F(ApiTest, KnownDurationsWithTheChosenClock) {
  EXPECT_SCENARIO([] { return knownDurationsScenario("auto"); });
}

TEST_F(ApiTest, KnownDurationsWithClockGettime) {
  EXPECT_SCENARIO([] { return knownDurationsScenario("monotonic"); });
}

//--- An implicit barrier's exit hands its time to the construct's exit -----//

/// The regions of the hand-over scenarios, bound after POMP_Init on the TSC
/// (only the fast path hands over, and it runs on the TSC only).
struct HandOverRegions {
  std::string SingleCtc = ctcString("type=single*file=single.c*slines=1,1*elines=2,2");
  std::string BarrierCtc = ctcString("type=implicitbarrier*file=barrier.c*slines=1,1*elines=2,2");
  std::string FlushCtc = ctcString("type=flush*file=flush.c*slines=3,3");
  POMP_Handle_t Single = 0, Barrier = 0, Flush = 0;
};

HandOverRegions handOverRegions(Failures &F) {
  ::setenv("POMP_CLOCK", "tsc", 1);
  HandOverRegions H;
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  F.equal(POMP_Get_handle(&H.Single, H.SingleCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  F.equal(POMP_Get_handle(&H.Barrier, H.BarrierCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  F.equal(POMP_Get_handle(&H.Flush, H.FlushCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  return H;
}

/// ompinst writes a worksharing construct's exit right after its implicit
/// barrier's exit, so the fast path reads the clock once for both
/// (FrameStack::handOver()). Calls written by hand with time between them
/// show it: that time is then in neither region. Any other event between
/// them drops the hand-over, and the construct's exit reads the clock again.
/// Only the fast path hands over, and it runs on the TSC only.
std::string barrierHandOverScenario(bool EventBetween) {
  quietExperiment(EventBetween ? "handover-dropped" : "handover");
  Failures F;
  constexpr SteadyNs Ms = 1000000;
  constexpr int Rounds = 4;
  HandOverRegions H = handOverRegions(F);
  const bool HandsOver = !EventBetween && Clock::isTsc();
  // The single's exclusive time: from its enter to the barrier's enter, and,
  // unless handed over, from the barrier's exit to its own exit.
  Bracket Own;
  for (int R = 0; R < Rounds; ++R) {
    const SteadyNs BeforeEnter = steadyNow();
    POMP_Single_enter(&H.Single, 0, H.SingleCtc.c_str());
    const SteadyNs Entered = steadyNow();
    busyFor(2 * Ms);
    const SteadyNs BeforeBarrier = steadyNow();
    POMP_Implicit_barrier_enter(&H.Barrier, 0, H.BarrierCtc.c_str());
    const SteadyNs InBarrier = steadyNow();
    POMP_Implicit_barrier_exit(H.Barrier, 0);
    const SteadyNs LeftBarrier = steadyNow();
    busyFor(10 * Ms);
    if (EventBetween)
      POMP_Flush_event(&H.Flush, 0, H.FlushCtc.c_str());
    const SteadyNs BeforeExit = steadyNow();
    POMP_Single_exit(H.Single, 0);
    const SteadyNs AfterExit = steadyNow();
    Own.Inside += BeforeBarrier - Entered;
    Own.Outside += InBarrier - BeforeEnter;
    if (!HandsOver) {
      Own.Inside += BeforeExit - LeftBarrier;
      Own.Outside += AfterExit - InBarrier;
    }
  }
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  const ProfileNode *S = findPath(*P, {{"single.c", EventId::Single_enter}});
  const ProfileNode *B = findPath(
      *P, {{"single.c", EventId::Single_enter}, {"barrier.c", EventId::Implicit_barrier_enter}});
  if (!S || !B)
    return "regions missing";
  const ThreadMetrics ST = S->total();
  F.equal(ST.Visits, std::uint64_t(Rounds), "visits of the single");
  F.equal(B->total().Visits, std::uint64_t(Rounds), "visits of the barrier");
  F.check(within(ST.ExclusiveNs, Own, Rounds),
          describe(HandsOver ? "single exclusive, handed over" : "single exclusive", ST.ExclusiveNs,
                   Own));
  return F.text();
}

TEST_F(ApiTest, ConstructExitTakesItsBarriersExitTime) {
  EXPECT_SCENARIO([] { return barrierHandOverScenario(/*EventBetween=*/false); });
}

TEST_F(ApiTest, AnEventBetweenDropsTheHandOver) {
  EXPECT_SCENARIO([] { return barrierHandOverScenario(/*EventBetween=*/true); });
}

//--- A single's end hands its time to its implicit barrier's enter --------//

/// What follows a single's end in barrierEnterHandOverScenario().
enum class AfterSingleEnd {
  Barrier,           ///< its implicit barrier, as ompinst writes it
  EventBetween,      ///< a flush, then the barrier: the hand-over is dropped
  ExitAsCopyprivate, ///< the single's exit, as after a copyprivate: not taken
};

/// ompinst enters a single's (or a section's) implicit barrier right after
/// its end, so the fast path reads the clock once for both
/// (FrameStack::handOverToBarrier()): time between the two calls written by
/// hand is then in the barrier. A copyprivate's broadcast (with its barrier)
/// runs between a single's end and its exit, which never take the end's time.
std::string barrierEnterHandOverScenario(AfterSingleEnd Next) {
  quietExperiment("handover-enter-" + std::to_string(static_cast<int>(Next)));
  Failures F;
  constexpr SteadyNs Ms = 1000000;
  constexpr int Rounds = 4;
  HandOverRegions H = handOverRegions(F);
  const bool HandsOver = Next == AfterSingleEnd::Barrier && Clock::isTsc();
  // The barrier's inclusive time, and the single's exclusive time: from its
  // enter to its begin, and from its end to the barrier's enter (or, unless
  // handed over, to its exit).
  Bracket InBarrier, Own;
  for (int R = 0; R < Rounds; ++R) {
    // The first barrier's enter creates its node on the general path, which
    // reads the clock.
    const bool HandedOver = HandsOver && R > 0;
    const SteadyNs BeforeEnter = steadyNow();
    POMP_Single_enter(&H.Single, 0, H.SingleCtc.c_str());
    POMP_Single_begin(H.Single, 0);
    const SteadyNs Begun = steadyNow();
    busyFor(2 * Ms);
    const SteadyNs BeforeEnd = steadyNow();
    POMP_Single_end(H.Single, 0);
    const SteadyNs Ended = steadyNow();
    busyFor(10 * Ms);
    if (Next == AfterSingleEnd::EventBetween)
      POMP_Flush_event(&H.Flush, 0, H.FlushCtc.c_str());
    SteadyNs BeforeExit;
    if (Next == AfterSingleEnd::ExitAsCopyprivate) {
      BeforeExit = steadyNow();
    } else {
      const SteadyNs BeforeBarrier = steadyNow();
      POMP_Implicit_barrier_enter(&H.Barrier, 0, H.BarrierCtc.c_str());
      const SteadyNs Entered = steadyNow();
      busyFor(2 * Ms);
      const SteadyNs BeforeBarrierExit = steadyNow();
      POMP_Implicit_barrier_exit(H.Barrier, 0);
      BeforeExit = steadyNow();
      InBarrier.Inside += BeforeBarrierExit - (HandedOver ? Ended : Entered);
      InBarrier.Outside += BeforeExit - (HandedOver ? BeforeEnd : BeforeBarrier);
      if (!HandedOver) {
        Own.Inside += BeforeBarrier - Ended;
        Own.Outside += Entered - BeforeEnd;
      }
    }
    POMP_Single_exit(H.Single, 0);
    const SteadyNs AfterExit = steadyNow();
    Own.Outside += Begun - BeforeEnter;
    if (Next == AfterSingleEnd::ExitAsCopyprivate) {
      Own.Inside += BeforeExit - Ended;
      Own.Outside += AfterExit - BeforeEnd;
    }
  }
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  const ProfileNode *S = findPath(*P, {{"single.c", EventId::Single_enter}});
  if (!S)
    return "single missing";
  F.equal(S->total().Visits, std::uint64_t(Rounds), "visits of the single");
  F.check(within(S->total().ExclusiveNs, Own, Rounds),
          describe("single exclusive", S->total().ExclusiveNs, Own));
  if (Next != AfterSingleEnd::ExitAsCopyprivate) {
    const ProfileNode *B = findPath(
        *P, {{"single.c", EventId::Single_enter}, {"barrier.c", EventId::Implicit_barrier_enter}});
    if (!B)
      return "barrier missing";
    F.equal(B->total().Visits, std::uint64_t(Rounds), "visits of the barrier");
    F.check(within(B->total().InclusiveNs, InBarrier, Rounds),
            describe(HandsOver ? "barrier inclusive, handed over" : "barrier inclusive",
                     B->total().InclusiveNs, InBarrier));
  }
  return F.text();
}

TEST_F(ApiTest, BarrierEnterTakesTheSingleEndsTime) {
  EXPECT_SCENARIO([] { return barrierEnterHandOverScenario(AfterSingleEnd::Barrier); });
}

TEST_F(ApiTest, AnEventBetweenDropsTheHandOverToTheBarrier) {
  EXPECT_SCENARIO([] { return barrierEnterHandOverScenario(AfterSingleEnd::EventBetween); });
}

TEST_F(ApiTest, ASingleExitAfterItsEndReadsTheClock) {
  EXPECT_SCENARIO([] { return barrierEnterHandOverScenario(AfterSingleEnd::ExitAsCopyprivate); });
}

//--- A construct's exit hands its time to the next construct's enter -----//

/// What comes between two singles in siblingHandOverScenario().
enum class BetweenSiblings {
  Nothing,       ///< the second single says it follows a construct (afterConstruct=1)
  NotFollowing,  ///< the same calls, but the second single's CTC string says nothing
  EventBetween,  ///< a flush between: the hand-over is dropped
  RegionBetween, ///< the second single entered inside another region: not taken
  FirstInBlock,  ///< the marked single entered first in the block the first one's begin opened
  Repeated,      ///< the marked single repeated as a loop repeats it, after its own exit
};

/// ompinst marks a construct written right after another one
/// (ctc::RegionDescriptor::AfterConstruct): nothing runs between the first's
/// exit and the second's enter, so the fast path reads the clock once for
/// both (FrameStack::popHandingOver()). Time between the calls written by
/// hand shows it: it is then in the second single. Without the mark, after
/// another event, or with a region entered between, the enter reads the
/// clock. A marked construct first in the block of another takes that
/// block's begin time (FrameStack::markBegun()); one that a loop repeats
/// takes its own exit's time from the iteration before.
std::string siblingHandOverScenario(BetweenSiblings Between) {
  quietExperiment("handover-sibling-" + std::to_string(static_cast<int>(Between)));
  Failures F;
  constexpr SteadyNs Ms = 1000000;
  constexpr int Rounds = 4;
  HandOverRegions H = handOverRegions(F);
  const std::string NextCtc =
      ctcString(Between == BetweenSiblings::NotFollowing
                    ? "type=single*file=next.c*slines=3,3*elines=4,4"
                    : "type=single*file=next.c*slines=3,3*elines=4,4*afterConstruct=1");
  POMP_Handle_t Next = 0;
  F.equal(POMP_Get_handle(&Next, NextCtc.c_str()), POMP_SUCCESS, "POMP_Get_handle");
  const bool HandsOver =
      (Between == BetweenSiblings::Nothing || Between == BetweenSiblings::FirstInBlock ||
       Between == BetweenSiblings::Repeated) &&
      Clock::isTsc();
  const bool Repeated = Between == BetweenSiblings::Repeated;
  Bracket InNext;
  SteadyNs BeforeExit = 0;
  SteadyNs Exited = 0;
  for (int R = 0; R < Rounds; ++R) {
    // The first enter of the next single creates its node on the general
    // path, which reads the clock.
    const bool HandedOver = HandsOver && R > 0;
    const bool InBlock = Between == BetweenSiblings::FirstInBlock;
    if (!Repeated || R == 0) {
      POMP_Single_enter(&H.Single, 0, H.SingleCtc.c_str());
      BeforeExit = steadyNow();
      if (InBlock)
        POMP_Single_begin(H.Single, 0);
      else
        POMP_Single_exit(H.Single, 0);
      Exited = steadyNow();
    }
    busyFor(10 * Ms);
    if (Between == BetweenSiblings::EventBetween)
      POMP_Flush_event(&H.Flush, 0, H.FlushCtc.c_str());
    if (Between == BetweenSiblings::RegionBetween)
      POMP_Implicit_barrier_enter(&H.Barrier, 0, H.BarrierCtc.c_str());
    const SteadyNs BeforeEnter = steadyNow();
    POMP_Single_enter(&Next, 0, NextCtc.c_str());
    const SteadyNs Entered = steadyNow();
    busyFor(2 * Ms);
    const SteadyNs BeforeNextExit = steadyNow();
    POMP_Single_exit(Next, 0);
    const SteadyNs AfterNextExit = steadyNow();
    if (Between == BetweenSiblings::RegionBetween)
      POMP_Implicit_barrier_exit(H.Barrier, 0);
    if (InBlock) {
      POMP_Single_end(H.Single, 0);
      POMP_Single_exit(H.Single, 0);
    }
    InNext.Inside += BeforeNextExit - (HandedOver ? Exited : Entered);
    InNext.Outside += AfterNextExit - (HandedOver ? BeforeExit : BeforeEnter);
    if (Repeated) {
      BeforeExit = BeforeNextExit;
      Exited = AfterNextExit;
    }
  }
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  const ProfileNode *N = nullptr;
  if (Between == BetweenSiblings::RegionBetween)
    N = findPath(
        *P, {{"barrier.c", EventId::Implicit_barrier_enter}, {"next.c", EventId::Single_enter}});
  else if (Between == BetweenSiblings::FirstInBlock)
    N = findPath(*P, {{"single.c", EventId::Single_enter},
                      {"single.c", EventId::Single_begin},
                      {"next.c", EventId::Single_enter}});
  else
    N = findPath(*P, {{"next.c", EventId::Single_enter}});
  if (!N)
    return "next single missing";
  F.equal(N->total().Visits, std::uint64_t(Rounds), "visits of the next single");
  F.check(within(N->total().InclusiveNs, InNext, Rounds),
          describe(HandsOver ? "next single inclusive, handed over" : "next single inclusive",
                   N->total().InclusiveNs, InNext));
  return F.text();
}

TEST_F(ApiTest, AnEnterAfterAConstructTakesItsExitTime) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::Nothing); });
}

TEST_F(ApiTest, AnEnterNotMarkedAfterAConstructReadsTheClock) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::NotFollowing); });
}

TEST_F(ApiTest, AnEventBetweenDropsTheHandOverToTheNextConstruct) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::EventBetween); });
}

TEST_F(ApiTest, ARegionBetweenDropsTheHandOverToTheNextConstruct) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::RegionBetween); });
}

TEST_F(ApiTest, AnEnterFirstInABlockTakesItsBeginTime) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::FirstInBlock); });
}

TEST_F(ApiTest, AnEnterRepeatedByALoopTakesItsLastExitTime) {
  EXPECT_SCENARIO([] { return siblingHandOverScenario(BetweenSiblings::Repeated); });
}

//--- Races and finalisation -----------------------------------------------//

std::string zeroHandleRaceScenario() {
  quietExperiment("race");
  Failures F;
  constexpr int Threads = 16;
  constexpr int Pairs = 1000;
  POMP_Handle_t Shared = 0;
  const std::string Ctc = ctcString("type=userregion*name=race*file=r.c*slines=1,1");
  std::atomic<int> Ready{0};
  std::atomic<int> Errors{0};
  std::vector<std::thread> Pool;
  for (int T = 0; T < Threads; ++T)
    Pool.emplace_back([&, T] {
      ++Ready;
      while (Ready.load() < Threads)
        std::this_thread::yield();
      for (int I = 0; I < Pairs; ++I) {
        // The paper's unoptimised scheme: the first event carries the
        // handle's address and the CTC string, from every thread at once.
        Errors += POMP_User_region_begin(&Shared, T, Ctc.c_str()) != POMP_SUCCESS;
        Errors += POMP_User_region_end(Shared, T) != POMP_SUCCESS;
      }
    });
  for (std::thread &Th : Pool)
    Th.join();
  F.equal(Errors.load(), 0, "failed events");
  F.equal(Shared, POMP_Handle_t(1), "the shared handle");
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return "no profile";
  F.equal(Runtime::regions().size(), 1u, "regions");
  F.equal(P->Nodes.size(), std::size_t(2), "nodes");
  if (P->Nodes.size() == 2) {
    F.equal(P->Nodes[1].total().Visits, std::uint64_t(Threads) * Pairs, "visits");
    F.equal(P->Nodes[1].PerThread.size(), std::size_t(Threads), "threads");
  }
  return F.text();
}

TEST_F(ApiTest, ThreadsRacingForAZeroHandleGetOneRegion) {
  EXPECT_SCENARIO(zeroHandleRaceScenario);
}

std::string finalizeWhileBusyScenario() {
  quietExperiment("busy");
  Failures F;
  const std::string Ctc = ctcString("type=userregion*name=busy*file=b.c*slines=1,1");
  POMP_Handle_t H = 0;
  std::atomic<long> Begun{0};
  std::atomic<long> Refused{0};
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  std::thread Busy([&] {
    // Runs until the library refuses an event: finalisation happened meanwhile.
    for (;;) {
      const int32_t B = POMP_User_region_begin(&H, 1, Ctc.c_str());
      if (B == POMP_ERROR_FINALIZED) {
        ++Refused;
        return;
      }
      Begun += B == POMP_SUCCESS;
      POMP_User_region_end(H, 1);
    }
  });
  while (Begun.load() == 0)
    std::this_thread::yield();
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize while a thread raises events");
  Busy.join();
  F.equal(Refused.load(), 1, "the busy thread saw the end");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return F.text() + "no profile\n";
  const ProfileNode *N = findPath(*P, {{"busy", EventId::User_region_begin}});
  if (!N)
    return F.text() + "region missing\n";
  // Every begin that succeeded is in the profile, closed by its end or at
  // finalisation; nothing after it.
  F.equal(N->total().Visits, std::uint64_t(Begun.load()), "visits vs successful begins");
  F.equal(POMP_User_region_begin(&H, 0, Ctc.c_str()), POMP_ERROR_FINALIZED, "event afterwards");
  return F.text();
}

TEST_F(ApiTest, FinalizeWhileAnotherThreadRaisesEvents) {
  EXPECT_SCENARIO(finalizeWhileBusyScenario);
}

TEST_F(ApiTest, AutoFinalizeAtExitWritesTheProfile) {
  // The death test's child re-runs this body: it must use the parent's name.
  constexpr const char *DirVariable = "POMP_API_TEST_ATEXIT_DIR";
  if (!std::getenv(DirVariable))
    ::setenv(DirVariable, quietExperiment("atexit").c_str(), 1);
  const std::string Dir = std::getenv(DirVariable);
  ::setenv("POMP_EXPERIMENT_DIR", Dir.c_str(), 1);
  ::setenv("POMP_QUIET", "1", 1);
  EXPECT_EXIT(
      {
        POMP_Handle_t H = 0;
        const std::string Ctc = ctcString("type=userregion*name=exit*file=e.c*slines=1,1");
        POMP_User_region_begin(&H, 0, Ctc.c_str());
        POMP_User_region_end(H, 0);
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "");
  struct stat Info;
  EXPECT_EQ(::stat((Dir + "/profile.json").c_str(), &Info), 0) << Dir;
  EXPECT_EQ(::stat((Dir + "/profile.txt").c_str(), &Info), 0) << Dir;
  removeExperiment(Dir);
  ::unsetenv(DirVariable);
  ::unsetenv("POMP_EXPERIMENT_DIR");
}

//--- Uninstrumented files --------------------------------------------------//

/// The text of a file, "" when it cannot be read.
std::string readText(const std::string &Path) {
  std::FILE *In = std::fopen(Path.c_str(), "r");
  if (!In)
    return "";
  std::string Text;
  char Buffer[4096];
  for (std::size_t N; (N = std::fread(Buffer, 1, sizeof Buffer, In)) > 0;)
    Text.append(Buffer, N);
  std::fclose(In);
  return Text;
}

/// Notes arrive before initialisation (from constructors), twice for one
/// file (a header compiled into two objects), and are listed once each,
/// sorted, in both files; a note after finalisation is refused.
std::string uninstrumentedScenario() {
  const std::string Dir = quietExperiment("uninstrumented");
  Failures F;
  F.equal(POMP_Note_uninstrumented(nullptr, "x"), POMP_ERROR_INVALID_ARGUMENT, "NULL file");
  F.equal(POMP_Note_uninstrumented("", "x"), POMP_ERROR_INVALID_ARGUMENT, "empty file");
  F.equal(POMP_Note_uninstrumented("/src/z.c", "z.c:2:3: error: why"), POMP_SUCCESS, "z.c");
  F.equal(POMP_Note_uninstrumented("/src/a.c", nullptr), POMP_SUCCESS, "a.c");
  F.equal(POMP_Note_uninstrumented("/src/z.c", "z.c:2:3: error: why"), POMP_SUCCESS, "z.c again");
  F.check(Runtime::phase() == Phase::Uninitialized, "a note does not initialise the library");
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  F.equal(POMP_Note_uninstrumented("/src/late.c", "x"), POMP_ERROR_FINALIZED, "after finalize");
  const std::string Json = readText(Dir + "/profile.json");
  const std::string Text = readText(Dir + "/profile.txt");
  F.check(Json.find("\"uninstrumented\": [\n"
                    "    {\"file\": \"/src/a.c\", \"reason\": \"\"},\n"
                    "    {\"file\": \"/src/z.c\", \"reason\": \"z.c:2:3: error: why\"}\n"
                    "  ],") != std::string::npos,
          "profile.json lists both files once, sorted:\n" + Json);
  F.check(Text.find("WARNING: 2 source files were compiled without instrumentation") !=
              std::string::npos,
          "profile.txt warns");
  F.check(Text.find("  /src/z.c: z.c:2:3: error: why\n") != std::string::npos,
          "profile.txt names z.c");
  ::unlink((Dir + "/profile.json").c_str());
  ::unlink((Dir + "/profile.txt").c_str());
  ::rmdir(Dir.c_str());
  return F.text();
}

TEST_F(ApiTest, UninstrumentedFilesAreListedInTheProfile) {
  EXPECT_SCENARIO(uninstrumentedScenario);
}

} // namespace
} // namespace pomp::rt::test
