//===- OverlappedCompile.cpp - The instrumentation beside the compile ------===//
#include "OverlappedCompile.h"

#include "pomp/handle-init/HandleInit.h"
#include "pomp/instrumenter/DiagnosticFilter.h"
#include "pomp/instrumenter/Instrumenter.h"
#include "pomp/instrumenter/Preamble.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Stack.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/Utils.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <sched.h>
#include <vector>

namespace pomp::plugin {

using namespace clang;
using llvm::StringRef;

//===--- BackgroundInstrumentation ---------------------------------------===//

/// A UTF-8 byte-order mark, which ompinst's output keeps before its header.
constexpr StringRef ByteOrderMark = "\xEF\xBB\xBF";

namespace {

/// The tasks the kernel counts as running or ready to run right now, this
/// one among them; nullopt where /proc/loadavg cannot be read.
std::optional<int> runnableTasks() {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Load =
      llvm::MemoryBuffer::getFileAsStream("/proc/loadavg");
  if (!Load)
    return std::nullopt;
  // "0.52 0.58 0.59 2/467 12345": the fourth field is runnable/total.
  llvm::SmallVector<StringRef, 5> Fields;
  (*Load)->getBuffer().split(Fields, ' ', -1, /*KeepEmpty=*/false);
  int Runnable = 0;
  if (Fields.size() < 4 || Fields[3].split('/').first.getAsInteger(10, Runnable))
    return std::nullopt;
  return Runnable;
}

} // namespace

BackgroundInstrumentation::~BackgroundInstrumentation() {
  if (Thread && Thread->joinable())
    Thread->join();
}

bool BackgroundInstrumentation::canOverlap(std::string &Why) {
  cpu_set_t Allowed;
  CPU_ZERO(&Allowed);
  if (::sched_getaffinity(0, sizeof Allowed, &Allowed) != 0)
    return true;
  const int CPUs = CPU_COUNT(&Allowed);
  if (CPUs < 2) {
    Why = "one CPU to run on";
    return false;
  }
  // A second thread only helps on an idle CPU: a parallel build (make -j)
  // keeps every CPU busy, and there the thread's work only competes with
  // the other compiles (the sample project with make -j2: 1.44 against
  // 1.32). The kernel's count of the tasks that run or wait to, this one
  // among them (/proc/loadavg's fourth field).
  if (const std::optional<int> Runnable = runnableTasks(); Runnable && *Runnable >= CPUs) {
    Why = std::to_string(*Runnable) + " tasks are running on " + std::to_string(CPUs) + " CPUs";
    return false;
  }
  return true;
}

void BackgroundInstrumentation::start(llvm::unique_function<BackgroundResult()> Run) {
  Work = std::move(Run);
  // Clang's parser recurses deeply: the stack a compile gets, and Sema's
  // check of what is left of it measured from this thread's bottom.
  Thread = std::make_unique<llvm::thread>(std::optional<unsigned>(clang::DesiredStackSize), [this] {
    clang::noteBottomOfStack();
    Result = Work();
  });
}

BackgroundResult BackgroundInstrumentation::wait() {
  if (Thread && Thread->joinable())
    Thread->join();
  return Result ? std::move(*Result) : BackgroundResult();
}

//===--- BackgroundPrecompile --------------------------------------------===//

BackgroundPrecompile::~BackgroundPrecompile() { finish(); }

void BackgroundPrecompile::start(Work Run) {
  if (Thread)
    return;
  Precompile = std::move(Run);
  Thread = std::make_unique<llvm::thread>(std::optional<unsigned>(clang::DesiredStackSize), [this] {
    clang::noteBottomOfStack();
    llvm::raw_string_ostream Said(Messages);
    Precompile(Said);
  });
}

std::string BackgroundPrecompile::finish() {
  if (Thread && Thread->joinable())
    Thread->join();
  return std::move(Messages);
}

//===--- SplicedSource ---------------------------------------------------===//

namespace {

/// Room for the instrumented text's rest: it adds the prologue, the event
/// calls and the init function, some 1.6 times LULESH's 91 KB, 13 times a
/// file of 200 bytes. A rest that does not fit is compiled without the
/// overlap.
std::size_t capacityFor(std::size_t SourceSize) { return 4 * SourceSize + (256u << 10); }

} // namespace

SplicedSource::SplicedSource(StringRef Source, StringRef Name)
    : Capacity(capacityFor(Source.size())) {
  Bytes = std::make_unique<char[]>(Capacity + 1);
  std::memcpy(Bytes.get(), Source.data(), Source.size());
  std::memset(Bytes.get() + Source.size(), ' ', Capacity - 1 - Source.size());
  Bytes[Capacity - 1] = '\n';
  Bytes[Capacity] = '\0';
  Buffer = llvm::MemoryBuffer::getMemBuffer(StringRef(Bytes.get(), Capacity), Name,
                                            /*RequiresNullTerminator=*/true);
}

SplicedSource::~SplicedSource() = default;

bool SplicedSource::splice(std::size_t At, StringRef Rest) {
  if (At > Capacity - 1 || Rest.size() > Capacity - 1 - At)
    return false;
  std::memcpy(Bytes.get() + At, Rest.data(), Rest.size());
  std::memset(Bytes.get() + At + Rest.size(), ' ', Capacity - 1 - At - Rest.size());
  return true;
}

//===--- The source's text -----------------------------------------------===//

std::string instrumentedTextHeader(StringRef Name) {
  return inst::pompVersionDefinition() + "#line 1 " + handleinit::cStringLiteral(Name.str()) + "\n";
}

std::optional<PreambleInclude> lastPreambleInclude(const LangOptions &Lang, StringRef Source) {
  const PreambleBounds Bounds = inst::precompilableBounds(Lang, Source);
  // A raw lexer over a copy of the preamble (a lexer stops only at a null
  // character); every token belongs to a directive.
  const std::string Preamble = Source.substr(0, Bounds.Size).str();
  const SourceLocation Start = SourceLocation::getFromRawEncoding(1);
  Lexer Lex(Start, Lang, Preamble.data(), Preamble.data(), Preamble.data() + Preamble.size());
  Lex.SetCommentRetentionState(true);
  auto OffsetOf = [&](const Token &Tok) {
    return static_cast<std::size_t>(Tok.getLocation().getRawEncoding() - Start.getRawEncoding());
  };
  std::optional<PreambleInclude> Last;
  int Depth = 0;
  Token Tok;
  Lex.LexFromRawLexer(Tok);
  while (Tok.isNot(tok::eof)) {
    if (Tok.isNot(tok::hash) || !Tok.isAtStartOfLine()) {
      Lex.LexFromRawLexer(Tok);
      continue;
    }
    const std::size_t Hash = OffsetOf(Tok);
    Lex.LexFromRawLexer(Tok);
    const StringRef Name = Tok.is(tok::raw_identifier) && !Tok.isAtStartOfLine()
                               ? Tok.getRawIdentifier()
                               : StringRef();
    // The rest of the directive: up to the next token at the start of a
    // line; its end is the end of the last one (a comment too).
    std::size_t End = OffsetOf(Tok) + Tok.getLength();
    while (Tok.isNot(tok::eof) && !(Tok.isAtStartOfLine() && OffsetOf(Tok) > Hash)) {
      End = OffsetOf(Tok) + Tok.getLength();
      Lex.LexFromRawLexer(Tok);
    }
    if (Name == "if" || Name == "ifdef" || Name == "ifndef")
      ++Depth;
    else if (Name == "endif")
      --Depth;
    else if (Depth == 0 && (Name == "include" || Name == "include_next" || Name == "import")) {
      // The directive ends at the first line break after its last token.
      const std::size_t Break = Preamble.find_first_of("\r\n", End);
      if (Break == std::string::npos)
        continue;
      std::size_t LineEnd = Break + 1;
      if (Preamble[Break] == '\r' && LineEnd < Preamble.size() && Preamble[LineEnd] == '\n')
        ++LineEnd;
      Last = PreambleInclude{Hash, LineEnd};
    }
  }
  return Last;
}

//===--- The overlapped compile ------------------------------------------===//

namespace {

/// The compile's diagnostics client: until the splice it holds the
/// compile's diagnostics back (the instrumentation's messages come first, as
/// without the overlap), then passes them on; after a stop it drops them
/// (the compile that follows gives them again).
class DeferredDiagnostics : public inst::DiagnosticFilter {
public:
  explicit DeferredDiagnostics(DiagnosticConsumer &Shown) : DiagnosticFilter(Shown) {}

  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    switch (Now) {
    case Mode::Hold:
      Held.emplace_back(Level, Info);
      break;
    case Mode::Pass:
      passOn(Level, Info);
      break;
    case Mode::Drop:
      break;
    }
  }

