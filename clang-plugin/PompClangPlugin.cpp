//===- PompClangPlugin.cpp - ompinst inside clang-19 (libpomp-clang-plugin) ===//
///
/// \file
/// A Clang frontend plugin that instruments and compiles a C/C++ file in the
/// real compiler's own process (issue 15): ompcc runs
///
///   clang-19 -fplugin=libpomp-clang-plugin.so -fplugin-arg-pomp-<arg>... -c x.c
///
/// and the plugin replaces the compile's action (ReplaceAction): it parses
/// x.c as ompinst-clang does (the same instrumenter library, the same
/// output), writes the instrumented text and the copies of the project's
/// headers where ompinst-clang would, then compiles the instrumented text in
/// place of x.c with the compile's own options, loading its preamble
/// precompiled when the cache has it (inst::CompilePreamble). Clang and LLVM
/// are loaded once, by the compiler: a separate ompinst-clang pays some 50 ms
/// to load and relocate them (docs/PERFORMANCE.md). docs/OMPCC.md,
/// "Instrumenting inside clang-19", says when ompcc uses it.
///
/// Arguments (-fplugin-arg-pomp-<arg>): output=<file> (where the
/// instrumented text is written), header-dir=<dir>, emit=obj|asm|bc|ll (the
/// compile's action, which -fplugin's ReplaceAction takes out of the
/// options), quiet, and ompinst's options without their dashes: level=...,
/// functions, function-filter=..., function-exclude=..., no-line-directives,
/// thread-ids, no-skip-bodies, verbose (what the cache of precompiled
/// preambles did). For ompcc's cache (docs/OMPCC.md, "ompcc's
/// cache"): inputs-list=<file> (what the instrumentation's parse read, as
/// ompinst --inputs-list writes it), log=<file> (the instrumentation's own
/// messages, which a hit shows again), and instrumented=<file> (an
/// instrumented text from the cache: no parse, the compile only).
///
//===----------------------------------------------------------------------===//
#include "OverlappedCompile.h"

#include "pomp/instrumenter/CompilePreamble.h"
#include "pomp/instrumenter/DiagnosticFilter.h"
#include "pomp/instrumenter/Instrumenter.h"
#include "pomp/instrumenter/Preamble.h"
#include "pomp/instrumenter/PreambleCache.h"
#include "pomp/instrumenter/RecordingFileSystem.h"
#include "pomp/model/Levels.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExternalASTSource.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/FrontendTool/Utils.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

namespace {

using namespace clang;
using llvm::StringRef;
namespace inst = pomp::inst;
namespace plugin = pomp::plugin;

/// Writes Text to Path through a temporary file and a rename, as
/// ompinst-clang does (instrumenter/tool/CommandLine.h, writeAtomically):
/// never a half-written file. Says why on failure, on Errors.
bool writeAtomically(StringRef Path, StringRef Text, llvm::raw_ostream &Errors = llvm::errs()) {
  // The directory too: a compile replayed from `ompcc -v` (bench/) runs
  // without ompcc, which makes it.
  if (std::error_code EC = llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path))) {
    Errors << "ompinst: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  llvm::SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  llvm::SmallString<256> TempPath;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Model, FD, TempPath)) {
    Errors << "ompinst: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Errors << "ompinst: error: cannot write '" << Path << "': " << OS.error().message() << "\n";
      OS.clear_error();
      llvm::sys::fs::remove(TempPath);
      return false;
    }
  }
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path)) {
    Errors << "ompinst: error: cannot write '" << Path << "': " << EC.message() << "\n";
    llvm::sys::fs::remove(TempPath);
    return false;
  }
  return true;
}

/// The copies of the headers and their map ("<copy>\t<original>" per line),
/// which ompcc reads to name the originals in dependency files: the files
/// ompinst-clang writes. Says why on failure, on Errors.
bool writeHeaders(StringRef Directory, const std::vector<inst::HeaderCopy> &Headers,
                  llvm::raw_ostream &Errors) {
  if (Headers.empty())
    return true;
  std::string Map;
  for (const inst::HeaderCopy &Header : Headers) {
    const StringRef Parent = llvm::sys::path::parent_path(Header.Path);
    if (std::error_code EC = llvm::sys::fs::create_directories(Parent)) {
      Errors << "ompinst: error: cannot create '" << Parent << "': " << EC.message() << "\n";
      return false;
    }
    if (!writeAtomically(Header.Path, Header.Text, Errors))
      return false;
    Map += Header.Path + "\t" + Header.Original + "\n";
  }
  llvm::SmallString<256> MapPath(Directory);
  llvm::sys::path::append(MapPath, "pomp-headers.map");
  return writeAtomically(MapPath, Map, Errors);
}

/// The compile's own action, named by the emit= argument: with
/// ReplaceAction, Clang sets the options' action to the plugin's before the
/// plugin sees them (CompilerInstance::LoadRequestedPlugins).
std::optional<frontend::ActionKind> emitAction(StringRef Name) {
  if (Name == "obj")
    return frontend::EmitObj;
  if (Name == "asm")
    return frontend::EmitAssembly;
  if (Name == "bc")
    return frontend::EmitBC;
  if (Name == "ll")
    return frontend::EmitLLVM;
  return std::nullopt;
}

/// A copy of the compile's invocation for a nested compiler instance: no
/// plugin, and no summary line ("N warnings generated"), which the outer
/// instance prints once for all of them (CompilerInstance::
/// printDiagnosticStats prints it only with carets on; the printer that
/// shows the diagnostics keeps the outer instance's options, carets
/// included).
std::shared_ptr<CompilerInvocation> nestedInvocation(const CompilerInvocation &Original,
                                                     frontend::ActionKind Action) {
  auto Invocation = std::make_shared<CompilerInvocation>(Original);
  FrontendOptions &Frontend = Invocation->getFrontendOpts();
  Frontend.ProgramAction = Action;
  Frontend.ActionName.clear();
  Frontend.Plugins.clear();
  Frontend.AddPluginActions.clear();
  Frontend.PluginArgs.clear();
  Invocation->getDiagnosticOpts().ShowCarets = false;
  // -v: the outer instance has printed the version and the search list.
  Invocation->getHeaderSearchOpts().Verbose = false;
  return Invocation;
}

/// Defines `_POMP` for the compile of an instrumented text when
/// -Wunused-macros is on: the text's header defines it in the main file,
/// where the warning would report it, which the source does not give.
/// Defined beforehand with the header's value, the header leaves it (ompcc
/// gives other compilers a -D). Not over a `_POMP` of the command line.
void predefinePompVersion(const DiagnosticsEngine &Diags, CompilerInvocation &Compile) {
  if (Diags.isIgnored(diag::pp_macro_not_used, SourceLocation()))
    return;
  PreprocessorOptions &PP = Compile.getPreprocessorOpts();
  for (const std::pair<std::string, bool> &Macro : PP.Macros)
    if (StringRef(Macro.first).split('=').first == "_POMP")
      return;
  PP.addMacroDef("_POMP=" + inst::pompVersionValue());
}

