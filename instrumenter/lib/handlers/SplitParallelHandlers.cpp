//===- SplitParallelHandlers.cpp - parallel for, parallel sections, ... ----===//
///
/// \file
/// A combined construct that starts with `parallel` is split into a parallel
/// region and its worksharing construct, so that every team thread's begin
/// and end and the worksharing events are visible on every runtime (there is
/// no source position between the two halves otherwise):
///
///   #pragma omp parallel for num_threads(4) schedule(static) reduction(+:s)
///
/// becomes
///
///   { POMP_Context_t pomp_ctx_N; int pomp_num_threads_N = (int)(4);
///   pomp_ctx_N = POMP_Parallel_fork_ctx(...);
///   #pragma omp parallel num_threads(pomp_num_threads_N) firstprivate(pomp_ctx_N)
///   { POMP_Parallel_begin_forked(...); { POMP_Loop_enter(...);
///   #pragma omp for schedule(static) reduction(+:s) nowait
///   for (...) ... <implicit barrier> POMP_Loop_exit(...); } POMP_Parallel_end(...); }
///   POMP_Parallel_exit(...); }
///
/// Each clause goes to the half the OpenMP specification gives it for the
/// combined construct: loop clauses (schedule, collapse, ordered, lastprivate,
/// reduction, linear, simd clauses) and the filter of masked to the
/// worksharing half, data-environment and team clauses to the parallel half.
/// A firstprivate variable that is also lastprivate stays with the
/// worksharing half; a region with a non-shared default clause lists the
/// variables the worksharing half reduces or copies out as shared.
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprOpenMP.h"
#include "clang/AST/OpenMPClause.h"
#include "llvm/Frontend/OpenMP/OMP.h"

#include <algorithm>
#include <vector>

namespace pomp::inst {

using namespace clang;

namespace {

/// The worksharing half of a combined parallel construct.
struct Worksharing {
  const char *Spelling;           ///< directive text: "for simd"
  llvm::omp::Directive Directive; ///< its kind, to ask which clauses it takes
  ctc::RegionKind Kind;           ///< its CTC type
};

/// The variable a list item names (a[i], a[0:n] and (a) name a), or null.
const VarDecl *listItemVariable(const Expr *Item) {
  while (Item) {
    Item = Item->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Item))
      return dyn_cast<VarDecl>(Ref->getDecl());
    if (const auto *Subscript = dyn_cast<ArraySubscriptExpr>(Item))
      Item = Subscript->getBase();
    else if (const auto *Section = dyn_cast<ArraySectionExpr>(Item))
      Item = Section->getBase();
    else
      return nullptr;
  }
  return nullptr;
}

/// Variables in first-seen order (pointer order would make the output vary
/// from run to run).
using VariableList = std::vector<const VarDecl *>;

template <typename ClauseT> void collectVariables(const OMPClause &C, VariableList &Out) {
  if (const auto *List = dyn_cast<ClauseT>(&C))
    for (const Expr *Item : List->varlists())
      if (const VarDecl *V = listItemVariable(Item))
        if (std::find(Out.begin(), Out.end(), V) == Out.end())
          Out.push_back(V);
}

/// An inscan reduction: libomp 19 computes a wrong scan for a non-combined
/// `for` with one (x = 3775 instead of 5050 for 1..100), so the combined
/// construct is not split.
bool hasInscanReduction(const ConstructEditor &E) {
  for (const auto *C : E.directive().getClausesOfKind<OMPReductionClause>())
    if (C->getModifier() == OMPC_REDUCTION_inscan)
      return true;
  return false;
}

