//===- RecordingFileSystem.cpp - What a parse read from the disk ----------===//

#include "RecordingFileSystem.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <vector>

namespace pomp::ompinst {
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
  std::vector<std::string> Names;
  std::error_code ListEC;
  for (vfs::directory_iterator It = ProxyFileSystem::dir_begin(Dir, ListEC), End;
       It != End && !ListEC; It.increment(ListEC))
    Names.push_back(llvm::sys::path::filename(It->path()).str());
  if (ListEC) {
    record(Absolute, Kind::Missing);
  } else {
    llvm::sort(Names);
    std::string Joined;
    for (const std::string &Name : Names)
      (Joined += Name) += '\0';
    record(Absolute, Kind::Listing, hashOf({Joined}));
  }
  return ProxyFileSystem::dir_begin(Dir, EC);
}

void RecordingFileSystem::recordContents(const std::string &AbsolutePath,
                                         llvm::StringRef Contents) {
  record(AbsolutePath, Kind::Read, hashOf({Contents}));
}

bool RecordingFileSystem::write(llvm::raw_ostream &OS) const {
  if (Inconsistent)
    return false;
  std::string Text = "pomp-ompinst-inputs 1\n";
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

} // namespace pomp::ompinst
