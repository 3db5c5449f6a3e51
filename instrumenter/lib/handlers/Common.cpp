//===- Common.cpp - Shapes shared by several construct handlers ------------===//
#include "Common.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclOpenMP.h"
#include "clang/AST/Expr.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"

namespace pomp::inst {

using namespace clang;

const OMPIfClause *ifClauseFor(const OMPExecutableDirective &D) {
  const OMPIfClause *Unmodified = nullptr;
  for (const OMPIfClause *C : D.getClausesOfKind<OMPIfClause>()) {
    const OpenMPDirectiveKind Modifier = C->getNameModifier();
    if (Modifier == llvm::omp::OMPD_unknown)
      Unmodified = C;
    else if (Modifier == llvm::omp::OMPD_parallel || Modifier == llvm::omp::OMPD_task ||
             Modifier == llvm::omp::OMPD_cancel)
      return C;
  }
  return Unmodified;
}

std::string clauseArgument(const ConstructEditor &E, SourceLocation Open, SourceLocation Close) {
  const FileInstrumentation &F = E.file();
  return F.text(F.offset(Open) + 1, F.offset(Close));
}

namespace {
/// Replaces a clause argument by Variable; returns the original text.
std::string takeClauseArgument(ConstructEditor &E, SourceLocation Open, SourceLocation Close,
                               const std::string &Variable) {
  FileInstrumentation &F = E.file();
  std::string Original = clauseArgument(E, Open, Close);
  F.edits().replace(F.offset(Open) + 1, F.offset(Close), Variable);
  return Original;
}
} // namespace

std::string evaluateIfOnce(ConstructEditor &E, unsigned Handle, std::string &Declarations) {
  const OMPIfClause *C = ifClauseFor(E.directive());
  if (!C)
    return NotAvailable32;
  const std::string Variable = E.local("if", Handle);
  const SourceLocation Open = C->getColonLoc().isValid() ? C->getColonLoc() : C->getLParenLoc();
  const std::string Condition = takeClauseArgument(E, Open, C->getEndLoc(), Variable);
  Declarations += " int " + Variable + " = !!(" + Condition + ");";
  return Variable;
}

std::string evaluateNumThreadsOnce(ConstructEditor &E, unsigned Handle, std::string &Declarations) {
  const auto *C = E.clause<OMPNumThreadsClause>();
  if (!C)
    return NotAvailable32;
  const std::string Variable = E.local("num_threads", Handle);
  const std::string Count = takeClauseArgument(E, C->getLParenLoc(), C->getEndLoc(), Variable);
  Declarations += " int " + Variable + " = (int)(" + Count + ");";
  return Variable;
}

bool containsCancellation(const Stmt *S) {
  return containsAny<OMPCancelDirective, OMPCancellationPointDirective>(S);
}

model::ClauseFacts clauseFacts(const ConstructEditor &E) {
  model::ClauseFacts F;
  F.HasIf = ifClauseFor(E.directive()) != nullptr;
  F.HasNumThreads = E.hasClause<OMPNumThreadsClause>();
  F.HasNowait = E.hasClause<OMPNowaitClause>();
  F.HasCopyprivate = E.hasClause<OMPCopyprivateClause>();
  // reduction(task, ...): its task reductions complete at the implicit
  // barrier, so OpenMP forbids nowait.
  for (const auto *C : E.directive().getClausesOfKind<OMPReductionClause>())
    F.HasTaskReduction = F.HasTaskReduction || C->getModifier() == OMPC_REDUCTION_task;
  F.ContainsCancellation = containsCancellation(E.associatedStatement());
  F.Standalone = E.directive().isStandaloneDirective();
  return F;
}

bool canShowImplicitBarrier(const ConstructEditor &E) {
  return model::canShowImplicitBarrier(clauseFacts(E), [&E](Event Ev) { return E.enabled(Ev); });
}

std::string joinBarrierCondition(const std::string &Context, const std::string &Result) {
  const std::string Call = "POMP_Join_barrier_needed(" + Context + ")";
  return Result.empty() ? "if (" + Call + ")" : "if ((" + Result + " = " + Call + "))";
}

std::string joinBarrierAnswered(const std::string &Result) { return "if (" + Result + ")"; }

std::string implicitBarrierCode(ConstructEditor &E, const std::string &Tid,
                                const std::string &JoinContext, const std::string &JoinResult) {
  const unsigned Barrier = E.newHandle(ctc::RegionKind::ImplicitBarrier);
  return ConstructEditor::call(Event::Implicit_barrier_enter,
                               {E.handleAddress(Barrier), Tid, E.ctc(Barrier)}) +
         (JoinContext.empty() ? "" : " " + joinBarrierCondition(JoinContext, JoinResult) + " {") +
         "\n#pragma omp barrier\n" +
         ConstructEditor::call(Event::Implicit_barrier_exit, {E.handle(Barrier), Tid});
}

namespace {
/// An expression the loop's run-time context may evaluate a second time: an
/// integer that does not depend on a template parameter and has no side
/// effects.
bool reEvaluable(const Expr *E, const ASTContext &Ctx) {
  return E && !E->isTypeDependent() && !E->isValueDependent() &&
         E->getType()->isIntegralOrEnumerationType() && !E->HasSideEffects(Ctx);
}

const VarDecl *referencedVar(const Expr *E) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

std::string asInt64(const ConstructEditor &E, const Expr &X) {
  return "(int64_t)(" + E.expressionText(X) + ")";
}

/// The loop variable and its initial value of `for (T v = lb; ...)` or
/// `for (v = lb; ...)`.
std::pair<const VarDecl *, const Expr *> loopInit(const ForStmt &Loop) {
  const Stmt *Init = Loop.getInit();
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Init)) {
    if (!Decl->isSingleDecl())
      return {};
    const auto *Var = dyn_cast<VarDecl>(Decl->getSingleDecl());
    return Var ? std::make_pair(Var, Var->getInit()) : std::make_pair(nullptr, nullptr);
  }
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Init))
    if (Assign->getOpcode() == BO_Assign)
      return {referencedVar(Assign->getLHS()), Assign->getRHS()};
  return {};
}
} // namespace

