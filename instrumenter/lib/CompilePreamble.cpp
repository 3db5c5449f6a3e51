//===- CompilePreamble.cpp - The compile's precompiled preamble ------------===//
#include "pomp/instrumenter/CompilePreamble.h"

#include "pomp/instrumenter/Preamble.h"

#include "PreambleEntry.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace pomp::inst {

using namespace llvm;
using namespace clang;

namespace {

/// Counts the diagnostics of the preamble's parse that a loaded PCH would
/// not give again (warnings and errors; notes belong to them).
class DiagnosticCounter : public DiagnosticConsumer {
public:
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    if (Level < DiagnosticsEngine::Warning || Given++ > 0)
      return;
    // The first one, for --verbose.
    SmallString<128> Message;
    Info.FormatDiagnostic(Message);
    First = Message.str().str();
    if (Info.hasSourceManager() && Info.getLocation().isValid()) {
      const PresumedLoc Where = Info.getSourceManager().getPresumedLoc(Info.getLocation());
      if (Where.isValid())
        First = sys::path::filename(Where.getFilename()).str() + ":" +
                std::to_string(Where.getLine()) + ": " + First;
    }
  }
  unsigned Given = 0;
  std::string First;
};

/// Watches the preamble's parse for the macros whose value is the time of
/// the parse: a PCH would keep the first compile's.
class ClockMacros : public PPCallbacks {
public:
  explicit ClockMacros(std::shared_ptr<std::string> Found) : Found(std::move(Found)) {}

  void MacroExpands(const Token &Name, const MacroDefinition &MD, SourceRange,
                    const MacroArgs *) override {
    const MacroInfo *Info = MD.getMacroInfo();
    if (!Found->empty() || !Info || !Info->isBuiltinMacro() || !Name.getIdentifierInfo())
      return;
    const StringRef Text = Name.getIdentifierInfo()->getName();
    if (Text == "__DATE__" || Text == "__TIME__" || Text == "__TIMESTAMP__")
      *Found = Text.str();
  }

private:
  std::shared_ptr<std::string> Found;
};

/// Records the headers of the preamble's parse whose names its PCH gives
/// otherwise: ASTWriter makes each name absolute and takes `.` components
/// and repeated separators out (`./x.h` becomes `/work/x.h`, `..//inc/x.h`
/// `/work/src/../inc/x.h`), and a compile that loads the PCH would name such
/// a header so in its debug information, in `__builtin_FILE()` and in a
/// sanitizer's reports. A header keeps the name it was first reached by, in
/// the PCH as in a compile without it. Names gets two lines per header (the
/// PCH's name, the parse's), which RespelledNames (below) turns back.
class HeaderNames : public PPCallbacks {
public:
  HeaderNames(FileManager &Files, std::shared_ptr<std::string> Names)
      : Files(Files), Names(std::move(Names)) {}

  void InclusionDirective(SourceLocation, const Token &, StringRef, bool, CharSourceRange,
                          OptionalFileEntryRef File, StringRef, StringRef, const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (!File)
      return;
    // As ASTWriter::PreparePathForOutput (cleanPathForOutput) spells it.
    SmallString<256> InPch(File->getName());
    Files.makeAbsolutePath(InPch);
    sys::path::remove_dots(InPch);
    if (!Seen.insert(InPch).second || InPch == File->getName())
      return;
    *Names += InPch.str().str() + "\n" + File->getName().str() + "\n";
  }

private:
  FileManager &Files;
  std::shared_ptr<std::string> Names;
  llvm::StringSet<> Seen;
};

/// Calls Each(the PCH's name, the parse's) for the pairs HeaderNames wrote
/// into Names.
void forEachRespelled(StringRef Names, function_ref<void(StringRef, StringRef)> Each) {
  while (!Names.empty()) {
    auto [InPch, Rest] = Names.split('\n');
    auto [Parsed, After] = Rest.split('\n');
    Names = After;
    Each(InPch, Parsed);
  }
}

