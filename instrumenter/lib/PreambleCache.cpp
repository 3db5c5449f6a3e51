//===- PreambleCache.cpp - ompinst's cache of precompiled preambles --------===//

#include "pomp/instrumenter/PreambleCache.h"

#include "pomp/instrumenter/Preamble.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <optional>
#include <vector>

namespace pomp::inst {

using namespace llvm;
using namespace clang;

namespace {

/// The first line of an entry; a new layout gets a new number.
constexpr llvm::StringLiteral EntryMagic = "pomp-ompinst-preamble 1";
/// Entries are named <key> + this; anything else in the directory is a
/// temporary file (of a running or killed ompinst).
constexpr llvm::StringLiteral EntrySuffix = ".preamble";
/// Bytes of the key's hash (BLAKE3, truncated to 128 bits).
constexpr std::size_t KeyBytes = 16;
constexpr std::uint64_t DefaultMaxSize = std::uint64_t(1) << 30;
/// After a store over the bound, the oldest entries go until the cache is at
/// this share of it, so that the next stores do not trim again at once.
constexpr double TrimTarget = 0.8;
/// A temporary file older than this is a killed ompinst's.
constexpr std::chrono::hours StaleTemporary(1);
/// Where the parse finds the PCH: in memory, above the file system, at a path
/// no header lives at.
constexpr llvm::StringLiteral PchDirectory = "/__pomp_ompinst_preamble__";

/// The entries the parses of this process loaded: the PCH is read from them
/// in place (mapped), and the file system above which it lies lives on.
std::vector<std::unique_ptr<MemoryBuffer>> &loadedEntries() {
  static std::vector<std::unique_ptr<MemoryBuffer>> Entries;
  return Entries;
}

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

/// One entry of the cache.
struct Entry {
  /// Empty when the PCH may be used; else why not (the PCH is then empty).
  std::string WhyNot;
  std::vector<std::string> PragmaMacros;
  /// What the preamble's parse read (RecordingFileSystem's list).
  std::string Inputs;
  StringRef Pch;
};

std::string render(const Entry &E) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << EntryMagic << "\n";
  if (E.WhyNot.empty())
    OS << "usable\n";
  else
    OS << "unusable " << E.WhyNot << "\n";
  OS << "macros " << E.PragmaMacros.size() << "\n";
  for (const std::string &Name : E.PragmaMacros)
    OS << Name << "\n";
  OS << "inputs " << E.Inputs.size() << "\n" << E.Inputs;
  OS << "pch " << E.Pch.size() << "\n" << E.Pch;
  return Text;
}

/// Takes the next line of Text.
StringRef takeLine(StringRef &Text) {
  const auto [Line, Rest] = Text.split('\n');
  Text = Rest;
  return Line;
}

/// Reads "<word> <number>\n" and the number of bytes after it.
std::optional<StringRef> takeSized(StringRef &Text, StringRef Word) {
  StringRef Line = takeLine(Text);
  std::size_t Size = 0;
  if (!Line.consume_front(Word) || !Line.consume_front(" ") || Line.getAsInteger(10, Size) ||
      Size > Text.size())
    return std::nullopt;
  const StringRef Bytes = Text.take_front(Size);
  Text = Text.drop_front(Size);
  return Bytes;
}

/// Nullopt when Text is not a whole entry.
std::optional<Entry> parseEntry(StringRef Text) {
  Entry E;
  if (takeLine(Text) != EntryMagic)
    return std::nullopt;
  StringRef State = takeLine(Text);
  if (State.consume_front("unusable "))
    E.WhyNot = State.str();
  else if (State != "usable")
    return std::nullopt;
  StringRef Count = takeLine(Text);
  std::size_t Macros = 0;
  if (!Count.consume_front("macros ") || Count.getAsInteger(10, Macros))
    return std::nullopt;
  for (std::size_t I = 0; I < Macros; ++I) {
    if (Text.empty())
      return std::nullopt;
    E.PragmaMacros.push_back(takeLine(Text).str());
  }
  const std::optional<StringRef> Inputs = takeSized(Text, "inputs");
  if (!Inputs)
    return std::nullopt;
  E.Inputs = Inputs->str();
  const std::optional<StringRef> Pch = takeSized(Text, "pch");
  if (!Pch || !Text.empty() || (E.WhyNot.empty() == Pch->empty()))
    return std::nullopt;
  E.Pch = *Pch;
  return E;
}

/// The key of a preamble: everything its PCH depends on but for the files
/// it read, which the entry lists and which are checked when it is found.
std::string keyOf(const CompilerInvocation &Invocation, StringRef MainPath, StringRef WorkingDir,
                  PreambleBounds Bounds, StringRef Preamble, StringRef Executable) {
  BLAKE3 Hasher;
  auto Add = [&Hasher](StringRef Part) {
    Hasher.update(Part);
    Hasher.update(StringRef("\0", 1));
  };
  Add(EntryMagic);
  Add(CLANG_VERSION_STRING);
  // ompinst itself: a rebuilt one may instrument (and so precompile)
  // differently.
  sys::fs::file_status Status;
  if (!sys::fs::status(Executable, Status)) {
    Add(Executable);
    Add(std::to_string(Status.getSize()));
    Add(std::to_string(Status.getLastModificationTime().time_since_epoch().count()));
  }
  // The whole -cc1 command but the main file's name: files in one
  // directory with the same preamble share it.
  const std::vector<std::string> Arguments = Invocation.getCC1CommandLine();
  for (std::size_t I = 0; I < Arguments.size(); ++I) {
    if (Arguments[I] == "-main-file-name") {
      ++I;
      continue;
    }
    if (Arguments[I] != MainPath)
      Add(Arguments[I]);
  }
  SmallString<256> Directory(MainPath);
  sys::fs::make_absolute(WorkingDir, Directory);
  sys::path::remove_filename(Directory);
  Add(Directory);
  Add(WorkingDir);
  Add(Bounds.PreambleEndsAtStartOfLine ? "eol" : "-");
  Add(Preamble);
  return toHex(Hasher.final<KeyBytes>(), /*LowerCase=*/true);
}

} // namespace

