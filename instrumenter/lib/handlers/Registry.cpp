//===- Registry.cpp - Which handler instruments which directive ------------===//
///
/// \file
/// The table from OpenMP directive kind to handler, in the order of the
/// OpenMP specification's chapters. A kind missing here is left unchanged:
/// declarative directives, loop transformations (tile, unroll), `section`
/// (its sections construct handles it), `scan`, `depobj`, `interop`,
/// `dispatch`, and everything nested in device code.
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"

#include "llvm/Frontend/OpenMP/OMP.h"

#include <map>

namespace pomp::inst {

using llvm::omp::Directive;
using Kind = ctc::RegionKind;

namespace {

std::map<Directive, std::unique_ptr<ConstructHandler>> buildRegistry() {
  std::map<Directive, std::unique_ptr<ConstructHandler>> R;
  // Everything the shared construct model plans.
  for (std::size_t D = 0; D < llvm::omp::Directive_enumSize; ++D)
    if (const model::ConstructSpec *Spec = model::specFor(static_cast<Directive>(D)))
      R[static_cast<Directive>(D)] = makeModelHandler(*Spec);
  // Combined parallel constructs are split in two where that keeps the
  // program's meaning (SplitParallelHandlers.cpp).
  R[Directive::OMPD_parallel_for] = makeSplitParallelHandler(Kind::ParallelFor);
  R[Directive::OMPD_parallel_for_simd] = makeSplitParallelHandler(Kind::ParallelForSimd);
  R[Directive::OMPD_parallel_sections] = makeSplitParallelHandler(Kind::ParallelSections);
  R[Directive::OMPD_parallel_master] = makeSplitParallelHandler(Kind::ParallelMaster);
  R[Directive::OMPD_parallel_masked] = makeSplitParallelHandler(Kind::ParallelMasked);
  R[Directive::OMPD_parallel_loop] = makeSplitParallelHandler(Kind::ParallelLoop);
  // Devices: the host side only.
  R[Directive::OMPD_target] = makeTargetRegionHandler(Kind::Target);
  R[Directive::OMPD_target_parallel] = makeTargetRegionHandler(Kind::TargetParallel);
  R[Directive::OMPD_target_parallel_for] = makeTargetRegionHandler(Kind::TargetParallelFor);
  R[Directive::OMPD_target_parallel_for_simd] = makeTargetRegionHandler(Kind::TargetParallelFor);
  R[Directive::OMPD_target_parallel_loop] = makeTargetRegionHandler(Kind::TargetParallel);
  R[Directive::OMPD_target_simd] = makeTargetRegionHandler(Kind::Target);
  R[Directive::OMPD_target_teams] = makeTargetRegionHandler(Kind::TargetTeams);
  R[Directive::OMPD_target_teams_loop] = makeTargetRegionHandler(Kind::TargetTeams);
  R[Directive::OMPD_target_loop] = makeTargetRegionHandler(Kind::Target);
  R[Directive::OMPD_target_teams_distribute] = makeTargetRegionHandler(Kind::TargetTeamsDistribute);
  R[Directive::OMPD_target_teams_distribute_simd] =
      makeTargetRegionHandler(Kind::TargetTeamsDistribute);
  R[Directive::OMPD_target_teams_distribute_parallel_for] =
      makeTargetRegionHandler(Kind::TargetTeamsDistributeParallelFor);
  R[Directive::OMPD_target_teams_distribute_parallel_for_simd] =
      makeTargetRegionHandler(Kind::TargetTeamsDistributeParallelFor);
  R[Directive::OMPD_target_data] = makeTargetRegionHandler(Kind::TargetData);
  R[Directive::OMPD_target_enter_data] = makeTargetDataEventHandler(Kind::TargetEnterData);
  R[Directive::OMPD_target_exit_data] = makeTargetDataEventHandler(Kind::TargetExitData);
  R[Directive::OMPD_target_update] = makeTargetDataEventHandler(Kind::TargetUpdate);
  R[Directive::OMPD_error] = makeErrorHandler();
  return R;
}

} // namespace

const ConstructHandler *handlerFor(Directive Kind) {
  static const std::map<Directive, std::unique_ptr<ConstructHandler>> Registry = buildRegistry();
  const auto It = Registry.find(Kind);
  return It == Registry.end() ? nullptr : It->second.get();
}

const char *notInstrumentedReason(Directive Kind) {
  if (handlerFor(Kind))
    return nullptr;
  switch (Kind) {
  case Directive::OMPD_section:
  case Directive::OMPD_scan:
  case Directive::OMPD_tile:
  case Directive::OMPD_unroll:
  case Directive::OMPD_reverse:
  case Directive::OMPD_interchange:
  case Directive::OMPD_nothing:
    return nullptr;
  case Directive::OMPD_depobj:
  case Directive::OMPD_interop:
  case Directive::OMPD_dispatch:
    return "the POMP API has no event for it";
  default:
    return "ompinst has no handler for it";
  }
}

Directive sourceDirectiveKind(const clang::OMPExecutableDirective &D) {
  // Clang 19 turns a `loop` into the for, simd or distribute construct its
  // binding makes it; the source (and OpenMP's rules on it) stay `loop`.
  if (D.getMappedDirective() == Directive::OMPD_loop)
    return Directive::OMPD_loop;
  return D.getDirectiveKind();
}

bool threadIdAvailableInside(const clang::OMPExecutableDirective &D, Directive Kind, bool Outside) {
  for (const auto *Order : D.getClausesOfKind<clang::OMPOrderClause>())
    if (Order->getKind() == clang::OMPC_ORDER_concurrent)
      return false;
  if (clang::isOpenMPGenericLoopDirective(Kind) || clang::isOpenMPSimdDirective(Kind))
    return false;
  if (clang::isOpenMPParallelDirective(Kind))
    return true;
  if (clang::isOpenMPTeamsDirective(Kind))
    return false;
  return Outside;
}

bool isTargetDirective(Directive Kind) {
  // target data's block runs on the host; only target execution constructs
  // hold device code.
  return clang::isOpenMPTargetExecutionDirective(Kind);
}

bool acceptsDefaultClause(Directive Kind) {
  return llvm::omp::isAllowedClauseForDirective(Kind, llvm::omp::OMPC_default, /*Version=*/52);
}

} // namespace pomp::inst