class SplitParallelHandler final : public ConstructHandler {
public:
  SplitParallelHandler(ctc::RegionKind Kind, Worksharing Inner) : Kind(Kind), Inner(Inner) {}

  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Parallel_fork))
      return;
    // allocate clauses must stay with the directive that privatises their
    // variables, and a split must never change what the program computes:
    // such constructs keep their fork/join events only.
    if (E.hasClause<OMPAllocateClause>() || hasInscanReduction(E))
      return makeCombinedParallelHandler(Kind)->instrument(E);

    const unsigned H = E.newHandle(Kind);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("ctx", H);
    std::string Declarations = "POMP_Context_t " + Context + ";";
    std::string If = NotAvailable32, NumThreads = NotAvailable32;
    std::string ParallelClauses, InnerClauses;
    partitionClauses(E, H, Declarations, If, NumThreads, ParallelClauses, InnerClauses);

    E.beforeDirective(
        "{ " + Declarations + " " +
        ConstructEditor::contextCall(Event::Parallel_fork, Context,
                                     {E.handleAddress(H), Tid, NumThreads, If, E.ctc(H)}));
    E.replacePragma("#pragma omp parallel" + ParallelClauses);
    E.appendClause("firstprivate(" + Context + ")");

    // Fork and exit run where the directive is (maybe strictly in teams);
    // the rest inside the new team.
    const std::string TeamTid = E.threadIdInParallel();
    const bool BeginEnd = E.enabled(Event::Parallel_begin_forked);
    const std::string ParallelBegin =
        BeginEnd
            ? ConstructEditor::call(Event::Parallel_begin_forked, {E.handle(H), TeamTid, Context})
            : "";
    std::string ParallelEnd =
        BeginEnd ? ConstructEditor::call(Event::Parallel_end, {E.handle(H), TeamTid}) : "";

    // The answer of the worksharing half's join question, which
    // Parallel_end's condition reuses (a variable of each team thread).
    const std::string JoinResult = ParallelEnd.empty() ? "" : E.local("join", H);
    std::string InnerBefore, InnerAfter;
    bool Skippable = false;
    const bool InnerBarrier = instrumentInner(E, Context, JoinResult, !ParallelBegin.empty(),
                                              InnerBefore, InnerAfter, InnerClauses, Skippable);
    // The worksharing half's barrier is the team's last one: with OMPT merged
    // the runtime's join stands for it (joinBarrierCondition()), and
    // Parallel_end is skipped with it.
    const bool ReusesJoin = Skippable && !ParallelEnd.empty();
    if (ReusesJoin)
      ParallelEnd = joinBarrierAnswered(JoinResult) + " { " + ParallelEnd + " }";
    // Without a barrier of its own in the worksharing half (master, masked,
    // loop), the team's join barrier is the one to show.
    if (!InnerBarrier && E.enabled(Event::Implicit_barrier_enter))
      ParallelEnd = implicitBarrierCode(E, TeamTid, Context) + " " +
                    (ParallelEnd.empty() ? "" : ParallelEnd + " ") + "}";

    // Declared first in the team's block (C89).
    const std::string JoinDeclaration = ReusesJoin ? "int " + JoinResult + "; " : "";
    E.afterPragma("\n{ " + JoinDeclaration + ParallelBegin +
                  (InnerBefore.empty() ? "" : " " + InnerBefore) + "\n" + E.atDirective() +
                  "#pragma omp " + Inner.Spelling + InnerClauses);
    E.afterConstruct((InnerAfter.empty() ? "" : InnerAfter + " ") + ParallelEnd + " } " +
                     ConstructEditor::call(Event::Parallel_exit, {E.handle(H), Tid}) + " }");
  }

