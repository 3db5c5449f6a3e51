//===- PreambleEntry.cpp - Entries of the cache of precompiled preambles ---===//
#include "PreambleEntry.h"

#include "pomp/instrumenter/RecordingFileSystem.h"

#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <mutex>

namespace pomp::inst::preamble {

using namespace llvm;
using namespace clang;

namespace {

/// The first line of an entry; a new layout gets a new number.
constexpr llvm::StringLiteral EntryMagic = "pomp-ompinst-preamble 3";
/// Bytes of the key's hash (BLAKE3, truncated to 128 bits).
constexpr std::size_t KeyBytes = 16;
/// After a store over the bound, the oldest entries go until the cache is at
/// this share of it, so that the next stores do not trim again at once.
constexpr double TrimTarget = 0.8;
/// A temporary file older than this is a killed ompinst's.
constexpr std::chrono::hours StaleTemporary(1);

} // namespace

std::string render(const Entry &E) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << EntryMagic << "\n";
  if (E.Pending && E.Times)
    OS << "pending " << E.Times->SpliceMs << " " << E.Times->RestMs << "\n";
  else if (E.Pending)
    OS << "pending\n";
  else if (E.WhyNot.empty())
    OS << "usable\n";
  else
    OS << "unusable " << E.WhyNot << "\n";
  OS << "macros " << E.PragmaMacros.size() << "\n";
  for (const std::string &Name : E.PragmaMacros)
    OS << Name << "\n";
  OS << "inputs " << E.Inputs.size() << "\n" << E.Inputs;
  OS << "deps " << E.Deps.size() << "\n" << E.Deps;
  OS << "names " << E.Names.size() << "\n" << E.Names;
  OS << "pch " << E.Pch.size() << "\n" << E.Pch;
  return Text;
}

namespace {

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

/// The rest of a pending entry's state line: nothing, or its first
/// compile's times; false when it is neither.
bool parsePending(StringRef Rest, std::optional<OverlapTimes> &Times) {
  if (Rest.empty())
    return true;
  OverlapTimes Read;
  const auto [Splice, After] = Rest.drop_front().split(' ');
  if (!Rest.starts_with(" ") || Splice.getAsInteger(10, Read.SpliceMs) ||
      After.getAsInteger(10, Read.RestMs))
    return false;
  Times = Read;
  return true;
}

} // namespace

std::optional<Entry> parseEntry(StringRef Text) {
  Entry E;
  if (takeLine(Text) != EntryMagic)
    return std::nullopt;
  StringRef State = takeLine(Text);
  if (State.consume_front("unusable ")) {
    E.WhyNot = State.str();
  } else if (State.consume_front("pending")) {
    if (!parsePending(State, E.Times))
      return std::nullopt;
    E.Pending = true;
  } else if (State != "usable") {
    return std::nullopt;
  }
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
  const std::optional<StringRef> Deps = takeSized(Text, "deps");
  if (!Deps)
    return std::nullopt;
  E.Deps = Deps->str();
  const std::optional<StringRef> Names = takeSized(Text, "names");
  if (!Names)
    return std::nullopt;
  E.Names = Names->str();
  const std::optional<StringRef> Pch = takeSized(Text, "pch");
  // A PCH in a usable entry only.
  if (!Pch || !Text.empty() || ((E.WhyNot.empty() && !E.Pending) == Pch->empty()))
    return std::nullopt;
  E.Pch = *Pch;
  return E;
}

std::string keyOf(StringRef Use, const CompilerInvocation &Invocation, StringRef MainPath,
                  StringRef WorkingDir, PreambleBounds Bounds, StringRef Preamble,
                  StringRef Executable) {
  BLAKE3 Hasher;
  auto Add = [&Hasher](StringRef Part) {
    Hasher.update(Part);
    Hasher.update(StringRef("\0", 1));
  };
  Add(EntryMagic);
  Add(Use);
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
  // And as it is written: a header found next to the main file is named
  // after it (`./x.h`, `src/x.h`, `/abs/src/x.h`), in a PCH as in the
  // debug information, so each spelling has its own entry.
  Add(sys::path::parent_path(MainPath));
  Add(WorkingDir);
  Add(Bounds.PreambleEndsAtStartOfLine ? "eol" : "-");
  Add(Preamble);
  return toHex(Hasher.final<KeyBytes>(), /*LowerCase=*/true);
}

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