LoopContext loopContext(const ConstructEditor &E) {
  LoopContext Context;
  const ASTContext &Ctx = E.file().context();
  if (const auto *Schedule = E.clause<OMPScheduleClause>()) {
    const Expr *Chunk = Schedule->getChunkSize();
    if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Chunk ? Chunk->IgnoreImpCasts() : nullptr))
      if (const auto *Captured = dyn_cast<OMPCapturedExprDecl>(Ref->getDecl()))
        Chunk = Captured->getInit();
    if (reEvaluable(Chunk, Ctx))
      Context.ChunkSize = asInt64(E, *Chunk);
  }
  const auto *Loop = dyn_cast_or_null<ForStmt>(E.associatedStatement());
  if (!Loop)
    return Context;
  const auto [Var, Lower] = loopInit(*Loop);
  if (!Var || Var->getType()->isDependentType() || !Var->getType()->isIntegerType())
    return Context;
  if (reEvaluable(Lower, Ctx))
    Context.InitIter = asInt64(E, *Lower);

  if (const auto *Cond = dyn_cast_or_null<BinaryOperator>(Loop->getCond())) {
    BinaryOperatorKind Op = Cond->getOpcode();
    const Expr *Bound = nullptr;
    if (referencedVar(Cond->getLHS()) == Var) {
      Bound = Cond->getRHS();
    } else if (referencedVar(Cond->getRHS()) == Var) {
      Bound = Cond->getLHS();
      Op = BinaryOperator::reverseComparisonOp(Op);
    }
    if (reEvaluable(Bound, Ctx)) {
      // The last value the loop variable may take, inclusive.
      const std::string B = asInt64(E, *Bound);
      if (Op == BO_LT)
        Context.FinalIter = "(" + B + " - 1)";
      else if (Op == BO_GT)
        Context.FinalIter = "(" + B + " + 1)";
      else if (Op == BO_LE || Op == BO_GE)
        Context.FinalIter = B;
    }
  }

  const Expr *Inc = Loop->getInc();
  if (const auto *Unary = dyn_cast_or_null<UnaryOperator>(Inc)) {
    if (referencedVar(Unary->getSubExpr()) == Var)
      Context.Increment = Unary->isIncrementOp() ? "1" : "-1";
  } else if (const auto *Compound = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if (referencedVar(Compound->getLHS()) == Var && reEvaluable(Compound->getRHS(), Ctx)) {
      const std::string Step = asInt64(E, *Compound->getRHS());
      if (Compound->getOpcode() == BO_AddAssign)
        Context.Increment = Step;
      else if (Compound->getOpcode() == BO_SubAssign)
        Context.Increment = "(-" + Step + ")";
    }
  } else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(Inc)) {
    const auto *Sum = dyn_cast<BinaryOperator>(Assign->getRHS()->IgnoreParenImpCasts());
    if (Assign->getOpcode() == BO_Assign && referencedVar(Assign->getLHS()) == Var && Sum) {
      const Expr *Step = referencedVar(Sum->getLHS()) == Var ? Sum->getRHS()
                         : (Sum->getOpcode() == BO_Add && referencedVar(Sum->getRHS()) == Var)
                             ? Sum->getLHS()
                             : nullptr;
      if (reEvaluable(Step, Ctx)) {
        if (Sum->getOpcode() == BO_Add)
          Context.Increment = asInt64(E, *Step);
        else if (Sum->getOpcode() == BO_Sub && Step == Sum->getRHS())
          Context.Increment = "(-" + asInt64(E, *Step) + ")";
      }
    }
  }
  return Context;
}