  /// Passes on what was held, in order, through the compile's engine, and
  /// from now on everything.
  void release(DiagnosticsEngine &Diags) {
    Now = Mode::Pass;
    std::vector<StoredDiagnostic> Pending = std::move(Held);
    Held.clear();
    for (const StoredDiagnostic &D : Pending)
      Diags.Report(D);
  }
  void drop() {
    Now = Mode::Drop;
    Held.clear();
  }

private:
  enum class Mode { Hold, Pass, Drop };
  Mode Now = Mode::Hold;
  std::vector<StoredDiagnostic> Held;
};

/// Counts diagnostics in a printer without printing them.
class CountOnly : public DiagnosticConsumer {
public:
  explicit CountOnly(DiagnosticConsumer &Into) : Into(Into) {}
  void HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) override {
    Into.DiagnosticConsumer::HandleDiagnostic(Level, Info);
  }

private:
  DiagnosticConsumer &Into;
};

} // namespace

void addCounts(DiagnosticConsumer &Printer, unsigned Warnings, unsigned Errors) {
  if (Warnings == 0 && Errors == 0)
    return;
  CountOnly Counter(Printer);
  DiagnosticsEngine Engine(new DiagnosticIDs(), new DiagnosticOptions(), &Counter,
                           /*ShouldOwnClient=*/false);
  const unsigned Warning = Engine.getCustomDiagID(DiagnosticsEngine::Warning, "%0");
  const unsigned Error = Engine.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  for (unsigned I = 0; I < Warnings; ++I)
    Engine.Report(Warning) << "counted";
  for (unsigned I = 0; I < Errors; ++I)
    Engine.Report(Error) << "counted";
}