/// The compile's file system with the PCH: the PCH's names of the headers
/// HeaderNames recorded come back as the preamble's parse spelled them, as a
/// VFS overlay's `use-external-name` does: FileManager then names the header
/// so wherever a compile without the PCH does.
class RespelledNames : public vfs::ProxyFileSystem {
public:
  RespelledNames(IntrusiveRefCntPtr<vfs::FileSystem> Base, StringRef Names)
      : ProxyFileSystem(std::move(Base)) {
    forEachRespelled(Names,
                     [this](StringRef InPch, StringRef Parsed) { Spelling[InPch] = Parsed.str(); });
  }

  ErrorOr<vfs::Status> status(const Twine &Path) override {
    return respelled(Path, ProxyFileSystem::status(Path));
  }
  ErrorOr<std::unique_ptr<vfs::File>> openFileForRead(const Twine &Path) override {
    ErrorOr<std::unique_ptr<vfs::File>> File = ProxyFileSystem::openFileForRead(Path);
    if (!File)
      return File;
    const auto Found = Spelling.find(Path.str());
    if (Found == Spelling.end())
      return File;
    return std::unique_ptr<vfs::File>(new NamedFile(std::move(*File), Found->second));
  }

private:
  /// An open file whose status carries another name.
  class NamedFile : public vfs::File {
  public:
    NamedFile(std::unique_ptr<vfs::File> Inner, std::string Name)
        : Inner(std::move(Inner)), Name(std::move(Name)) {}
    ErrorOr<vfs::Status> status() override { return renamed(Inner->status(), Name); }
    ErrorOr<std::string> getName() override { return Name; }
    ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &BufferName, int64_t FileSize,
                                                     bool RequiresNullTerminator,
                                                     bool IsVolatile) override {
      return Inner->getBuffer(BufferName, FileSize, RequiresNullTerminator, IsVolatile);
    }
    std::error_code close() override { return Inner->close(); }

  private:
    std::unique_ptr<vfs::File> Inner;
    std::string Name;
  };

  static ErrorOr<vfs::Status> renamed(ErrorOr<vfs::Status> Status, StringRef Name) {
    if (!Status)
      return Status;
    vfs::Status Named = vfs::Status::copyWithNewName(*Status, Name);
    Named.ExposesExternalVFSPath = true;
    return Named;
  }
  ErrorOr<vfs::Status> respelled(const Twine &Path, ErrorOr<vfs::Status> Status) const {
    const auto Found = Spelling.find(Path.str());
    return Found == Spelling.end() ? Status : renamed(std::move(Status), Found->second);
  }

  llvm::StringMap<std::string> Spelling;
};

/// Records the files a dependency file would name for the preamble, in
/// order, under the names its parse used (preamble::Entry::Deps).
class DependencyRecorder : public DependencyCollector {
public:
  bool needSystemDependencies() override { return true; }
  void maybeAddDependency(StringRef Filename, bool, bool IsSystem, bool, bool) override {
    if (Seen.insert(Filename).second)
      Deps += (IsSystem ? "S " : "U ") + Filename.str() + "\n";
  }
  std::string Deps;

private:
  llvm::StringSet<> Seen;
};

/// The preamble's parse keeps function bodies (the compile emits them),
/// notes a clock macro, records the dependencies and the headers the PCH
/// names otherwise.
class CompileWatcher : public PreambleCallbacks {
public:
  void BeforeExecute(CompilerInstance &CI) override {
    Dependencies->attachToPreprocessor(CI.getPreprocessor());
    Files = &CI.getFileManager();
  }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return std::make_unique<PPChainedCallbacks>(std::make_unique<ClockMacros>(ClockMacro),
                                                std::make_unique<HeaderNames>(*Files, Names));
  }
  std::shared_ptr<std::string> ClockMacro = std::make_shared<std::string>();
  std::shared_ptr<std::string> Names = std::make_shared<std::string>();
  std::shared_ptr<DependencyRecorder> Dependencies = std::make_shared<DependencyRecorder>();

private:
  FileManager *Files = nullptr;
};