/// Runs Action in a compiler instance of Invocation that reads through Files
/// and shows its diagnostics through Client, by default the outer instance's
/// printer (Setup, when given, prepares the instance, Files set, before the
/// action); true without errors.
bool runNested(CompilerInstance &Outer, std::shared_ptr<CompilerInvocation> Invocation,
               FrontendAction &Action, FileManager &Files,
               const std::function<void(CompilerInstance &)> &Setup = nullptr,
               DiagnosticConsumer *Client = nullptr) {
  CompilerInstance Nested(Outer.getPCHContainerOperations());
  Nested.setInvocation(std::move(Invocation));
  Nested.createDiagnostics(Client ? Client : &Outer.getDiagnosticClient(),
                           /*ShouldOwnClient=*/false);
  Nested.setFileManager(&Files);
  if (Setup)
    Setup(Nested);
  const bool Success = Nested.ExecuteAction(Action);
  // The nested action ended the printer's source file; the outer one's
  // diagnostics need it back.
  Outer.getDiagnosticClient().BeginSourceFile(Outer.getLangOpts(), &Outer.getPreprocessor());
  return Success;
}

/// The diagnostics client of the instrumentation's parse: every diagnostic
/// goes to the compile's printer, as it would without it, and is also
/// written, without colours, to a text that ompcc's cache keeps and shows
/// again on a hit (ompinst's log in the two-step path).
class LoggingConsumer : public DiagnosticConsumer {
public:
  LoggingConsumer(DiagnosticConsumer &Shown, const DiagnosticOptions &Options)
      : Shown(Shown), TextOptions(new DiagnosticOptions(Options)), Text(Stream, TextOptions.get()) {
    TextOptions->ShowColors = false;
  }

  void BeginSourceFile(const LangOptions &Lang, const Preprocessor *PP) override {
    Shown.BeginSourceFile(Lang, PP);
    Text.BeginSourceFile(Lang, PP);
  }
  void EndSourceFile() override {
    Shown.EndSourceFile();
    Text.EndSourceFile();
  }
  void finish() override {
    Shown.finish();
    Text.finish();
  }
  bool IncludeInDiagnosticCounts() const override { return Shown.IncludeInDiagnosticCounts(); }
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Shown.HandleDiagnostic(Level, Info);
    Text.HandleDiagnostic(Level, Info);
  }

  /// What was printed so far, without colours.
  std::string &text() { return Buffer; }

private:
  DiagnosticConsumer &Shown;
  std::string Buffer;
  llvm::raw_string_ostream Stream{Buffer};
  llvm::IntrusiveRefCntPtr<DiagnosticOptions> TextOptions;
  TextDiagnosticPrinter Text;
};

/// The diagnostics client of the compile of the instrumented text: passes
/// every diagnostic on to the compile's printer, a backend diagnostic located
/// in the main file at the user's line. LLVM locates a backend diagnostic
/// (an optimization remark, -Wpass-failed, ...: category "Backend Issue") by
/// its debug location, the user's file, line and column through the #line
/// directives, and Clang maps that back to a source location by the physical
/// lines of the file of that name (BackendConsumer::
/// getBestLocationFromDebugLoc), here the instrumented text compiled under
/// the source's name: the warning named a line of the instrumented text (with
/// -g, `#pragma omp simd`'s "loop not vectorized" showed a POMP handle's
/// declaration). Such a diagnostic is passed on at the same line and column
/// of the user's own file, loaded for it as a file of its own under the name
/// the #line directives give, with the same level, arguments and flag: as a
/// plain compile shows it.
class BackendLocationFix : public inst::DiagnosticFilter {
public:
  /// For a compile that makes debug locations (-g, or the line tables -R
  /// and friends ask for).
  BackendLocationFix(DiagnosticConsumer &Shown, std::string Source)
      : DiagnosticFilter(Shown), Shown(Shown), Source(std::move(Source)) {}

  /// Where the main file declares functions (raw encodings), collected by
  /// FunctionLocations while the compile parses (the backend runs after the
  /// AST is cleared, -clear-ast-before-backend): a diagnostic without a
  /// debug location names its function's declaration, right already.
  std::unordered_set<SourceLocation::UIntTy> Functions;

  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    const SourceLocation User = userLocation(Info);
    if (User.isInvalid()) {
      passOn(Level, Info);
      return;
    }
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    // A second engine reports it there, to the same printer: a diagnostic's
    // location is its engine's. The level is the one the compile's engine
    // decided (-Werror, -R...), set as the diagnostic's severity.
    const DiagnosticsEngine &Engine = *Info.getDiags();
    DiagnosticsEngine Shadow(Engine.getDiagnosticIDs(), &Engine.getDiagnosticOptions(), &Shown,
                             /*ShouldOwnClient=*/false);
    Shadow.setSourceManager(&Info.getSourceManager());
    Shadow.setSeverity(Info.getID(), severityOf(Level), SourceLocation());
    DiagnosticBuilder Again = Shadow.Report(User, Info.getID());
    for (unsigned I = 0; I < Info.getNumArgs(); ++I) {
      if (Info.getArgKind(I) == DiagnosticsEngine::ak_std_string)
        Again << Info.getArgStdStr(I);
      else
        Again.AddTaggedVal(Info.getRawArg(I), Info.getArgKind(I));
    }
    if (!Engine.getFlagValue().empty())
      Again << AddFlagValue(Engine.getFlagValue());
  }

