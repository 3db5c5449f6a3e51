//===- InstrumentAction.cpp - Parse a file, instrument its main file -------===//
///
/// \file
/// The frontend action behind ompinst: it registers the `#pragma pomp`
/// handler, walks the AST of the main file, hands every OpenMP directive to
/// its construct handler, instruments main and the POMP directives, and
/// assembles the output: prologue (handles, CTC strings), the edited source
/// with #line directives, and the file's POMP_Init_<id>().
///
//===----------------------------------------------------------------------===//
#include "ApiCalls.h"
#include "BodySkipping.h"
#include "BriefCode.h"
#include "ConstructEditor.h"
#include "DirectiveForms.h"
#include "DirectiveHeaders.h"
#include "Functions.h"
#include "IncludedHeaders.h"
#include "ParseWarnings.h"
#include "PompPragmas.h"
#include "handlers/Common.h"
#include "handlers/Handlers.h"
#include "pomp/handle-init/HandleInit.h"
#include "pomp/instrumenter/Instrumenter.h"
#include "pomp/instrumenter/Preamble.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <string_view>
#include <vector>

namespace pomp::inst {

using namespace clang;

std::string leftAloneSummary(const std::string &Source, const FileResult &Result) {
  if (Result.ConstructsLeftInHeaders == 0 && Result.ConstructsFromMacros == 0 &&
      Result.ConstructsNotPragmaLines == 0 && Result.ConstructsAcrossFiles == 0)
    return "";
  return "ompinst: " + Source + ": " + std::to_string(Result.ConstructsInstrumented) +
         " OpenMP constructs instrumented (" + std::to_string(Result.ConstructsInHeaders) +
         " in headers); not instrumented: " + std::to_string(Result.ConstructsLeftInHeaders) +
         " in headers that cannot be rewritten, " + std::to_string(Result.ConstructsFromMacros) +
         " produced by macros, " + std::to_string(Result.ConstructsNotPragmaLines) +
         " not written as #pragma lines, " + std::to_string(Result.ConstructsAcrossFiles) +
         " with the statement in another file\n";
}

std::string pompVersionValue() { return std::to_string(POMP_API_VERSION) + "L"; }

std::string pompVersionDefinition() {
  return "#ifndef _POMP\n#define _POMP " + pompVersionValue() + "\n#endif\n";
}

void ResultSink::add(std::string MainFile, FileResult Result) {
  Results[std::move(MainFile)] = std::move(Result);
}

namespace {

/// Why a directive cannot be instrumented in place although it is written in
/// a rewritten file, or null: every edit of a construct handler assumes a
/// `#pragma omp` line of its own. A metadirective's variant is chosen by
/// Clang at compile time (the real compiler may choose another: gcc's
/// vendor is gnu). The other forms (attributes, `_Pragma`) were rewritten
/// into pragma lines before this parse (DirectiveForms.h) unless Forms says
/// why they could not be.
const char *notAPragmaLine(const OMPExecutableDirective &D, const FileInstrumentation &File,
                           const DirectiveForms &Forms) {
  if (isa<OMPMetaDirective>(D))
    return "a metadirective's variant is chosen by each compiler itself";
  const std::string_view Buffer = File.buffer();
  const std::size_t At = File.offset(D.getBeginLoc());
  if (At < Buffer.size() && Buffer[At] == '#')
    return nullptr;
  // Clang resolves a metadirective whose selectors are constant into the
  // variant it chose, which starts inside the metadirective's pragma, also
  // on one of its continuation lines.
  const std::size_t Start = File.logicalLineStart(At);
  const std::string_view Line = Buffer.substr(Start, At - Start);
  if (Buffer.substr(At, 7) != "_Pragma" && Line.find('#') != std::string_view::npos)
    return "a metadirective's variant is chosen by each compiler itself";
  return Forms.reasonLeftAlone(D);
}

/// Walks the AST and asks each directive's handler for its edits.
class ConstructVisitor : public RecursiveASTVisitor<ConstructVisitor> {
  using Base = RecursiveASTVisitor<ConstructVisitor>;

public:
  ConstructVisitor(TranslationUnitFiles &Files, FileResult &Result,
                   const std::vector<PompPragma> &Pragmas, const DirectiveForms &Forms)
      : Files(Files), File(Files.main()), Result(Result), SM(File.sourceManager()),
        Pragmas(Pragmas), Forms(Forms) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    // System headers hold nothing to instrument or report.
    if (!isa<TranslationUnitDecl>(D) && SM.isInSystemHeader(D->getLocation()))
      return true;
    // Bodies that run on a device are left as they are.
    if (D->hasAttr<OMPDeclareTargetDeclAttr>())
      return true;
    // The constructs of a function name it in their CTC strings (`function`),
    // so that the profile shows each construct's function at no run-time
    // cost. A lambda's constructs are named by the function that holds it.
    const auto *Function = dyn_cast<FunctionDecl>(D);
    const auto *Method = dyn_cast<CXXMethodDecl>(D);
    if (!Function || !Function->doesThisDeclarationHaveABody() ||
        (Method && Method->getParent()->isLambda()))
      return Base::TraverseDecl(D);
    std::string Outer = std::move(EnclosingFunction);
    EnclosingFunction = Function->getQualifiedNameAsString();
    const bool Continue = Base::TraverseDecl(D);
    EnclosingFunction = std::move(Outer);
    return Continue;
  }