/// Calls Each(name, is-system) for the files DependencyRecorder wrote into
/// Deps ("S <name>" or "U <name>" per line), in order, until it returns
/// false.
void forEachRecorded(StringRef Deps, function_ref<bool(StringRef, bool)> Each) {
  while (!Deps.empty()) {
    auto [Line, Rest] = Deps.split('\n');
    Deps = Rest;
    if (Line.size() > 2 && !Each(Line.drop_front(2), Line.front() == 'S'))
      return;
  }
}

/// The compile's dependency file with the PCH: the preamble's files first,
/// as its parse named them, then the rest of the compile's.
class PreambleDependencyFile : public DependencyFileGenerator {
public:
  PreambleDependencyFile(const DependencyOutputOptions &Opts, StringRef Recorded)
      : DependencyFileGenerator(Opts), Recorded(Recorded.str()) {}

  void attachToPreprocessor(Preprocessor &PP) override {
    forEachRecorded(Recorded, [this](StringRef Name, bool IsSystem) {
      maybeAddDependency(Name, /*FromModule=*/false, IsSystem, /*IsModuleFile=*/false,
                         /*IsMissing=*/false);
      return true;
    });
    DependencyFileGenerator::attachToPreprocessor(PP);
  }

  /// The PCH's files are named above; the PCH itself is not a dependency.
  void attachToASTReader(ASTReader &) override {}

private:
  std::string Recorded;
};

/// What the preamble cannot be used for when precompiled; empty when it can.
std::string whyNotUsable(const CompilerInvocation &Compile) {
  const PreprocessorOptions &PP = Compile.getPreprocessorOpts();
  const FrontendOptions &Frontend = Compile.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile())
    return "not one source file";
  if (!PP.Includes.empty() || !PP.MacroIncludes.empty())
    return "-include or -imacros";
  if (!PP.ImplicitPCHInclude.empty())
    return "a precompiled header of the command line";
  if (!PP.RemappedFiles.empty() || !PP.RemappedFileBuffers.empty())
    return "remapped files";
  if (Compile.getLangOpts().Modules)
    return "modules";
  // Debug information (also the line tables of -Rpass and friends) comes out
  // of a PCH as without it in C (the corpus, sessions 12 and 14) and in C++
  // with the headers' `using` declarations, which a PCH leaves out, given to
  // CodeGen again by the plugin's compile (UsingReplay, session 15); not what
  // a compile emits for every declaration or macro of a header as it is
  // parsed. The headers keep their names (HeaderNames).
  const CodeGenOptions &CodeGen = Compile.getCodeGenOpts();
  if (CodeGen.getDebugInfo() != llvm::codegenoptions::NoDebugInfo) {
    const LangOptions &Lang = Compile.getLangOpts();
    if (Lang.ObjC)
      return "debug information is asked for (-g) in Objective-C";
    if (CodeGen.MacroDebugInfo || CodeGen.EmbedSource || CodeGen.DebugTypeExtRefs ||
        CodeGen.getDebugInfo() == llvm::codegenoptions::UnusedTypeInfo)
      return "debug information of every macro, type or source of the headers is asked for "
             "(-fdebug-macro, -fno-eliminate-unused-debug-types, -gembed-source, -gmodules), which "
             "a "
             "PCH would leave out";
  }
  // -Wunused-macros reports the main file's unused macros at its end, also
  // those its preamble defines, which a PCH does not carry (the -W options as
  // given: a later -Wno- is not weighed, the full compile is only slower).
  for (const std::string &Warning : Compile.getDiagnosticOpts().Warnings) {
    const StringRef Name(Warning);
    if (Name == "everything" || (!Name.starts_with("no-") && Name.ends_with("unused-macros")))
      return "-Wunused-macros (the preamble's own macros are checked at the end)";
  }
  // Header lists other than a dependency file (-H, /showIncludes,
  // CC_PRINT_HEADERS, -dependency-dot) would miss the preamble's headers.
  const DependencyOutputOptions &Deps = Compile.getDependencyOutputOpts();
  if (Deps.ShowHeaderIncludes || !Deps.HeaderIncludeOutputFile.empty() ||
      !Deps.DOTOutputFile.empty() || !Deps.ModuleDependencyOutputDir.empty() ||
      Deps.ShowIncludesDest != ShowIncludesDestination::None)
    return "a list of the included headers is asked for";
  return "";
}

} // namespace

