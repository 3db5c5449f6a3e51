//===- pomp/ompcc/BuildCache.h - ompcc's cache of its own steps ---*- C++ -*-===//
///
/// \file
/// A compiler cache (ccache) saves the real compiler's work, not ompcc's:
/// ompinst's run per source and, per link, pomp-link and the compile of the
/// handle initialisation it generates. This cache keeps their results, so a
/// second identical build skips them (docs/OMPCC.md, "ompcc's cache").
///
/// An entry is one file, written to a temporary name and renamed into place
/// (readers never see half an entry, parallel builds never share a
/// temporary file). Its name is a hash of everything that determines the
/// result besides the files the step read; an instrumented file's entry
/// also lists those files (ompinst's --inputs-list: the files it read, the
/// directories it found or listed, the paths it looked for in vain) with the
/// hash of the contents it parsed, and is used only when all of them are
/// still so, as ccache's direct mode does. The cache is bounded: the least recently
/// used entries go when it grows past its size.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_BUILDCACHE_H
#define POMP_OMPCC_BUILDCACHE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pomp::ompcc {

/// The result of a cached step: the files it wrote and what it printed.
struct CacheEntry {
  /// The step's diagnostics (ompinst's warnings, pomp-link's summary),
  /// shown again on a hit.
  std::string Log;
  /// Absolute path and contents of each file the step wrote.
  std::vector<std::pair<std::string, std::string>> Files;
};

/// Builds a cache key from fields that cannot run into each other.
class CacheKey {
public:
  explicit CacheKey(llvm::StringRef Kind);
  void add(llvm::StringRef Field);
  void addWords(llvm::ArrayRef<std::string> Words);
  /// The hash of a file's contents; false when it cannot be read.
  bool addFileContents(llvm::StringRef Path);
  /// The key as hex digits.
  std::string finish();

private:
  llvm::BLAKE3 Hasher;
};

/// ompcc's cache: where it is, how large it may grow, and its entries.
class BuildCache {
public:
  /// The cache the environment asks for: OMPCC_CACHE (0: off; 1 or unset:
  /// on), OMPCC_CACHE_DIR (default $XDG_CACHE_HOME/pomp-ompcc, else
  /// $HOME/.cache/pomp-ompcc), OMPCC_CACHE_MAXSIZE (bytes, with a K, M or G
  /// suffix). nullopt when off or when there is no directory; an error for a
  /// setting that is not valid, so that a misspelt one is never ignored.
  static llvm::Expected<std::optional<BuildCache>> fromEnvironment();

  const std::string &directory() const { return Directory; }
  std::uint64_t maxSize() const { return MaxSize; }

  /// The instrumented files of Key when every input its entry lists is as it
  /// was; nullopt otherwise.
  std::optional<CacheEntry> lookupInstrumented(llvm::StringRef Key) const;
  /// Stores an instrumented file with the inputs ompinst listed in
  /// InputsList (with the hashes of the very contents it parsed). Nothing is
  /// stored (a later run misses) when the list cannot be read.
  /// An entry of one file (a source without instrumented headers) also
  /// keeps that file by itself, under its base name in a directory of the
  /// entry, <key>.src/: the compile reads it there (instrumentedInPlace),
  /// so that a cached compile creates no temporary file or directory. The
  /// path of that copy, or nullopt when there is none.
  std::optional<std::string> storeInstrumented(llvm::StringRef Key, llvm::StringRef InputsList,
                                               const CacheEntry &Entry) const;
  /// The copy storeInstrumented kept of Entry's one file, when it holds
  /// the entry's text; nullopt otherwise.
  std::optional<std::string> instrumentedInPlace(llvm::StringRef Key,
                                                 const CacheEntry &Entry) const;

  /// A link's handle initialisation; its key holds the contents of the
  /// link's inputs (the caller checks that they did not change during the
  /// step before it stores).
  std::optional<CacheEntry> lookupLink(llvm::StringRef Key) const;
  void storeLink(llvm::StringRef Key, const CacheEntry &Entry) const;

  /// The names of the environment variables.
  static constexpr const char *EnableVariable = "OMPCC_CACHE";
  static constexpr const char *DirectoryVariable = "OMPCC_CACHE_DIR";
  static constexpr const char *MaxSizeVariable = "OMPCC_CACHE_MAXSIZE";

private:
  BuildCache(std::string Directory, std::uint64_t MaxSize)
      : Directory(std::move(Directory)), MaxSize(MaxSize) {}
  std::string entryPath(llvm::StringRef Key, llvm::StringRef Suffix) const;
  std::optional<CacheEntry> lookup(llvm::StringRef Path, bool WithInputs) const;
  /// Writes an entry; false when it was not stored.
  bool store(llvm::StringRef Path, llvm::StringRef Header, const CacheEntry &Entry) const;
  /// The path of the copy of a one-file entry's file (instrumentedInPlace).
  std::string inPlacePath(llvm::StringRef Key, llvm::StringRef File) const;
  /// Removes the least recently used entries while the cache is larger than
  /// its bound, and temporary files left by killed commands.
  void trim() const;

  std::string Directory;
  std::uint64_t MaxSize;
};

} // namespace pomp::ompcc

#endif // POMP_OMPCC_BUILDCACHE_H