/// What the overlapped compile's pieces share: the trigger, the sentinel,
/// the dependency file and the diagnostics client.
class SpliceState {
public:
  enum class Phase { BeforeSplice, AfterSplice, Stopped };

  SpliceState(CompilerInstance &Outer, const OverlappedCompile &Overlap,
              BackgroundInstrumentation &Background, SplicedSource &Spliced, StringRef Source,
              PreambleInclude Include, std::string Header, std::string Name)
      : Outer(Outer), Overlap(Overlap), Background(Background), Spliced(Spliced), Source(Source),
        Include(Include), Header(std::move(Header)), Name(std::move(Name)) {}

  Phase now() const { return Now; }
  OverlapOutcome outcome() const { return Outcome; }
  std::string &text() { return Text; }
  const std::string &name() const { return Name; }
  std::size_t contentStart() const {
    return Source.starts_with(ByteOrderMark) ? ByteOrderMark.size() : 0;
  }

  /// The compile's diagnostics go through here (made by the client wrapper).
  DiagnosticConsumer &deferTo(DiagnosticConsumer &Shown) {
    Deferred = std::make_unique<DeferredDiagnostics>(Shown);
    return *Deferred;
  }

  /// The compile's main lexer is at At, just after the last `#include`
  /// line, and nothing of the source's rest has been read: the instrumented
  /// text goes in there.
  void splice(Preprocessor &PP, std::size_t At) {
    const auto Reached = std::chrono::steady_clock::now();
    const bool Taken = takeResult();
    Overlap.say("reached the last #include after " +
                llvm::Twine(millisecondsSince(Started, Reached)) + " ms, waited " +
                llvm::Twine(millisecondsSince(Reached, std::chrono::steady_clock::now())) +
                " ms for the instrumentation");
    if (!Taken)
      return stop(&PP, At);
    const StringRef Instrumented = Text;
    const std::size_t Content = contentStart();
    if (At < Content || !Instrumented.starts_with(Source.take_front(Content)) ||
        !Instrumented.drop_front(Content).starts_with(Header) ||
        !Instrumented.drop_front(Content + Header.size()).starts_with(Source.slice(Content, At))) {
      Overlap.say("the instrumented text does not start with the source's first " +
                  llvm::Twine(At) + " bytes: compiled after the instrumentation");
      Outcome = OverlapOutcome::CompileText;
      return stop(&PP, At);
    }
    if (!Spliced.splice(At, Instrumented.drop_front(At + Header.size()))) {
      Overlap.say("the instrumented text's rest does not fit: compiled after the instrumentation");
      Outcome = OverlapOutcome::CompileText;
      return stop(&PP, At);
    }
    // The main file's lines were counted in the source's text: they are
    // counted again in the new one. Another file becomes the last one the
    // source manager was asked about, whose line it would start from.
    SourceManager &SM = PP.getSourceManager();
    SM.getSLocEntry(SM.getMainFileID()).getFile().getContentCache().SourceLineCache =
        SrcMgr::LineOffsetMapping();
    if (const FileID Predefines = PP.getPredefinesFileID(); Predefines.isValid())
      (void)SM.getLineNumber(Predefines, 0);
    Now = Phase::AfterSplice;
    Outcome = OverlapOutcome::Compiled;
    SplicedAt = std::chrono::steady_clock::now();
    if (OnSplice)
      OnSplice(Text);
    if (Deferred)
      Deferred->release(PP.getDiagnostics());
  }

