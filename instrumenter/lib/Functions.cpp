//===- Functions.cpp - Function_begin/end in function bodies ---------------===//
#include "Functions.h"

#include "ConstructEditor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Regex.h"

#include <optional>

namespace pomp::inst {

using namespace clang;

namespace {

/// Rewrites the returns of one C function so that Function_end runs after the
/// returned value is computed and before the function returns.
class ReturnRewriter : public RecursiveASTVisitor<ReturnRewriter> {
public:
  ReturnRewriter(FileInstrumentation &File, const FunctionDecl &Function, std::string EndCall)
      : File(File), Function(Function), EndCall(std::move(EndCall)) {}

  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Return->getBeginLoc().isMacroID() || Return->getEndLoc().isMacroID())
      return true;
    const std::size_t Begin = File.offset(Return->getBeginLoc());
    const std::size_t End = File.statementEnd(*Return);
    const Expr *Value = Return->getRetValue();
    if (!Value || !Value->HasSideEffects(File.context())) {
      File.edits().insert(Begin, InsertSide::Open, 0, "{ " + EndCall + " ");
      File.edits().insert(End, InsertSide::Close, 0, " }");
      return true;
    }
    const std::size_t ValueBegin = File.offset(Value->getBeginLoc());
    if (Function.getReturnType()->isVoidType()) {
      // return f(); in a void function: f() runs, then the end event.
      File.edits().replace(Begin, ValueBegin, "{ ");
      File.edits().insert(End, InsertSide::Close, 0, " " + EndCall + " return; }");
      return true;
    }
    // The value is computed first (typeof does not evaluate its operand).
    const std::string ResultVariable = "pomp_function_result";
    File.edits().replace(Begin, ValueBegin,
                         "{ __typeof__(" + File.text(ValueBegin, End - 1) + ") " + ResultVariable +
                             " = (");
    File.edits().replace(End - 1, End, ");");
    File.edits().insert(End, InsertSide::Close, 0,
                        " " + EndCall + " return " + ResultVariable + "; }");
    return true;
  }

  // Nested functions' returns are their own (GNU C blocks).
  bool TraverseBlockExpr(BlockExpr *) { return true; }

private:
  FileInstrumentation &File;
  const FunctionDecl &Function;
  std::string EndCall;
};

class FunctionVisitor : public RecursiveASTVisitor<FunctionVisitor> {
public:
  FunctionVisitor(FileInstrumentation &File, const llvm::Regex &Filter,
                  const std::optional<llvm::Regex> &Exclude)
      : File(File), Filter(Filter), Exclude(Exclude) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return false; }

  bool VisitFunctionDecl(FunctionDecl *F) {
    if (!selected(*F))
      return true;
    auto *Body = cast<CompoundStmt>(F->getBody());
    const unsigned H = File.addHandle(describe(*F));
    const std::string Tid = File.threadId();
    const std::size_t Open = File.tokenEnd(Body->getLBracLoc());
    if (File.enabled(Event::Function_event)) {
      File.edits().insert(Open, InsertSide::Open, 0,
                          " " +
                              ConstructEditor::call(Event::Function_event,
                                                    {File.handleAddress(H), Tid, File.ctcName(H)}));
      return true;
    }
    const std::string Begin =
        ConstructEditor::call(Event::Function_begin, {File.handleAddress(H), Tid, File.ctcName(H)});
    const std::string End = ConstructEditor::call(Event::Function_end, {File.handleName(H), Tid});
    if (File.langOptions().CPlusPlus) {
      const std::string Guard = File.localName("function_guard", H);
      File.edits().insert(Open, InsertSide::Open, 0,
                          " " + Begin + " struct " + Guard + " { ~" + Guard + "() { " + End +
                              " } } " + Guard + "_instance;");
      return true;
    }
    File.edits().insert(Open, InsertSide::Open, 0, " " + Begin);
    ReturnRewriter(File, *F, End).TraverseStmt(Body);
    const bool EndsInReturn = !Body->body_empty() && isa<ReturnStmt>(Body->body_back());
    // An empty body (`{}`): the end goes after the begin at the same offset.
    const std::size_t Close = File.offset(Body->getRBracLoc());
    if (!EndsInReturn)
      File.edits().insert(Close, Close == Open ? InsertSide::Last : InsertSide::Close, 0,
                          " " + End + " ");
    return true;
  }

private:
  bool selected(const FunctionDecl &F) const {
    const SourceManager &SM = File.sourceManager();
    if (!F.doesThisDeclarationHaveABody() || F.isMain() || F.isImplicit() || F.isConstexpr() ||
        F.isDefaulted() || F.isDeleted() || F.hasAttr<NakedAttr>() ||
        F.hasAttr<OMPDeclareTargetDeclAttr>() || F.hasAttr<OMPDeclareSimdDeclAttr>() ||
        !isa_and_nonnull<CompoundStmt>(F.getBody()))
      return false;
    const auto *Body = cast<CompoundStmt>(F.getBody());
    if (Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID() ||
        !SM.isInMainFile(Body->getLBracLoc()))
      return false;
    // Lambdas' call operators and blocks are not functions a user names.
    if (const auto *Method = dyn_cast<CXXMethodDecl>(&F))
      if (Method->getParent()->isLambda())
        return false;
    const std::string Name = F.getQualifiedNameAsString();
    return Filter.match(Name) && !(Exclude && Exclude->match(Name));
  }

  ctc::RegionDescriptor describe(const FunctionDecl &F) const {
    ctc::RegionDescriptor D;
    D.Kind = ctc::RegionKind::Function;
    D.Type = std::string(ctc::regionKindSpelling(D.Kind));
    D.Name = F.getNameAsString();
    if (const auto *Parent = dyn_cast<NamedDecl>(F.getDeclContext()))
      D.Group = Parent->getQualifiedNameAsString();
    D.File = File.fileName();
    const auto *Body = cast<CompoundStmt>(F.getBody());
    const unsigned First = File.presumedLine(File.offset(F.getBeginLoc()));
    const unsigned Last = File.presumedLine(File.offset(Body->getRBracLoc()));
    D.StartLines = ctc::LineRange{First, First};
    D.EndLines = ctc::LineRange{Last, Last};
    return D;
  }

  FileInstrumentation &File;
  const llvm::Regex &Filter;
  const std::optional<llvm::Regex> &Exclude;
};

} // namespace

bool instrumentFunctions(ASTContext &Context, FileInstrumentation &File) {
  const Options &Opts = File.options();
  if (!Opts.InstrumentFunctions)
    return true;
  DiagnosticsEngine &Diags = Context.getDiagnostics();
  // Both patterns are checked before anything is instrumented: a typo is an
  // error, never a silently different selection.
  auto Invalid = [&Diags](const char *Option, const std::string &Pattern,
                          const std::string &Error) {
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "invalid %0 '%1': %2"))
        << Option << Pattern << Error;
    return false;
  };
  llvm::Regex Filter(Opts.FunctionFilter.empty() ? ".*" : Opts.FunctionFilter);
  std::string Error;
  if (!Filter.isValid(Error))
    return Invalid("function filter", Opts.FunctionFilter, Error);
  std::optional<llvm::Regex> Exclude;
  if (!Opts.FunctionExclude.empty()) {
    Exclude.emplace(Opts.FunctionExclude);
    if (!Exclude->isValid(Error))
      return Invalid("function exclusion", Opts.FunctionExclude, Error);
  }
  FunctionVisitor(File, Filter, Exclude).TraverseDecl(Context.getTranslationUnitDecl());
  return true;
}

} // namespace pomp::inst