  bool TraverseStmt(Stmt *S) {
    auto *Directive = dyn_cast_or_null<OMPExecutableDirective>(S);
    if (!Directive) {
      if (S && FollowsExitOf == S)
        if (std::optional<RepeatingLoop> Loop = repeatingLoop(*S, File.context()))
          return traverseRepeatingLoop(*S, *Loop);
      return Base::TraverseStmt(S);
    }
    const SourceLocation Loc = Directive->getBeginLoc();
    if (Loc.isMacroID()) {
      ++Result.ConstructsFromMacros;
      report(Loc, DiagnosticsEngine::Warning,
             (std::string("OpenMP construct is not instrumented: ") +
              Forms.reasonLeftAlone(*Directive))
                 .c_str());
      return traverseLeftAlone(*Directive);
    }
    if (const FileID Elsewhere = statementElsewhere(*Directive, SM);
        Elsewhere.isValid() && !SM.isInSystemHeader(Loc)) {
      ++Result.ConstructsAcrossFiles;
      report(Loc, DiagnosticsEngine::Warning,
             ("OpenMP construct is not instrumented: its statement is in another file, '" +
              llvm::sys::path::filename(SM.getBufferName(SM.getLocForStartOfFile(Elsewhere))) + "'")
                 .str()
                 .c_str());
      return traverseLeftAlone(*Directive);
    }
    // The project's own headers are instrumented too, through copies
    // (IncludedHeaders.h); system headers and a second inclusion of a
    // header are not.
    FileInstrumentation *In = Files.forLocation(Loc);
    if (!In)
      return Base::TraverseStmt(S);
    const bool ChosenVariant = !SkipAt.empty() && SkipAt.back() == Loc;
    if (const char *Why = ChosenVariant ? nullptr : notAPragmaLine(*Directive, *In, Forms)) {
      ++Result.ConstructsNotPragmaLines;
      report(Loc, DiagnosticsEngine::Warning,
             (std::string("OpenMP construct is not instrumented: ") + Why).c_str());
      return traverseLeftAlone(*Directive);
    }
    if (ChosenVariant)
      return Base::TraverseStmt(S);
    // `#pragma pomp` directives apply to the main file's constructs.
    const bool InMain = In == &File;
    if (InMain)
      applyLevelPragmas(Loc);
    const unsigned FirstHandle = static_cast<unsigned>(In->ctcStrings().size()) + 1;
    const llvm::omp::Directive Kind = sourceDirectiveKind(*Directive);
    ConstructEditor Editor(*In, *Directive, Depth);
    Editor.setFollowsExit(FollowsExitOf == Directive);
    In->setThreadIdAvailable(ThreadIdAvailable);
    In->setEnclosingFunction(EnclosingFunction);
    if (Instrumenting || !InMain) {
      if (const ConstructHandler *Handler = handlerFor(Kind)) {
        Handler->instrument(Editor);
        ++Result.ConstructsInstrumented;
        if (!InMain)
          ++Result.ConstructsInHeaders;
      } else if (const char *Why = notInstrumentedReason(Kind)) {
        // Never silently not measured.
        report(Loc, DiagnosticsEngine::Warning,
               ("OpenMP '" + llvm::omp::getOpenMPDirectiveName(Kind).str() +
                "' construct is not instrumented: " + Why)
                   .c_str());
      }
    }
    if (InMain)
      restoreLevelsAfterConstruct();
    if (isTargetDirective(Kind))
      return true;
    // The statement that starts the construct's block comes right after the
    // block's begin event: its first statement when it is a block, else
    // itself (the editor wraps it in braces). Never the loop of a loop
    // directive, whose iterations the runtime hands out.
    BlockAfterBegin = Editor.blockBeginsWithBegin() && !isa<OMPLoopBasedDirective>(Directive)
                          ? Editor.associatedStatement()
                          : nullptr;
    FollowsExitOf = BlockAfterBegin;
    ++Depth;
    const bool Outside = ThreadIdAvailable;
    ThreadIdAvailable = threadIdAvailableInside(*Directive, Kind, Outside);
    const bool Continue = Base::TraverseStmt(S);
    ThreadIdAvailable = Outside;
    File.setThreadIdAvailable(Outside);
    --Depth;
    shareHandles(*In, *Directive, Editor, FirstHandle);
    for (PendingLoop &Loop : RepeatingLoops) {
      if (Loop.Shape.First == Directive && Editor.enterHandle() != 0) {
        Loop.FirstFile = In;
        Loop.FirstHandle = Editor.enterHandle();
      }
      if (Loop.Shape.Last == Directive)
        Loop.LastEndsWithExit = Editor.endsWithExit();
    }
    // After the traversal of the constructs inside, which set it too.
    EndingWithExit = Editor.endsWithExit() ? Directive : nullptr;
    BlockAfterBegin = nullptr;
    return Continue;
  }