namespace {

/// The entry of the compile of Text with Compile's options.
struct CompileEntryName {
  std::string MainPath;
  PreambleBounds Bounds{0, false};
  std::string LineAfter;
  std::string WorkingDir;
  /// Compile's options for the PCH's build.
  std::unique_ptr<CompilerInvocation> Build;
  std::string Key;
  std::string Name;
  std::string Path;
};

/// The entry's name, or nullopt when the compile has none (Say says why).
/// The preamble ends at Limit at the latest (0: no limit).
std::optional<CompileEntryName> compileEntryName(const PreambleSettings &Settings,
                                                 const CompilerInvocation &Compile, StringRef Text,
                                                 std::size_t Limit, StringRef Avoid,
                                                 StringRef Executable,
                                                 function_ref<void(const Twine &)> Say) {
  if (!Settings.Enabled || !Settings.Compile)
    return std::nullopt;
  CompileEntryName Entry;
  Entry.MainPath = Compile.getFrontendOpts().Inputs.empty()
                       ? std::string()
                       : Compile.getFrontendOpts().Inputs[0].getFile().str();
  if (const std::string Why = whyNotUsable(Compile); !Why.empty()) {
    Say("not precompiled: " + Why);
    return std::nullopt;
  }
  // Within Limit, a line start: a copy (a lexer stops only at a null
  // character) that a token ends there, as the text that follows would.
  Entry.Bounds = Limit != 0 && Limit < Text.size()
                     ? compileBounds(Compile.getLangOpts(), Text.take_front(Limit).str() + ";",
                                     Entry.LineAfter)
                     : compileBounds(Compile.getLangOpts(), Text, Entry.LineAfter);
  if (Entry.Bounds.Size == 0) {
    Say("no preamble to precompile");
    return std::nullopt;
  }
  const StringRef Preamble = Text.take_front(Entry.Bounds.Size);
  if (!Avoid.empty() && Preamble.contains(Avoid)) {
    Say("not precompiled: it includes copies of headers, which each build writes anew");
    return std::nullopt;
  }
  ErrorOr<std::string> WorkingDir = vfs::getRealFileSystem()->getCurrentWorkingDirectory();
  if (!WorkingDir)
    return std::nullopt;
  Entry.WorkingDir = *WorkingDir;
  // The key leaves out where the outputs go: ompcc compiles to a new
  // temporary name every time.
  Entry.Build = std::make_unique<CompilerInvocation>(Compile);
  Entry.Build->getFrontendOpts().OutputFile.clear();
  Entry.Build->getFrontendOpts().ProgramAction = frontend::GeneratePCH;
  Entry.Build->getDependencyOutputOpts() = DependencyOutputOptions();
  Entry.Key = preamble::keyOf("compile", *Entry.Build, Entry.MainPath, Entry.WorkingDir,
                              Entry.Bounds, Preamble, Executable);
  Entry.Name = Entry.Key + preamble::EntrySuffix.str();
  SmallString<256> Path(Settings.Directory);
  sys::path::append(Path, Entry.Name);
  Entry.Path = std::string(Path);
  return Entry;
}

} // namespace