  /// The compile went past the last `#include` line without the trigger
  /// (or ended before it): what it compiled is not the instrumented text.
  void missed(Preprocessor *PP) {
    if (!takeResult()) {
      stop(PP, std::nullopt);
      return;
    }
    Overlap.say("the compile passed the last #include without the instrumented text: compiled "
                "after the instrumentation");
    Outcome = OverlapOutcome::CompileText;
    stop(PP, std::nullopt);
  }

  /// True when the compile's current file position lies in the main file
  /// after the last `#include` line (an included file counts at its
  /// `#include`).
  bool pastLastInclude(Preprocessor &PP) const {
    PreprocessorLexer *Current = PP.getCurrentFileLexer();
    if (!Current)
      return true;
    const SourceManager &SM = PP.getSourceManager();
    SourceLocation Loc = static_cast<Lexer *>(Current)->getSourceLocation();
    FileID File = Current->getFileID();
    while (File.isValid() && File != SM.getMainFileID()) {
      Loc = SM.getIncludeLoc(File);
      if (Loc.isInvalid())
        return false;
      Loc = SM.getExpansionLoc(Loc);
      File = SM.getFileID(Loc);
    }
    return File == SM.getMainFileID() && SM.getFileOffset(Loc) > Include.LineEnd;
  }

  /// True when Loc (an `#include`'s file name) lies on the last `#include`
  /// line of the source.
  bool onLastInclude(const SourceManager &SM, SourceLocation Loc) const {
    if (Loc.isInvalid())
      return false;
    const auto [File, Offset] = SM.getDecomposedExpansionLoc(Loc);
    return File == SM.getMainFileID() && Offset > Include.Hash && Offset < Include.LineEnd;
  }

  /// Called with the text when the compile goes on with it.
  llvm::unique_function<void(StringRef)> OnSplice;

  /// After the compile: the instrumentation is waited for in every case.
  void finish() {
    if (Now == Phase::BeforeSplice)
      missed(nullptr);
  }

  /// The compile's times, once it went on with the instrumented text and
  /// ended.
  inst::OverlapTimes times() const {
    inst::OverlapTimes Times;
    Times.SpliceMs = static_cast<unsigned long>(millisecondsSince(Started, SplicedAt));
    Times.RestMs =
        static_cast<unsigned long>(millisecondsSince(SplicedAt, std::chrono::steady_clock::now()));
    return Times;
  }

private:
  /// Waits for the instrumentation and prints what it printed, with its counts;
  /// false when the compile cannot go on with its text (Outcome says what
  /// follows).
  bool takeResult() {
    BackgroundResult Got = Background.wait();
    llvm::errs() << Got.Messages;
    addCounts(Outer.getDiagnosticClient(), Got.Warnings, Got.Errors);
    if (!Got.Succeeded) {
      Outcome = OverlapOutcome::InstrumentationFailed;
      return false;
    }
    Text = std::move(Got.Text);
    return true;
  }