private:
  /// Sorts the clauses into the two halves (with if and num_threads
  /// evaluated once into variables).
  void partitionClauses(ConstructEditor &E, unsigned H, std::string &Declarations, std::string &If,
                        std::string &NumThreads, std::string &ParallelClauses,
                        std::string &InnerClauses) const {
    const OMPExecutableDirective &D = E.directive();
    VariableList Lastprivate;
    for (const OMPClause *C : D.clauses())
      collectVariables<OMPLastprivateClause>(*C, Lastprivate);
    VariableList InnerShared;
    const OMPIfClause *ParallelIf = ifClauseFor(D);

    for (const auto &[C, Text] : E.clauseTexts()) {
      const llvm::omp::Clause ClauseKind = C->getClauseKind();
      bool ToInner = model::splitClauseGoesToWorksharing(ClauseKind, Inner.Directive);
      if (const auto *IfClause = dyn_cast<OMPIfClause>(C))
        ToInner = IfClause != ParallelIf;
      if (const auto *First = dyn_cast<OMPFirstprivateClause>(C)) {
        VariableList Vars;
        collectVariables<OMPFirstprivateClause>(*First, Vars);
        for (const VarDecl *V : Vars)
          ToInner =
              ToInner || std::find(Lastprivate.begin(), Lastprivate.end(), V) != Lastprivate.end();
      }
      std::string ClauseText = Text;
      if (C == ParallelIf) {
        If = E.local("if", H);
        const SourceLocation Open = ParallelIf->getColonLoc().isValid()
                                        ? ParallelIf->getColonLoc()
                                        : ParallelIf->getLParenLoc();
        Declarations +=
            " int " + If + " = !!(" + clauseArgument(E, Open, ParallelIf->getEndLoc()) + ");";
        ClauseText = "if(" + If + ")";
      } else if (const auto *Threads = dyn_cast<OMPNumThreadsClause>(C)) {
        NumThreads = E.local("num_threads", H);
        Declarations += " int " + NumThreads + " = (int)(" +
                        clauseArgument(E, Threads->getLParenLoc(), Threads->getEndLoc()) + ");";
        ClauseText = "num_threads(" + NumThreads + ")";
      }
      if (ToInner) {
        InnerClauses += " " + ClauseText;
        collectVariables<OMPLastprivateClause>(*C, InnerShared);
        collectVariables<OMPReductionClause>(*C, InnerShared);
        collectVariables<OMPLinearClause>(*C, InnerShared);
        collectVariables<OMPFirstprivateClause>(*C, InnerShared);
      } else {
        ParallelClauses += " " + ClauseText;
      }
    }
    // Under default(none|private|firstprivate) the variables the worksharing
    // half copies in or out must be shared in the parallel half.
    const auto *Default = D.getSingleClause<OMPDefaultClause>();
    if (Default && Default->getDefaultKind() != llvm::omp::OMP_DEFAULT_shared &&
        !InnerShared.empty()) {
      std::string Names;
      for (const VarDecl *V : InnerShared)
        Names += (Names.empty() ? "" : ", ") + V->getNameAsString();
      ParallelClauses += " shared(" + Names + ")";
    }
  }

  /// The worksharing half's events: code right after its pragma's line
  /// (Before), code after the construct (After), clauses to add (nowait).
  /// Returns whether the half shows an implicit barrier of its own.
  /// Skippable: the half's barrier and the events after it are under
  /// joinBarrierCondition() (the team's join stands for them), which stores
  /// its answer in JoinResult when that is not empty. BeginsBlock: the
  /// team's begin event comes right before Before.
  bool instrumentInner(ConstructEditor &E, const std::string &Context,
                       const std::string &JoinResult, bool BeginsBlock, std::string &Before,
                       std::string &After, std::string &InnerClauses, bool &Skippable) const {
    const std::string Tid = E.threadIdInParallel();
    const bool HasBarrier = Inner.Kind != ctc::RegionKind::Master &&
                            Inner.Kind != ctc::RegionKind::Masked &&
                            Inner.Kind != ctc::RegionKind::Loop;
    std::string Barrier;
    if (HasBarrier && canShowImplicitBarrier(E)) {
      InnerClauses += " nowait";
      Barrier = implicitBarrierCode(E, Tid, Context, JoinResult);
      Skippable = true;
    }
    // The closing brace of the block Before opens, if it opens one.
    std::string Close;
    switch (Inner.Kind) {
    case ctc::RegionKind::Master:
    case ctc::RegionKind::Masked: {
      const bool Masked = Inner.Kind == ctc::RegionKind::Masked;
      const Event Begin = Masked ? Event::Masked_begin : Event::Master_begin;
      if (!E.enabled(Begin))
        break;
      const unsigned IH = E.newHandle(Inner.Kind);
      E.blockBegin(Masked ? ConstructEditor::call(Begin, {E.handleAddress(IH), Tid, Tid, E.ctc(IH)})
                          : ConstructEditor::call(Begin, {E.handleAddress(IH), Tid, E.ctc(IH)}));
      E.blockEnd(ConstructEditor::call(Masked ? Event::Masked_end : Event::Master_end,
                                       {E.handle(IH), Tid}));
      break;
    }
    case ctc::RegionKind::Sections: {
      const bool EnterExit = E.enabled(Event::Sections_enter);
      if (!EnterExit && !E.enabled(Event::Section_begin))
        break;
      const unsigned IH = E.newHandle(Inner.Kind);
      if (E.enabled(Event::Section_begin))
        instrumentSectionBlocks(E, IH);
      if (EnterExit) {
        Before = "{ " + ConstructEditor::call(Event::Sections_enter,
                                              {E.handleAddress(IH), Tid, E.ctc(IH)});
        After = ConstructEditor::call(Event::Sections_exit, {E.handle(IH), Tid});
        Close = " }";
      }
      break;
    }
    default: {
      if (!E.enabled(Event::Loop_enter))
        break;
      // The loop's enter comes right after the team's begin.
      ctc::RegionDescriptor Descriptor = E.describe(Inner.Kind);
      Descriptor.AfterConstruct = BeginsBlock;
      const unsigned IH = E.newHandle(Descriptor);
      const LoopContext Loop = loopContext(E);
      Before =
          "{ " + ConstructEditor::call(Event::Loop_enter,
                                       {E.handleAddress(IH), Tid, Loop.ChunkSize, Loop.InitIter,
                                        Loop.FinalIter, Loop.Increment, E.ctc(IH)});
      After = ConstructEditor::call(Event::Loop_exit, {E.handle(IH), Tid});
      Close = " }";
      break;
    }
    }
    // The barrier belongs inside the worksharing half's events; its
    // condition's block ends with them, inside the half's block.
    if (!Barrier.empty())
      After = Barrier + " " + (After.empty() ? "" : After + " ") + "}";
    After += Close;
    return HasBarrier;
  }

  ctc::RegionKind Kind;
  Worksharing Inner;
};

} // namespace