  /// A block's statements in order, each knowing whether only brief code
  /// (BriefCode.h) comes between it and a construct that ends with an exit
  /// event (ConstructEditor::followsExit()).
  bool TraverseCompoundStmt(CompoundStmt *Block) {
    if (!WalkUpFromCompoundStmt(Block))
      return false;
    bool PreviousEndsWithExit = Block == BlockAfterBegin;
    BlockAfterBegin = nullptr;
    for (Stmt *Child : Block->body()) {
      FollowsExitOf = PreviousEndsWithExit ? Child : nullptr;
      EndingWithExit = nullptr;
      if (!TraverseStmt(Child))
        return false;
      // A label or case before a construct is a Child of its own, which
      // follows nothing.
      PreviousEndsWithExit =
          EndingWithExit == Child || (PreviousEndsWithExit && isBriefStatement(*Child));
    }
    return true;
  }

  /// A loop that starts right after a construct's exit or a block's begin
  /// and repeats its body's constructs with only brief code between them
  /// (RepeatingLoop): its first construct's enter follows, with brief code
  /// between, either that exit or begin or the exit of the body's last
  /// construct in the iteration before, when that construct ends with an
  /// exit event; and so does a statement after the loop, unless a `break`
  /// may leave the loop in between.
  bool traverseRepeatingLoop(Stmt &Loop, const RepeatingLoop &Shape) {
    RepeatingLoops.push_back({Shape});
    const bool Continue = Base::TraverseStmt(&Loop);
    const PendingLoop Done = RepeatingLoops.back();
    RepeatingLoops.pop_back();
    if (Done.LastEndsWithExit) {
      if (Done.FirstFile)
        Done.FirstFile->markAfterConstruct(Done.FirstHandle);
      if (!Shape.BreaksBetween)
        EndingWithExit = &Loop;
    }
    return Continue;
  }

  /// Applies the `#pragma pomp` directives seen so far in source order
  /// (instrument/noinstrument, inst <group> <level>).
  void applyLevelPragmas(SourceLocation Before) {
    const std::size_t Offset = File.offset(Before);
    while (NextPragma < Pragmas.size() && File.offset(Pragmas[NextPragma].Loc) < Offset) {
      const PompPragma &P = Pragmas[NextPragma++];
      switch (P.What) {
      case PompPragma::Kind::NoInstrument:
        Instrumenting = false;
        break;
      case PompPragma::Kind::Instrument:
        Instrumenting = true;
        break;
      case PompPragma::Kind::Level:
        if (!P.WholeFile)
          SavedLevels.push_back({P.Group, File.level(P.Group)});
        File.setLevel(P.Group, P.Level);
        break;
      default:
        break;
      }
    }
  }

private:
  /// The constructs in the block of a directive left alone have pragma
  /// lines of their own; the variant a metadirective chose starts at the
  /// metadirective's pragma. Inside, thread numbers are available as the
  /// directive says, and a device's code is not instrumented.
  bool traverseLeftAlone(OMPExecutableDirective &Directive) {
    const llvm::omp::Directive Kind = sourceDirectiveKind(Directive);
    if (isTargetDirective(Kind))
      return true;
    SkipAt.push_back(Directive.getBeginLoc());
    const bool Outside = ThreadIdAvailable;
    ThreadIdAvailable = threadIdAvailableInside(Directive, Kind, Outside);
    const bool Continue = Base::TraverseStmt(&Directive);
    ThreadIdAvailable = Outside;
    SkipAt.pop_back();
    return Continue;
  }

  /// A level set without `file` applies to the next construct only.
  void restoreLevelsAfterConstruct() {
    for (const auto &[Group, Level] : SavedLevels)
      File.setLevel(Group, Level);
    SavedLevels.clear();
  }

  /// A region with default(none), default(private) or default(firstprivate)
  /// must name the file-static handles its instrumentation uses: list them
  /// as shared.
  void shareHandles(const FileInstrumentation &In, const OMPExecutableDirective &D,
                    ConstructEditor &Editor, unsigned FirstHandle) {
    const auto *Default = D.getSingleClause<OMPDefaultClause>();
    if (!Default || Default->getDefaultKind() == llvm::omp::OMP_DEFAULT_shared)
      return;
    const unsigned LastHandle = static_cast<unsigned>(In.ctcStrings().size());
    if (LastHandle >= FirstHandle && acceptsDefaultClause(D.getDirectiveKind()))
      Editor.appendClause(sharedClauseFor(In, FirstHandle, LastHandle));
  }