  /// Ends the compile before it emits anything: its diagnostics are
  /// dropped, a fatal error (dropped too) keeps CodeGen and the outputs
  /// from being written and Sema from instantiating, and at the trigger
  /// (At) the source's rest is taken out so that the parse ends there.
  void stop(Preprocessor *PP, std::optional<std::size_t> At) {
    Now = Phase::Stopped;
    if (Deferred)
      Deferred->drop();
    if (!PP)
      return;
    if (At)
      Spliced.splice(*At, "");
    DiagnosticsEngine &Diags = PP->getDiagnostics();
    Diags.Report(Diags.getCustomDiagID(DiagnosticsEngine::Fatal, "%0"))
        << "the overlapped compile stopped";
  }

  static long millisecondsSince(std::chrono::steady_clock::time_point From,
                                std::chrono::steady_clock::time_point To) {
    return static_cast<long>(
        std::chrono::duration_cast<std::chrono::milliseconds>(To - From).count());
  }

  const std::chrono::steady_clock::time_point Started = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point SplicedAt = Started;
  CompilerInstance &Outer;
  const OverlappedCompile &Overlap;
  BackgroundInstrumentation &Background;
  SplicedSource &Spliced;
  const StringRef Source;
  const PreambleInclude Include;
  /// What the instrumented text has before the source's own text.
  const std::string Header;
  /// The name the header's #line gives the file.
  const std::string Name;
  std::unique_ptr<DeferredDiagnostics> Deferred;
  Phase Now = Phase::BeforeSplice;
  OverlapOutcome Outcome = OverlapOutcome::Restart;
  std::string Text;
};

namespace {

/// Splices the instrumented text in when the preprocessor is back in the main
/// file after the last `#include` (or skipped that header).
class SpliceTrigger : public PPCallbacks {
public:
  SpliceTrigger(SpliceState &State, Preprocessor &PP) : State(State), PP(PP) {}

  void FileChanged(SourceLocation, FileChangeReason Reason, SrcMgr::CharacteristicKind,
                   FileID Exited) override {
    if (Reason == ExitFile && Exited.isValid())
      check(PP.getSourceManager().getIncludeLoc(Exited));
  }
  void FileSkipped(const FileEntryRef &, const Token &FileName,
                   SrcMgr::CharacteristicKind) override {
    check(FileName.getLocation());
  }

private:
  void check(SourceLocation IncludedAt) {
    const SourceManager &SM = PP.getSourceManager();
    if (State.now() != SpliceState::Phase::BeforeSplice || !State.onLastInclude(SM, IncludedAt))
      return;
    PreprocessorLexer *Current = PP.getCurrentFileLexer();
    if (!Current || Current->getFileID() != SM.getMainFileID())
      return;
    State.splice(PP, SM.getFileOffset(static_cast<Lexer *>(Current)->getSourceLocation()));
  }

  SpliceState &State;
  Preprocessor &PP;
};

/// First of the compile's consumers: stops the compile at a declaration
/// after the last `#include` line when the trigger never came, and before
/// CodeGen's end of the translation unit.
class SpliceSentinel : public ASTConsumer {
public:
  SpliceSentinel(SpliceState &State, Preprocessor &PP) : State(State), PP(PP) {}

  bool HandleTopLevelDecl(DeclGroupRef) override {
    if (State.now() == SpliceState::Phase::BeforeSplice && State.pastLastInclude(PP))
      State.missed(&PP);
    return State.now() != SpliceState::Phase::Stopped;
  }
  void HandleTranslationUnit(ASTContext &) override {
    if (State.now() == SpliceState::Phase::BeforeSplice)
      State.missed(&PP);
  }

private:
  SpliceState &State;
  Preprocessor &PP;
};

/// The compile's dependency file, written only when the compile went on
/// with the instrumented text.
class SplicedDependencyFile : public DependencyFileGenerator {
public:
  SplicedDependencyFile(const DependencyOutputOptions &Opts, const SpliceState &State)
      : DependencyFileGenerator(Opts), State(State) {}
  void finishedMainFile(DiagnosticsEngine &Diags) override {
    if (State.now() == SpliceState::Phase::AfterSplice)
      DependencyFileGenerator::finishedMainFile(Diags);
  }

private:
  const SpliceState &State;
};

/// The compile's action with the header's line note, the trigger, the
/// sentinel and the dependency file.
class SpliceAction : public WrapperFrontendAction {
public:
  SpliceAction(std::unique_ptr<FrontendAction> Compile, SpliceState &State,
               std::unique_ptr<DependencyOutputOptions> DependencyFile)
      : WrapperFrontendAction(std::move(Compile)), State(State),
        DependencyFile(std::move(DependencyFile)) {}

protected:
  bool BeginInvocation(CompilerInstance &CI) override {
    if (DependencyFile)
      CI.addDependencyCollector(std::make_shared<SplicedDependencyFile>(*DependencyFile, State));
    return WrapperFrontendAction::BeginInvocation(CI);
  }