std::unique_ptr<ConstructHandler> makeSplitParallelHandler(ctc::RegionKind Kind) {
  using llvm::omp::Directive;
  switch (Kind) {
  case ctc::RegionKind::ParallelForSimd:
    return std::make_unique<SplitParallelHandler>(
        Kind, Worksharing{"for simd", Directive::OMPD_for_simd, ctc::RegionKind::ForSimd});
  case ctc::RegionKind::ParallelSections:
    return std::make_unique<SplitParallelHandler>(
        Kind, Worksharing{"sections", Directive::OMPD_sections, ctc::RegionKind::Sections});
  case ctc::RegionKind::ParallelMaster:
    return std::make_unique<SplitParallelHandler>(
        Kind, Worksharing{"master", Directive::OMPD_master, ctc::RegionKind::Master});
  case ctc::RegionKind::ParallelMasked:
    return std::make_unique<SplitParallelHandler>(
        Kind, Worksharing{"masked", Directive::OMPD_masked, ctc::RegionKind::Masked});
  case ctc::RegionKind::ParallelLoop:
    return std::make_unique<SplitParallelHandler>(
        Kind, Worksharing{"loop", Directive::OMPD_loop, ctc::RegionKind::Loop});
  default:
    return std::make_unique<SplitParallelHandler>(
        ctc::RegionKind::ParallelFor,
        Worksharing{"for", Directive::OMPD_for, ctc::RegionKind::For});
  }
}

} // namespace pomp::inst