  /// The parse runs with -w (the compiler warns about the user's code when
  /// it compiles the output); ompinst's own warnings are shown all the same.
  void report(SourceLocation Loc, DiagnosticsEngine::Level Level, const char *Message) {
    DiagnosticsEngine &Diags = File.context().getDiagnostics();
    const bool IgnoringWarnings = Diags.getIgnoreAllWarnings();
    Diags.setIgnoreAllWarnings(false);
    Diags.Report(Loc, Diags.getCustomDiagID(Level, "%0")) << Message;
    Diags.setIgnoreAllWarnings(IgnoringWarnings);
  }

  TranslationUnitFiles &Files;
  /// Where the directives left alone start (notAPragmaLine): a directive
  /// that starts there too is a metadirective's chosen variant.
  std::vector<SourceLocation> SkipAt;
  /// The main file, the only one `#pragma pomp` applies to.
  FileInstrumentation &File;
  FileResult &Result;
  const SourceManager &SM;
  const std::vector<PompPragma> &Pragmas;
  const DirectiveForms &Forms;
  std::size_t NextPragma = 0;
  std::vector<std::pair<int, int>> SavedLevels;
  bool Instrumenting = true;
  unsigned Depth = 0;
  /// The statement that comes right after a construct ending with an exit
  /// event in the block being traversed, and the last such construct
  /// traversed (TraverseCompoundStmt()).
  const Stmt *FollowsExitOf = nullptr;
  const Stmt *EndingWithExit = nullptr;
  /// The structured block of the construct being traversed when its
  /// handler began it with a begin event.
  const Stmt *BlockAfterBegin = nullptr;
  /// A RepeatingLoop being traversed, what its first and last constructs'
  /// handlers said of them.
  struct PendingLoop {
    RepeatingLoop Shape;
    FileInstrumentation *FirstFile = nullptr;
    unsigned FirstHandle = 0;
    bool LastEndsWithExit = false;
  };
  std::vector<PendingLoop> RepeatingLoops;
  /// Whether the code at the current place may call omp_get_thread_num().
  bool ThreadIdAvailable = true;
  /// The qualified name of the function being traversed ("" outside one).
  std::string EnclosingFunction;
};

/// POMP_Init() at the start of main and POMP_Finalize() on every way out.
class MainInstrumenter : public RecursiveASTVisitor<MainInstrumenter> {
public:
  explicit MainInstrumenter(FileInstrumentation &File) : File(File) {}

  void instrument(FunctionDecl &Main) {
    auto *Body = dyn_cast_or_null<CompoundStmt>(Main.getBody());
    if (!Body || Body->getLBracLoc().isMacroID() || Body->getRBracLoc().isMacroID())
      return;
    const std::size_t Open = File.tokenEnd(Body->getLBracLoc());
    if (File.langOptions().CPlusPlus) {
      // A guard's destructor runs on every return and during unwinding.
      File.edits().insert(Open, InsertSide::Open, 0,
                          " POMP_Init(); struct pomp_main_guard { ~pomp_main_guard() { "
                          "POMP_Finalize(); } } pomp_main_guard_instance;");
      return;
    }
    // C89 forbids statements before declarations: start after them there.
    std::size_t InitAt = Open;
    if (!File.langOptions().C99) {
      const Stmt *FirstStatement = nullptr;
      for (const Stmt *S : Body->body())
        if (!isa<DeclStmt>(S)) {
          FirstStatement = S;
          break;
        }
      if (FirstStatement && isa<OMPExecutableDirective>(FirstStatement)) {
        // A pragma must stay first on its line: the call goes on a line of
        // its own before it, ahead of the construct's own code.
        File.edits().insert(File.lineStart(FirstStatement->getBeginLoc()), InsertSide::First, 0,
                            "POMP_Init();\n");
        InitAt = std::string::npos;
      } else {
        InitAt = FirstStatement ? File.offset(FirstStatement->getBeginLoc())
                                : File.offset(Body->getRBracLoc());
      }
    }
    if (InitAt != std::string::npos)
      File.edits().insert(InitAt, InsertSide::Open, 0, " POMP_Init(); ");
    TraverseStmt(Body);
    const bool EndsInReturn = !Body->body_empty() && isa<ReturnStmt>(Body->body_back());
    if (!EndsInReturn)
      File.edits().insert(File.offset(Body->getRBracLoc()), InsertSide::Close, 0,
                          " POMP_Finalize(); ");
  }

  bool VisitReturnStmt(ReturnStmt *Return) {
    if (Return->getBeginLoc().isMacroID())
      return true;
    const std::size_t Begin = File.offset(Return->getBeginLoc());
    const std::size_t End = File.statementEnd(*Return);
    const Expr *Value = Return->getRetValue();
    if (!Value || !Value->HasSideEffects(File.context())) {
      File.edits().insert(Begin, InsertSide::Open, 0, "{ POMP_Finalize(); ");
      File.edits().insert(End, InsertSide::Close, 0, " }");
      return true;
    }
    // The returned value is computed before the measurement ends.
    File.edits().insert(Begin, InsertSide::Open, 0, "{ int pomp_main_result = (");
    const std::size_t ValueBegin = File.offset(Value->getBeginLoc());
    File.edits().replace(Begin, ValueBegin, "");
    File.edits().insert(End, InsertSide::Close, 0, " POMP_Finalize(); return pomp_main_result; }");
    File.edits().replace(End - 1, End, ");");
    return true;
  }