  bool BeginSourceFileAction(CompilerInstance &CI) override {
    if (!WrapperFrontendAction::BeginSourceFileAction(CI))
      return false;
    // The instrumented text's `#line 1 "<name>"` (its `_POMP` is
    // predefined): the line that starts at the source's content is line 1
    // of that name. A note's line number is its next line's, as #line's.
    SourceManager &SM = CI.getSourceManager();
    SM.AddLineNote(
        SM.getLocForStartOfFile(SM.getMainFileID()).getLocWithOffset(State.contentStart()),
        /*LineNo=*/2, SM.getLineTableFilenameID(State.name()), /*IsFileEntry=*/false,
        /*IsFileExit=*/false, SrcMgr::C_User);
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<SpliceTrigger>(State, CI.getPreprocessor()));
    return true;
  }

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI, StringRef File) override {
    std::unique_ptr<ASTConsumer> Compile = WrapperFrontendAction::CreateASTConsumer(CI, File);
    if (!Compile)
      return nullptr;
    std::vector<std::unique_ptr<ASTConsumer>> Both;
    Both.push_back(std::make_unique<SpliceSentinel>(State, CI.getPreprocessor()));
    Both.push_back(std::move(Compile));
    return std::make_unique<MultiplexConsumer>(std::move(Both));
  }

private:
  SpliceState &State;
  std::unique_ptr<DependencyOutputOptions> DependencyFile;
};

} // namespace

std::string instrumentedName(StringRef Source) {
  llvm::SmallString<256> Name(Source);
  llvm::sys::fs::make_absolute(Name);
  llvm::sys::path::remove_dots(Name, /*remove_dot_dot=*/false);
  return std::string(Name);
}

std::optional<std::size_t> sharedPrefixEnd(const LangOptions &Lang, StringRef Source,
                                           StringRef Name, StringRef Instrumented) {
  const std::optional<PreambleInclude> Last = lastPreambleInclude(Lang, Source);
  if (!Last)
    return std::nullopt;
  const std::string Header = instrumentedTextHeader(Name);
  const std::size_t Content = Source.starts_with(ByteOrderMark) ? ByteOrderMark.size() : 0;
  if (Last->LineEnd < Content || !Instrumented.starts_with(Source.take_front(Content)) ||
      !Instrumented.drop_front(Content).starts_with(Header) ||
      !Instrumented.drop_front(Content + Header.size())
           .starts_with(Source.slice(Content, Last->LineEnd)))
    return std::nullopt;
  return Header.size() + Last->LineEnd;
}

void OverlappedCompile::say(const llvm::Twine &Message) const {
  if (Verbose)
    llvm::errs() << "ompinst: overlap: " << Source << ": " << Message << "\n";
}

std::string OverlappedCompile::sharedPrefix() const {
  const std::size_t Content =
      StringRef(Original).starts_with(ByteOrderMark) ? ByteOrderMark.size() : 0;
  return Original.substr(0, Content) + instrumentedTextHeader(instrumentedName(Source)) +
         Original.substr(Content, LastInclude.LineEnd - Content);
}