std::unique_ptr<CompilePreamble>
CompilePreamble::prepare(const PreambleSettings &Settings, const CompilerInvocation &Compile,
                         StringRef Text, std::size_t Limit, StringRef Avoid, StringRef Executable,
                         std::shared_ptr<PCHContainerOperations> Ops) {
  const std::string MainPath = Compile.getFrontendOpts().Inputs.empty()
                                   ? std::string()
                                   : Compile.getFrontendOpts().Inputs[0].getFile().str();
  auto Say = [&](const Twine &Message) {
    if (Settings.Verbose)
      (Settings.Messages ? *Settings.Messages : errs())
          << "ompinst: compile preamble: " << MainPath << ": " << Message << "\n";
  };
  std::optional<CompileEntryName> Entry =
      compileEntryName(Settings, Compile, Text, Limit, Avoid, Executable, Say);
  if (!Entry)
    return nullptr;
  const PreambleBounds Bounds = Entry->Bounds;
  std::string &LineAfter = Entry->LineAfter;
  CompilerInvocation &Build = *Entry->Build;
  const std::string &Key = Entry->Key;
  const std::string &Name = Entry->Name;
  const std::string &EntryPath = Entry->Path;
  const std::string &WorkingDir = Entry->WorkingDir;

  preamble::LookedUp Stored = preamble::lookUp(EntryPath);
  if (Stored.Found && !Stored.Found->Pending) {
    if (!Stored.Found->WhyNot.empty()) {
      Say("not precompiled: " + Stored.Found->WhyNot);
      return nullptr;
    }
    Say("precompiled preamble " + Name + " from the cache");
    const StringRef Pch = Stored.Found->Pch;
    std::string Deps = Stored.Found->Deps;
    std::string Names = Stored.Found->Names;
    return std::unique_ptr<CompilePreamble>(new CompilePreamble(
        Settings, MainPath, Key, std::string(EntryPath), Bounds, std::move(LineAfter),
        std::move(Stored.Bytes), Pch, std::move(Deps), std::move(Names)));
  }
  // Seen for the first time: only noted.
  if (!Stored.Found && Stored.Why.empty()) {
    const std::string Problem = preamble::notePending(Settings.Directory, Name);
    Say(Problem.empty()
            ? "first compile of this preamble: noted in " + Name + ", precompiled the next time"
            : Problem);
    return nullptr;
  }
  if (!Stored.Why.empty())
    Say("entry " + Name + " " + Stored.Why + ": built again");

  DiagnosticCounter Counter;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(&Build.getDiagnosticOpts(), &Counter, false);
  CompileWatcher Watcher;
  std::unique_ptr<MemoryBuffer> Main = MemoryBuffer::getMemBuffer(Text, MainPath);
  std::string Why;
  std::optional<preamble::Precompiled> Made =
      preamble::precompile(Build, *Main, Bounds, *Diags, WorkingDir, std::move(Ops), Watcher, Why);
  if (!Made) {
    if (!Why.empty())
      Say(Why);
    return nullptr;
  }
  preamble::Entry New;
  New.Inputs = std::move(Made->Inputs);
  New.Deps = std::move(Watcher.Dependencies->Deps);
  New.Names = std::move(*Watcher.Names);
  // (Clang warns of __DATE__ and __TIME__ in a PCH, not of __TIMESTAMP__.)
  if (!Watcher.ClockMacro->empty())
    New.WhyNot = "it expands " + *Watcher.ClockMacro;
  else if (Counter.Given > 0)
    New.WhyNot = "its headers give " + std::to_string(Counter.Given) +
                 " diagnostics, the first: " + Counter.First;
  else
    New.Pch = Made->Pch->getBuffer();
  std::string Problem;
  std::string Built = preamble::store(New, Settings.Directory, Name, Settings.MaxSize, Problem);
  if (!Problem.empty())
    Say(Problem);
  if (!New.WhyNot.empty()) {
    Say("not precompiled: " + New.WhyNot);
    return nullptr;
  }
  Say("precompiled the preamble (" + Twine(Bounds.Size) + " bytes) into " + Name);
  std::unique_ptr<MemoryBuffer> Bytes = MemoryBuffer::getMemBufferCopy(Built, EntryPath);
  std::optional<preamble::Entry> Kept = preamble::parseEntry(Bytes->getBuffer());
  if (!Kept)
    return nullptr;
  const StringRef Pch = Kept->Pch;
  return std::unique_ptr<CompilePreamble>(new CompilePreamble(
      Settings, MainPath, Key, std::string(EntryPath), Bounds, std::move(LineAfter),
      std::move(Bytes), Pch, std::move(Kept->Deps), std::move(Kept->Names)));
}