private:
  static diag::Severity severityOf(DiagnosticsEngine::Level Level) {
    switch (Level) {
    case DiagnosticsEngine::Remark:
      return diag::Severity::Remark;
    case DiagnosticsEngine::Warning:
      return diag::Severity::Warning;
    case DiagnosticsEngine::Error:
      return diag::Severity::Error;
    case DiagnosticsEngine::Fatal:
      return diag::Severity::Fatal;
    default:
      return diag::Severity::Ignored;
    }
  }

  /// True for the backend diagnostics Clang locates by a debug location
  /// (BackendConsumer::getBestLocationFromDebugLoc); the others (stack and
  /// resource limits, the error and warning attributes, inline assembly) carry
  /// a location of the source, right already.
  static bool locatedByDebugLocation(unsigned ID) {
    switch (ID) {
    case diag::remark_fe_backend_optimization_remark:
    case diag::remark_fe_backend_optimization_remark_missed:
    case diag::remark_fe_backend_optimization_remark_analysis:
    case diag::remark_fe_backend_optimization_remark_analysis_fpcommute:
    case diag::remark_fe_backend_optimization_remark_analysis_aliasing:
    case diag::warn_fe_backend_optimization_failure:
    case diag::err_fe_backend_unsupported:
    case diag::warn_fe_backend_unsupported:
    case diag::warn_profile_data_misexpect:
      return true;
    default:
      return false;
    }
  }

  /// The location in the user's own file of a backend diagnostic located in
  /// the main file by a debug location; invalid for every other diagnostic.
  SourceLocation userLocation(const Diagnostic &Info) {
    if (!locatedByDebugLocation(Info.getID()) || !Info.hasSourceManager() ||
        Info.getLocation().isInvalid() || !Info.getLocation().isFileID())
      return SourceLocation();
    SourceManager &SM = Info.getSourceManager();
    const auto [File, Offset] = SM.getDecomposedLoc(Info.getLocation());
    if (File != SM.getMainFileID() || Functions.count(Info.getLocation().getRawEncoding()))
      return SourceLocation();
    // The physical line and column are the debug location's: the user's.
    const unsigned Line = SM.getLineNumber(File, Offset);
    const unsigned Column = SM.getColumnNumber(File, Offset);
    if (Original.isInvalid()) {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Source);
      if (!Text)
        return SourceLocation();
      // Named as the #line directives name it (the debug location's file).
      const PresumedLoc Named = SM.getPresumedLoc(Info.getLocation());
      const std::string Name = Named.isValid() ? Named.getFilename() : Source;
      Original = SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy((*Text)->getBuffer(), Name));
    }
    return SM.translateLineCol(Original, Line, Column);
  }

  DiagnosticConsumer &Shown;
  const std::string Source;
  FileID Original;
};

/// Collects where the main file declares functions for BackendLocationFix.
class FunctionLocations : public ASTConsumer {
public:
  explicit FunctionLocations(std::unordered_set<SourceLocation::UIntTy> &Into) : Into(Into) {}

  void Initialize(ASTContext &Context) override { SM = &Context.getSourceManager(); }
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      collect(D);
    return true;
  }
  void HandleInlineFunctionDefinition(FunctionDecl *D) override { collect(D); }

private:
  void collect(Decl *D) {
    if (!SM || !SM->isWrittenInMainFile(D->getLocation()))
      return;
    if (auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    else if (auto *Class = dyn_cast<ClassTemplateDecl>(D))
      D = Class->getTemplatedDecl();
    if (isa<FunctionDecl>(D))
      Into.insert(D->getLocation().getRawEncoding());
    if (isa<NamespaceDecl, LinkageSpecDecl, RecordDecl>(D))
      for (Decl *Inner : cast<DeclContext>(D)->decls())
        collect(Inner);
  }

  std::unordered_set<SourceLocation::UIntTy> &Into;
  const SourceManager *SM = nullptr;
};

/// The compile's consumer, given the `using` declarations of the headers a
/// precompiled preamble holds before anything else. CodeGen emits a header's
/// `using` declaration, `using` directive or namespace alias into the debug
/// information when it sees it at the top level (a DW_TAG_imported_*), but a
/// PCH passes on only the declarations that must be emitted: without this a
/// C++ compile with -g and the PCH would lose them (264 in each NPB-CPP program).
/// They come first, in the headers' order, as all of the headers' come before
/// the main file's in a compile without the PCH; the reader finds them by
/// kind without loading the headers' other declarations.
class UsingReplay : public MultiplexConsumer {
public:
  explicit UsingReplay(std::unique_ptr<ASTConsumer> Compile)
      : MultiplexConsumer(only(std::move(Compile))) {}

  void Initialize(ASTContext &Context) override {
    this->Context = &Context;
    MultiplexConsumer::Initialize(Context);
  }
  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    replay();
    return MultiplexConsumer::HandleTopLevelDecl(Group);
  }
  void HandleInterestingDecl(DeclGroupRef Group) override {
    replay();
    MultiplexConsumer::HandleInterestingDecl(Group);
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    replay();
    MultiplexConsumer::HandleTranslationUnit(Ctx);
  }

private:
  static std::vector<std::unique_ptr<ASTConsumer>> only(std::unique_ptr<ASTConsumer> Consumer) {
    std::vector<std::unique_ptr<ASTConsumer>> One;
    One.push_back(std::move(Consumer));
    return One;
  }

  void replay() {
    if (Replayed || !Context)
      return;
    Replayed = true;
    if (ExternalASTSource *Pch = Context->getExternalSource())
      replayIn(*Pch, Context->getTranslationUnitDecl());
  }

  void replayIn(ExternalASTSource &Pch, const DeclContext *Scope) {
    SmallVector<Decl *, 64> Found;
    Pch.FindExternalLexicalDecls(
        Scope,
        [](Decl::Kind Kind) {
          switch (Kind) {
          case Decl::Using:
          case Decl::UsingDirective:
          case Decl::NamespaceAlias:
          case Decl::UsingEnum:
          case Decl::Namespace:
          case Decl::LinkageSpec:
          case Decl::Export:
            return true;
          default:
            return false;
          }
        },
        Found);
    for (Decl *D : Found) {
      if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
        replayIn(Pch, cast<DeclContext>(D));
      else
        MultiplexConsumer::HandleTopLevelDecl(DeclGroupRef(D));
    }
  }

  ASTContext *Context = nullptr;
  bool Replayed = false;
};

/// The compile's own action, with FunctionLocations beside its consumer.
class CompileAction : public WrapperFrontendAction {
public:
  CompileAction(std::unique_ptr<FrontendAction> Compile, BackendLocationFix &Fix)
      : WrapperFrontendAction(std::move(Compile)), Fix(Fix) {}

protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    std::unique_ptr<ASTConsumer> Compile = WrapperFrontendAction::CreateASTConsumer(CI, File);
    if (!Compile)
      return nullptr;
    // A C++ compile that loads its precompiled preamble (inst::CompilePreamble).
    if (CI.getLangOpts().CPlusPlus && !CI.getPreprocessorOpts().ImplicitPCHInclude.empty())
      Compile = std::make_unique<UsingReplay>(std::move(Compile));
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(std::make_unique<FunctionLocations>(Fix.Functions));
    Both.push_back(std::move(Compile));
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }

private:
  BackendLocationFix &Fix;
};

