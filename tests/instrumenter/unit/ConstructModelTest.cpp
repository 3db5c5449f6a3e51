//===- ConstructModelTest.cpp - The shared construct model -----------------===//
///
/// \file
/// What the language-neutral construct model plans, independent of how a
/// front end spells it: the places of the events, the implicit barrier made
/// visible where that is equivalent, the helper variables.
///
//===----------------------------------------------------------------------===//
#include "pomp/model/ConstructModel.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

using namespace pomp::inst;
using namespace pomp::inst::model;
using llvm::omp::Directive;

/// Every event fires (levels beginend everywhere).
bool all(Event) { return true; }

std::vector<Event> events(const std::vector<Step> &Steps) {
  std::vector<Event> Out;
  for (const Step &S : Steps)
    if (S.K == Step::Kind::Call)
      Out.push_back(S.E);
  return Out;
}

TEST(ConstructModel, ParallelForksWithContextAndShowsItsJoinBarrier) {
  ClauseFacts F;
  F.HasIf = true;
  const Plan P = planConstruct(*specFor(Directive::OMPD_parallel), F, all);
  ASSERT_TRUE(P.Instrumented);
  EXPECT_EQ(events(P.Before), std::vector<Event>{Event::Parallel_fork});
  EXPECT_EQ(events(P.BlockBegin), std::vector<Event>{Event::Parallel_begin_forked});
  EXPECT_EQ(events(P.BlockEnd),
            (std::vector<Event>{Event::Implicit_barrier_enter, Event::Implicit_barrier_exit,
                                Event::Parallel_end}));
  EXPECT_EQ(events(P.After), std::vector<Event>{Event::Parallel_exit});
  EXPECT_TRUE(P.ContextFirstprivate);
  EXPECT_TRUE(P.EvaluateIf);
  EXPECT_FALSE(P.EvaluateNumThreads);
  EXPECT_TRUE(P.UsesBarrierHandle);
  EXPECT_FALSE(P.AddNowait);
}

TEST(ConstructModel, WorksharingShowsItsImplicitBarrierOnlyWhereEquivalent) {
  const Plan Plain = planConstruct(*specFor(Directive::OMPD_single), {}, all);
  EXPECT_TRUE(Plain.AddNowait);
  EXPECT_EQ(events(Plain.After),
            (std::vector<Event>{Event::Implicit_barrier_enter, Event::Implicit_barrier_exit,
                                Event::Single_exit}));
  ClauseFacts Copyprivate;
  Copyprivate.HasCopyprivate = true;
  ClauseFacts Cancellable;
  Cancellable.ContainsCancellation = true;
  ClauseFacts TaskReduction;
  TaskReduction.HasTaskReduction = true;
  for (const ClauseFacts &F : {Copyprivate, Cancellable, TaskReduction}) {
    const Plan P = planConstruct(*specFor(Directive::OMPD_single), F, all);
    EXPECT_FALSE(P.AddNowait);
    EXPECT_FALSE(P.UsesBarrierHandle);
    EXPECT_EQ(events(P.After), std::vector<Event>{Event::Single_exit});
  }
}

TEST(ConstructModel, FortranLoopsAreLoops) {
  for (Directive D : {Directive::OMPD_do, Directive::OMPD_do_simd}) {
    const Plan P = planConstruct(*specFor(D), {}, all);
    EXPECT_EQ(events(P.Before), std::vector<Event>{Event::Loop_enter});
    EXPECT_TRUE(P.BlockBegin.empty());
    EXPECT_TRUE(P.AddNowait);
  }
  EXPECT_EQ(specFor(Directive::OMPD_do)->Kind, pomp::ctc::RegionKind::Do);
  EXPECT_EQ(specFor(Directive::OMPD_parallel_do)->Kind, pomp::ctc::RegionKind::ParallelDo);
}

TEST(ConstructModel, WorkshareBlockTakesNoCalls) {
  const Plan P = planConstruct(*specFor(Directive::OMPD_workshare), {}, all);
  ASSERT_TRUE(P.Instrumented);
  EXPECT_FALSE(P.hasBlockCode());
  EXPECT_EQ(events(P.Before), std::vector<Event>{Event::Workshare_enter});
}

TEST(ConstructModel, OffEventsPlanNothing) {
  const Plan P = planConstruct(*specFor(Directive::OMPD_critical), {}, [](Event) { return false; });
  EXPECT_FALSE(P.Instrumented);
}

TEST(ConstructModel, SplitSendsLoopClausesToTheWorksharingHalf) {
  EXPECT_TRUE(splitClauseGoesToWorksharing(llvm::omp::OMPC_schedule, Directive::OMPD_do));
  EXPECT_TRUE(splitClauseGoesToWorksharing(llvm::omp::OMPC_reduction, Directive::OMPD_do));
  EXPECT_FALSE(splitClauseGoesToWorksharing(llvm::omp::OMPC_num_threads, Directive::OMPD_do));
  EXPECT_FALSE(splitClauseGoesToWorksharing(llvm::omp::OMPC_private, Directive::OMPD_do));
  // sections takes no schedule: it stays with (and is rejected by) the parallel half.
  EXPECT_FALSE(splitClauseGoesToWorksharing(llvm::omp::OMPC_schedule, Directive::OMPD_sections));
}

} // namespace