std::string OverlappedCompile::whyNot(const CompilerInvocation &Compile) {
  const FrontendOptions &Frontend = Compile.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile())
    return "not one source file";
  const PreprocessorOptions &PP = Compile.getPreprocessorOpts();
  if (!PP.Includes.empty() || !PP.MacroIncludes.empty() || !PP.ImplicitPCHInclude.empty())
    return "-include, -imacros or a precompiled header";
  if (!PP.RemappedFiles.empty() || !PP.RemappedFileBuffers.empty())
    return "remapped files";
  for (const auto &[Macro, Undefined] : PP.Macros)
    if (StringRef(Macro).split('=').first == "_POMP")
      return "the command line sets _POMP";
  const LangOptions &Lang = Compile.getLangOpts();
  if (Lang.Modules || Lang.CPlusPlusModules)
    return "modules";
  // A list of headers printed as the compile reads them (-H and the like)
  // would come before the instrumentation's messages, and twice after a
  // stop.
  const DependencyOutputOptions &Deps = Compile.getDependencyOutputOpts();
  if (Deps.ShowHeaderIncludes || !Deps.HeaderIncludeOutputFile.empty() ||
      !Deps.DOTOutputFile.empty() || !Deps.ModuleDependencyOutputDir.empty() ||
      Deps.ShowIncludesDest != ShowIncludesDestination::None)
    return "a list of the included headers is asked for";
  // Where the instrumented text's header (`_POMP` and a `#line`) would show
  // otherwise than predefined: the macros' debug information, the source
  // embedded in it, coverage mapping by physical lines. (-Wunused-macros
  // would report the header's `_POMP`, but the compile after the
  // instrumentation predefines it then too: predefinePompVersion.)
  const CodeGenOptions &CodeGen = Compile.getCodeGenOpts();
  // Timers and statistics are the process's, for one compile at a time.
  if (CodeGen.TimePasses || Compile.getFrontendOpts().ShowStats ||
      !Compile.getFrontendOpts().StatsFile.empty())
    return "timers or statistics (-ftime-report, -print-stats)";
  if (CodeGen.MacroDebugInfo || CodeGen.EmbedSource)
    return "debug information of macros or sources (-fdebug-macro, -gembed-source)";
  if (CodeGen.CoverageMapping)
    return "coverage mapping";
  const std::string Name = instrumentedName(Source);
  if (handleinit::cStringLiteral(Name) != "\"" + Name + "\"")
    return "a file name that a #line directive spells with escapes";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      Outer.getFileManager().getBufferForFile(Source, /*isVolatile=*/false,
                                              /*RequiresNullTerminator=*/false);
  if (!Text)
    return "the source cannot be read";
  Original = (*Text)->getBuffer().str();
  const std::optional<PreambleInclude> Last = lastPreambleInclude(Lang, Original);
  if (!Last)
    return "no #include in the source's preamble, the part to compile while it is instrumented";
  LastInclude = *Last;
  std::string Why;
  if (!Always && !BackgroundInstrumentation::canOverlap(Why))
    return Why;
  return "";
}

OverlapOutcome OverlappedCompile::run(const CompilerInvocation &Compile,
                                      llvm::unique_function<BackgroundResult()> Instrument,
                                      CompileRunner RunCompile,
                                      llvm::unique_function<void(StringRef)> Spliced,
                                      std::string &Text) {
  llvm::unique_function<void(StringRef)> OnSplice = std::move(Spliced);
  const std::string Name = instrumentedName(Source);
  SplicedSource Buffer(Original, Source);
  BackgroundInstrumentation Background;
  Background.start(std::move(Instrument));
  SpliceState State(Outer, *this, Background, Buffer, Original, LastInclude,
                    instrumentedTextHeader(Name), Name);
  State.OnSplice = std::move(OnSplice);
  auto Invocation = std::make_shared<CompilerInvocation>(Compile);
  Invocation->getPreprocessorOpts().addMacroDef("_POMP=" + inst::pompVersionValue());
  std::unique_ptr<DependencyOutputOptions> DependencyFile;
  if (!Invocation->getDependencyOutputOpts().OutputFile.empty()) {
    DependencyFile =
        std::make_unique<DependencyOutputOptions>(Invocation->getDependencyOutputOpts());
    Invocation->getDependencyOutputOpts().OutputFile.clear();
  }
  RunCompile(
      Invocation, Buffer.buffer(),
      [&State, &DependencyFile](std::unique_ptr<FrontendAction> Action) {
        return std::make_unique<SpliceAction>(std::move(Action), State, std::move(DependencyFile));
      },
      [&State](DiagnosticConsumer &Shown) -> DiagnosticConsumer & { return State.deferTo(Shown); });
  State.finish();
  switch (State.outcome()) {
  case OverlapOutcome::Compiled:
    say("compiled while it was instrumented");
    Text = std::move(State.text());
    Times = State.times();
    break;
  case OverlapOutcome::CompileText:
    Text = std::move(State.text());
    break;
  default:
    break;
  }
  return State.outcome();
}

} // namespace pomp::plugin