/// The plugin's action: instrument the main file, then compile the result.
class PompPluginAction : public PluginASTAction {
protected:
  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    auto Error = [&Diags](const std::string &Message) {
      Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "pomp plugin: %0")) << Message;
      return false;
    };
    for (const std::string &Arg : Args) {
      const auto [Name, Value] = StringRef(Arg).split('=');
      if (Name == "output") {
        Output = Value.str();
      } else if (Name == "header-dir") {
        llvm::SmallString<256> Absolute(Value);
        llvm::sys::fs::make_absolute(Absolute);
        Opts.HeaderDirectory = std::string(Absolute);
      } else if (Name == "emit") {
        const std::optional<frontend::ActionKind> Kind = emitAction(Value);
        if (!Kind)
          return Error("emit= takes obj, asm, bc or ll, not '" + Value.str() + "'");
        Emit = *Kind;
      } else if (Name == "quiet") {
        Quiet = true;
      } else if (Name == "verbose") {
        Verbose = true;
      } else if (Name == "inputs-list") {
        InputsList = Value.str();
      } else if (Name == "log") {
        LogFile = Value.str();
      } else if (Name == "instrumented") {
        Instrumented = Value.str();
      } else if (Name == "functions") {
        Opts.InstrumentFunctions = true;
      } else if (Name == "function-filter") {
        Opts.InstrumentFunctions = true;
        Opts.FunctionFilter = Value.str();
      } else if (Name == "function-exclude") {
        Opts.InstrumentFunctions = true;
        Opts.FunctionExclude = Value.str();
      } else if (Name == "no-line-directives") {
        Opts.LineDirectives = false;
      } else if (Name == "thread-ids") {
        Opts.ThreadIds = true;
      } else if (Name == "no-skip-bodies") {
        Opts.SkipPlainBodies = false;
      } else if (Name == "level") {
        llvm::SmallVector<StringRef, 8> Settings;
        Value.split(Settings, ',', -1, /*KeepEmpty=*/false);
        for (StringRef Setting : Settings) {
          const auto [GroupText, LevelText] = Setting.split('=');
          const std::optional<int> Group = inst::groupFromName(GroupText);
          const std::optional<int> Level = inst::levelFromName(LevelText);
          if (!Group || !Level || !inst::levelValidForGroup(*Group, *Level))
            return Error("not a group=level setting: '" + Setting.str() + "'");
          Opts.Levels[*Group] = *Level;
        }
      } else {
        return Error("unknown argument '" + Arg + "'");
      }
    }
    // ompinst's cache of precompiled preambles, with ompinst's settings
    // (OMPINST_PREAMBLE, docs/INSTRUMENTER.md "The preamble cache").
    std::string SettingsError;
    if (!inst::readPreambleSettings(Preamble, SettingsError))
      return Error(SettingsError);
    Preamble.Verbose = Verbose;
    if (const std::optional<std::string> Overlap = llvm::sys::Process::GetEnv("OMPINST_OVERLAP")) {
      if (*Overlap != "0" && *Overlap != "1" && *Overlap != "always")
        return Error("OMPINST_OVERLAP='" + *Overlap +
                     "' is not a valid setting: 0 (instrument, then compile), 1 (at once while a "
                     "CPU is idle) or always");
      Overlapping = *Overlap != "0";
      OverlapAlways = *Overlap == "always";
    }
    if (const std::optional<std::string> Way = llvm::sys::Process::GetEnv("OMPINST_PRECOMPILE")) {
      if (*Way == "first")
        PrecompileWay = Precompile::First;
      else if (*Way == "beside")
        PrecompileWay = Precompile::Beside;
      else if (*Way != "auto")
        return Error("OMPINST_PRECOMPILE='" + *Way +
                     "' is not a valid setting: auto (by the first compile's times), first "
                     "(before the compile) or beside (beside the compile's rest)");
    }
    if (Opts.HeaderDirectory.empty() && !Output.empty()) {
      llvm::SmallString<256> Directory(Output);
      llvm::sys::path::replace_extension(Directory, ".pomp-headers");
      llvm::sys::fs::make_absolute(Directory);
      Opts.HeaderDirectory = std::string(Directory);
    }
    return true;
  }

  ActionType getActionType() override { return ReplaceAction; }

  /// The outer instance only sets up the input: the parse and the compile
  /// run in instances of their own, with the options as the compile got
  /// them. The outer one must not write the dependency file (an empty one,
  /// after the compile's, since it lexes nothing).
  bool usesPreprocessorOnly() const override { return true; }

  bool BeginInvocation(CompilerInstance &CI) override {
    Original = std::make_shared<CompilerInvocation>(CI.getInvocation());
    CI.getDependencyOutputOpts() = DependencyOutputOptions();
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &, StringRef) override {
    return std::make_unique<ASTConsumer>();
  }

  void ExecuteAction() override {
    CompilerInstance &CI = getCompilerInstance();
    const FrontendInputFile &Input = getCurrentInput();
    if (!Input.isFile()) {
      fail(CI, "pomp plugin: the input must be a file");
      return;
    }
    const std::string Source = Input.getFile().str();
    // Whatever precompiles beside the compile is waited for when it ends.
    auto FinishLater = llvm::make_scope_exit([this] {
      if (Later)
        waitFor(*Later);
      Later.reset();
    });
    std::string Text;
    // The compile's preamble, when it was prepared beside the instrumentation.
    std::unique_ptr<inst::CompilePreamble> Pch;
    if (!Instrumented.empty()) {
      // ompcc's cache had the instrumented text (and restored the header
      // copies it includes): the compile only.
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Cached =
          llvm::MemoryBuffer::getFile(Instrumented, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
      if (!Cached) {
        fail(CI, "pomp plugin: cannot read '" + Instrumented + "': " + Cached.getError().message());
        return;
      }
      Text = (*Cached)->getBuffer().str();
    } else {
      switch (overlapped(CI, Source, Text, Pch)) {
      case plugin::OverlapOutcome::Compiled:
      case plugin::OverlapOutcome::InstrumentationFailed:
        return;
      case plugin::OverlapOutcome::CompileText:
        break;
      case plugin::OverlapOutcome::Restart:
        if (!instrumentAndWrite(CI, Source, Text))
          return;
        break;
      }
    }
    // The instrumented text is compiled under the source's own name: its
    // #line directives, the dependency file and the debug information name
    // the user's file, and `#include "x.h"` searches the user's directory.
    std::shared_ptr<CompilerInvocation> Compile = nestedInvocation(*Original, Emit);
    predefinePompVersion(CI.getDiagnostics(), *Compile);
    if (!Instrumented.empty() && compiledBesidePrecompile(CI, Source, Compile, Text))
      return;
    // Its preamble precompiled, from ompinst's cache (inst::CompilePreamble),
    // at most the source's own #include block (preambleLimit).
    if (!Pch)
      Pch = inst::CompilePreamble::prepare(Preamble, *Compile, Text,
                                           preambleLimit(CI, Source, Text), Opts.HeaderDirectory,
                                           pluginFile(), CI.getPCHContainerOperations());
    if (Pch) {
      auto WithPch = std::make_shared<CompilerInvocation>(*Compile);
      llvm::IntrusiveRefCntPtr<FileManager> Files(
          new FileManager(CI.getFileSystemOpts(),
                          Pch->apply(*WithPch, CI.getFileManager().getVirtualFileSystemPtr())));
      bool LoadFailed = false;
      compile(CI, WithPch, Source, Pch->textToCompile(Text), *Files,
              [&LoadFailed, &Pch](CompilerInstance &Nested) {
                inst::PreambleLoadErrors::install(Nested.getDiagnostics(),
                                                  [&LoadFailed] { LoadFailed = true; });
                Pch->attach(Nested);
              });
      if (!LoadFailed)
        return;
      Pch->failed();
    }
    compile(CI, Compile, Source, Text, CI.getFileManager());
  }

private:
  /// Compiles Text under Source's name with Compile's options.
  static void compile(CompilerInstance &CI, std::shared_ptr<CompilerInvocation> Compile,
                      const std::string &Source, const std::string &Text, FileManager &Files,
                      const std::function<void(CompilerInstance &)> &Setup = nullptr) {
    Compile->getPreprocessorOpts().addRemappedFile(
        Source, llvm::MemoryBuffer::getMemBufferCopy(Text, Source).release());
    runCompile(CI, std::move(Compile), Source, Files, Setup);
  }

  /// Runs the compile Compile describes (its main file remapped already);
  /// WrapAction, when given, wraps the compile's action, and WrapClient the
  /// diagnostics client it shows through (plugin::OverlappedCompile).
  static void runCompile(CompilerInstance &CI, std::shared_ptr<CompilerInvocation> Compile,
                         const std::string &Source, FileManager &Files,
                         const std::function<void(CompilerInstance &)> &Setup = nullptr,
                         plugin::OverlappedCompile::ActionWrapper *WrapAction = nullptr,
                         plugin::OverlappedCompile::ClientWrapper *WrapClient = nullptr) {
    CompilerInstance Probe(CI.getPCHContainerOperations());
    std::unique_ptr<FrontendAction> Action;
    {
      // CreateFrontendAction reads the action from an instance's options.
      Probe.setInvocation(Compile);
      Action = CreateFrontendAction(Probe);
    }
    if (!Action) {
      fail(CI, "pomp plugin: no compile action");
      return;
    }
    // Without debug locations (no -g, no -R) every backend diagnostic names
    // its function's declaration, right already: nothing to relocate.
    if (Compile->getCodeGenOpts().getDebugInfo() == llvm::codegenoptions::NoDebugInfo) {
      if (WrapAction)
        Action = (*WrapAction)(std::move(Action));
      runNested(CI, Compile, *Action, Files, Setup,
                WrapClient ? &(*WrapClient)(CI.getDiagnosticClient()) : nullptr);
      return;
    }
    BackendLocationFix Shown(CI.getDiagnosticClient(), Source);
    std::unique_ptr<FrontendAction> WithLocations =
        std::make_unique<CompileAction>(std::move(Action), Shown);
    if (WrapAction)
      WithLocations = (*WrapAction)(std::move(WithLocations));
    runNested(CI, Compile, *WithLocations, Files, Setup,
              WrapClient ? &(*WrapClient)(Shown) : &Shown);
  }

  /// Where the compile's precompiled preamble ends at the latest in Text
  /// (CompilePreamble::prepare's Limit): after the source's last #include of
  /// its preamble, the part of every instrumented text of the source that
  /// is known before the instrumentation ends (plugin::sharedPrefixEnd), so
  /// that the PCH can be prepared beside it; 0 (no limit) when Text does not
  /// start so.
  std::size_t preambleLimit(CompilerInstance &CI, const std::string &Source, StringRef Text) const {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Own = CI.getFileManager().getBufferForFile(
        Source, /*isVolatile=*/false, /*RequiresNullTerminator=*/false);
    if (!Own)
      return 0;
    return plugin::sharedPrefixEnd(CI.getLangOpts(), (*Own)->getBuffer(),
                                   plugin::instrumentedName(Source), Text)
        .value_or(0);
  }

  /// Instruments and compiles Source at once when it can
  /// (plugin::OverlappedCompile): Restart when it did not try. Text is the
  /// instrumented text once known; Pch, with CompileText, the compile's
  /// precompiled preamble when it was prepared beside the instrumentation.
  plugin::OverlapOutcome overlapped(CompilerInstance &CI, const std::string &Source,
                                    std::string &Text,
                                    std::unique_ptr<inst::CompilePreamble> &Pch) {
    plugin::OverlappedCompile Overlap(CI, Source, Verbose, OverlapAlways);
    if (!Overlapping) {
      Overlap.say("off (OMPINST_OVERLAP=0)");
      return plugin::OverlapOutcome::Restart;
    }
    if (!Opts.LineDirectives) {
      Overlap.say("not overlapped: no #line directives");
      return plugin::OverlapOutcome::Restart;
    }
    std::shared_ptr<CompilerInvocation> Compile = nestedInvocation(*Original, Emit);
    if (const std::string Why = Overlap.whyNot(*Compile); !Why.empty()) {
      Overlap.say("not overlapped: " + Why);
      return plugin::OverlapOutcome::Restart;
    }
    // A compile's preamble stored precompiled is loaded: that beats parsing
    // its headers, and the PCH holds at most the source's own #include
    // block, so it is loaded here while the instrumentation runs beside.
    // Otherwise the compile parses its headers itself, overlapped. A pending
    // entry (a preamble seen before) is precompiled either first, on the
    // critical path (the compile's before the compile, the parse's before
    // the instrumentation: LULESH's second build took 1.53 × plain), or
    // beside the compile's rest, after the instrumentation, on its thread
    // (plugin::BackgroundPrecompile), one entry per compile: the compile's
    // at the second sight, the parse's at the third (precompilesBeside).
    inst::PreambleSettings Parse = Preamble;
    inst::EntryState CompileState = inst::EntryState::Missing;
    bool CompileBeside = false;
    const std::string Prefix = Overlap.sharedPrefix();
    if (Preamble.Enabled && Preamble.Compile) {
      std::optional<inst::OverlapTimes> CompileFirst;
      std::optional<inst::OverlapTimes> ParseFirst;
      CompileState =
          inst::CompilePreamble::entryState(Preamble, *Compile, Prefix + ";", Prefix.size(),
                                            Opts.HeaderDirectory, pluginFile(), &CompileFirst);
      const inst::EntryState ParseState = inst::parseEntryState(
          Preamble, *parseInvocation(Source, {}), *CI.getFileManager().getVirtualFileSystemPtr(),
          pluginFile(), &ParseFirst);
      if (CompileState == inst::EntryState::Stored)
        return preparedBeside(CI, Source, *Compile, Overlap, Text, Pch,
                              ParseState == inst::EntryState::Pending &&
                                  precompilesBeside(Overlap, "the parse's", ParseFirst));
      if (CompileState == inst::EntryState::Pending) {
        CompileBeside = precompilesBeside(Overlap, "the compile's", CompileFirst);
        if (!CompileBeside)
          return preparedBeside(CI, Source, *Compile, Overlap, Text, Pch, false);
      }
      // A parse entry seen before is precompiled by a later compile.
      Parse.PrecompilePending = ParseState == inst::EntryState::Missing;
    }
    plugin::BackgroundPrecompile Later;
    const plugin::OverlapOutcome Outcome = Overlap.run(
        *Compile, [this, &CI, &Source, &Parse]() { return instrumentBeside(CI, Source, Parse); },
        [&CI, &Source](std::shared_ptr<CompilerInvocation> Invocation, llvm::MemoryBuffer &Main,
                       plugin::OverlappedCompile::ActionWrapper WrapAction,
                       plugin::OverlappedCompile::ClientWrapper WrapClient) {
          PreprocessorOptions &PP = Invocation->getPreprocessorOpts();
          PP.addRemappedFile(Source, &Main);
          PP.RetainRemappedFileBuffers = true;
          // A file manager of its own: the source's entry has the spliced
          // buffer's size, not the instrumented text's.
          llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(
              CI.getFileSystemOpts(), CI.getFileManager().getVirtualFileSystemPtr()));
          runCompile(CI, std::move(Invocation), Source, *Files, nullptr, &WrapAction, &WrapClient);
        },
        [&](StringRef) {
          // The prefix with a token after it, as in every instrumented text.
          if (CompileBeside)
            Later.start(compilePrecompile(CI, *Compile, Prefix + ";", Prefix.size()));
        },
        Text);
    waitFor(Later);
    // As the compile after the instrumentation notes it, with the times
    // that choose where later compiles precompile (both entries').
    if (Outcome == plugin::OverlapOutcome::Compiled && Preamble.Enabled) {
      inst::CompilePreamble::notePending(Preamble, *Compile, Text, preambleLimit(CI, Source, Text),
                                         Opts.HeaderDirectory, pluginFile(), Overlap.times());
      if (Overlap.times())
        inst::noteParseTimes(Preamble, *parseInvocation(Source, {}),
                             *CI.getFileManager().getVirtualFileSystemPtr(), pluginFile(),
                             *Overlap.times());
    }
    return Outcome;
  }

  /// The compile of ompcc's cached text at the second sight of its preamble
  /// (a build after `make clean`): compiled in full while a second thread
  /// precompiles the preamble, when a CPU is idle and OMPINST_PRECOMPILE is
  /// not first. True when it compiled.
  bool compiledBesidePrecompile(CompilerInstance &CI, const std::string &Source,
                                std::shared_ptr<CompilerInvocation> Compile,
                                const std::string &Text) {
    if (!Preamble.Enabled || !Preamble.Compile || !Overlapping ||
        PrecompileWay == Precompile::First)
      return false;
    const std::size_t Limit = preambleLimit(CI, Source, Text);
    // The full compile (S + R) beside the precompile (some 1.4 S) ends no
    // later than the precompile followed by the rest (1.4 S + R): no times
    // needed.
    if (inst::CompilePreamble::entryState(Preamble, *Compile, Text, Limit, Opts.HeaderDirectory,
                                          pluginFile()) != inst::EntryState::Pending)
      return false;
    std::string Busy;
    if (!OverlapAlways && !plugin::BackgroundInstrumentation::canOverlap(Busy))
      return false;
    plugin::OverlappedCompile(CI, Source, Verbose, OverlapAlways)
        .say("the cached text compiled in full while its preamble is precompiled beside");
    plugin::BackgroundPrecompile Later;
    Later.start(compilePrecompile(CI, *Compile, Text, Limit));
    compile(CI, Compile, Source, Text, CI.getFileManager());
    waitFor(Later);
    return true;
  }

  /// The work that precompiles the compile's preamble of Text (at most its
  /// first Limit bytes) on the thread beside the compile: with copies of what
  /// the compile changes meanwhile.
  plugin::BackgroundPrecompile::Work compilePrecompile(CompilerInstance &CI,
                                                       const CompilerInvocation &Compile,
                                                       StringRef Text, std::size_t Limit) {
    return [this, Own = std::make_shared<CompilerInvocation>(Compile), Copy = Text.str(), Limit,
            Ops = CI.getPCHContainerOperations()](llvm::raw_ostream &Messages) {
      inst::PreambleSettings Settings = Preamble;
      Settings.Messages = &Messages;
      inst::CompilePreamble::prepare(Settings, *Own, Copy, Limit, Opts.HeaderDirectory,
                                     pluginFile(), Ops);
    };
  }

  /// Waits for what Later precompiles and says what it did (--verbose).
  void waitFor(plugin::BackgroundPrecompile &Later) const {
    const std::string Said = Later.finish();
    if (Verbose)
      llvm::errs() << Said;
  }

  /// Whether a pending entry (What: "the compile's", "the parse's") is
  /// precompiled beside the compile's rest or first: OMPINST_PRECOMPILE, or
  /// by the times of the first compile (besideWins); --verbose says which.
  bool precompilesBeside(const plugin::OverlappedCompile &Overlap, llvm::StringRef What,
                         const std::optional<inst::OverlapTimes> &First) const {
    const bool Beside =
        PrecompileWay == Precompile::Auto ? besideWins(First) : PrecompileWay == Precompile::Beside;
    const std::string Where =
        (What + " preamble is precompiled " + (Beside ? "beside the compile's rest" : "first"))
            .str();
    if (PrecompileWay != Precompile::Auto)
      Overlap.say("OMPINST_PRECOMPILE=" + std::string(Beside ? "beside" : "first") + ": " + Where);
    else if (First)
      Overlap.say("its first compile went on after " + llvm::Twine(First->SpliceMs) +
                  " ms and took " + llvm::Twine(First->RestMs) + " ms more: " + Where);
    else
      Overlap.say("its first compile did not overlap: " + Where);
    return Beside;
  }

  /// Whether a pending preamble is precompiled sooner beside a compile's
  /// rest than first, by the times of its first compile (S until it went on
  /// with the instrumented text, R after). A PCH takes about 1.5 S to build
  /// (LULESH: 0.63-0.7 s against an S of 0.43-0.46 s; 1.9 G instructions
  /// for the compile's, 1.4 G for the parse's, against the header parse's
  /// 1.4 G). Beside, the compile ends after S and the longer of R and 1.5 S;
  /// first, after 1.5 S (the compile's PCH, then the compile) or 1.7 S (the
  /// parse's, then the instrumentation with it, while the compile loads its
  /// PCH) and R: beside wins when R exceeds S.
  static bool besideWins(const std::optional<inst::OverlapTimes> &First) {
    return First && First->RestMs >= First->SpliceMs;
  }

  /// The work that precompiles the parse's preamble of Source on the thread
  /// beside the compile, when it is pending (or stale).
  plugin::BackgroundPrecompile::Work parsePrecompile(CompilerInstance &CI,
                                                     const std::string &Source) {
    return [this, Parse = parseInvocation(Source, {}),
            Files = CI.getFileManager().getVirtualFileSystemPtr(),
            Ops = CI.getPCHContainerOperations()](llvm::raw_ostream &Messages) {
      inst::PreambleSettings Settings = Preamble;
      Settings.Messages = &Messages;
      inst::precompileParseEntry(Settings, *Parse, *Files, pluginFile(), Ops);
    };
  }

  /// A later sight of the preamble: the instrumentation runs on a second
  /// thread while this one prepares the compile's precompiled preamble (from
  /// the cache, or precompiled now at the second sight) from the part of the
  /// instrumented text that the source has too (OverlappedCompile::
  /// sharedPrefix); the messages come out in the order of a compile after the
  /// instrumentation. CompileText with Text (and Pch, when the text starts
  /// with that part), or InstrumentationFailed.
  /// With ParseBeside the instrumentation parses in full and the parse's
  /// preamble is precompiled after it, beside the compile (Later).
  plugin::OverlapOutcome preparedBeside(CompilerInstance &CI, const std::string &Source,
                                        const CompilerInvocation &Compile,
                                        plugin::OverlappedCompile &Overlap, std::string &Text,
                                        std::unique_ptr<inst::CompilePreamble> &Pch,
                                        bool ParseBeside) {
    const std::string Prefix = Overlap.sharedPrefix();
    inst::PreambleSettings Parse = Preamble;
    Parse.PrecompilePending = !ParseBeside;
    plugin::BackgroundInstrumentation Background;
    Background.start([this, &CI, &Source, &Parse] { return instrumentBeside(CI, Source, Parse); });
    std::string Messages;
    llvm::raw_string_ostream PreambleMessages(Messages);
    PreambleBeside = Preamble;
    PreambleBeside.Messages = &PreambleMessages;
    // The prefix with a token after it, as in every instrumented text.
    std::unique_ptr<inst::CompilePreamble> Prepared = inst::CompilePreamble::prepare(
        PreambleBeside, Compile, Prefix + ";", Prefix.size(), Opts.HeaderDirectory, pluginFile(),
        CI.getPCHContainerOperations());
    plugin::BackgroundResult Got = Background.wait();
    PreambleBeside.Messages = nullptr;
    llvm::errs() << Got.Messages;
    plugin::addCounts(CI.getDiagnosticClient(), Got.Warnings, Got.Errors);
    if (!Got.Succeeded)
      return plugin::OverlapOutcome::InstrumentationFailed;
    llvm::errs() << Messages;
    Text = std::move(Got.Text);
    if (ParseBeside) {
      // Until the compile ends (ExecuteAction).
      Later = std::make_unique<plugin::BackgroundPrecompile>();
      Later->start(parsePrecompile(CI, Source));
    }
    if (Prepared && StringRef(Text).starts_with(Prefix)) {
      Overlap.say("the compile's preamble was prepared while the file was instrumented");
      Pch = std::move(Prepared);
    }
    return plugin::OverlapOutcome::CompileText;
  }

  /// The instrumentation on the thread beside an overlapped compile: as
  /// instrumentAndWrite(), printing into its result with a printer of its
  /// own (the compile's options: colours, carets), which counts what it
  /// shows.
  plugin::BackgroundResult instrumentBeside(CompilerInstance &CI, const std::string &Source,
                                            const inst::PreambleSettings &Settings) {
    plugin::BackgroundResult Out;
    llvm::raw_string_ostream Messages(Out.Messages);
    Messages.enable_colors(llvm::errs().colors_enabled());
    // Copies: the compile's options are counted references the other
    // thread may take too.
    llvm::IntrusiveRefCntPtr<DiagnosticOptions> Options(
        new DiagnosticOptions(CI.getDiagnosticOpts()));
    TextDiagnosticPrinter Printer(Messages, Options.get());
    Printer.BeginSourceFile(CI.getLangOpts(), nullptr);
    DiagnosticsEngine Errors(new DiagnosticIDs(), Options, &Printer, /*ShouldOwnClient=*/false);
    Reports To{Printer, Errors, Messages};
    inst::PreambleSettings Cache = Settings;
    Cache.Messages = &Messages;
    Out.Succeeded = instrumentAndWrite(CI, Source, Out.Text, To, Cache);
    Printer.EndSourceFile();
    Out.Warnings = Printer.getNumWarnings();
    Out.Errors = Printer.getNumErrors();
    return Out;
  }

  /// Where the instrumentation reports: the compile's printer, its engine
  /// for the plugin's own errors and stderr; or, on the thread beside an
  /// overlapped compile, a printer, an engine and a text of its own
  /// (nothing the compile uses meanwhile).
  struct Reports {
    DiagnosticConsumer &Shown;
    DiagnosticsEngine &Errors;
    llvm::raw_ostream &Messages;
  };

  /// Instruments Source and writes what ompinst-clang would write, and the
  /// inputs list and the log when asked; Text is the instrumented text.
  /// False after the errors were reported.
  bool instrumentAndWrite(CompilerInstance &CI, const std::string &Source, std::string &Text) {
    Reports To{CI.getDiagnosticClient(), CI.getDiagnostics(), llvm::errs()};
    return instrumentAndWrite(CI, Source, Text, To, Preamble);
  }

  bool instrumentAndWrite(CompilerInstance &CI, const std::string &Source, std::string &Text,
                          Reports &To, const inst::PreambleSettings &Cache) {
    llvm::IntrusiveRefCntPtr<inst::RecordingFileSystem> Recording;
    if (!InputsList.empty())
      Recording = new inst::RecordingFileSystem(CI.getFileManager().getVirtualFileSystemPtr());
    LoggingConsumer Log(To.Shown, CI.getDiagnosticOpts());
    const std::optional<inst::FileResult> Result =
        instrument(CI, Source, Recording, Log, To, Cache);
    if (!Result)
      return false;
    // The headers first: the output includes them.
    if (!writeHeaders(Opts.HeaderDirectory, Result->Headers, To.Messages) ||
        (!Output.empty() && !writeAtomically(Output, Result->Output, To.Messages))) {
      fail(To.Errors, "pomp plugin: " + Source + ": the instrumented files cannot be written");
      return false;
    }
    if (const std::string Summary = inst::leftAloneSummary(Source, *Result);
        !Quiet && !Summary.empty()) {
      To.Messages << Summary;
      Log.text() += Summary;
    }
    // For ompcc's cache: only a complete list keys an entry, and the log
    // is shown again on its hits. Neither is needed for the compile.
    if (!LogFile.empty())
      writeAtomically(LogFile, Log.text(), To.Messages);
    if (Recording) {
      std::string List;
      llvm::raw_string_ostream OS(List);
      if (Recording->write(OS))
        writeAtomically(InputsList, List, To.Messages);
    }
    Text = Result->Output;
    return true;
  }

  /// The options of ompinst-clang's parse of Source (instrumenter/lib/
  /// ResourceDir.cpp, parseArguments), with Rewritten's texts in place of
  /// their files: -w, no warnings about the user's code, which the compile
  /// gives, and _POMP defined. The instrumentation's action ignores the
  /// warnings that are errors by default too (ParseWarnings.h), more
  /// cheaply than -Wno-everything.
  std::shared_ptr<CompilerInvocation>
  parseInvocation(const std::string &Source,
                  const std::map<std::string, std::string> &Rewritten) const {
    std::shared_ptr<CompilerInvocation> Parse =
        nestedInvocation(*Original, frontend::ParseSyntaxOnly);
    Parse->getDiagnosticOpts().IgnoreWarnings = true;
    Parse->getPreprocessorOpts().addMacroDef("_POMP=" + std::to_string(POMP_API_VERSION));
    Parse->getDependencyOutputOpts() = DependencyOutputOptions();
    FrontendOptions &Frontend = Parse->getFrontendOpts();
    Frontend.OutputFile.clear();
    // ompinst-clang parses the file under its absolute name, which its
    // #line directives and CTC strings then carry.
    llvm::SmallString<256> Absolute(Source);
    llvm::sys::fs::make_absolute(Absolute);
    Frontend.Inputs = {FrontendInputFile(Absolute, Frontend.Inputs.front().getKind(),
                                         Frontend.Inputs.front().isSystem())};
    // The parse's AST is freed before the compile builds its own.
    Frontend.DisableFree = false;
    for (const auto &[Name, Text] : Rewritten)
      Parse->getPreprocessorOpts().addRemappedFile(
          Name, llvm::MemoryBuffer::getMemBufferCopy(Text, Name).release());
    return Parse;
  }

  /// Parses Source as ompinst-clang does and instruments it, reading the
  /// disk through Recording (when not null), with the preamble cache's
  /// settings Cache, reporting to Log and To; nullopt after the errors were
  /// reported.
  std::optional<inst::FileResult>
  instrument(CompilerInstance &CI, const std::string &Source,
             llvm::IntrusiveRefCntPtr<inst::RecordingFileSystem> Recording, LoggingConsumer &Log,
             Reports &To, const inst::PreambleSettings &Cache) {
    inst::Options PassOpts = Opts;
    // The parse's own file manager, over the recording: what it read is
    // what the cache checks.
    llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FileSystem(
        new llvm::vfs::OverlayFileSystem(
            Recording ? llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(Recording)
                      : CI.getFileManager().getVirtualFileSystemPtr()));
    std::map<std::string, std::string> Rewritten;
    // The files that stand in for pasted headers (FileResult::StandIns).
    std::vector<inst::HeaderCopy> StandIns;
    while (true) {
      std::shared_ptr<CompilerInvocation> Parse = parseInvocation(Source, Rewritten);
      inst::ResultSink Sink;
      // The first parse of the file as it is on the disk may load its
      // preamble precompiled, as ompinst-clang's does; the rare parse of
      // rewritten texts parses in full.
      std::unique_ptr<tooling::FrontendActionFactory> Factory;
      if (Cache.Enabled && PassOpts.RewriteDirectiveForms)
        Factory = std::make_unique<inst::PreambleActionFactory>(Cache, PassOpts, Sink, FileSystem,
                                                                Recording, pluginFile());
      else
        Factory = inst::newInstrumentActionFactory(PassOpts, Sink);
      llvm::IntrusiveRefCntPtr<FileManager> Files(
          new FileManager(CI.getFileSystemOpts(), FileSystem));
      const bool Parsed =
          Factory->runInvocation(Parse, Files.get(), CI.getPCHContainerOperations(), &Log);
      // The parse ended the printer's source file; the outer instance's
      // diagnostics need it back (a printer of the instrumentation's own
      // has no preprocessor to show).
      To.Shown.BeginSourceFile(CI.getLangOpts(), &To.Shown == &CI.getDiagnosticClient()
                                                     ? &CI.getPreprocessor()
                                                     : nullptr);
      if (!Parsed || Sink.results().size() != 1) {
        if (Parsed)
          fail(To.Errors, "ompinst: " + Source + ": not instrumented: the parse gave " +
                              std::to_string(Sink.results().size()) + " results");
        else
          To.Messages << "ompinst: error: " << Source
                      << ": not instrumented (see the errors above)\n";
        return std::nullopt;
      }
      inst::FileResult Result = Sink.results().begin()->second;
      if (Result.Rewritten.empty()) {
        Result.Headers.insert(Result.Headers.end(), StandIns.begin(), StandIns.end());
        return Result;
      }
      StandIns.insert(StandIns.end(), Result.StandIns.begin(), Result.StandIns.end());
      // Directives that are not #pragma lines were rewritten into such lines:
      // the rewritten texts are parsed and instrumented (ompinst-clang's
      // second parse).
      for (auto &[Name, Text] : Result.Rewritten)
        Rewritten[Name] = std::move(Text);
      inst::nextRewritingParse(PassOpts);
    }
  }

  /// This module's file: its size and time go into the preamble cache's
  /// keys, as ompinst-clang's do (a rebuilt one may instrument differently).
  static std::string pluginFile() {
    Dl_info Info;
    if (dladdr(reinterpret_cast<void *>(&writeAtomically), &Info) == 0 || !Info.dli_fname)
      return "";
    return Info.dli_fname;
  }

  /// Reports an error of the plugin itself, which fails the compile.
  static void fail(CompilerInstance &CI, const std::string &Message) {
    fail(CI.getDiagnostics(), Message);
  }
  static void fail(DiagnosticsEngine &Diags, const std::string &Message) {
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
  }

  inst::Options Opts;
  /// ompcc's cache: where the inputs list and the log go, and a cached
  /// instrumented text to compile instead of instrumenting.
  std::string InputsList;
  std::string LogFile;
  std::string Instrumented;
  inst::PreambleSettings Preamble;
  /// The compile's options, before the outer instance starts.
  std::shared_ptr<CompilerInvocation> Original;
  std::string Output;
  frontend::ActionKind Emit = frontend::EmitObj;
  bool Quiet = false;
  /// ompinst's --verbose: say what the cache of precompiled preambles and
  /// the overlapped compile did.
  bool Verbose = false;
  /// The settings of a compile's preamble prepared beside the
  /// instrumentation (preparedBeside), which must outlive it.
  inst::PreambleSettings PreambleBeside;
  /// The compile starts while the instrumentation runs (OMPINST_OVERLAP),
  /// also when no CPU is idle (always).
  bool Overlapping = true;
  bool OverlapAlways = false;
  /// Precompiles beside the compile that ExecuteAction runs after
  /// preparedBeside(); finished when the compile has ended.
  std::unique_ptr<plugin::BackgroundPrecompile> Later;
  /// Where the second sight of a preamble precompiles it, when the compile
  /// overlaps its instrumentation (OMPINST_PRECOMPILE).
  enum class Precompile { Auto, First, Beside };
  Precompile PrecompileWay = Precompile::Auto;
};

} // namespace

static FrontendPluginRegistry::Add<PompPluginAction>
    Registration("pomp", "instrument OpenMP constructs with POMP calls, then compile");
