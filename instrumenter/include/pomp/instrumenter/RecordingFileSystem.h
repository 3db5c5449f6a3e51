//===- pomp/instrumenter/RecordingFileSystem.h - What a parse read from the disk -*- C++ -*-===//
///
/// \file
/// ompinst --inputs-list (and the plugin's inputs-list=): the files,
/// directories and missing paths a parse depended on, for ompcc's cache of
/// instrumented files (docs/OMPCC.md, "ompcc's cache"), and the inputs of a
/// precompiled preamble (PreambleCache.h).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_RECORDINGFILESYSTEM_H
#define POMP_INSTRUMENTER_RECORDINGFILESYSTEM_H

#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <string>

namespace pomp::inst {

/// A file system that remembers every path the parse asked about: the
/// contents of the files it read (their hash, taken from the very bytes the
/// parse got, so that a file changed during the parse cannot be recorded
/// with its new contents), the files and directories it only found, the
/// names of the directories it listed (Clang's driver lists the GCC
/// installations to find the C++ headers), and the paths that did not
/// exist (a header searched in an -I directory before the one that has
/// it). The output depends on nothing else of the file system, so a cache
/// that finds all of them unchanged may reuse it, as ccache's direct mode.
class RecordingFileSystem : public llvm::vfs::ProxyFileSystem {
public:
  /// What a path was when the parse looked, as written to the list.
  enum class Kind : char {
    Read = 'f',
    File = 'e',
    Directory = 'd',
    Listing = 'l',
    Missing = '-',
  };

  explicit RecordingFileSystem(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base)
      : ProxyFileSystem(std::move(Base)) {}

  llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &Path) override;
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &Path) override;
  bool exists(const llvm::Twine &Path) override { return static_cast<bool>(status(Path)); }
  llvm::vfs::directory_iterator dir_begin(const llvm::Twine &Dir, std::error_code &EC) override;

  /// Called by the files this file system opened, with what they read.
  void recordContents(const std::string &AbsolutePath, llvm::StringRef Contents);

  /// "pomp-ompinst-inputs 1", then "<kind>\t<state>\t<absolute path>" per
  /// line, sorted by path; the state is the hash of a read file's contents
  /// or of a listed directory's names, else "-". False (and nothing
  /// written) when the list would not be true: a file read twice with
  /// different contents, a path with a newline.
  bool write(llvm::raw_ostream &OS) const;

  /// Adds the records of a list write() wrote (another parse's, such as the
  /// one that precompiled a preamble this parse loads instead of reading).
  /// False, with nothing added, when List is not such a list.
  bool merge(llvm::StringRef List);

  /// True when every record of a list write() wrote still holds on FS: each
  /// file read has the same contents, each file and directory found is
  /// there, each directory listed has the same names, each missing path is
  /// missing. Else Changed names the first that does not.
  static bool stillTrue(llvm::StringRef List, llvm::vfs::FileSystem &FS, std::string &Changed);

private:
  struct Seen {
    Kind What;
    std::string State;
  };
  /// The absolute form of Path; empty when it has none.
  std::string absolute(const llvm::Twine &Path) const;
  void record(const std::string &AbsolutePath, Kind What, std::string State = "-");

  std::map<std::string, Seen> Paths;
  /// A file read twice gave different contents.
  bool Inconsistent = false;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_RECORDINGFILESYSTEM_H
