//===- pomp/instrumenter/PreambleCache.h - The cache of precompiled preambles -*- C++ -*-===//
///
/// \file
/// The headers a C++ file includes are most of its parse (issue 15). The
/// preamble cache keeps, per preamble (the leading #include/#define block of
/// the main file, pomp/instrumenter/Preamble.h), its PCH, and later parses of
/// files with the same preamble load it instead of parsing the headers
/// again (docs/INSTRUMENTER.md, "The preamble cache").
///
/// An entry's key is a hash of the preamble's text, the whole -cc1 command
/// (flags, include paths, resource directory) but for the main file's name,
/// the main file's directory, the working directory and the program that
/// parses (ompinst-clang, or libpomp-clang-plugin.so inside clang-19); the
/// entry holds what the preamble's parse read (RecordingFileSystem), which
/// is checked against the disk before the PCH is used, as ompcc's cache
/// does (docs/OMPCC.md, "ompcc's cache"). Anything that goes wrong falls
/// back to the full parse.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_PREAMBLECACHE_H
#define POMP_INSTRUMENTER_PREAMBLECACHE_H

#include "pomp/instrumenter/Instrumenter.h"
#include "pomp/instrumenter/Preamble.h"
#include "pomp/instrumenter/RecordingFileSystem.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <cstdint>
#include <optional>
#include <string>

namespace pomp::inst {

/// The cache's settings, from the environment.
struct PreambleSettings {
  bool Enabled = false;
  /// Also precompile the preambles of the compiles inside clang-19
  /// (CompilePreamble.h); off with OMPINST_PREAMBLE=parse.
  bool Compile = true;
  std::string Directory;
  std::uint64_t MaxSize = 0;
  /// Say what the cache did (--verbose), on Messages (null: stderr).
  bool Verbose = false;
  llvm::raw_ostream *Messages = nullptr;
  /// A parse that finds its entry pending (or stale) precompiles it first;
  /// off, it parses in full and leaves the entry as it is
  /// (precompileParseEntry does it later).
  bool PrecompilePending = true;
};

/// Reads OMPINST_PREAMBLE (0 off, 1 or unset on, parse: ompinst's parse
/// only), OMPINST_PREAMBLE_DIR
/// (default $XDG_CACHE_HOME/pomp-ompinst-preamble, else
/// $HOME/.cache/pomp-ompinst-preamble; off without either) and
/// OMPINST_PREAMBLE_MAXSIZE (bytes with K, M or G; default 1G). False, with
/// Error, on a value it does not understand.
bool readPreambleSettings(PreambleSettings &Settings, std::string &Error);

/// The state of the entry for the preamble of the parse of Invocation's one
/// source, read through FileSystem (the key PreambleActionFactory gives it),
/// from the entry's first line only. The overlapped compile inside clang-19
/// serves the first and second sight of a preamble (clang-plugin/
/// OverlappedCompile.h).
/// Times gets a pending entry's first compile's times (noteParseTimes).
EntryState parseEntryState(const PreambleSettings &Settings,
                           const clang::CompilerInvocation &Invocation,
                           llvm::vfs::FileSystem &FileSystem, llvm::StringRef Executable,
                           std::optional<OverlapTimes> *Times = nullptr);

/// Gives the pending entry of the parse of Invocation's one source the
/// times of the overlapped compile that noted it, which choose where a
/// later compile precompiles it (clang-plugin/OverlappedCompile.h). An entry
/// with times, or in any other state, stays as it is.
void noteParseTimes(const PreambleSettings &Settings, const clang::CompilerInvocation &Invocation,
                    llvm::vfs::FileSystem &FileSystem, llvm::StringRef Executable,
                    const OverlapTimes &Times);

/// Precompiles the preamble of the parse of Invocation's one source into
/// its entry when that is pending (or damaged, or stale), as a
/// PreambleActionFactory would before its parse, but without parsing: for a
/// parse that ran in full with PreambleSettings::PrecompilePending off (the
/// overlapped compile's second sight, which precompiles after the
/// instrumentation, beside the compile). Says what it did with
/// Settings.Verbose.
void precompileParseEntry(const PreambleSettings &Settings,
                          const clang::CompilerInvocation &Invocation,
                          llvm::vfs::FileSystem &FileSystem, llvm::StringRef Executable,
                          std::shared_ptr<clang::PCHContainerOperations> Ops);

/// A FrontendActionFactory that runs the instrumenting action with a
/// precompiled preamble from the cache (built and stored when missing), or
/// without one when there is none to use. Sink receives the result as
/// with newInstrumentActionFactory.
class PreambleActionFactory : public clang::tooling::FrontendActionFactory {
public:
  /// FileSystem is the one the parse reads through: the PCH is put on top of
  /// it. Recording (may be null) gets the inputs of the preamble's parse.
  PreambleActionFactory(const PreambleSettings &Settings, const Options &Opts, ResultSink &Sink,
                        llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FileSystem,
                        llvm::IntrusiveRefCntPtr<RecordingFileSystem> Recording,
                        std::string Executable);

  std::unique_ptr<clang::FrontendAction> create() override;
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> Invocation,
                     clang::FileManager *Files,
                     std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                     clang::DiagnosticConsumer *DiagConsumer) override;

private:
  bool runPlain(std::shared_ptr<clang::CompilerInvocation> Invocation, clang::FileManager *Files,
                std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
                clang::DiagnosticConsumer *DiagConsumer);
  void say(const llvm::Twine &Message) const;

  const PreambleSettings &Settings;
  Options Opts;
  ResultSink &Sink;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> FileSystem;
  llvm::IntrusiveRefCntPtr<RecordingFileSystem> Recording;
  std::string Executable;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_PREAMBLECACHE_H
