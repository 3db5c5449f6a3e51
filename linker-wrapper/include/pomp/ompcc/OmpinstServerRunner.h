//===- OmpinstServerRunner.h - ompinst-clang through its server -*- C++ -*-===//
///
/// \file
/// Unless OMPCC_SERVER=0, ompcc's two-step path asks a start-up server
/// (pomp/server/OmpinstServer.h) to run ompinst-clang, which then starts
/// without loading the shared Clang libraries; whenever the server cannot,
/// ompcc runs ompinst-clang itself as before. docs/OMPCC.md, "The ompinst
/// server".
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_OMPINSTSERVERRUNNER_H
#define POMP_OMPCC_OMPINSTSERVERRUNNER_H

#include "pomp/ompcc/Process.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace pomp::ompcc {

/// Runs ompinst-clang commands in the server of one ompinst-clang.
class OmpinstServerRunner {
public:
  /// The runner OMPCC_SERVER asks for (on unless it is 0), for the
  /// ompinst-clang at Program, which loads ParserLibraries (':'-separated);
  /// an error for a setting it does not understand (OMPCC_SERVER,
  /// OMPCC_SERVER_DIR, OMPCC_SERVER_IDLE, OMPCC_SERVER_TIMEOUT).
  static llvm::Expected<std::optional<OmpinstServerRunner>>
  fromEnvironment(llvm::StringRef Program, llvm::StringRef ParserLibraries);

  /// Runs Argv (Argv[0] is the ompinst-clang) in the server, its standard
  /// error into StderrFile, and returns its exit status; nullopt when the
  /// server did not run it (ompcc -v says why) and the caller must.
  std::optional<int> run(llvm::ArrayRef<std::string> Argv, const std::string &StderrFile,
                         TempDirectory &Temp, bool Verbose, llvm::raw_ostream &Diagnostics,
                         llvm::StringRef ToolName);

  /// --ompcc-stop-servers: stops the servers of this user's sockets'
  /// directory (OMPCC_SERVER_DIR or its default) and says how many; the
  /// exit status.
  static int stopServers(llvm::raw_ostream &Out, llvm::raw_ostream &Diagnostics,
                         llvm::StringRef ToolName);

private:
  OmpinstServerRunner() = default;

  /// Finds the sockets' directory and computes the server's key, at the
  /// first command that runs ompinst-clang: most ompcc commands run none (the
  /// link, the in-process path of clang-19). False when there is no
  /// directory.
  bool locate();

  std::string Program;
  std::string ParserLibraries;
  bool Located = false;
  std::string Directory;
  std::string Key;
  unsigned IdleSeconds = 0;
  unsigned AnswerTimeoutMs = 0;
};

} // namespace pomp::ompcc

#endif // POMP_OMPCC_OMPINSTSERVERRUNNER_H
