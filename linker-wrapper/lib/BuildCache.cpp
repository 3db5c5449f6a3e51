//===- BuildCache.cpp - ompcc's cache of its own steps --------------------===//
///
/// \file
/// An entry file:
///   pomp-ompcc-cache 1
///   input <kind> <state> <path>      (instrumented files only, one per input)
///   log <size>
///   <size bytes>
///   file <size> <absolute path>
///   <size bytes>
///   end
/// An entry of one file keeps that file also as <key>.src/<base name>
/// beside it (BuildCache::instrumentedInPlace).
/// Kinds and states are ompinst's (--inputs-list): f a file read (state:
/// the hash of its contents), e a file found, d a directory, l a listed
/// directory (state: the hash of its names), - a path that did not exist.
///
//===----------------------------------------------------------------------===//

#include "pomp/ompcc/BuildCache.h"
#include "pomp/link/PompLink.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>

namespace pomp::ompcc {
namespace {

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

constexpr StringRef Magic = "pomp-ompcc-cache 1";
constexpr StringRef InputsMagic = "pomp-ompinst-inputs 1";
constexpr StringRef InstrumentedSuffix = ".inst";
constexpr StringRef LinkSuffix = ".link";
constexpr StringRef TempInfix = ".tmp-";
/// The directory of the copy of a one-file entry's file.
constexpr StringRef InPlaceSuffix = ".src";
/// Bytes of a hash (BLAKE3, truncated): 128 bits, as ccache's keys.
constexpr std::size_t HashBytes = 16;
/// The default bound of the cache: some 2,000 instrumented LULESHs.
constexpr std::uint64_t DefaultMaxSize = 256ULL << 20;
/// Every how many stores the cache's size is checked (chosen by the key,
/// so without a shared counter), and to what part of the bound it is
/// trimmed, so that trimming does not run at every store once full.
constexpr unsigned TrimEvery = 16;
constexpr unsigned TrimTargetPercent = 80;
/// A temporary file older than this belongs to a command that was killed.
constexpr std::chrono::hours StaleTemporary{1};

std::string hexHash(llvm::BLAKE3 &Hasher) {
  const std::array<std::uint8_t, HashBytes> Hash = Hasher.final<HashBytes>();
  return llvm::toHex(Hash, /*LowerCase=*/true);
}

std::optional<std::string> hashFile(StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  llvm::BLAKE3 Hasher;
  Hasher.update((*Buffer)->getBuffer());
  return hexHash(Hasher);
}

std::optional<std::string> hashListing(StringRef Directory) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (fs::directory_iterator It(Directory, EC), End; It != End && !EC; It.increment(EC))
    Names.push_back(path::filename(It->path()).str());
  if (EC)
    return std::nullopt;
  llvm::sort(Names);
  llvm::BLAKE3 Hasher;
  for (const std::string &Name : Names) {
    Hasher.update(Name);
    Hasher.update(StringRef("\0", 1));
  }
  return hexHash(Hasher);
}

/// What an input is now, in the form of the entry's state field; nullopt
/// when it is no longer of its kind (a missing path that now exists).
std::optional<std::string> inputState(char Kind, StringRef Path) {
  switch (Kind) {
  case 'f':
    return hashFile(Path);
  case 'l':
    return hashListing(Path);
  case 'e': {
    fs::file_status Status;
    if (!fs::status(Path, Status) && Status.type() != fs::file_type::directory_file)
      return std::string("-");
    return std::nullopt;
  }
  case 'd':
    if (fs::is_directory(Path))
      return std::string("-");
    return std::nullopt;
  case '-': {
    fs::file_status Status;
    if (fs::status(Path, Status))
      return std::string("-");
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

/// A reader of an entry file.
class Reader {
public:
  explicit Reader(StringRef Text) : Rest(Text) {}
  /// The next line without its newline; nullopt at the end.
  std::optional<StringRef> line() {
    if (Rest.empty())
      return std::nullopt;
    const auto [Line, After] = Rest.split('\n');
    Rest = After;
    return Line;
  }
  /// The next Size bytes and the newline after them.
  std::optional<StringRef> bytes(std::uint64_t Size) {
    if (Rest.size() < Size + 1 || Rest[Size] != '\n')
      return std::nullopt;
    const StringRef Bytes = Rest.take_front(Size);
    Rest = Rest.drop_front(Size + 1);
    return Bytes;
  }

private:
  StringRef Rest;
};

std::optional<std::uint64_t> parseSize(StringRef Text) {
  std::uint64_t Value = 0;
  if (Text.getAsInteger(10, Value))
    return std::nullopt;
  return Value;
}

/// "256M" and the like: bytes with an optional binary K, M or G.
std::optional<std::uint64_t> parseMaxSize(StringRef Text) {
  Text = Text.trim();
  unsigned Shift = 0;
  if (!Text.empty()) {
    switch (llvm::toUpper(Text.back())) {
    case 'K':
      Shift = 10;
      break;
    case 'M':
      Shift = 20;
      break;
    case 'G':
      Shift = 30;
      break;
    default:
      break;
    }
    if (Shift)
      Text = Text.drop_back();
  }
  std::uint64_t Value = 0;
  if (Text.empty() || Text.getAsInteger(10, Value) || Value == 0 || (Value >> (64 - Shift - 1)))
    return std::nullopt;
  return Value << Shift;
}

/// Writes Text to Path through a unique temporary name beside it
/// (<Path>.tmp-..., which trim() knows), renamed into place: a concurrent
/// reader sees the old file or the new one, never a part. An entry that
/// cannot be written is no error: the build goes on uncached.
bool writeAtomically(StringRef Path, StringRef Text) {
  if (llvm::Error E = link::writeFileAtomically(Path, Text)) {
    llvm::consumeError(std::move(E));
    return false;
  }
  return true;
}

} // namespace

CacheKey::CacheKey(StringRef Kind) { add(Kind); }

void CacheKey::add(StringRef Field) {
  // The length first: no two lists of fields give the same bytes.
  const std::string Length = std::to_string(Field.size()) + ":";
  Hasher.update(Length);
  Hasher.update(Field);
}

void CacheKey::addWords(llvm::ArrayRef<std::string> Words) {
  add("words:" + std::to_string(Words.size()));
  for (const std::string &Word : Words)
    add(Word);
}

bool CacheKey::addFileContents(StringRef Path) {
  const std::optional<std::string> Hash = hashFile(Path);
  if (!Hash)
    return false;
  add(Path);
  add(*Hash);
  return true;
}

std::string CacheKey::finish() { return hexHash(Hasher); }

llvm::Expected<std::optional<BuildCache>> BuildCache::fromEnvironment() {
  // Every setting is checked, also when the cache is off: a misspelt one
  // is never ignored.
  std::uint64_t MaxSize = DefaultMaxSize;
  if (const char *Max = std::getenv(MaxSizeVariable); Max && *Max) {
    const std::optional<std::uint64_t> Parsed = parseMaxSize(Max);
    if (!Parsed)
      return llvm::createStringError(std::string(MaxSizeVariable) + "='" + Max +
                                     "' is not a valid size: use bytes, or a number with K, M "
                                     "or G (256M)");
    MaxSize = *Parsed;
  }
  if (const char *Enable = std::getenv(EnableVariable)) {
    const StringRef Value = Enable;
    if (Value == "0")
      return std::nullopt;
    if (!Value.empty() && Value != "1")
      return llvm::createStringError(
          std::string(EnableVariable) + "='" + Value.str() +
          "' is not a valid setting: use 0 (no cache) or 1 (the cache, the default)");
  }
  llvm::SmallString<256> Directory;
  if (const char *Dir = std::getenv(DirectoryVariable); Dir && *Dir)
    Directory = Dir;
  else if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg && path::is_absolute(Xdg))
    path::append(Directory, Xdg, "pomp-ompcc");
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    path::append(Directory, Home, ".cache", "pomp-ompcc");
  else
    return std::nullopt;
  if (fs::make_absolute(Directory))
    return std::nullopt;
  return std::optional<BuildCache>(BuildCache(std::string(Directory), MaxSize));
}

std::string BuildCache::entryPath(StringRef Key, StringRef Suffix) const {
  llvm::SmallString<256> Path(Directory);
  path::append(Path, Key.take_front(2), Key + Suffix);
  return std::string(Path);
}

std::optional<CacheEntry> BuildCache::lookupInstrumented(StringRef Key) const {
  return lookup(entryPath(Key, InstrumentedSuffix), /*WithInputs=*/true);
}

std::optional<CacheEntry> BuildCache::lookupLink(StringRef Key) const {
  return lookup(entryPath(Key, LinkSuffix), /*WithInputs=*/false);
}

std::optional<CacheEntry> BuildCache::lookup(StringRef Path, bool WithInputs) const {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  Reader In((*Buffer)->getBuffer());
  if (In.line() != std::optional<StringRef>(Magic))
    return std::nullopt;
  CacheEntry Entry;
  bool SawInput = false;
  while (std::optional<StringRef> Line = In.line()) {
    const auto [Tag, Rest] = Line->split(' ');
    if (Tag == "input") {
      // "<kind> <state> <path>": the path last, spaces and all.
      const auto [Kind, AfterKind] = Rest.split(' ');
      const auto [State, InputPath] = AfterKind.split(' ');
      if (Kind.size() != 1 || InputPath.empty() || inputState(Kind.front(), InputPath) != State)
        return std::nullopt;
      SawInput = true;
    } else if (Tag == "log") {
      const std::optional<std::uint64_t> Size = parseSize(Rest);
      const std::optional<StringRef> Bytes = Size ? In.bytes(*Size) : std::nullopt;
      if (!Bytes)
        return std::nullopt;
      Entry.Log = Bytes->str();
    } else if (Tag == "file") {
      const auto [SizeText, FilePath] = Rest.split(' ');
      const std::optional<std::uint64_t> Size = parseSize(SizeText);
      const std::optional<StringRef> Bytes = Size ? In.bytes(*Size) : std::nullopt;
      if (!Bytes || FilePath.empty())
        return std::nullopt;
      Entry.Files.emplace_back(FilePath.str(), Bytes->str());
    } else if (Tag == "end") {
      // An instrumented file always read its source: an entry without
      // inputs is damaged.
      if (WithInputs && !SawInput)
        return std::nullopt;
      // Used now: the least recently used entries are the first to go.
      ::utimensat(AT_FDCWD, std::string(Path).c_str(), nullptr, 0);
      return Entry;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<std::string> BuildCache::storeInstrumented(StringRef Key, StringRef InputsList,
                                                         const CacheEntry &Entry) const {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> List =
      llvm::MemoryBuffer::getFile(InputsList, /*IsText=*/true);
  if (!List)
    return std::nullopt;
  llvm::SmallVector<StringRef, 256> Lines;
  (*List)->getBuffer().split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  if (Lines.empty() || Lines.front() != InputsMagic)
    return std::nullopt;
  std::string Header;
  for (StringRef Line : llvm::drop_begin(Lines)) {
    const auto [Kind, Rest] = Line.split('\t');
    const auto [State, InputPath] = Rest.split('\t');
    if (Kind.size() != 1 || State.empty() || State.contains(' ') || InputPath.empty())
      return std::nullopt;
    Header += ("input " + Kind + " " + State + " " + InputPath + "\n").str();
  }
  if (!store(entryPath(Key, InstrumentedSuffix), Header, Entry) || Entry.Files.size() != 1)
    return std::nullopt;
  // The copy, written as the entry is. An entry without it (or with an
  // older one) is still used: its file is then restored where it was.
  const auto &[File, Contents] = Entry.Files.front();
  const std::string Copy = inPlacePath(Key, File);
  if (fs::create_directories(path::parent_path(Copy)) || !writeAtomically(Copy, Contents))
    return std::nullopt;
  return Copy;
}

std::optional<std::string> BuildCache::instrumentedInPlace(StringRef Key,
                                                           const CacheEntry &Entry) const {
  if (Entry.Files.size() != 1)
    return std::nullopt;
  const auto &[File, Contents] = Entry.Files.front();
  const std::string Copy = inPlacePath(Key, File);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(Copy, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Text || (*Text)->getBuffer() != Contents)
    return std::nullopt;
  return Copy;
}

std::string BuildCache::inPlacePath(StringRef Key, StringRef File) const {
  llvm::SmallString<256> Path(entryPath(Key, InPlaceSuffix));
  path::append(Path, path::filename(File));
  return std::string(Path);
}

void BuildCache::storeLink(StringRef Key, const CacheEntry &Entry) const {
  store(entryPath(Key, LinkSuffix), "", Entry);
}

bool BuildCache::store(StringRef Path, StringRef Header, const CacheEntry &Entry) const {
  std::string Text = Magic.str() + "\n" + Header.str();
  Text += "log " + std::to_string(Entry.Log.size()) + "\n" + Entry.Log + "\n";
  for (const auto &[FilePath, Contents] : Entry.Files) {
    if (StringRef(FilePath).contains('\n'))
      return false;
    Text += "file " + std::to_string(Contents.size()) + " " + FilePath + "\n" + Contents + "\n";
  }
  Text += "end\n";
  if (Text.size() > MaxSize)
    return false;
  if (fs::create_directories(path::parent_path(Path)) || !writeAtomically(Path, Text))
    return false;
  // Checked every TrimEvery stores on average, and after every store that
  // is large for the bound, so that a small cache keeps its bound too.
  const StringRef Name = path::filename(Path);
  if (Name.empty() || llvm::hexDigitValue(Name.front()) % TrimEvery == 0 ||
      Text.size() * TrimEvery > MaxSize)
    trim();
  return true;
}

void BuildCache::trim() const {
  struct Stored {
    std::string Path;
    std::uint64_t Size;
    llvm::sys::TimePoint<> Used;
    /// The entry's in-place copy's directory, if it has one.
    std::string Copy;
  };
  std::vector<Stored> Entries;
  /// The in-place copies' directories (<key>.src) and the size of each.
  llvm::StringMap<std::pair<std::string, std::uint64_t>> Copies;
  std::uint64_t Total = 0;
  const llvm::sys::TimePoint<> Now = std::chrono::system_clock::now();
  // Removes a temporary file left by a killed command; true for any
  // temporary file.
  const auto isTemporary = [&Now](StringRef Name, const fs::basic_file_status &Status,
                                  const std::string &Path) {
    if (!Name.contains(TempInfix))
      return false;
    if (Now - Status.getLastModificationTime() > StaleTemporary)
      fs::remove(Path);
    return true;
  };
  std::error_code EC;
  for (fs::directory_iterator Sub(Directory, EC), End; Sub != End && !EC; Sub.increment(EC)) {
    std::error_code InnerEC;
    for (fs::directory_iterator It(Sub->path(), InnerEC); It != End && !InnerEC;
         It.increment(InnerEC)) {
      const StringRef Name = path::filename(It->path());
      llvm::ErrorOr<fs::basic_file_status> Status = It->status();
      if (!Status)
        continue;
      if (Status->type() == fs::file_type::directory_file && Name.ends_with(InPlaceSuffix)) {
        std::uint64_t Size = 0;
        std::error_code CopyEC;
        for (fs::directory_iterator Copy(It->path(), CopyEC); Copy != End && !CopyEC;
             Copy.increment(CopyEC))
          if (llvm::ErrorOr<fs::basic_file_status> CopyStatus = Copy->status())
            if (!isTemporary(path::filename(Copy->path()), *CopyStatus, Copy->path()))
              Size += CopyStatus->getSize();
        Copies[Name.drop_back(InPlaceSuffix.size())] = {It->path(), Size};
        continue;
      }
      if (Status->type() != fs::file_type::regular_file || isTemporary(Name, *Status, It->path()))
        continue;
      if (!Name.ends_with(InstrumentedSuffix) && !Name.ends_with(LinkSuffix))
        continue;
      Entries.push_back({It->path(), Status->getSize(), Status->getLastModificationTime(), ""});
      Total += Status->getSize();
    }
  }
  // A copy goes with its entry; one whose entry is gone is of no use.
  for (Stored &Entry : Entries) {
    const StringRef Name = path::filename(Entry.Path);
    if (!Name.ends_with(InstrumentedSuffix))
      continue;
    const auto Found = Copies.find(Name.drop_back(InstrumentedSuffix.size()));
    if (Found == Copies.end())
      continue;
    Entry.Copy = Found->second.first;
    Entry.Size += Found->second.second;
    Total += Found->second.second;
    Copies.erase(Found);
  }
  for (const auto &Orphan : Copies)
    fs::remove_directories(Orphan.second.first, /*IgnoreErrors=*/true);
  if (Total <= MaxSize)
    return;
  llvm::sort(Entries, [](const Stored &A, const Stored &B) { return A.Used < B.Used; });
  const std::uint64_t Target = MaxSize / 100 * TrimTargetPercent;
  for (const Stored &Entry : Entries) {
    if (Total <= Target)
      break;
    // Another command may be trimming too: what is gone is gone.
    fs::remove(Entry.Path);
    if (!Entry.Copy.empty())
      fs::remove_directories(Entry.Copy, /*IgnoreErrors=*/true);
    Total -= Entry.Size;
  }
}

} // namespace pomp::ompcc
