//===- pomp/instrumenter/CompilePreamble.h - The compile's precompiled preamble -*- C++ -*-===//
///
/// \file
/// Inside clang-19 (libpomp-clang-plugin.so) the instrumented text is
/// compiled in the same process, and most of that compile is the parse of
/// the headers again: 1.4 G of LULESH's 5.2 G instructions (issue 15,
/// docs/PERFORMANCE.md). As ompinst's parse does (PreambleCache.h), the
/// compile can load the instrumented text's preamble precompiled, from the
/// same cache, in entries of its own: the PCH then holds function bodies,
/// and it is built with the compile's own options, warnings included.
///
/// A preamble is precompiled the second time it is compiled (the first
/// leaves a `pending` entry): a build from scratch compiles each file once
/// and would pay the PCH's writing for nothing. A preamble whose parse gives
/// a diagnostic, or expands `__DATE__`, `__TIME__` or `__TIMESTAMP__`, is
/// never used precompiled: a loaded PCH would give neither the warnings nor
/// today's date. The compile's dependency file names the same files in the
/// same order as without the PCH, its diagnostics the same lines, and the
/// headers keep their names (`./x.h`, which a PCH makes absolute): the
/// object is the same, byte for byte, with debug information too.
/// docs/OMPCC.md, "The compile's precompiled preamble".
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_COMPILEPREAMBLE_H
#define POMP_INSTRUMENTER_COMPILEPREAMBLE_H

#include "pomp/instrumenter/PreambleCache.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <optional>
#include <string>

namespace clang {
class CompilerInstance;
class CompilerInvocation;
class DependencyOutputOptions;
class PCHContainerOperations;
} // namespace clang

namespace pomp::inst {

/// The precompiled preamble of one compile of an instrumented text.
class CompilePreamble {
public:
  /// The entry for compiling Text (the instrumented text of Compile's one
  /// input, or its first part) with Compile's options, from the cache or
  /// built now; null when the compile runs without one (Settings.Verbose
  /// says why). The preamble ends at Limit at the latest (0: no limit; the
  /// plugin limits it to the part of the instrumented text that the source
  /// has too, so that it is known before the instrumentation ends). A
  /// preamble that names Avoid (ompcc's temporary copies of headers, whose
  /// names change with every build) is never precompiled. Settings must
  /// outlive the result.
  static std::unique_ptr<CompilePreamble>
  prepare(const PreambleSettings &Settings, const clang::CompilerInvocation &Compile,
          llvm::StringRef Text, std::size_t Limit, llvm::StringRef Avoid,
          llvm::StringRef Executable, std::shared_ptr<clang::PCHContainerOperations> Ops);

  /// Notes Text's preamble as compiled once, as the first prepare() does,
  /// for a compile that ran without prepare() (clang-plugin/
  /// OverlappedCompile.h), with Times when it overlapped: the next compile
  /// precompiles it. Never builds a PCH; replaces a pending entry (its
  /// times) but leaves a stored one as it is.
  static void notePending(const PreambleSettings &Settings,
                          const clang::CompilerInvocation &Compile, llvm::StringRef Text,
                          std::size_t Limit, llvm::StringRef Avoid, llvm::StringRef Executable,
                          const std::optional<OverlapTimes> &Times = std::nullopt);

  /// The state of the entry prepare() would take for the same arguments,
  /// from its first line only; Missing also when the compile has none.
  /// Times gets a pending entry's (notePending()).
  static EntryState entryState(const PreambleSettings &Settings,
                               const clang::CompilerInvocation &Compile, llvm::StringRef Text,
                               std::size_t Limit, llvm::StringRef Avoid, llvm::StringRef Executable,
                               std::optional<OverlapTimes> *Times = nullptr);

  /// The text to compile with the PCH: Text with the `#line` that restates
  /// the position after the preamble (compileBounds()).
  std::string textToCompile(llvm::StringRef Text) const;

  /// Sets Compile up to load the PCH, which lies in memory above Base (the
  /// file system the compile reads); the result is the compile's file
  /// system. Compile's dependency file is then written by attach()'s.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
  apply(clang::CompilerInvocation &Compile, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> Base);

  /// Before the compile runs in Instance, whose file manager is set: its
  /// dependency file names the preamble's files as a compile without the PCH
  /// would, in the same order (the PCH knows them only by absolute names),
  /// and so do its debug information and everything else that names a
  /// header (apply()'s file system gives the headers back their names).
  void attach(clang::CompilerInstance &Instance) const;

  /// The compile could not load the PCH: the entry goes, and the caller
  /// compiles without it.
  void failed() const;

private:
  CompilePreamble(const PreambleSettings &Settings, std::string MainPath, std::string Key,
                  std::string EntryPath, clang::PreambleBounds Bounds, std::string LineAfter,
                  std::unique_ptr<llvm::MemoryBuffer> Bytes, llvm::StringRef Pch, std::string Deps,
                  std::string Names)
      : Settings(Settings), MainPath(std::move(MainPath)), Key(std::move(Key)),
        EntryPath(std::move(EntryPath)), Bounds(Bounds), LineAfter(std::move(LineAfter)),
        Bytes(std::move(Bytes)), Pch(Pch), Deps(std::move(Deps)), Names(std::move(Names)) {}

  const PreambleSettings &Settings;
  std::string MainPath;
  std::string Key;
  std::string EntryPath;
  clang::PreambleBounds Bounds;
  std::string LineAfter;
  /// The entry's bytes, which hold the PCH.
  std::unique_ptr<llvm::MemoryBuffer> Bytes;
  llvm::StringRef Pch;
  /// The preamble's files for a dependency file (preamble::Entry::Deps).
  std::string Deps;
  /// The headers the PCH names otherwise (preamble::Entry::Names).
  std::string Names;
  /// The compile's dependency file, which apply() takes out of its options.
  std::unique_ptr<clang::DependencyOutputOptions> DependencyFile;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_COMPILEPREAMBLE_H
