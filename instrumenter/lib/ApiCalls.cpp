//===- ApiCalls.cpp - OpenMP API calls through POMP wrappers ---------------===//
#include "ApiCalls.h"

#include "ConstructEditor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>
#include <string_view>

namespace pomp::inst {

using namespace clang;

namespace {

/// An OpenMP routine that gets a wrapper, and the event that decides whether
/// the Runtime group's level instruments it.
struct WrappedRoutine {
  std::string_view Name;
  Event Decides;
  /// Routines with enter/exit events have a single-event variant for the
  /// Runtime group's event level.
  bool HasEventVariant;
  /// Wrapped at every level, without handle or event: the wrapper keeps the
  /// instrumented program from crashing (omp_pause_resource).
  bool Always = false;
};

/// The single event of the variant of omp_set_lock and omp_set_nest_lock.
Event eventVariant(const WrappedRoutine &R) {
  return R.Decides == Event::Set_lock_enter ? Event::Set_lock_event : Event::Set_nest_lock_event;
}

constexpr WrappedRoutine Routines[] = {
    {"omp_init_lock", Event::Init_lock_event, false},
    {"omp_init_lock_with_hint", Event::Init_lock_event, false},
    {"omp_destroy_lock", Event::Destroy_lock_event, false},
    {"omp_set_lock", Event::Set_lock_enter, true},
    {"omp_unset_lock", Event::Unset_lock_event, false},
    {"omp_test_lock", Event::Test_lock_event, false},
    {"omp_init_nest_lock", Event::Init_nest_lock_event, false},
    {"omp_init_nest_lock_with_hint", Event::Init_nest_lock_event, false},
    {"omp_destroy_nest_lock", Event::Destroy_nest_lock_event, false},
    {"omp_set_nest_lock", Event::Set_nest_lock_enter, true},
    {"omp_unset_nest_lock", Event::Unset_nest_lock_event, false},
    {"omp_test_nest_lock", Event::Test_nest_lock_event, false},
    {"omp_set_num_threads", Event::Set_num_threads_event, false},
    {"omp_get_num_threads", Event::Get_num_threads_event, false},
    {"omp_get_max_threads", Event::Get_max_threads_event, false},
    {"omp_get_thread_num", Event::Get_thread_num_event, false},
    {"omp_get_num_procs", Event::Get_num_procs_event, false},
    {"omp_in_parallel", Event::In_parallel_event, false},
    {"omp_set_dynamic", Event::Set_dynamic_event, false},
    {"omp_get_dynamic", Event::Get_dynamic_event, false},
    {"omp_set_nested", Event::Set_nested_event, false},
    {"omp_get_nested", Event::Get_nested_event, false},
    // No event decides about these (Decides is not used).
    {"omp_pause_resource", Event::Get_nested_event, false, /*Always=*/true},
    {"omp_pause_resource_all", Event::Get_nested_event, false, /*Always=*/true},
};

const WrappedRoutine *findRoutine(const FunctionDecl &F) {
  // Only the OpenMP runtime's own routines: global C functions.
  if (!F.getDeclContext()->getRedeclContext()->isTranslationUnit() || !F.getIdentifier())
    return nullptr;
  const StringRef Name = F.getName();
  for (const WrappedRoutine &R : Routines)
    if (Name == StringRef(R.Name.data(), R.Name.size()))
      return &R;
  return nullptr;
}

class ApiCallVisitor : public RecursiveASTVisitor<ApiCallVisitor> {
public:
  ApiCallVisitor(ASTContext &Context, FileInstrumentation &File) : Context(Context), File(File) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  bool instrumented(const WrappedRoutine &R) const {
    return R.Always || File.enabled(R.Decides) ||
           (R.HasEventVariant && File.enabled(eventVariant(R)));
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
    return RecursiveASTVisitor::TraverseDecl(D);
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
    return D;
  }

  std::string wrapperName(const WrappedRoutine &R) const {
    std::string Name = "POMP_Wrap_" + std::string(R.Name);
    if (R.HasEventVariant && !File.enabled(R.Decides))
      Name += "_event";
    return Name;
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