  // Returns of lambdas or blocks nested in main are not main's.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool TraverseBlockExpr(BlockExpr *) { return true; }

private:
  FileInstrumentation &File;
};

/// Replaces the user-region and control pragmas by their calls.
class PragmaInstrumenter {
public:
  PragmaInstrumenter(FileInstrumentation &File, DiagnosticsEngine &Diags)
      : File(File), Diags(Diags) {}

  void instrument(const std::vector<PompPragma> &Pragmas) {
    First = Pragmas.data();
    for (const PompPragma &P : Pragmas)
      instrumentOne(P);
    for (const model::UserRegionMatcher::Open &R : Regions.unclosed())
      error(Pragmas[R.Where].Loc, "user region '" + R.Name + "' is never ended");
  }

private:
  /// Spells the shared model's plan of one directive in C.
  void instrumentOne(const PompPragma &P) {
    const model::PompDirectivePlan Plan =
        model::planPompDirective(P.What, [this](Event E) { return File.enabled(E); });
    if (Plan.ControlRoutine) {
      replaceLine(P, std::string(Plan.ControlRoutine) + "();");
      return;
    }
    unsigned H = 0;
    if (Plan.NewHandle) {
      H = File.addHandle(userRegion(P));
      if (P.What == PompPragma::Kind::RegionBegin)
        Regions.begin(P.Name, H, static_cast<std::size_t>(&P - First));
    } else if (P.What == PompPragma::Kind::RegionEnd || P.What == PompPragma::Kind::RegionAltEnd) {
      std::string Error;
      const std::optional<unsigned> Begin = Regions.end(P, Error);
      if (!Begin) {
        error(P.Loc, Error);
        return;
      }
      H = *Begin;
    }
    // Level, noinstrument and instrument were consumed by the construct
    // visitor; the pragma stays as a comment of intent.
    std::string Code;
    for (const model::Step &S : Plan.Steps) {
      std::vector<std::string> Args;
      for (const model::Arg A : S.Args)
        Args.push_back(A == model::Arg::HandleFirst ? File.handleAddress(H)
                       : A == model::Arg::Handle    ? File.handleName(H)
                       : A == model::Arg::Ctc       ? File.ctcName(H)
                                                    : File.threadId());
      Code += ConstructEditor::call(S.E, Args);
    }
    replaceLine(P, Code);
  }

  ctc::RegionDescriptor userRegion(const PompPragma &P) const {
    ctc::RegionDescriptor R;
    R.Kind = ctc::RegionKind::UserRegion;
    R.Type = std::string(ctc::regionKindSpelling(R.Kind));
    R.Name = P.Name;
    R.File = File.fileName();
    const unsigned Line = File.presumedLine(File.offset(P.Loc));
    R.StartLines = ctc::LineRange{Line, Line};
    R.EndLines = R.StartLines;
    return R;
  }

  /// The pragma's text is replaced by Code on the same line (no line moves).
  void replaceLine(const PompPragma &P, const std::string &Code) {
    const std::size_t Begin = File.offset(P.Loc);
    const std::size_t End = File.pragmaLineEnd(P.Loc);
    File.edits().replace(Begin, End, Code.empty() ? "/* #pragma pomp */" : Code);
  }

  void error(SourceLocation Loc, const std::string &Message) {
    Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
  }

  FileInstrumentation &File;
  DiagnosticsEngine &Diags;
  model::UserRegionMatcher Regions{/*CaseInsensitive=*/false};
  const PompPragma *First = nullptr;
};

/// Builds the output of one file once its AST is complete.
class InstrumentConsumer : public ASTConsumer {
public:
  InstrumentConsumer(const Options &Opts, ResultSink &Sink, const PompPragmaHandler &Pragmas,
                     const IncludeRecorder &Includes, const DirectiveFormRecorder &Forms,
                     const IgnoredDirectiveParts &Ignored,
                     std::unique_ptr<MainFileBodyFilter> Bodies)
      : Opts(Opts), Sink(Sink), Pragmas(Pragmas), Includes(Includes), FormRecorder(Forms),
        Ignored(Ignored), Bodies(std::move(Bodies)) {}

