//===- PreambleEntry.h - Entries of the cache of precompiled preambles -*- C++ -*-===//
///
/// \file
/// What the two users of the preamble cache share: ompinst's parse
/// (PreambleCache.cpp) and the compile inside clang-19 (CompilePreamble.cpp).
/// An entry is one file, `<key>.preamble`, in the cache's directory: its
/// state, what its preamble's parse read, and the PCH's bytes.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_LIB_PREAMBLEENTRY_H
#define POMP_INSTRUMENTER_LIB_PREAMBLEENTRY_H

#include "pomp/instrumenter/Preamble.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class CompilerInvocation;
class DiagnosticsEngine;
class PCHContainerOperations;
class PreambleCallbacks;
class PreprocessorOptions;
} // namespace clang
namespace llvm::vfs {
class InMemoryFileSystem;
} // namespace llvm::vfs

namespace pomp::inst::preamble {

/// Entries are named <key> + this; anything else in the directory is a
/// temporary file (of a running or killed ompinst).
inline constexpr llvm::StringLiteral EntrySuffix = ".preamble";
/// Where a parse or compile finds the PCH: in memory, above the file
/// system, at a path no header lives at.
inline constexpr llvm::StringLiteral PchDirectory = "/__pomp_ompinst_preamble__";

/// One entry of the cache.
struct Entry {
  /// Seen once, not precompiled yet (the compile's entries: a preamble is
  /// precompiled the second time it is compiled).
  bool Pending = false;
  /// A pending compile entry's first compile, when it overlapped.
  std::optional<OverlapTimes> Times;
  /// Empty when the PCH may be used; else why not (the PCH is then empty).
  std::string WhyNot;
  std::vector<std::string> PragmaMacros;
  /// What the preamble's parse read (RecordingFileSystem's list).
  std::string Inputs;
  /// The compile's entries: the files a dependency file names for the
  /// preamble, in order, as its parse named them: "S <name>" (a system
  /// header) or "U <name>" per line.
  std::string Deps;
  /// The compile's entries: the headers the PCH names otherwise than the
  /// preamble's parse did (CompilePreamble.cpp, HeaderNames), two lines each:
  /// the PCH's name, then the parse's.
  std::string Names;
  llvm::StringRef Pch;
};

std::string render(const Entry &E);
/// Nullopt when Text is not a whole entry.
std::optional<Entry> parseEntry(llvm::StringRef Text);

/// The key of a preamble: a hash of everything its PCH depends on but for
/// the files it read, which the entry lists and which are checked when it is
/// found. Use tells the parse's entries from the compile's.
std::string keyOf(llvm::StringRef Use, const clang::CompilerInvocation &Invocation,
                  llvm::StringRef MainPath, llvm::StringRef WorkingDir,
                  clang::PreambleBounds Bounds, llvm::StringRef Preamble,
                  llvm::StringRef Executable);

/// Writes Text to Directory/Name through a temporary file and a rename: a
/// concurrent reader sees the old entry or the new one, never a part.
bool storeAtomically(llvm::StringRef Directory, llvm::StringRef Name, llvm::StringRef Text,
                     std::string &Error);
/// Notes, as Directory/Name, a preamble seen for the first time: it is
/// precompiled the next time (a build from scratch compiles each file once
/// and would pay the PCH's writing for nothing). Empty, or what went wrong.
std::string notePending(llvm::StringRef Directory, llvm::StringRef Name,
                        const std::optional<OverlapTimes> &Times = std::nullopt);

/// Stores E as Directory/Name and keeps the cache under MaxSize; returns
/// what was stored. An entry larger than the bound is stored unusable (its
/// WhyNot says why; no PCH), so that later parses do not precompile it
/// again; it lists no inputs, so it stays until the trim takes it. Problem
/// says what went wrong, if anything.
std::string store(Entry &E, llvm::StringRef Directory, llvm::StringRef Name, std::uint64_t MaxSize,
                  std::string &Problem);

/// Keeps the cache under its bound: the least recently used entries go
/// (a hit sets an entry's time), and temporary files a killed ompinst left.
void trim(llvm::StringRef Directory, std::uint64_t MaxSize);
/// Marks an entry as used now, for the trim's order.
void touch(llvm::StringRef Path);

/// An entry looked up: Found is set (and Bytes holds it) when it is whole
/// and everything its preamble read is unchanged (a pending entry, and one
/// over the bound, list nothing); else Why says what was wrong with it
/// (empty: there is none).
struct LookedUp {
  std::optional<Entry> Found;
  std::unique_ptr<llvm::MemoryBuffer> Bytes;
  std::string Why;
};
LookedUp lookUp(llvm::StringRef Path);

/// What an entry's first lines say of it, without reading the rest or
/// checking its inputs (the PCH follows them, megabytes of it): Pending
/// also for a damaged entry, which is built again as a pending one is.
/// Times, when given, gets a pending entry's.
EntryState stateOf(llvm::StringRef Path, std::optional<OverlapTimes> *Times = nullptr);

/// Sets a parse or compile up to load the PCH of an entry instead of
/// parsing the main file's first Bounds.Size bytes; Memory gets the PCH,
/// which the caller puts above the file system the parse reads.
void usePch(clang::PreprocessorOptions &PP, llvm::vfs::InMemoryFileSystem &Memory,
            llvm::StringRef Key, llvm::StringRef Pch, clang::PreambleBounds Bounds);

/// A preamble precompiled: its PCH's bytes and what its parse read
/// (RecordingFileSystem's list).
struct Precompiled {
  std::unique_ptr<llvm::MemoryBuffer> Pch;
  std::string Inputs;
};

/// Precompiles Main's first Bounds.Size bytes with Build's options, reading
/// the disk from WorkingDir, in memory; nullopt, with Why, when that fails.
std::optional<Precompiled> precompile(const clang::CompilerInvocation &Build,
                                      const llvm::MemoryBuffer &Main, clang::PreambleBounds Bounds,
                                      clang::DiagnosticsEngine &Diags, llvm::StringRef WorkingDir,
                                      std::shared_ptr<clang::PCHContainerOperations> Ops,
                                      clang::PreambleCallbacks &Callbacks, std::string &Why);

/// Keeps an entry's bytes for the rest of the process: the PCH is read from
/// them in place, and the file system above which it lies lives on.
void keepLoaded(std::unique_ptr<llvm::MemoryBuffer> Entry);

} // namespace pomp::inst::preamble

#endif // POMP_INSTRUMENTER_LIB_PREAMBLEENTRY_H