bool readPreambleSettings(PreambleSettings &Settings, std::string &Error) {
  Settings = PreambleSettings();
  const std::optional<std::string> On = sys::Process::GetEnv("OMPINST_PREAMBLE");
  if (On && *On != "0" && *On != "1") {
    Error = "OMPINST_PREAMBLE='" + *On + "' is not a valid setting: 0 (off) or 1 (on)";
    return false;
  }
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

void PreambleActionFactory::say(const Twine &Message) const {
  if (Settings.Verbose)
    errs() << "ompinst: preamble: " << Message << "\n";
}

bool PreambleActionFactory::runPlain(std::shared_ptr<CompilerInvocation> Invocation,
                                     FileManager *Files,
                                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                                     DiagnosticConsumer *DiagConsumer) {
  Sink = ResultSink();
  return newInstrumentActionFactory(Opts, Sink)
      ->runInvocation(std::move(Invocation), Files, std::move(PCHContainerOps), DiagConsumer);
}

namespace {

/// Writes Text to Directory/Name through a temporary file and a rename: a
/// concurrent reader sees the old entry or the new one, never a part.
bool storeAtomically(StringRef Directory, StringRef Name, StringRef Text, std::string &Error) {
  SmallString<256> Model(Directory);
  sys::path::append(Model, Name + ".tmp-%%%%%%%%");
  int FD = -1;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath)) {
    Error = EC.message();
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      Error = OS.error().message();
      OS.clear_error();
      sys::fs::remove(TempPath);
      return false;
    }
  }
  SmallString<256> Path(Directory);
  sys::path::append(Path, Name);
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    Error = EC.message();
    sys::fs::remove(TempPath);
    return false;
  }
  return true;
}