void CompilePreamble::notePending(const PreambleSettings &Settings,
                                  const CompilerInvocation &Compile, StringRef Text,
                                  std::size_t Limit, StringRef Avoid, StringRef Executable,
                                  const std::optional<OverlapTimes> &Times) {
  auto Say = [&](const Twine &Message) {
    if (Settings.Verbose && !Compile.getFrontendOpts().Inputs.empty())
      (Settings.Messages ? *Settings.Messages : errs())
          << "ompinst: compile preamble: " << Compile.getFrontendOpts().Inputs[0].getFile() << ": "
          << Message << "\n";
  };
  const std::optional<CompileEntryName> Entry =
      compileEntryName(Settings, Compile, Text, Limit, Avoid, Executable, Say);
  if (!Entry)
    return;
  const EntryState State = preamble::stateOf(Entry->Path);
  if (State == EntryState::Stored)
    return;
  const std::string Problem = preamble::notePending(Settings.Directory, Entry->Name, Times);
  if (!Problem.empty())
    Say(Problem);
  else if (State == EntryState::Missing)
    Say("first compile of this preamble: noted in " + Entry->Name + ", precompiled the next time");
}

EntryState CompilePreamble::entryState(const PreambleSettings &Settings,
                                       const CompilerInvocation &Compile, StringRef Text,
                                       std::size_t Limit, StringRef Avoid, StringRef Executable,
                                       std::optional<OverlapTimes> *Times) {
  const std::optional<CompileEntryName> Entry =
      compileEntryName(Settings, Compile, Text, Limit, Avoid, Executable, [](const Twine &) {});
  return Entry ? preamble::stateOf(Entry->Path, Times) : EntryState::Missing;
}

std::string CompilePreamble::textToCompile(StringRef Text) const {
  return (Text.take_front(Bounds.Size) + LineAfter + Text.drop_front(Bounds.Size)).str();
}

IntrusiveRefCntPtr<vfs::FileSystem>
CompilePreamble::apply(CompilerInvocation &Compile, IntrusiveRefCntPtr<vfs::FileSystem> Base) {
  IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
  preamble::usePch(Compile.getPreprocessorOpts(), *Memory, Key, Pch, Bounds);
  DependencyOutputOptions &Deps = Compile.getDependencyOutputOpts();
  if (!Deps.OutputFile.empty()) {
    DependencyFile = std::make_unique<DependencyOutputOptions>(Deps);
    Deps.OutputFile.clear();
  }
  const ErrorOr<std::string> WorkingDir = Base->getCurrentWorkingDirectory();
  IntrusiveRefCntPtr<vfs::OverlayFileSystem> Overlay(new vfs::OverlayFileSystem(std::move(Base)));
  Overlay->pushOverlay(Memory);
  if (WorkingDir)
    (void)Overlay->setCurrentWorkingDirectory(*WorkingDir);
  if (Names.empty())
    return Overlay;
  return IntrusiveRefCntPtr<vfs::FileSystem>(new RespelledNames(std::move(Overlay), Names));
}

void CompilePreamble::attach(CompilerInstance &Instance) const {
  // The parse's names are looked up before the PCH's, which then lead to
  // them: they keep the directory they were found in, where a header they
  // name again in the main file searches its own includes (HeaderSearch).
  forEachRespelled(Names, [&Instance](StringRef, StringRef Parsed) {
    (void)Instance.getFileManager().getOptionalFileRef(Parsed, /*OpenFile=*/false);
  });
  if (DependencyFile)
    Instance.addDependencyCollector(
        std::make_shared<PreambleDependencyFile>(*DependencyFile, Deps));
}

void CompilePreamble::failed() const {
  if (Settings.Verbose)
    (Settings.Messages ? *Settings.Messages : errs())
        << "ompinst: compile preamble: " << MainPath << ": the precompiled preamble "
        << sys::path::filename(EntryPath) << " cannot be loaded; compiled in full\n";
  sys::fs::remove(EntryPath);
}

} // namespace pomp::inst