void touch(StringRef Path) {
  int FD = -1;
  if (sys::fs::openFileForRead(Path, FD))
    return;
  (void)sys::fs::setLastAccessAndModificationTime(FD, std::chrono::system_clock::now());
  sys::Process::SafelyCloseFileDescriptor(FD);
}

std::string notePending(StringRef Directory, StringRef Name,
                        const std::optional<OverlapTimes> &Times) {
  if (std::error_code EC = sys::fs::create_directories(Directory))
    return "cannot create the cache '" + Directory.str() + "': " + EC.message();
  Entry Pending;
  Pending.Pending = true;
  Pending.Times = Times;
  std::string Error;
  if (!storeAtomically(Directory, Name, render(Pending), Error))
    return "entry " + Name.str() + " not stored: " + Error;
  return "";
}

std::string store(Entry &E, StringRef Directory, StringRef Name, std::uint64_t MaxSize,
                  std::string &Problem) {
  std::string Text = render(E);
  if (Text.size() > MaxSize) {
    E.WhyNot = "its entry (" + std::to_string(Text.size()) +
               " bytes) would be larger than the cache's bound";
    E.PragmaMacros.clear();
    E.Pch = StringRef();
    // Nor its inputs, which may be over the bound themselves: such an entry
    // stays until the trim takes it.
    E.Inputs.clear();
    E.Deps.clear();
    E.Names.clear();
    Text = render(E);
  }
  if (!storeAtomically(Directory, Name, Text, Problem))
    Problem = "entry " + Name.str() + " not stored: " + Problem;
  else
    trim(Directory, MaxSize);
  return Text;
}

LookedUp lookUp(StringRef Path) {
  LookedUp Result;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Stored =
      MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Stored)
    return Result;
  std::optional<Entry> Found = parseEntry((*Stored)->getBuffer());
  std::string Changed;
  if (!Found) {
    Result.Why = "is damaged";
  } else if (!Found->Inputs.empty() &&
             !RecordingFileSystem::stillTrue(Found->Inputs, *vfs::getRealFileSystem(), Changed)) {
    Result.Why = "is stale (" + Changed + ")";
  } else {
    Result.Found = std::move(Found);
    Result.Bytes = std::move(*Stored);
    touch(Path);
  }
  return Result;
}

EntryState stateOf(StringRef Path, std::optional<OverlapTimes> *Times) {
  if (Times)
    Times->reset();
  Expected<sys::fs::file_t> File = sys::fs::openNativeFileForRead(Path);
  if (!File) {
    consumeError(File.takeError());
    return EntryState::Missing;
  }
  char Bytes[64];
  Expected<std::size_t> Read = sys::fs::readNativeFile(*File, MutableArrayRef<char>(Bytes));
  sys::fs::closeFile(*File);
  if (!Read) {
    consumeError(Read.takeError());
    return EntryState::Missing;
  }
  StringRef Text(Bytes, *Read);
  // A damaged entry is built again, as a pending one is.
  if (takeLine(Text) != EntryMagic)
    return EntryState::Pending;
  StringRef State = takeLine(Text);
  if (State == "usable" || State.starts_with("unusable "))
    return EntryState::Stored;
  std::optional<OverlapTimes> Kept;
  if (Times && State.consume_front("pending") && parsePending(State, Kept))
    *Times = Kept;
  return EntryState::Pending;
}

