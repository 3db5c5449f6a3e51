//===- BriefCode.cpp - Code that runs in a few nanoseconds, and loops of it ===//

#include "BriefCode.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"

using namespace clang;

namespace pomp::inst {
namespace {

bool isBriefExpr(const Expr &E);

/// A declaration a brief statement may make: a local scalar or reference
/// with a brief initialiser and nothing that runs when it goes (a cleanup
/// attribute), or a declaration that makes no code (a type, an assertion).
bool isBriefDecl(const Decl &D) {
  // A variably modified type evaluates its sizes where it is declared.
  if (const auto *Typedef = dyn_cast<TypedefNameDecl>(&D))
    return !Typedef->getUnderlyingType()->isVariablyModifiedType();
  if (isa<TagDecl, StaticAssertDecl>(D))
    return true;
  const auto *Var = dyn_cast<VarDecl>(&D);
  if (!Var || !Var->hasLocalStorage() || Var->hasAttr<CleanupAttr>())
    return false;
  const QualType Type = Var->getType();
  if (Type->isDependentType() || Type->isVariablyModifiedType() ||
      !(Type->isScalarType() || Type->isReferenceType()))
    return false;
  const Expr *Init = Var->getInit();
  return !Init || isBriefExpr(*Init);
}

/// Statements and expressions are walked with SwitchDepth, the number of
/// switch statements of the walked code around them: a case label outside
/// them belongs to a switch elsewhere, whose jump would land inside.
bool isBrief(const Stmt &S, unsigned SwitchDepth);

bool childrenAreBrief(const Stmt &S, unsigned SwitchDepth) {
  for (const Stmt *Child : S.children())
    if (Child && !isBrief(*Child, SwitchDepth))
      return false;
  return true;
}

bool isBriefExpr(const Expr &E) {
  // A type-dependent operand may make an operator a call once the
  // template is instantiated.
  if (E.isTypeDependent() || E.getType()->isVariablyModifiedType())
    return false;
  switch (E.getStmtClass()) {
  case Stmt::DeclRefExprClass: {
    // A thread_local variable with a dynamic initialiser is initialised on
    // its thread's first use.
    const auto *Var = dyn_cast<VarDecl>(cast<DeclRefExpr>(E).getDecl());
    if (Var && Var->getTLSKind() == VarDecl::TLS_Dynamic)
      return false;
    break;
  }
  case Stmt::UnaryExprOrTypeTraitExprClass:
    // sizeof of a variably modified type evaluates its sizes.
    if (cast<UnaryExprOrTypeTraitExpr>(E).getTypeOfArgument()->isVariablyModifiedType())
      return false;
    break;
  case Stmt::AtomicExprClass:
    // Larger operands take a call of libatomic.
    if (!cast<AtomicExpr>(E).getValueType()->isScalarType())
      return false;
    break;
  case Stmt::IntegerLiteralClass:
  case Stmt::FloatingLiteralClass:
  case Stmt::CharacterLiteralClass:
  case Stmt::StringLiteralClass:
  case Stmt::ImaginaryLiteralClass:
  case Stmt::FixedPointLiteralClass:
  case Stmt::CXXBoolLiteralExprClass:
  case Stmt::CXXNullPtrLiteralExprClass:
  case Stmt::GNUNullExprClass:
  case Stmt::CXXThisExprClass:
  case Stmt::PredefinedExprClass:
  case Stmt::ParenExprClass:
  case Stmt::UnaryOperatorClass:
  case Stmt::ConditionalOperatorClass:
  case Stmt::BinaryConditionalOperatorClass:
  case Stmt::OpaqueValueExprClass:
  case Stmt::CStyleCastExprClass:
  case Stmt::CXXStaticCastExprClass:
  case Stmt::CXXReinterpretCastExprClass:
  case Stmt::CXXConstCastExprClass:
  case Stmt::CXXFunctionalCastExprClass:
  case Stmt::ArraySubscriptExprClass:
  case Stmt::MemberExprClass:
  case Stmt::OffsetOfExprClass:
  case Stmt::ConstantExprClass:
  case Stmt::ImplicitValueInitExprClass:
  case Stmt::CXXScalarValueInitExprClass:
  case Stmt::InitListExprClass:
    break;
  case Stmt::BinaryOperatorClass:
  case Stmt::CompoundAssignOperatorClass:
    // C's assignment of a structure copies all of it.
    if (cast<BinaryOperator>(E).isAssignmentOp() && !E.getType()->isScalarType())
      return false;
    break;
  case Stmt::ImplicitCastExprClass:
    // So does reading one by value.
    if (cast<ImplicitCastExpr>(E).getCastKind() == CK_LValueToRValue &&
        !E.getType()->isScalarType())
      return false;
    break;
  default:
    // Calls of every kind, constructions, destructions (temporaries'
    // cleanups), allocations, lambdas, statement expressions, throws.
    return false;
  }
  if (isa<InitListExpr>(E) && !E.getType()->isScalarType())
    return false;
  return childrenAreBrief(E, 0);
}

bool isBrief(const Stmt &S, unsigned SwitchDepth) {
  if (const auto *E = dyn_cast<Expr>(&S))
    return isBriefExpr(*E);
  switch (S.getStmtClass()) {
  case Stmt::NullStmtClass:
  case Stmt::BreakStmtClass:
  case Stmt::CompoundStmtClass:
  case Stmt::AttributedStmtClass:
  case Stmt::ReturnStmtClass:
    return childrenAreBrief(S, SwitchDepth);
  case Stmt::DeclStmtClass:
    for (const Decl *D : cast<DeclStmt>(S).decls())
      if (!isBriefDecl(*D))
        return false;
    return true;
  case Stmt::IfStmtClass:
    if (cast<IfStmt>(S).getConditionVariable())
      return false;
    return childrenAreBrief(S, SwitchDepth);
  case Stmt::SwitchStmtClass:
    if (cast<SwitchStmt>(S).getConditionVariable())
      return false;
    return childrenAreBrief(S, SwitchDepth + 1);
  case Stmt::CaseStmtClass:
  case Stmt::DefaultStmtClass:
    return SwitchDepth > 0 && childrenAreBrief(S, SwitchDepth);
  default:
    // Loops, `continue`, labels and gotos, constructs, asm, try blocks.
    return false;
  }
}

/// What of a loop's body may spoil the repetition: a `continue` of the loop
/// (it skips the body's end and may run the brief head many times), a
/// label or a case of an enclosing switch (a jump into the body), and
/// whether a `break` of the loop comes in the part walked. Constructs'
/// blocks are not walked: no jump leaves or enters them.
struct BodyJumps {
  bool Spoiled = false;
  bool Breaks = false;