/// Keeps the cache under its bound: the least recently used entries go
/// (a hit sets an entry's time), and temporary files a killed ompinst left.
void trim(StringRef Directory, std::uint64_t MaxSize) {
  struct Found {
    std::string Path;
    std::uint64_t Size;
    sys::TimePoint<> Time;
  };
  std::vector<Found> Entries;
  std::uint64_t Total = 0;
  const auto Now = std::chrono::system_clock::now();
  std::error_code EC;
  for (sys::fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC)) {
    sys::fs::file_status Status;
    if (sys::fs::status(It->path(), Status) || Status.type() != sys::fs::file_type::regular_file)
      continue;
    const StringRef Name = sys::path::filename(It->path());
    if (!Name.ends_with(EntrySuffix)) {
      if (Name.contains(".tmp-") && Now - Status.getLastModificationTime() > StaleTemporary)
        sys::fs::remove(It->path());
      continue;
    }
    Entries.push_back({It->path(), Status.getSize(), Status.getLastModificationTime()});
    Total += Status.getSize();
  }
  if (Total <= MaxSize)
    return;
  std::sort(Entries.begin(), Entries.end(),
            [](const Found &A, const Found &B) { return A.Time < B.Time; });
  const auto Target = static_cast<std::uint64_t>(static_cast<double>(MaxSize) * TrimTarget);
  for (const Found &F : Entries) {
    if (Total <= Target)
      break;
    if (!sys::fs::remove(F.Path))
      Total -= F.Size;
  }
}

/// Marks an entry as used now, for the trim's order.
void touch(StringRef Path) {
  int FD = -1;
  if (sys::fs::openFileForRead(Path, FD))
    return;
  (void)sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  sys::Process::SafelyCloseFileDescriptor(FD);
}

} // namespace

