//===- RecordingFileSystem.cpp - What a parse read from the disk ----------===//

#include "pomp/instrumenter/RecordingFileSystem.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>
#include <vector>

namespace pomp::inst {
namespace {

namespace vfs = llvm::vfs;

/// Bytes of a recorded hash (BLAKE3, truncated to 128 bits).
constexpr std::size_t HashBytes = 16;

std::string hashOf(llvm::ArrayRef<llvm::StringRef> Parts) {
  llvm::BLAKE3 Hasher;
  for (llvm::StringRef Part : Parts)
    Hasher.update(Part);
  return llvm::toHex(Hasher.final<HashBytes>(), /*LowerCase=*/true);
}

/// The first line of a list.
constexpr llvm::StringLiteral ListHeader = "pomp-ompinst-inputs 1";

/// The hash of a directory's names as dir_begin records it; nullopt when it
/// cannot be listed.
std::optional<std::string> listingHash(vfs::FileSystem &FS, const llvm::Twine &Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (vfs::directory_iterator It = FS.dir_begin(Dir, EC), End; It != End && !EC; It.increment(EC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  if (EC)
    return std::nullopt;
  llvm::sort(Names);
  std::string Joined;
  for (const std::string &Name : Names)
    (Joined += Name) += '\0';
  return hashOf({Joined});
}

/// One record of a list: kind, state, path.
struct Line {
  char Kind;
  llvm::StringRef State;
  llvm::StringRef Path;
};

/// The records of a list; nullopt when it is not one.
std::optional<std::vector<Line>> parseList(llvm::StringRef List) {
  auto [First, Rest] = List.split('\n');
  if (First != ListHeader)
    return std::nullopt;
  std::vector<Line> Lines;
  while (!Rest.empty()) {
    auto [Text, After] = Rest.split('\n');
    Rest = After;
    auto [Kind, KindRest] = Text.split('\t');
    auto [State, Path] = KindRest.split('\t');
    if (Kind.size() != 1 || Path.empty() || State.empty())
      return std::nullopt;
    Lines.push_back({Kind[0], State, Path});
  }
  return Lines;
}

/// Which of two records of the same path wins: what was found beats what
/// was not (a later failed look, such as a permission error, must not hide
/// that a file mattered), contents and names beat existence.
int rank(RecordingFileSystem::Kind What) {
  switch (What) {
  case RecordingFileSystem::Kind::Missing:
    return 0;
  case RecordingFileSystem::Kind::File:
  case RecordingFileSystem::Kind::Directory:
    return 1;
  case RecordingFileSystem::Kind::Listing:
  case RecordingFileSystem::Kind::Read:
    return 2;
  }
  return 0;
}

/// A file of the recording file system: what it reads is recorded.
class RecordingFile : public vfs::File {
public:
  RecordingFile(std::unique_ptr<vfs::File> Base, RecordingFileSystem &Owner, std::string Path)
      : Base(std::move(Base)), Owner(Owner), Path(std::move(Path)) {}

  llvm::ErrorOr<vfs::Status> status() override { return Base->status(); }
  llvm::ErrorOr<std::string> getName() override { return Base->getName(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &Name,
                                                               int64_t FileSize,
                                                               bool RequiresNullTerminator,
                                                               bool IsVolatile) override {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
        Base->getBuffer(Name, FileSize, RequiresNullTerminator, IsVolatile);
    if (Buffer)
      Owner.recordContents(Path, (*Buffer)->getBuffer());
    return Buffer;
  }
  std::error_code close() override { return Base->close(); }

private:
  std::unique_ptr<vfs::File> Base;
  RecordingFileSystem &Owner;
  std::string Path;
};

} // namespace

std::string RecordingFileSystem::absolute(const llvm::Twine &Path) const {
  llvm::SmallString<256> Absolute;
  Path.toVector(Absolute);
  if (getUnderlyingFS().makeAbsolute(Absolute))
    return "";
  return std::string(Absolute);
}

void RecordingFileSystem::record(const std::string &AbsolutePath, Kind What, std::string State) {
  if (AbsolutePath.empty())
    return;
  auto [It, Inserted] = Paths.try_emplace(AbsolutePath, Seen{What, State});
  if (Inserted)
    return;
  Seen &Old = It->second;
  if (Old.What == What && What == Kind::Read && Old.State != State)
    Inconsistent = true;
  else if (rank(What) > rank(Old.What))
    Old = Seen{What, std::move(State)};
}

llvm::ErrorOr<vfs::Status> RecordingFileSystem::status(const llvm::Twine &Path) {
  llvm::ErrorOr<vfs::Status> Result = ProxyFileSystem::status(Path);
  record(absolute(Path),
         Result ? (Result->isDirectory() ? Kind::Directory : Kind::File) : Kind::Missing);
  return Result;
}

llvm::ErrorOr<std::unique_ptr<vfs::File>>
RecordingFileSystem::openFileForRead(const llvm::Twine &Path) {
  llvm::ErrorOr<std::unique_ptr<vfs::File>> Result = ProxyFileSystem::openFileForRead(Path);
  const std::string Absolute = absolute(Path);
  if (!Result) {
    record(Absolute, Kind::Missing);
    return Result;
  }
  // Opened but perhaps never read (only its size or existence used): a
  // file; its contents count once they are read.
  record(Absolute, Kind::File);
  return std::unique_ptr<vfs::File>(
      std::make_unique<RecordingFile>(std::move(*Result), *this, Absolute));
}

vfs::directory_iterator RecordingFileSystem::dir_begin(const llvm::Twine &Dir,
                                                       std::error_code &EC) {
  const std::string Absolute = absolute(Dir);
  // The names as the caller will see them, listed once more for the record.
  const std::optional<std::string> Listed = listingHash(getUnderlyingFS(), Dir);
  if (!Listed)
    record(Absolute, Kind::Missing);
  else
    record(Absolute, Kind::Listing, *Listed);
  return ProxyFileSystem::dir_begin(Dir, EC);
}

void RecordingFileSystem::recordContents(const std::string &AbsolutePath,
                                         llvm::StringRef Contents) {
  record(AbsolutePath, Kind::Read, hashOf({Contents}));
}

bool RecordingFileSystem::write(llvm::raw_ostream &OS) const {
  if (Inconsistent)
    return false;
  std::string Text = (ListHeader + "\n").str();
  for (const auto &[Path, What] : Paths) {
    if (llvm::StringRef(Path).contains('\n'))
      return false;
    Text += static_cast<char>(What.What);
    ((Text += '\t') += What.State) += '\t';
    (Text += Path) += '\n';
  }
  OS << Text;
  return true;
}

bool RecordingFileSystem::merge(llvm::StringRef List) {
  const std::optional<std::vector<Line>> Lines = parseList(List);
  if (!Lines)
    return false;
  for (const Line &L : *Lines)
    record(L.Path.str(), static_cast<Kind>(L.Kind), L.State.str());
  return true;
}

bool RecordingFileSystem::stillTrue(llvm::StringRef List, vfs::FileSystem &FS,
                                    std::string &Changed) {
  const std::optional<std::vector<Line>> Lines = parseList(List);
  if (!Lines) {
    Changed = "not a list of inputs";
    return false;
  }
  for (const Line &L : *Lines) {
    bool Holds = false;
    switch (static_cast<Kind>(L.Kind)) {
    case Kind::Read: {
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
          FS.getBufferForFile(L.Path, /*FileSize=*/-1, /*RequiresNullTerminator=*/false);
      Holds = Buffer && hashOf({(*Buffer)->getBuffer()}) == L.State;
      break;
    }
    case Kind::File: {
      const llvm::ErrorOr<vfs::Status> Status = FS.status(L.Path);
      Holds = Status && !Status->isDirectory();
      break;
    }
    case Kind::Directory: {
      const llvm::ErrorOr<vfs::Status> Status = FS.status(L.Path);
      Holds = Status && Status->isDirectory();
      break;
    }
    case Kind::Listing: {
      const std::optional<std::string> Listed = listingHash(FS, L.Path);
      Holds = Listed && *Listed == L.State;
      break;
    }
    case Kind::Missing:
      Holds = !FS.status(L.Path);
      break;
    }
    if (!Holds) {
      Changed = L.Path.str();
      return false;
    }
  }
  return true;
}

} // namespace pomp::inst