  /// Only the main file and headers with OpenMP directives (pragmas,
  /// attributes, uses of macros expanding to _Pragma) are rewritten,
  /// so the bodies of functions in other files need not be built (Sema still
  /// keeps those that constant evaluation or return type deduction needs).
  /// In the main file, a body is skipped when it can produce no edit
  /// (MainFileBodyFilter): not main's, not with --functions.
  bool shouldSkipFunctionBody(Decl *D) override {
    const SourceManager &SM = D->getASTContext().getSourceManager();
    const FileID File = SM.getFileID(SM.getExpansionLoc(D->getLocation()));
    if (File == SM.getMainFileID()) {
      const FunctionDecl *Function = D->getAsFunction();
      return Bodies && !Opts.InstrumentFunctions && Function && !Function->isMain() &&
             !D->getLocation().isMacroID() && Bodies->canSkipBodyAtLastToken();
    }
    auto [It, New] = FileMayHoldOpenMP.try_emplace(File, false);
    if (New)
      It->second =
          !SM.isInSystemHeader(SM.getLocForStartOfFile(File)) &&
          (mayHoldOpenMP(SM.getBufferData(File)) || mayIncludeInBodies(SM.getBufferData(File)) ||
           FormRecorder.mentionsPragmaMacro(SM.getBufferData(File)));
    return !It->second;
  }

  void HandleTranslationUnit(ASTContext &Context) override {
    DiagnosticsEngine &Diags = Context.getDiagnostics();
    if (Diags.hasErrorOccurred())
      return;
    const SourceManager &SM = Context.getSourceManager();
    limitTraversalToUserCode(Context);
    const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    const DirectiveForms Forms(Context, FormRecorder, Ignored, Opts.CompilerIgnoresCAttributes);
    FileResult Result;
    if (Opts.RewriteDirectiveForms && !Forms.rewrittenFiles().empty()) {
      // The rewritten files are parsed and instrumented again.
      Result.Rewritten = Forms.rewrittenFiles();
      Sink.add(Main ? Main->getName().str() : "", std::move(Result));
      return;
    }
    if (Opts.PasteDirectiveHeaders) {
      // So are the files with the headers that hold only a directive pasted
      // in (DirectiveHeaders.h), after their directive forms were.
      PastedHeaders Pasted = pasteDirectiveHeaders(Context, Opts.HeaderDirectory);
      Result.Rewritten = std::move(Pasted.Files);
      Result.StandIns = std::move(Pasted.StandIns);
      if (!Result.Rewritten.empty()) {
        Sink.add(Main ? Main->getName().str() : "", std::move(Result));
        return;
      }
    }
    TranslationUnitFiles Files(Context, Opts, Includes);
    FileInstrumentation &File = Files.main();
    ConstructVisitor Visitor(Files, Result, Pragmas.pragmas(), Forms);
    Visitor.TraverseDecl(Context.getTranslationUnitDecl());
    PragmaInstrumenter(File, Diags).instrument(Pragmas.pragmas());
    bool UsesWrappers = false;
    const std::string AddressSites = instrumentApiCalls(Context, File, UsesWrappers);
    instrumentMain(Context, File);
    instrumentFunctions(Context, File);
    std::vector<handleinit::HeaderHandles> HeaderHandles;
    const unsigned Left = Files.finishHeaders(HeaderHandles, Result.Headers);
    Result.ConstructsLeftInHeaders = Left;
    Result.ConstructsInstrumented -= Left;
    Result.ConstructsInHeaders -= Left;
    if (Diags.hasErrorOccurred())
      return;
    Result.Output = assemble(Context, File, UsesWrappers, AddressSites, std::move(HeaderHandles));
    if (Result.Output.empty()) {
      Diags.Report(
          Diags.getCustomDiagID(DiagnosticsEngine::Error, "internal error: overlapping edits"));
      return;
    }
    Sink.add(Main ? Main->getName().str() : File.fileName(), std::move(Result));
  }

private:
  /// The traversals of the translation unit (the visitors here and the
  /// parent map the construct handlers ask, `ParentMapContext`) start at the
  /// top-level declarations outside system headers: those hold nothing to
  /// instrument, the visitors skip them anyway, and nothing of the user's
  /// code is reached through them. Building the parent map over the system
  /// headers took a tenth of ompinst's time on LULESH (issue 15).
  /// `noload_decls`: the declarations of a loaded precompiled preamble are
  /// never the user's code to instrument (a preamble that includes a header
  /// that may hold OpenMP is not precompiled, and the preamble's bodies are
  /// skipped), and iterating `decls()` would deserialize every one of them:
  /// a third of the parse's work for a C file with a PCH of `stdio.h`.
  static void limitTraversalToUserCode(ASTContext &Context) {
    const SourceManager &SM = Context.getSourceManager();
    std::vector<Decl *> Scope;
    for (Decl *D : Context.getTranslationUnitDecl()->noload_decls())
      if (!SM.isInSystemHeader(D->getLocation()))
        Scope.push_back(D);
    Context.setTraversalScope(Scope);
  }

  static void instrumentMain(ASTContext &Context, FileInstrumentation &File) {
    const SourceManager &SM = Context.getSourceManager();
    for (Decl *D : Context.getTranslationUnitDecl()->noload_decls()) {
      auto *Function = dyn_cast<FunctionDecl>(D);
      if (Function && Function->isMain() && Function->doesThisDeclarationHaveABody() &&
          SM.isInMainFile(Function->getLocation()))
        MainInstrumenter(File).instrument(*Function);
    }
  }