bool PreambleActionFactory::runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                                          FileManager *Files,
                                          std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                                          DiagnosticConsumer *DiagConsumer) {
  const FrontendOptions &Frontend = Invocation->getFrontendOpts();
  if (Frontend.Inputs.size() != 1 || !Frontend.Inputs[0].isFile())
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  const std::string MainPath = Frontend.Inputs[0].getFile().str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Main =
      FileSystem->getBufferForFile(MainPath, /*FileSize=*/-1, /*RequiresNullTerminator=*/true);
  if (!Main)
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  const PreambleBounds Bounds =
      precompilableBounds(Invocation->getLangOpts(), (*Main)->getBuffer());
  if (Bounds.Size == 0) {
    say(MainPath + ": no preamble to precompile");
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  }
  const ErrorOr<std::string> WorkingDir = FileSystem->getCurrentWorkingDirectory();
  if (!WorkingDir)
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  const std::string Key = keyOf(*Invocation, MainPath, *WorkingDir, Bounds,
                                (*Main)->getBuffer().take_front(Bounds.Size), Executable);
  const std::string Name = Key + EntrySuffix.str();
  SmallString<256> EntryPath(Settings.Directory);
  sys::path::append(EntryPath, Name);

  // A usable entry whose inputs are all unchanged.
  std::optional<Entry> Found;
  std::unique_ptr<MemoryBuffer> FoundBuffer;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Stored =
          MemoryBuffer::getFile(EntryPath, /*IsText=*/false, /*RequiresNullTerminator=*/false)) {
    Found = parseEntry((*Stored)->getBuffer());
    std::string Changed;
    if (!Found) {
      say(MainPath + ": entry " + Name + " is damaged: built again");
    } else if (!RecordingFileSystem::stillTrue(Found->Inputs, *vfs::getRealFileSystem(), Changed)) {
      say(MainPath + ": entry " + Name + " is stale (" + Changed + "): built again");
      Found.reset();
    } else {
      FoundBuffer = std::move(*Stored);
      touch(EntryPath);
    }
  }

  std::string Built;
  if (!Found) {
    if (std::error_code EC = sys::fs::create_directories(Settings.Directory)) {
      say(MainPath + ": cannot create the cache '" + Settings.Directory + "': " + EC.message() +
          "; parsed in full");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    if (sys::fs::access(Settings.Directory, sys::fs::AccessMode::Write)) {
      say(MainPath + ": the cache '" + Settings.Directory + "' is not writable; parsed in full");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    CompilerInvocation Build(*Invocation);
    Build.getFrontendOpts().SkipFunctionBodies = true;
    IgnoringDiagConsumer Quiet;
    IntrusiveRefCntPtr<DiagnosticsEngine> Diags =
        CompilerInstance::createDiagnostics(&Build.getDiagnosticOpts(), &Quiet, false);
    IntrusiveRefCntPtr<RecordingFileSystem> Read(
        new RecordingFileSystem(vfs::createPhysicalFileSystem()));
    IntrusiveRefCntPtr<vfs::FileSystem> BuildFS(new vfs::OverlayFileSystem(Read));
    if (BuildFS->setCurrentWorkingDirectory(*WorkingDir))
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    PreambleWatcher Watcher;
    ErrorOr<PrecompiledPreamble> Preamble =
        PrecompiledPreamble::Build(Build, Main->get(), Bounds, *Diags, BuildFS, PCHContainerOps,
                                   /*StoreInMemory=*/true, /*StoragePath=*/"", Watcher);
    if (!Preamble) {
      say(MainPath + ": precompiling the preamble failed: " + Preamble.getError().message() +
          "; parsed in full");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    Entry New;
    New.WhyNot = Watcher.whyNot();
    New.PragmaMacros = New.WhyNot.empty() ? Watcher.pragmaMacros() : std::vector<std::string>();
    raw_string_ostream InputsOS(New.Inputs);
    if (!Read->write(InputsOS)) {
      say(MainPath + ": the preamble's inputs changed while it was parsed; parsed in full");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    // The PCH's bytes: an in-memory preamble is a file of the file system
    // it gives the parse.
    std::unique_ptr<MemoryBuffer> Pch;
    if (New.WhyNot.empty()) {
      CompilerInvocation Probe(Build);
      IntrusiveRefCntPtr<vfs::FileSystem> ProbeFS(new vfs::InMemoryFileSystem());
      std::unique_ptr<MemoryBuffer> Dummy = MemoryBuffer::getMemBuffer("", MainPath);
      Preamble->AddImplicitPreamble(Probe, ProbeFS, Dummy.get());
      ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes =
          ProbeFS->getBufferForFile(Probe.getPreprocessorOpts().ImplicitPCHInclude);
      Probe.getPreprocessorOpts().clearRemappedFiles();
      if (!Bytes || (*Bytes)->getBufferSize() == 0) {
        say(MainPath + ": the precompiled preamble cannot be read; parsed in full");
        return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
      }
      Pch = std::move(*Bytes);
      New.Pch = Pch->getBuffer();
    }
    Built = render(New);
    std::string Error;
    if (Built.size() > Settings.MaxSize)
      say(MainPath + ": entry " + Name + " (" + Twine(Built.size()) +
          " bytes) is larger than the cache's bound: not stored");
    else if (!storeAtomically(Settings.Directory, Name, Built, Error))
      say(MainPath + ": entry " + Name + " not stored: " + Error);
    else
      trim(Settings.Directory, Settings.MaxSize);
    if (!New.WhyNot.empty()) {
      say(MainPath + ": preamble not precompiled: " + New.WhyNot + "; parsed in full");
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    }
    FoundBuffer = MemoryBuffer::getMemBufferCopy(Built, EntryPath);
    Found = parseEntry(FoundBuffer->getBuffer());
    if (!Found)
      return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
    say(MainPath + ": precompiled the preamble (" + Twine(Bounds.Size) + " bytes) into " + Name);
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
  const std::string PchPath = (PchDirectory + "/" + Key + ".pch").str();
  IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
  Memory->addFileNoOwn(PchPath, 0, MemoryBufferRef(Found->Pch, PchPath));
  FileSystem->pushOverlay(Memory);
  if (FileSystem->setCurrentWorkingDirectory(*WorkingDir))
    return runPlain(Invocation, Files, PCHContainerOps, DiagConsumer);
  loadedEntries().push_back(std::move(FoundBuffer));
  auto WithPreamble = std::make_shared<CompilerInvocation>(*Invocation);
  PreprocessorOptions &PP = WithPreamble->getPreprocessorOpts();
  PP.ImplicitPCHInclude = PchPath;
  PP.PrecompiledPreambleBytes = {Bounds.Size, Bounds.PreambleEndsAtStartOfLine};
  // The entry's inputs were checked, byte for byte; Clang's check of sizes
  // and times would only refuse a file touched but unchanged.
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  // The PCH holds the predefined macros.
  PP.UsePredefines = false;
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