std::string sharedClauseFor(const FileInstrumentation &File, unsigned FirstHandle,
                            unsigned LastHandle) {
  std::string Clause = "shared(";
  for (unsigned I = FirstHandle; I <= LastHandle; ++I) {
    if (I != FirstHandle)
      Clause += ", ";
    Clause += File.handleName(I) + ", " + File.ctcName(I);
  }
  return Clause + ")";
}

} // namespace pomp::inst

namespace pomp::inst {

namespace {
/// True when S holds a label or case: a jump to it could bypass the helper
/// variables' initialisation (an error in C++).
bool containsLabel(const Stmt *S) { return containsAny<LabelStmt, SwitchCase>(S); }

/// Whether the construct's code can go around it without braces of its own:
/// it is a statement of a compound statement, declarations may follow
/// statements (not C89), and no label after it could be jumped to across the
/// helper variables. Braces count against the compiler's nesting limit (256
/// in Clang), so deep nests need this.
bool needsOwnBraces(const ConstructEditor &E) {
  const LangOptions &LO = E.file().langOptions();
  if (!LO.C99 && !LO.CPlusPlus)
    return true;
  const auto Parents = E.file().context().getParents(E.directive());
  const auto *Parent = Parents.size() == 1 ? Parents[0].get<CompoundStmt>() : nullptr;
  if (!Parent)
    return true;
  bool After = false;
  for (const Stmt *Child : Parent->body()) {
    if (After && containsLabel(Child))
      return true;
    After = After || Child == &E.directive();
  }
  return false;
}
} // namespace

void wrapConstruct(ConstructEditor &E, const std::string &Before, const std::string &After) {
  if (Before.empty() && After.empty())
    return;
  if (!needsOwnBraces(E)) {
    if (!Before.empty())
      E.beforeDirective(Before);
    if (!After.empty())
      E.afterConstruct(After);
    return;
  }
  E.beforeDirective("{" + (Before.empty() ? "" : " " + Before));
  E.afterConstruct((After.empty() ? "" : After + " ") + "}");
}

void instrumentSectionBlocks(
    ConstructEditor &E,
    const std::function<std::pair<std::string, std::string>(unsigned Number)> &Code) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(E.associatedStatement());
  if (!Body)
    return;
  unsigned Number = 0;
  for (const Stmt *Child : Body->body()) {
    // The first section's directive may be omitted: then the first
    // statement is the section's block.
    const Stmt *Block = Child;
    if (const auto *Section = dyn_cast<OMPSectionDirective>(Child))
      Block = Section->getAssociatedStmt();
    else if (Number > 0)
      continue;
    if (!Block)
      continue;
    ++Number;
    auto [Begin, End] = Code(Number);
    // One level deeper than the sections construct, so a construct nested
    // in the section nests inside these events.
    E.statementBegin(*Block, std::move(Begin), 1);
    E.statementEnd(*Block, std::move(End), 1);
  }
}

void instrumentSectionBlocks(ConstructEditor &E, unsigned H) {
  const std::string Tid = E.threadId();
  instrumentSectionBlocks(E, [&](unsigned Number) {
    return std::make_pair(
        ConstructEditor::call(Event::Section_begin, {E.handle(H), std::to_string(Number), Tid}),
        ConstructEditor::call(Event::Section_end, {E.handle(H), Tid}));
  });
}

} // namespace pomp::inst
