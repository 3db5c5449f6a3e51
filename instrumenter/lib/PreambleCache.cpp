//===- PreambleCache.cpp - ompinst's cache of precompiled preambles --------===//

#include "pomp/instrumenter/PreambleCache.h"

#include "pomp/instrumenter/Preamble.h"

#include "PreambleEntry.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <vector>

namespace pomp::inst {

using namespace llvm;
using namespace clang;

namespace {

constexpr std::uint64_t DefaultMaxSize = std::uint64_t(1) << 30;

/// "1G", "256M", "4096": bytes; nullopt when not a size.
std::optional<std::uint64_t> parseSize(StringRef Text) {
  std::uint64_t Factor = 1;
  if (Text.ends_with_insensitive("k"))
    Factor = std::uint64_t(1) << 10;
  else if (Text.ends_with_insensitive("m"))
    Factor = std::uint64_t(1) << 20;
  else if (Text.ends_with_insensitive("g"))
    Factor = std::uint64_t(1) << 30;
  if (Factor != 1)
    Text = Text.drop_back();
  std::uint64_t Value = 0;
  if (Text.empty() || Text.getAsInteger(10, Value) || Value > UINT64_MAX / Factor)
    return std::nullopt;
  return Value * Factor;
}

/// Says what the cache did, with --verbose (Settings.Verbose).
void sayPreamble(const PreambleSettings &Settings, const Twine &Message) {
  if (Settings.Verbose)
    (Settings.Messages ? *Settings.Messages : errs()) << "ompinst: preamble: " << Message << "\n";
}

/// Where the cache keeps the entry Name.
std::string entryPath(const PreambleSettings &Settings, StringRef Name) {
  SmallString<256> Path(Settings.Directory);
  sys::path::append(Path, Name);
  return std::string(Path);
}

} // namespace

bool readPreambleSettings(PreambleSettings &Settings, std::string &Error) {
  Settings = PreambleSettings();
  const std::optional<std::string> On = sys::Process::GetEnv("OMPINST_PREAMBLE");
  if (On && *On != "0" && *On != "1" && *On != "parse") {
    Error = "OMPINST_PREAMBLE='" + *On +
            "' is not a valid setting: 0 (off), 1 (on) or parse (ompinst's parse only)";
    return false;
  }
  Settings.Compile = !On || *On != "parse";
  Settings.MaxSize = DefaultMaxSize;
  if (const std::optional<std::string> Max = sys::Process::GetEnv("OMPINST_PREAMBLE_MAXSIZE")) {
    const std::optional<std::uint64_t> Size = parseSize(*Max);
    if (!Size) {
      Error = "OMPINST_PREAMBLE_MAXSIZE='" + *Max +
              "' is not a size: bytes, or a number with K, M or G";
      return false;
    }
    Settings.MaxSize = *Size;
  }
  if (On && *On == "0")
    return true;
  if (const std::optional<std::string> Dir = sys::Process::GetEnv("OMPINST_PREAMBLE_DIR");
      Dir && !Dir->empty()) {
    Settings.Directory = *Dir;
  } else {
    SmallString<256> Path;
    if (const std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
        Xdg && !Xdg->empty()) {
      Path = *Xdg;
    } else if (const std::optional<std::string> Home = sys::Process::GetEnv("HOME");
               Home && !Home->empty()) {
      Path = *Home;
      sys::path::append(Path, ".cache");
    } else {
      return true;
    }
    sys::path::append(Path, "pomp-ompinst-preamble");
    Settings.Directory = std::string(Path);
  }
  SmallString<256> Absolute(Settings.Directory);
  sys::fs::make_absolute(Absolute);
  Settings.Directory = std::string(Absolute);
  Settings.Enabled = true;
  return true;
}

PreambleActionFactory::PreambleActionFactory(const PreambleSettings &Settings, const Options &Opts,
                                             ResultSink &Sink,
                                             IntrusiveRefCntPtr<vfs::OverlayFileSystem> FileSystem,
                                             IntrusiveRefCntPtr<RecordingFileSystem> Recording,
                                             std::string Executable)
    : Settings(Settings), Opts(Opts), Sink(Sink), FileSystem(std::move(FileSystem)),
      Recording(std::move(Recording)), Executable(std::move(Executable)) {}

std::unique_ptr<FrontendAction> PreambleActionFactory::create() {
  return newInstrumentActionFactory(Opts, Sink)->create();
}

void PreambleActionFactory::say(const Twine &Message) const { sayPreamble(Settings, Message); }

bool PreambleActionFactory::runPlain(std::shared_ptr<CompilerInvocation> Invocation,
                                     FileManager *Files,
                                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                                     DiagnosticConsumer *DiagConsumer) {
  Sink = ResultSink();
  return newInstrumentActionFactory(Opts, Sink)
      ->runInvocation(std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
}

namespace {

/// Where the cache keeps the entry for the preamble of the parse of
/// Invocation's one source, read through FileSystem.
struct ParseEntryName {
  std::string MainPath;
  std::unique_ptr<MemoryBuffer> Main;
  PreambleBounds Bounds{0, false};
  std::string WorkingDir;
  std::string Key;
  /// Key with the entries' suffix: the entry's file name.
  std::string Name;
};

/// The entry's name, or nullopt when the parse has none: not one source, no
/// preamble (Why says so; empty for the causes not worth saying).
std::optional<ParseEntryName> parseEntryName(const CompilerInvocation &Invocation,
                                             vfs::FileSystem &FileSystem, StringRef Executable,
                                             std::string &Why) {
  const FrontendOptions &Frontend = Invocation.getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile())
    return std::nullopt;
  ParseEntryName Entry;
  Entry.MainPath = Frontend.Inputs[0].getFile().str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Main =
      FileSystem.getBufferForFile(Entry.MainPath, /*FileSize=*/-1, /*RequiresNullTerminator=*/true);
  if (!Main)
    return std::nullopt;
  Entry.Main = std::move(*Main);
  Entry.Bounds = precompilableBounds(Invocation.getLangOpts(), Entry.Main->getBuffer());
  if (Entry.Bounds.Size == 0) {
    Why = "no preamble to precompile";
    return std::nullopt;
  }
  const ErrorOr<std::string> WorkingDir = FileSystem.getCurrentWorkingDirectory();
  if (!WorkingDir)
    return std::nullopt;
  Entry.WorkingDir = *WorkingDir;
  Entry.Key = preamble::keyOf("parse", Invocation, Entry.MainPath, Entry.WorkingDir, Entry.Bounds,
                              Entry.Main->getBuffer().take_front(Entry.Bounds.Size), Executable);
  Entry.Name = Entry.Key + preamble::EntrySuffix.str();
  return Entry;
}

} // namespace

EntryState parseEntryState(const PreambleSettings &Settings, const CompilerInvocation &Invocation,
                           vfs::FileSystem &FileSystem, StringRef Executable,
                           std::optional<OverlapTimes> *Times) {
  if (Times)
    Times->reset();
  if (!Settings.Enabled)
    return EntryState::Missing;
  std::string Why;
  const std::optional<ParseEntryName> Entry =
      parseEntryName(Invocation, FileSystem, Executable, Why);
  return Entry ? preamble::stateOf(entryPath(Settings, Entry->Name), Times) : EntryState::Missing;
}

void noteParseTimes(const PreambleSettings &Settings, const CompilerInvocation &Invocation,
                    vfs::FileSystem &FileSystem, StringRef Executable, const OverlapTimes &Times) {
  if (!Settings.Enabled)
    return;
  std::string Why;
  const std::optional<ParseEntryName> Entry =
      parseEntryName(Invocation, FileSystem, Executable, Why);
  if (!Entry)
    return;
  std::optional<OverlapTimes> Noted;
  if (preamble::stateOf(entryPath(Settings, Entry->Name), &Noted) == EntryState::Pending && !Noted)
    preamble::notePending(Settings.Directory, Entry->Name, Times);
}

namespace {

/// What precompiling a parse's preamble gave.
struct BuiltParseEntry {
  /// The entry as stored (empty when nothing was stored).
  std::string Bytes;
  /// Empty when the PCH may be used; else why not (said already).
  std::string WhyNot;
};

/// Precompiles the preamble of Entry's parse (Invocation's options, function
/// bodies skipped) and stores it, saying so; nullopt, after saying why, when
/// it could not.
std::optional<BuiltParseEntry> buildParseEntry(const PreambleSettings &Settings,
                                               const CompilerInvocation &Invocation,
                                               const ParseEntryName &Entry,
                                               std::shared_ptr<PCHContainerOperations> Ops) {
  auto Say = [&Settings](const Twine &Message) { sayPreamble(Settings, Message); };
  const std::string &MainPath = Entry.MainPath;
  if (std::error_code EC = sys::fs::create_directories(Settings.Directory)) {
    Say(MainPath + ": cannot create the cache '" + Settings.Directory + "': " + EC.message() +
        "; parsed in full");
    return std::nullopt;
  }
  if (sys::fs::access(Settings.Directory, sys::fs::AccessMode::Write)) {
    Say(MainPath + ": the cache '" + Settings.Directory + "' is not writable; parsed in full");
    return std::nullopt;
  }
  CompilerInvocation Build(Invocation);
  Build.getFrontendOpts().SkipFunctionBodies = true;
  IgnoringDiagConsumer Quiet;
  IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
      CompilerInstance::createDiagnostics(&Build.getDiagnosticOpts(), &Quiet, false);
  PreambleWatcher Watcher;
  std::string Why;
  std::optional<preamble::Precompiled> Made = preamble::precompile(
      Build, *Entry.Main, Entry.Bounds, *Diags, Entry.WorkingDir, std::move(Ops), Watcher, Why);
  if (!Made) {
    if (!Why.empty())
      Say(MainPath + ": " + Why + "; parsed in full");
    return std::nullopt;
  }
  preamble::Entry New;
  New.WhyNot = Watcher.whyNot();
  New.Inputs = std::move(Made->Inputs);
  if (New.WhyNot.empty()) {
    New.PragmaMacros = Watcher.pragmaMacros();
    New.Pch = Made->Pch->getBuffer();
  }
  std::string Problem;
  BuiltParseEntry Built;
  Built.Bytes = preamble::store(New, Settings.Directory, Entry.Name, Settings.MaxSize, Problem);
  if (!Problem.empty())
    Say(MainPath + ": " + Problem);
  Built.WhyNot = New.WhyNot;
  if (!Built.WhyNot.empty())
    Say(MainPath + ": preamble not precompiled: " + Built.WhyNot + "; parsed in full");
  else
    Say(MainPath + ": precompiled the preamble (" + Twine(Entry.Bounds.Size) + " bytes) into " +
        Entry.Name);
  return Built;
}

} // namespace

void precompileParseEntry(const PreambleSettings &Settings, const CompilerInvocation &Invocation,
                          vfs::FileSystem &FileSystem, StringRef Executable,
                          std::shared_ptr<PCHContainerOperations> Ops) {
  std::string Why;
  const std::optional<ParseEntryName> Entry =
      parseEntryName(Invocation, FileSystem, Executable, Why);
  if (!Entry || !Settings.Enabled)
    return;
  // As a parse's lookup: a usable entry stays; a pending, damaged or stale
  // one is built (again).
  const preamble::LookedUp Stored = preamble::lookUp(entryPath(Settings, Entry->Name));
  if (Stored.Found && !Stored.Found->Pending)
    return;
  buildParseEntry(Settings, Invocation, *Entry, std::move(Ops));
}

bool PreambleActionFactory::runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                                          FileManager *Files,
                                          std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                                          DiagnosticConsumer *DiagConsumer) {
  std::string NoPreamble;
  std::optional<ParseEntryName> Entry =
      parseEntryName(*Invocation, *FileSystem, Executable, NoPreamble);
  if (!Entry) {
    if (!NoPreamble.empty())
      say(Invocation->getFrontendOpts().Inputs[0].getFile() + ": " + NoPreamble);
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  }
  const std::string &MainPath = Entry->MainPath;
  const PreambleBounds Bounds = Entry->Bounds;
  const std::string &WorkingDir = Entry->WorkingDir;
  const std::string &Key = Entry->Key;
  const std::string &Name = Entry->Name;
  const std::string EntryPath = entryPath(Settings, Name);

  // A usable entry whose inputs are all unchanged.
  preamble::LookedUp Stored = preamble::lookUp(EntryPath);
  std::optional<preamble::Entry> Found = std::move(Stored.Found);
  std::unique_ptr<MemoryBuffer> FoundBuffer = std::move(Stored.Bytes);
  if (!Stored.Why.empty())
    say(MainPath + ": entry " + Name + " " + Stored.Why + ": built again");
  // Seen for the first time: only noted; seen before (pending): precompiled
  // now.
  if (!Found && Stored.Why.empty()) {
    const std::string Problem = preamble::notePending(Settings.Directory, Name);
    say(MainPath + ": " +
        (Problem.empty()
             ? "first parse of this preamble: noted in " + Name + ", precompiled the next time"
             : Problem + "; parsed in full"));
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  }
  if (Found && Found->Pending)
    Found.reset();

  if (!Found) {
    if (!Settings.PrecompilePending) {
      say(MainPath + ": entry " + Name + " parsed in full, precompiled after the parse");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    const std::optional<BuiltParseEntry> Built =
        buildParseEntry(Settings, *Invocation, *Entry, PCHContainerOps);
    if (!Built || !Built->WhyNot.empty())
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    FoundBuffer = MemoryBuffer::getMemBufferCopy(Built->Bytes, EntryPath);
    Found = preamble::parseEntry(FoundBuffer->getBuffer());
    if (!Found)
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  } else if (!Found->WhyNot.empty()) {
    say(MainPath + ": preamble not precompiled: " + Found->WhyNot + "; parsed in full");
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  } else {
    say(MainPath + ": precompiled preamble " + Name + " from the cache");
  }

  // The parse with the PCH: it lies in memory above the file system, and the
  // files the preamble read count as the parse's inputs.
  if (Recording)
    Recording->merge(Found->Inputs);
  IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
  auto WithPreamble = std::make_shared<CompilerInvocation>(*Invocation);
  preamble::usePch(WithPreamble->getPreprocessorOpts(), *Memory, Key, Found->Pch, Bounds);
  FileSystem->pushOverlay(Memory);
  if (FileSystem->setCurrentWorkingDirectory(WorkingDir))
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  preamble::keepLoaded(std::move(FoundBuffer));
  Options WithOpts = Opts;
  WithOpts.PreambleInUse = true;
  WithOpts.PreamblePragmaMacros = Found->PragmaMacros;
  Sink = ResultSink();
  const bool Parsed = newInstrumentActionFactory(WithOpts, Sink)
                          ->runInvocation(WithPreamble, Files, PCHContainerOps, DiagConsumer);
  // Taken out, the errors of loading it count nowhere: the flag says.
  if (Sink.preambleFailed()) {
    say(MainPath + ": the precompiled preamble " + Name + " cannot be loaded; parsed in full");
    sys::fs::remove(EntryPath);
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  }
  return Parsed;
}

} // namespace pomp::inst
