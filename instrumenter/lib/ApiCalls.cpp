//===- ApiCalls.cpp - OpenMP API calls through POMP wrappers ---------------===//
#include "ApiCalls.h"

#include "ConstructEditor.h"
#include "pomp/model/ApiRoutines.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>
#include <string_view>

namespace pomp::inst {

using namespace clang;

namespace {

using model::WrappedRoutine;

const WrappedRoutine *findRoutine(const FunctionDecl &F) {
  // Only the OpenMP runtime's own routines: global C functions.
  if (!F.getDeclContext()->getRedeclContext()->isTranslationUnit() || !F.getIdentifier())
    return nullptr;
  return model::findApiRoutine(F.getName());
}

class ApiCallVisitor : public RecursiveASTVisitor<ApiCallVisitor> {
public:
  ApiCallVisitor(ASTContext &Context, FileInstrumentation &File) : Context(Context), File(File) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool instrumented(const WrappedRoutine &R) const {
    return model::apiCallInstrumented(R, [this](Event E) { return File.enabled(E); });
  }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    const SourceManager &SM = Context.getSourceManager();
    // Declarations of other files hold no call to rewrite; implicit ones (the
    // captured bodies of OpenMP regions) have no location of their own.
    const SourceLocation Loc = D->getLocation();
    if (!isa<TranslationUnitDecl>(D) && Loc.isValid() && !SM.isInMainFile(SM.getExpansionLoc(Loc)))
      return true;
    if (D->hasAttr<OMPDeclareTargetDeclAttr>())
      return true;
    // A call site names its function (CTC `function`), as constructs do.
    const auto *Function = dyn_cast<FunctionDecl>(D);
    const auto *Method = dyn_cast<CXXMethodDecl>(D);
    if (!Function || !Function->doesThisDeclarationHaveABody() ||
        (Method && Method->getParent()->isLambda()))
      return RecursiveASTVisitor::TraverseDecl(D);
    std::string Outer = std::move(Enclosing);
    Enclosing = Function->getQualifiedNameAsString();
    const bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    Enclosing = std::move(Outer);
    return Continue;
  }

  // Device code calls the device's routines; nothing is inserted there.
  bool TraverseStmt(Stmt *S) {
    if (const auto *D = dyn_cast_or_null<OMPExecutableDirective>(S))
      if (isOpenMPTargetExecutionDirective(D->getDirectiveKind()))
        return true;
    return RecursiveASTVisitor::TraverseStmt(S);
  }

  bool VisitCallExpr(CallExpr *Call) {
    const auto *Callee = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
    const FunctionDecl *F = Call->getDirectCallee();
    if (!Callee || !F)
      return true;
    const WrappedRoutine *R = findRoutine(*F);
    if (!R || !instrumented(*R))
      return true;
    Handled.insert(Callee);
    const SourceLocation NameLoc = Callee->getLocation();
    if (NameLoc.isMacroID() || Call->getRParenLoc().isMacroID())
      return true;
    const SourceManager &SM = Context.getSourceManager();
    std::optional<Token> Paren =
        Lexer::findNextToken(Callee->getEndLoc(), SM, Context.getLangOpts());
    if (!Paren || Paren->isNot(tok::l_paren))
      return true;
    UsesWrappers = true;
    const std::size_t NameBegin = File.offset(NameLoc);
    if (R->Always) {
      File.edits().replace(NameBegin, NameBegin + R->Name.size(), wrapperName(*R));
      return true;
    }
    const unsigned H = File.addHandle(describe(*R, NameLoc));
    File.edits().replace(NameBegin, NameBegin + R->Name.size(), wrapperName(*R));
    File.edits().insert(File.offset(Paren->getLocation()) + 1, InsertSide::Open, 0,
                        File.handleAddress(H) + ", " + File.ctcName(H) +
                            (Call->getNumArgs() > 0 ? ", " : ""));
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const auto *F = dyn_cast<FunctionDecl>(Ref->getDecl());
    if (!F || Handled.count(Ref))
      return true;
    const WrappedRoutine *R = findRoutine(*F);
    if (!R || !instrumented(*R) || Ref->getLocation().isMacroID())
      return true;
    UsesWrappers = true;
    const std::size_t NameBegin = File.offset(Ref->getLocation());
    if (R->Always) {
      // The wrapper has the routine's signature: its address serves.
      File.edits().replace(NameBegin, NameBegin + R->Name.size(), wrapperName(*R));
      return true;
    }
    // The address is taken: the use is replaced by a function of the same
    // signature bound to this site's handle.
    const unsigned H = File.addHandle(describe(*R, Ref->getLocation()));
    const std::string Site = "pomp_address_" + std::to_string(H);
    File.edits().replace(NameBegin, NameBegin + R->Name.size(), Site);
    Sites += siteFunction(*F, *R, Site, H);
    return true;
  }

  std::string Sites;
  bool UsesWrappers = false;

private:
  ctc::RegionDescriptor describe(const WrappedRoutine &R, SourceLocation Loc) const {
    ctc::RegionDescriptor D;
    D.Kind = ctc::RegionKind::ApiCall;
    D.Type = std::string(ctc::regionKindSpelling(D.Kind));
    D.Name = std::string(R.Name);
    D.File = File.fileName();
    const unsigned Line = File.presumedLine(File.offset(Loc));
    D.StartLines = ctc::LineRange{Line, Line};
    D.EndLines = D.StartLines;
    D.Function = Enclosing;
    return D;
  }

  std::string wrapperName(const WrappedRoutine &R) const {
    return model::apiWrapperName(R, [this](Event E) { return File.enabled(E); });
  }

  /// static <ret> pomp_address_<i>(<params>) { return POMP_Wrap_<r>(&h, ctc, <params>); }
  std::string siteFunction(const FunctionDecl &F, const WrappedRoutine &R, const std::string &Site,
                           unsigned H) const {
    const PrintingPolicy Policy(Context.getLangOpts());
    std::string Params, Args;
    for (unsigned I = 0; I < F.getNumParams(); ++I) {
      const std::string Param = "pomp_arg" + std::to_string(I);
      Params += (I ? ", " : "") + F.getParamDecl(I)->getType().getAsString(Policy) + " " + Param;
      Args += ", " + Param;
    }
    if (Params.empty())
      Params = "void";
    const std::string Return = F.getReturnType().getAsString(Policy);
    return "static " + Return + " " + Site + "(" + Params + ") { " +
           (F.getReturnType()->isVoidType() ? "" : "return ") + wrapperName(R) + "(" +
           File.handleAddress(H) + ", " + File.ctcName(H) + Args + "); }\n";
  }

  ASTContext &Context;
  FileInstrumentation &File;
  /// The qualified name of the function being traversed ("" outside one).
  std::string Enclosing;
  std::set<const DeclRefExpr *> Handled;
};

} // namespace

std::string instrumentApiCalls(ASTContext &Context, FileInstrumentation &File, bool &UsesWrappers) {
  ApiCallVisitor Visitor(Context, File);
  Visitor.TraverseDecl(Context.getTranslationUnitDecl());
  UsesWrappers = Visitor.UsesWrappers;
  return Visitor.Sites;
}

} // namespace pomp::inst
