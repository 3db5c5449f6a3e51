//===- ConstructModel.cpp - What each construct becomes --------------------===//
#include "pomp/model/ConstructModel.h"

#include "llvm/Frontend/OpenMP/OMP.h"

#include <map>

namespace pomp::inst::model {

using llvm::omp::Directive;
using K = ctc::RegionKind;
using E = Event;

namespace {

ConstructSpec block(K Kind, E Enter, E Begin, E End, E Exit, bool Barrier) {
  return {Shape::Block, Kind, Enter, Begin, End, Exit, Barrier};
}
ConstructSpec simple(Shape S, K Kind, E Enter = {}, E Exit = {}) {
  return {S, Kind, Enter, {}, {}, Exit, false};
}
ConstructSpec loop(K Kind, bool Barrier) {
  return {Shape::Loop, Kind, E::Loop_enter, {}, {}, E::Loop_exit, Barrier};
}

/// The table, in the order of the OpenMP specification's chapters. The
/// combined constructs both front ends split in two (parallel for/do,
/// parallel sections, ...) are listed as CombinedParallel, what they become
/// when they are not split; C's `parallel for` etc. are missing (its
/// SplitParallelHandlers decides them).
std::map<Directive, ConstructSpec> buildTable() {
  std::map<Directive, ConstructSpec> T;
  // Parallelism.
  T[Directive::OMPD_parallel] = simple(Shape::Parallel, K::Parallel);
  for (Directive D :
       {Directive::OMPD_parallel_masked_taskloop, Directive::OMPD_parallel_master_taskloop,
        Directive::OMPD_parallel_masked_taskloop_simd,
        Directive::OMPD_parallel_master_taskloop_simd})
    T[D] = simple(Shape::CombinedParallel, K::ParallelMaskedTaskloop);
  T[Directive::OMPD_parallel_do] = simple(Shape::CombinedParallel, K::ParallelDo);
  T[Directive::OMPD_parallel_do_simd] = simple(Shape::CombinedParallel, K::ParallelDoSimd);
  T[Directive::OMPD_parallel_workshare] = simple(Shape::CombinedParallel, K::ParallelWorkshare);
  T[Directive::OMPD_parallel_sections] = simple(Shape::CombinedParallel, K::ParallelSections);
  T[Directive::OMPD_teams] = simple(Shape::Teams, K::Teams);
  T[Directive::OMPD_teams_distribute] = simple(Shape::CombinedTeams, K::TeamsDistribute);
  T[Directive::OMPD_teams_distribute_simd] = simple(Shape::CombinedTeams, K::TeamsDistribute);
  T[Directive::OMPD_teams_distribute_parallel_for] =
      simple(Shape::CombinedTeams, K::TeamsDistributeParallelFor);
  T[Directive::OMPD_teams_distribute_parallel_for_simd] =
      simple(Shape::CombinedTeams, K::TeamsDistributeParallelFor);
  T[Directive::OMPD_teams_distribute_parallel_do] =
      simple(Shape::CombinedTeams, K::TeamsDistributeParallelDo);
  T[Directive::OMPD_teams_distribute_parallel_do_simd] =
      simple(Shape::CombinedTeams, K::TeamsDistributeParallelDo);
  T[Directive::OMPD_teams_loop] = simple(Shape::CombinedTeams, K::Teams);
  // Worksharing and loops.
  T[Directive::OMPD_for] = loop(K::For, true);
  T[Directive::OMPD_for_simd] = loop(K::ForSimd, true);
  T[Directive::OMPD_do] = loop(K::Do, true);
  T[Directive::OMPD_do_simd] = loop(K::DoSimd, true);
  T[Directive::OMPD_simd] = loop(K::Simd, false);
  T[Directive::OMPD_loop] = loop(K::Loop, false);
  T[Directive::OMPD_distribute] = loop(K::Distribute, false);
  T[Directive::OMPD_distribute_simd] = loop(K::DistributeSimd, false);
  T[Directive::OMPD_distribute_parallel_for] = loop(K::DistributeParallelFor, false);
  T[Directive::OMPD_distribute_parallel_for_simd] = loop(K::DistributeParallelFor, false);
  T[Directive::OMPD_distribute_parallel_do] = loop(K::DistributeParallelDo, false);
  T[Directive::OMPD_distribute_parallel_do_simd] = loop(K::DistributeParallelDo, false);
  T[Directive::OMPD_sections] = {
      Shape::Sections,  K::Sections, E::Sections_enter, E::Section_begin, E::Section_end,
      E::Sections_exit, true};
  T[Directive::OMPD_single] =
      block(K::Single, E::Single_enter, E::Single_begin, E::Single_end, E::Single_exit, true);
  T[Directive::OMPD_scope] =
      block(K::Scope, E::Scope_enter, E::Scope_begin, E::Scope_end, E::Scope_exit, true);
  T[Directive::OMPD_workshare] = block(K::Workshare, E::Workshare_enter, E::Workshare_begin,
                                       E::Workshare_end, E::Workshare_exit, true);
  T[Directive::OMPD_workshare].BlockTakesCalls = false;
  // Synchronisation.
  T[Directive::OMPD_critical] = block(K::Critical, E::Critical_enter, E::Critical_begin,
                                      E::Critical_end, E::Critical_exit, false);
  T[Directive::OMPD_master] = {Shape::Master, K::Master, {}, E::Master_begin, E::Master_end};
  T[Directive::OMPD_masked] = {Shape::Masked, K::Masked, {}, E::Masked_begin, E::Masked_end};
  T[Directive::OMPD_barrier] =
      simple(Shape::Standalone, K::Barrier, E::Barrier_enter, E::Barrier_exit);
  T[Directive::OMPD_ordered] =
      block(K::Ordered, E::Ordered_enter, E::Ordered_begin, E::Ordered_end, E::Ordered_exit, false);
  T[Directive::OMPD_ordered].S = Shape::Ordered;
  T[Directive::OMPD_atomic] = simple(Shape::EventAfter, K::Atomic, E::Atomic_event);
  T[Directive::OMPD_flush] = simple(Shape::EventAfter, K::Flush, E::Flush_event);
  T[Directive::OMPD_cancel] = simple(Shape::Cancel, K::Cancel, E::Cancel_event);
  T[Directive::OMPD_cancellation_point] =
      simple(Shape::EventBefore, K::CancellationPoint, E::Cancellation_point_event);
  // Tasking.
  T[Directive::OMPD_task] = simple(Shape::Task, K::Task);
  T[Directive::OMPD_taskwait] =
      simple(Shape::Standalone, K::Taskwait, E::Taskwait_enter, E::Taskwait_exit);
  T[Directive::OMPD_taskyield] =
      simple(Shape::Standalone, K::Taskyield, E::Taskyield_enter, E::Taskyield_exit);
  T[Directive::OMPD_taskgroup] = block(K::Taskgroup, E::Taskgroup_enter, E::Taskgroup_begin,
                                       E::Taskgroup_end, E::Taskgroup_exit, false);
  const std::pair<Directive, K> Taskloops[] = {
      {Directive::OMPD_taskloop, K::Taskloop},
      {Directive::OMPD_taskloop_simd, K::TaskloopSimd},
      {Directive::OMPD_master_taskloop, K::MasterTaskloop},
      {Directive::OMPD_masked_taskloop, K::MaskedTaskloop},
      {Directive::OMPD_master_taskloop_simd, K::MaskedTaskloopSimd},
      {Directive::OMPD_masked_taskloop_simd, K::MaskedTaskloopSimd}};
  for (const auto &[D, Kind] : Taskloops)
    T[D] = simple(Shape::Taskloop, Kind, E::Taskloop_enter, E::Taskloop_exit);
  // Devices: the host side only.
  const std::pair<Directive, K> Targets[] = {
      {Directive::OMPD_target, K::Target},
      {Directive::OMPD_target_simd, K::Target},
      {Directive::OMPD_target_loop, K::Target},
      {Directive::OMPD_target_parallel, K::TargetParallel},
      {Directive::OMPD_target_parallel_loop, K::TargetParallel},
      {Directive::OMPD_target_parallel_for, K::TargetParallelFor},
      {Directive::OMPD_target_parallel_for_simd, K::TargetParallelFor},
      {Directive::OMPD_target_parallel_do, K::TargetParallelDo},
      {Directive::OMPD_target_parallel_do_simd, K::TargetParallelDo},
      {Directive::OMPD_target_teams, K::TargetTeams},
      {Directive::OMPD_target_teams_loop, K::TargetTeams},
      {Directive::OMPD_target_teams_distribute, K::TargetTeamsDistribute},
      {Directive::OMPD_target_teams_distribute_simd, K::TargetTeamsDistribute},
      {Directive::OMPD_target_teams_distribute_parallel_for, K::TargetTeamsDistributeParallelFor},
      {Directive::OMPD_target_teams_distribute_parallel_for_simd,
       K::TargetTeamsDistributeParallelFor},
      {Directive::OMPD_target_teams_distribute_parallel_do, K::TargetTeamsDistributeParallelDo},
      {Directive::OMPD_target_teams_distribute_parallel_do_simd,
       K::TargetTeamsDistributeParallelDo}};
  for (const auto &[D, Kind] : Targets)
    T[D] = simple(Shape::Target, Kind, E::Target_enter, E::Target_exit);
  T[Directive::OMPD_target_data] =
      simple(Shape::Target, K::TargetData, E::Target_data_enter, E::Target_data_exit);
  T[Directive::OMPD_target_enter_data] =
      simple(Shape::TargetEvent, K::TargetEnterData, E::Target_data_event);
  T[Directive::OMPD_target_exit_data] =
      simple(Shape::TargetEvent, K::TargetExitData, E::Target_data_event);
  T[Directive::OMPD_target_update] =
      simple(Shape::TargetEvent, K::TargetUpdate, E::Target_data_event);
  return T;
}

Step call(Event Ev, std::vector<Arg> Args, Region R = Region::Construct) {
  return {Step::Kind::Call, Ev, R, std::move(Args)};
}

/// Enter before, begin and end in the block, exit after (paper Appendix C),
/// with the implicit barrier made visible when the construct has one.
void planBlock(Plan &P, const ConstructSpec &S, const ClauseFacts &F, const EnabledFn &On) {
  const bool EnterExit = On(S.Enter);
  const bool BeginEnd = On(S.Begin);
  // A construct with an implicit barrier keeps its handle even when only
  // the barrier (or nothing) is shown: the handle numbering of a file does
  // not depend on the Sync group's level.
  if (!EnterExit && !BeginEnd && !S.ImplicitBarrier)
    return;
  P.Instrumented = true;
  if (EnterExit)
    P.Before.push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
  if (BeginEnd && S.BlockTakesCalls) {
    P.BlockBegin.push_back(call(S.Begin, {Arg::Handle, Arg::ThreadId}));
    P.BlockEnd.push_back(call(S.End, {Arg::Handle, Arg::ThreadId}));
  }
  if (S.ImplicitBarrier && canShowImplicitBarrier(F, On)) {
    P.AddNowait = true;
    P.UsesBarrierHandle = true;
    P.After = implicitBarrierSteps(Arg::ThreadId);
  }
  if (EnterExit)
    P.After.push_back(call(S.Exit, {Arg::Handle, Arg::ThreadId}));
}

void planStandalone(Plan &P, const ConstructSpec &S, const EnabledFn &On) {
  if (!On(S.Enter))
    return;
  P.Instrumented = true;
  P.Before.push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
  P.After.push_back(call(S.Exit, {Arg::Handle, Arg::ThreadId}));
}

} // namespace

const ConstructSpec *specFor(Directive Kind) {
  static const std::map<Directive, ConstructSpec> Table = buildTable();
  const auto It = Table.find(Kind);
  return It == Table.end() ? nullptr : &It->second;
}

bool splitClauseGoesToWorksharing(llvm::omp::Clause Clause, Directive Inner) {
  switch (Clause) {
  case llvm::omp::OMPC_schedule:
  case llvm::omp::OMPC_ordered:
  case llvm::omp::OMPC_collapse:
  case llvm::omp::OMPC_lastprivate:
  case llvm::omp::OMPC_linear:
  case llvm::omp::OMPC_reduction:
  case llvm::omp::OMPC_order:
  case llvm::omp::OMPC_safelen:
  case llvm::omp::OMPC_simdlen:
  case llvm::omp::OMPC_aligned:
  case llvm::omp::OMPC_nontemporal:
  case llvm::omp::OMPC_filter:
  case llvm::omp::OMPC_bind: {
    constexpr unsigned OpenMPVersion = 52;
    return llvm::omp::isAllowedClauseForDirective(Inner, Clause, OpenMPVersion);
  }
  default:
    return false;
  }
}

bool canShowImplicitBarrier(const ClauseFacts &F, const EnabledFn &On) {
  return On(E::Implicit_barrier_enter) && !F.HasNowait && !F.HasCopyprivate &&
         !F.HasTaskReduction && !F.ContainsCancellation;
}

std::vector<Step> implicitBarrierSteps(Arg Tid) {
  return {
      call(E::Implicit_barrier_enter, {Arg::HandleFirst, Tid, Arg::Ctc}, Region::ImplicitBarrier),
      {Step::Kind::BarrierDirective, {}, Region::ImplicitBarrier, {}},
      call(E::Implicit_barrier_exit, {Arg::Handle, Tid}, Region::ImplicitBarrier)};
}

Plan planFunction(const EnabledFn &On) {
  Plan P;
  P.Kind = K::Function;
  if (On(E::Function_event)) {
    P.Instrumented = true;
    P.BlockBegin.push_back(call(E::Function_event, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
  } else if (On(E::Function_begin)) {
    P.Instrumented = true;
    P.BlockBegin.push_back(call(E::Function_begin, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
    P.BlockEnd.push_back(call(E::Function_end, {Arg::Handle, Arg::ThreadId}));
  }
  return P;
}

bool Plan::startsWithEnter() const {
  return !EvaluateIf && !EvaluateNumThreads && !Before.empty() &&
         Before.front().K == Step::Kind::Call && Before.front().R == Region::Construct &&
         eventInfo(Before.front().E).Enter;
}

bool Plan::blockBeginsWithBegin() const {
  return !BlockBegin.empty() && BlockBegin.back().K == Step::Kind::Call &&
         eventInfo(BlockBegin.back().E).Begin;
}

bool Plan::endsWithExit() const {
  return !After.empty() && After.back().K == Step::Kind::Call && eventInfo(After.back().E).Exit;
}

Plan planConstruct(const ConstructSpec &S, const ClauseFacts &F, const EnabledFn &On) {
  Plan P;
  P.Kind = S.Kind;
  switch (S.S) {
  case Shape::Parallel:
  case Shape::CombinedParallel: {
    if (!On(E::Parallel_fork))
      return P;
    P.Instrumented = true;
    P.ContextName = "ctx";
    P.EvaluateIf = F.HasIf;
    P.EvaluateNumThreads = F.HasNumThreads;
    P.Before.push_back(call(E::Parallel_fork, {Arg::HandleFirst, Arg::ThreadId, Arg::NumThreads,
                                               Arg::If, Arg::ContextOut, Arg::Ctc}));
    if (S.S == Shape::Parallel) {
      P.ContextFirstprivate = true;
      // Fork and exit run where the directive is (maybe strictly in teams);
      // the rest inside the new team.
      if (On(E::Implicit_barrier_enter)) {
        P.UsesBarrierHandle = true;
        P.JoinBarrierSkippable = true;
        P.BlockEnd = implicitBarrierSteps(Arg::TeamThreadId);
      }
      if (On(E::Parallel_begin_forked)) {
        P.BlockBegin.push_back(
            call(E::Parallel_begin_forked, {Arg::Handle, Arg::TeamThreadId, Arg::Context}));
        P.BlockEnd.push_back(call(E::Parallel_end, {Arg::Handle, Arg::TeamThreadId}));
      }
    }
    P.After.push_back(call(E::Parallel_exit, {Arg::Handle, Arg::ThreadId}));
    return P;
  }
  case Shape::Teams:
  case Shape::CombinedTeams:
    if (!On(E::Teams_enter))
      return P;
    P.Instrumented = true;
    P.ContextName = "ctx";
    P.Before.push_back(call(E::Teams_enter, {Arg::HandleFirst, Arg::ThreadId, Arg::NotAvailable,
                                             Arg::NotAvailable, Arg::ContextOut, Arg::Ctc}));
    if (S.S == Shape::Teams) {
      P.ContextFirstprivate = true;
      // OpenMP forbids runtime calls strictly inside a teams region.
      if (On(E::Teams_begin)) {
        P.BlockBegin.push_back(
            call(E::Teams_begin, {Arg::Handle, Arg::NotAvailable, Arg::Context}));
        P.BlockEnd.push_back(call(E::Teams_end, {Arg::Handle, Arg::NotAvailable}));
      }
    }
    P.After.push_back(call(E::Teams_exit, {Arg::Handle, Arg::ThreadId}));
    return P;
  case Shape::Loop:
    if (!On(E::Loop_enter))
      return P;
    P.Instrumented = true;
    P.Before.push_back(
        call(E::Loop_enter, {Arg::HandleFirst, Arg::ThreadId, Arg::ChunkSize, Arg::InitIter,
                             Arg::FinalIter, Arg::Increment, Arg::Ctc}));
    if (S.ImplicitBarrier && canShowImplicitBarrier(F, On)) {
      P.AddNowait = true;
      P.UsesBarrierHandle = true;
      P.After = implicitBarrierSteps(Arg::ThreadId);
    }
    P.After.push_back(call(E::Loop_exit, {Arg::Handle, Arg::ThreadId}));
    return P;
  case Shape::Sections: {
    const bool EnterExit = On(S.Enter);
    const bool BeginEnd = On(S.Begin);
    if (!EnterExit && !BeginEnd)
      return P;
    P.Instrumented = true;
    if (BeginEnd) {
      P.SectionBegin.push_back(call(S.Begin, {Arg::Handle, Arg::SectionNumber, Arg::ThreadId}));
      P.SectionEnd.push_back(call(S.End, {Arg::Handle, Arg::ThreadId}));
    }
    if (canShowImplicitBarrier(F, On)) {
      P.AddNowait = true;
      P.UsesBarrierHandle = true;
      P.After = implicitBarrierSteps(Arg::ThreadId);
    }
    if (EnterExit) {
      P.Before.push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
      P.After.push_back(call(S.Exit, {Arg::Handle, Arg::ThreadId}));
    }
    return P;
  }
  case Shape::Block:
    planBlock(P, S, F, On);
    return P;
  case Shape::Master:
  case Shape::Masked:
    if (!On(S.Begin))
      return P;
    P.Instrumented = true;
    // Masked passes the executing thread's number as the filter it matched.
    if (S.S == Shape::Masked)
      P.BlockBegin.push_back(
          call(S.Begin, {Arg::HandleFirst, Arg::ThreadId, Arg::ThreadId, Arg::Ctc}));
    else
      P.BlockBegin.push_back(call(S.Begin, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
    P.BlockEnd.push_back(call(S.End, {Arg::Handle, Arg::ThreadId}));
    return P;
  case Shape::Ordered:
    if (F.Standalone)
      planStandalone(P, S, On);
    else
      planBlock(P, S, F, On);
    return P;
  case Shape::Standalone:
  case Shape::Taskloop:
    planStandalone(P, S, On);
    return P;
  case Shape::EventBefore:
  case Shape::EventAfter:
    if (!On(S.Enter))
      return P;
    P.Instrumented = true;
    (S.S == Shape::EventBefore ? P.Before : P.After)
        .push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc}));
    return P;
  case Shape::Cancel:
    // Before the directive: an activated cancellation leaves the region.
    if (!On(E::Cancel_event))
      return P;
    P.Instrumented = true;
    P.EvaluateIf = F.HasIf;
    P.Before.push_back(call(E::Cancel_event, {Arg::HandleFirst, Arg::ThreadId, Arg::If, Arg::Ctc}));
    return P;
  case Shape::Target:
    // Around the construct on the host; its body (but target data's) is device code.
    if (!On(S.Enter))
      return P;
    P.Instrumented = true;
    P.Before.push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Device, Arg::Ctc}));
    P.After.push_back(call(S.Exit, {Arg::Handle, Arg::ThreadId}));
    return P;
  case Shape::TargetEvent:
    if (!On(S.Enter))
      return P;
    P.Instrumented = true;
    P.After.push_back(call(S.Enter, {Arg::HandleFirst, Arg::ThreadId, Arg::Device, Arg::Ctc}));
    return P;
  case Shape::Task:
    if (!On(E::Task_create_enter))
      return P;
    P.Instrumented = true;
    P.ContextName = "task";
    P.ContextFirstprivate = true;
    P.EvaluateIf = F.HasIf;
    P.Before.push_back(call(E::Task_create_enter,
                            {Arg::HandleFirst, Arg::ThreadId, Arg::If, Arg::ContextOut, Arg::Ctc}));
    if (On(E::Task_begin)) {
      P.BlockBegin.push_back(call(E::Task_begin, {Arg::Handle, Arg::ThreadId, Arg::Context}));
      P.BlockEnd.push_back(call(E::Task_end, {Arg::Handle, Arg::ThreadId}));
    }
    P.After.push_back(call(E::Task_create_exit, {Arg::Handle, Arg::ThreadId}));
    return P;
  }
  return P;
}

} // namespace pomp::inst::model