  void walk(const Stmt &S, bool InInnerLoop, unsigned SwitchDepth) {
    if (isa<OMPExecutableDirective>(S))
      return;
    if (isa<ContinueStmt>(S) && !InInnerLoop)
      Spoiled = true;
    if (isa<BreakStmt>(S) && !InInnerLoop && SwitchDepth == 0)
      Breaks = true;
    if (isa<LabelStmt>(S) || (isa<SwitchCase>(S) && SwitchDepth == 0))
      Spoiled = true;
    const bool Inner = InInnerLoop || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
    const unsigned Depth = SwitchDepth + (isa<SwitchStmt>(S) ? 1 : 0);
    for (const Stmt *Child : S.children())
      if (Child)
        walk(*Child, Inner, Depth);
  }
};

/// Whether a variable of the body's own block has something run when an
/// iteration ends, after the body's last statement.
bool endsIterationsWithCode(llvm::ArrayRef<const Stmt *> Body, const ASTContext &Context) {
  for (const Stmt *S : Body)
    if (const auto *Declarations = dyn_cast<DeclStmt>(S))
      for (const Decl *D : Declarations->decls())
        if (const auto *Var = dyn_cast<VarDecl>(D))
          if (Var->hasAttr<CleanupAttr>() || Var->needsDestruction(Context) ||
              Var->getType()->isDependentType())
            return true;
  return false;
}

bool isBriefOrNull(const Stmt *S) { return !S || isBrief(*S, 0); }

} // namespace

bool isBriefStatement(const Stmt &S) { return isBrief(S, 0); }

std::optional<RepeatingLoop> repeatingLoop(const Stmt &Loop, const ASTContext &Context) {
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(&Loop)) {
    if (For->getConditionVariable() || !isBriefOrNull(For->getInit()) ||
        !isBriefOrNull(For->getCond()) || !isBriefOrNull(For->getInc()))
      return std::nullopt;
    Body = For->getBody();
  } else if (const auto *While = dyn_cast<WhileStmt>(&Loop)) {
    if (While->getConditionVariable() || !isBriefOrNull(While->getCond()))
      return std::nullopt;
    Body = While->getBody();
  } else if (const auto *Do = dyn_cast<DoStmt>(&Loop)) {
    if (!isBriefOrNull(Do->getCond()))
      return std::nullopt;
    Body = Do->getBody();
  }
  if (!Body)
    return std::nullopt;
  llvm::SmallVector<const Stmt *, 8> Statements;
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    Statements.append(Block->body_begin(), Block->body_end());
  else
    Statements.push_back(Body);
  std::size_t FirstIndex = Statements.size();
  std::size_t LastIndex = 0;
  for (std::size_t I = 0; I < Statements.size(); ++I)
    if (!isBriefStatement(*Statements[I])) {
      FirstIndex = std::min(FirstIndex, I);
      LastIndex = I;
    }
  if (FirstIndex == Statements.size())
    return std::nullopt;
  RepeatingLoop Shape;
  Shape.First = dyn_cast<OMPExecutableDirective>(Statements[FirstIndex]);
  Shape.Last = dyn_cast<OMPExecutableDirective>(Statements[LastIndex]);
  if (!Shape.First || !Shape.Last)
    return std::nullopt;
  BodyJumps Jumps;
  for (std::size_t I = 0; I < Statements.size(); ++I) {
    const bool Between = I >= FirstIndex && I <= LastIndex;
    BodyJumps Part;
    Part.walk(*Statements[I], false, 0);
    Jumps.Spoiled |= Part.Spoiled;
    Jumps.Breaks |= Between && Part.Breaks;
  }
  if (Jumps.Spoiled || endsIterationsWithCode(Statements, Context))
    return std::nullopt;
  Shape.BreaksBetween = Jumps.Breaks;
  return Shape;
}

} // namespace pomp::inst