void usePch(PreprocessorOptions &PP, vfs::InMemoryFileSystem &Memory, StringRef Key, StringRef Pch,
            PreambleBounds Bounds) {
  const std::string PchPath = (PchDirectory + "/" + Key + ".pch").str();
  Memory.addFileNoOwn(PchPath, 0, MemoryBufferRef(Pch, PchPath));
  PP.ImplicitPCHInclude = PchPath;
  PP.PrecompiledPreambleBytes = {Bounds.Size, Bounds.PreambleEndsAtStartOfLine};
  // The entry's inputs were checked, byte for byte; Clang's check of sizes
  // and times would only refuse a file touched but unchanged.
  PP.DisablePCHOrModuleValidation = DisableValidationForModuleKind::PCH;
  // The PCH holds the predefined macros.
  PP.UsePredefines = false;
  // And the command line's, as the preamble's headers left them: with the
  // validation off, Clang would define every -D again after the PCH, undoing
  // a header's redefinition (glibc's <features.h> sets _POSIX_C_SOURCE under
  // _DEFAULT_SOURCE), with a warning. The key covers the command line, so
  // the PCH was built with the same -D and -U.
  PP.Macros.clear();
}

std::optional<Precompiled> precompile(const CompilerInvocation &Build, const MemoryBuffer &Main,
                                      PreambleBounds Bounds, DiagnosticsEngine &Diags,
                                      StringRef WorkingDir,
                                      std::shared_ptr<PCHContainerOperations> Ops,
                                      PreambleCallbacks &Callbacks, std::string &Why) {
  IntrusiveRefCntPtr<RecordingFileSystem> Read(
      new RecordingFileSystem(vfs::createPhysicalFileSystem()));
  IntrusiveRefCntPtr<vfs::FileSystem> BuildFS(new vfs::OverlayFileSystem(Read));
  if (BuildFS->setCurrentWorkingDirectory(WorkingDir))
    return std::nullopt;
  ErrorOr<PrecompiledPreamble> Preamble =
      PrecompiledPreamble::Build(Build, &Main, Bounds, Diags, BuildFS, std::move(Ops),
                                 /*StoreInMemory=*/true, /*StoragePath=*/"", Callbacks);
  if (!Preamble) {
    Why = "precompiling the preamble failed: " + Preamble.getError().message();
    return std::nullopt;
  }
  Precompiled Result;
  raw_string_ostream InputsOS(Result.Inputs);
  if (!Read->write(InputsOS)) {
    Why = "the preamble's inputs changed while it was parsed";
    return std::nullopt;
  }
  // The PCH's bytes: an in-memory preamble is a file of the file system it
  // gives a parse.
  CompilerInvocation Probe(Build);
  IntrusiveRefCntPtr<vfs::FileSystem> ProbeFS(new vfs::InMemoryFileSystem());
  std::unique_ptr<MemoryBuffer> Dummy = MemoryBuffer::getMemBuffer("", Main.getBufferIdentifier());
  Preamble->AddImplicitPreamble(Probe, ProbeFS, Dummy.get());
  ErrorOr<std::unique_ptr<MemoryBuffer>> Bytes =
      ProbeFS->getBufferForFile(Probe.getPreprocessorOpts().ImplicitPCHInclude);
  Probe.getPreprocessorOpts().clearRemappedFiles();
  if (!Bytes || (*Bytes)->getBufferSize() == 0) {
    Why = "the precompiled preamble cannot be read";
    return std::nullopt;
  }
  // The bytes belong to the preamble, which goes with this scope.
  Result.Pch = MemoryBuffer::getMemBufferCopy((*Bytes)->getBuffer());
  return Result;
}

void keepLoaded(std::unique_ptr<MemoryBuffer> Entry) {
  // The plugin instruments on a thread of its own beside an overlapped
  // compile (clang-plugin/OverlappedCompile.h).
  static std::mutex Guard;
  static std::vector<std::unique_ptr<MemoryBuffer>> Loaded;
  const std::lock_guard<std::mutex> Lock(Guard);
  Loaded.push_back(std::move(Entry));
}

} // namespace pomp::inst::preamble