  /// The first of D and the `#pragma omp declare variant/simd/target ...`
  /// lines attached to it, which must stay right before the declaration.
  static SourceLocation attachedPragmasBegin(const Decl &D, const FileInstrumentation &File) {
    const SourceManager &SM = File.sourceManager();
    SourceLocation First = D.getBeginLoc();
    for (const Attr *A : D.attrs()) {
      const SourceLocation Loc = A->getLocation();
      if (!Loc.isValid() || Loc.isMacroID() || !SM.isInMainFile(Loc))
        continue;
      if (A->getSyntax() == AttributeCommonInfo::AS_Pragma && File.offset(Loc) < File.offset(First))
        First = Loc;
    }
    return First;
  }

  /// Where the prologue goes: at the start of the first top-level
  /// declaration that holds an edit, so that the file's own includes and
  /// feature macros (_GNU_SOURCE) come before any header the prologue pulls
  /// in. Namespaces and extern "C" blocks count as top-level declarations:
  /// the handles must be visible at global scope, where the init function is.
  /// An edit outside every declaration (an #include of a header copy) takes
  /// the prologue to the start of its line; a file without edits (only the
  /// init function, at its end) has it at its end, after all of its text.
  static std::size_t prologueOffset(ASTContext &Context, FileInstrumentation &File) {
    const SourceManager &SM = Context.getSourceManager();
    const std::string_view Buffer = File.buffer();
    if (File.edits().empty())
      return Buffer.size();
    const std::size_t FirstEdit = File.edits().firstOffset(Buffer.size());
    for (const Decl *D : Context.getTranslationUnitDecl()->noload_decls()) {
      if (!D->getBeginLoc().isValid() || !SM.isInMainFile(SM.getExpansionLoc(D->getBeginLoc())))
        continue;
      const std::size_t Begin = File.offset(D->getBeginLoc());
      const std::size_t End = File.offset(D->getEndLoc());
      if (FirstEdit >= Begin && FirstEdit <= End + 1)
        return D->getBeginLoc().isMacroID() ? File.contentStart()
                                            : File.lineStart(attachedPragmasBegin(*D, File));
    }
    return File.logicalLineStart(FirstEdit);
  }

  std::string assemble(ASTContext &Context, FileInstrumentation &File, bool UsesWrappers,
                       const std::string &AddressSites,
                       std::vector<handleinit::HeaderHandles> HeaderHandles) {
    const SourceManager &SM = Context.getSourceManager();
    const bool LineDirectives = Opts.LineDirectives;
    auto LineDirective = [&](std::size_t Offset) -> std::string {
      return LineDirectives ? lineDirective(File, Offset) : "";
    };

    handleinit::FileHandles Handles;
    Handles.CtcStrings = File.ctcStrings();
    Handles.Headers = std::move(HeaderHandles);
    std::string Salt;
    for (const std::string &Ctc : Handles.CtcStrings)
      Salt += Ctc;
    const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    llvm::SmallString<256> AbsolutePath(Main ? Main->getName() : File.fileName());
    llvm::sys::fs::make_absolute(AbsolutePath);
    llvm::sys::path::remove_dots(AbsolutePath, /*remove_dot_dot=*/true);
    Handles.FileId = handleinit::makeFileId(AbsolutePath.str(), Salt);
    const handleinit::Language Lang =
        Context.getLangOpts().CPlusPlus ? handleinit::Language::CXX : handleinit::Language::C;
    const std::size_t PrologueAt = prologueOffset(Context, File);
    // _POMP (paper section 3.7) must hold for the whole file; it pulls in
    // no header, so it can go first.
    File.edits().insert(File.contentStart(), InsertSide::First, 0, pompVersionDefinition());
    std::string Prologue;
    // omp.h only for what the inserted code itself calls: the wrappers of
    // API calls and --thread-ids' omp_get_thread_num(). The file's own
    // constructs need none, and the header costs every compile (libomp's
    // pulls in stdlib.h; docs/PERFORMANCE.md, session 8).
    if (UsesWrappers || Opts.ThreadIds)
      Prologue += "#include <omp.h>\n";
    // Declarations of only the routines the inserted code calls instead of
    // pomplib.h (docs/PERFORMANCE.md, session 9), unless the wrappers'
    // header includes pomplib.h anyway.
    const std::vector<std::string> Called = calledRoutines(File.edits());
    if (!UsesWrappers)
      Handles.CalledRoutines = Called;
    Prologue += handleinit::filePrologue(Handles, Lang);
    if (Prologue.back() != '\n')
      Prologue += '\n';
    if (UsesWrappers) {
      // pomplib.h does not declare the forms without the thread id.
      Prologue += handleinit::noThreadIdForms(Called, Lang);
      // The wrappers' events pass the thread number only when asked to.
      if (Opts.ThreadIds)
        Prologue += "#define POMP_THREAD_IDS 1\n";
      Prologue += "#include \"pomp_omp_wrappers.h\"\n" + AddressSites;
    }
    // At the end of a file whose last line has no newline, the prologue
    // starts a line of its own.
    if (PrologueAt == File.buffer().size() && PrologueAt > File.contentStart() &&
        File.buffer()[PrologueAt - 1] != '\n')
      Prologue.insert(0, "\n");
    File.edits().insert(PrologueAt, InsertSide::First, 0, Prologue);

    std::string Out;
    if (!File.edits().apply(File.buffer(), LineDirective, Out))
      return "";
    if (!Out.empty() && Out.back() != '\n')
      Out += '\n';
    Out += handleinit::fileInitFunction(Handles, Lang);
    return Out;
  }

  const Options &Opts;
  ResultSink &Sink;
  const PompPragmaHandler &Pragmas;
  const IncludeRecorder &Includes;
  const DirectiveFormRecorder &FormRecorder;
  const IgnoredDirectiveParts &Ignored;
  /// Per file: may it hold an OpenMP directive (mayHoldOpenMP)?
  llvm::DenseMap<FileID, bool> FileMayHoldOpenMP;
  /// Null when every body of the main file is built.
  std::unique_ptr<MainFileBodyFilter> Bodies;
};

/// Registers the `#pragma pomp` handler and creates the consumer.
class InstrumentAction : public ASTFrontendAction {
public:
  InstrumentAction(const Options &Opts, ResultSink &Sink) : Opts(Opts), Sink(Sink) {}

protected:
  /// Runs before the preprocessor is made, which reads the precompiled
  /// preamble's first block already (CreateASTConsumer installs another
  /// one outside the consumers it adds).
  bool BeginInvocation(CompilerInstance &CI) override {
    // Before a precompiled preamble loads its own mappings.
    ignoreDefaultErrorWarnings(CI.getDiagnostics());
    if (Opts.PreambleInUse)
      PreambleLoadErrors::install(CI.getDiagnostics(), [this] { Sink.notePreambleFailed(); });
    return ASTFrontendAction::BeginInvocation(CI);
  }

  /// A prefix, as a precompiled header is: at its end Sema does not
  /// instantiate the templates the file used, define vtables or check its
  /// tentative definitions. None of that changes the file's AST, which is all
  /// the instrumentation reads (an error only an instantiation would find is
  /// the compiler's to report); it was 14% of a served C++ parse's work.
  TranslationUnitKind getTranslationUnitKind() override { return TU_Prefix; }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef) override {
    // The preprocessor owns the handler and outlives the consumer's use.
    auto *Handler = new PompPragmaHandler();
    CI.getPreprocessor().AddPragmaHandler(Handler);
    CI.getFrontendOpts().SkipFunctionBodies = true;
    auto Recorder = std::make_unique<IncludeRecorder>();
    Recorder->setSourceManager(CI.getSourceManager());
    const IncludeRecorder &Includes = *Recorder;
    CI.getPreprocessor().addPPCallbacks(std::move(Recorder));
    auto Forms = std::make_unique<DirectiveFormRecorder>(CI.getPreprocessor());
    DirectiveFormRecorder &FormRecorder = *Forms;
    // What a precompiled preamble defined is loaded, never seen defined.
    FormRecorder.addPragmaMacros(Opts.PreamblePragmaMacros);
    CI.getPreprocessor().addPPCallbacks(std::move(Forms));
    const IgnoredDirectiveParts &Ignored = IgnoredDirectiveParts::install(CI.getDiagnostics());
    // Outermost, so that no consumer counts an error of loading the
    // preamble ("1 error generated") before it is taken out.
    if (Opts.PreambleInUse)
      PreambleLoadErrors::install(CI.getDiagnostics(), [this] { Sink.notePreambleFailed(); });
    std::unique_ptr<MainFileBodyFilter> Bodies;
    if (Opts.SkipPlainBodies && !Opts.InstrumentFunctions)
      Bodies = std::make_unique<MainFileBodyFilter>(
          CI.getPreprocessor(), [&FormRecorder](const Token &Tok) { FormRecorder.onToken(Tok); });
    return std::make_unique<InstrumentConsumer>(Opts, Sink, *Handler, Includes, FormRecorder,
                                                Ignored, std::move(Bodies));
  }

private:
  const Options &Opts;
  ResultSink &Sink;
};

class InstrumentActionFactory : public tooling::FrontendActionFactory {
public:
  InstrumentActionFactory(const Options &Opts, ResultSink &Sink) : Opts(Opts), Sink(Sink) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<InstrumentAction>(Opts, Sink);
  }

private:
  Options Opts;
  ResultSink &Sink;
};

} // namespace

void nextRewritingParse(Options &Opts) {
  if (Opts.RewriteDirectiveForms)
    Opts.RewriteDirectiveForms = false;
  else
    Opts.PasteDirectiveHeaders = false;
}

std::unique_ptr<tooling::FrontendActionFactory> newInstrumentActionFactory(const Options &Opts,
                                                                           ResultSink &Sink) {
  return std::make_unique<InstrumentActionFactory>(Opts, Sink);
}

} // namespace pomp::inst
