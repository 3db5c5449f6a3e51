//===- pomp/ompcc/Process.h - Commands and temporary files --------*- C++ -*-===//
///
/// \file
/// Running the real compiler, ompinst and pomp-link (printing each command
/// with -v), and the per-invocation temporary directory, which is removed
/// on every way out: success, failure, and SIGINT, SIGTERM, SIGHUP, SIGQUIT
/// (make -j interrupted) or SIGPIPE (`ompcc -v ... | head`), when the
/// running child gets the signal too.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_PROCESS_H
#define POMP_OMPCC_PROCESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <utility>

#include <sys/types.h>

namespace pomp::ompcc {

/// A command CommandRunner::startCapturing() started, which runs beside
/// ompcc's own work until finishCapturing() waits for it.
struct BackgroundCommand {
  pid_t Pid = -1;
  /// The memory file its stderr goes to.
  int StderrFD = -1;
  std::string Program;
};

/// A directory under $TMPDIR (else /tmp) holding one invocation's files,
/// owned by this process alone, so that parallel builds never share a file.
/// Every path inside it is registered before it is created; the destructor,
/// or a termination signal, removes them and the directory.
///
/// With a key, the directory's name is the same for the same key (the same
/// command in the same directory), so that the paths the real compiler sees
/// are the same from one build to the next and a compiler cache (ccache)
/// finds its earlier result. Exclusive ownership then comes from a lock on
/// the directory, held until it is removed: a concurrent command with the
/// same key takes the next name (<name>-1, ...), and a directory left by a
/// killed command is emptied and reused.
///
/// The directory is made when it is first needed (path(), add(),
/// addDirectory()): a command that writes nothing there (a compile of a
/// file without OpenMP, a compile from ompcc's cache) makes none, which on
/// a file system where a directory costs 0.1-0.25 ms is worth it
/// (docs/PERFORMANCE.md, session 20). planned() names paths without making
/// it. A directory that cannot be made ends the command with an error.
class TempDirectory {
public:
  /// The directory ToolName-<Key> (stable) when Key is given, falling back
  /// to a random name when no stable one can be owned safely, or
  /// ToolName-XXXXXX (random); made when first needed.
  static llvm::Expected<TempDirectory> create(llvm::StringRef ToolName,
                                              std::optional<llvm::StringRef> Key = {});
  TempDirectory(TempDirectory &&Other) noexcept;
  TempDirectory &operator=(TempDirectory &&) = delete;
  TempDirectory(const TempDirectory &) = delete;
  TempDirectory &operator=(const TempDirectory &) = delete;
  ~TempDirectory();

  /// The directory, made now if it was not.
  const std::string &path() const;
  /// The full path of Name below the directory, as path() would give it
  /// unless a concurrent command takes the name first: the directory is
  /// not made, nothing is registered. Whether path() then gave the same
  /// directory: made(), and compare.
  std::string planned(llvm::StringRef Name) const;
  /// Whether the directory has been made.
  bool made() const { return !Path.empty(); }
  /// Registers Name (a file or directory below the directory, relative to
  /// it) for removal and returns its full path; makes the directory.
  std::string add(llvm::StringRef Name);
  /// Creates and registers a subdirectory.
  llvm::Expected<std::string> addDirectory(llvm::StringRef Name);

private:
  TempDirectory(std::string ToolName, std::string Base, std::optional<std::string> Key)
      : ToolName(std::move(ToolName)), Base(std::move(Base)), Key(std::move(Key)) {}
  /// The first name the directory would take.
  std::string firstName() const;
  std::string ToolName;
  /// $TMPDIR or /tmp.
  std::string Base;
  std::optional<std::string> Key;
  /// The directory once made; empty before.
  mutable std::string Path;
  /// The open directory whose lock makes a stable name ours; -1 otherwise.
  mutable int LockFD = -1;
};

/// Runs commands and reports them.
class CommandRunner {
public:
  /// ToolName prefixes messages ("ompcc"); Verbose prints each command;
  /// Scratch, if given, holds response files for command lines too long for
  /// exec (a command ompcc did not lengthen needs none).
  CommandRunner(llvm::StringRef ToolName, bool Verbose, llvm::raw_ostream &Diagnostics,
                TempDirectory *Scratch)
      : ToolName(ToolName), Verbose(Verbose), Diagnostics(Diagnostics), Scratch(Scratch) {}

  /// Runs Argv (Argv[0] a path or a name looked up on PATH) and returns its
  /// exit status. With StderrFile, the command's stderr goes there instead
  /// (the caller shows it, or not). A command that cannot be started or
  /// dies from a signal is reported and gives a status of 1.
  int run(llvm::ArrayRef<std::string> Argv, std::optional<llvm::StringRef> StderrFile = {});
  /// Runs Argv with its stderr captured into Stderr. The capture is an
  /// anonymous memory file (memfd), not a file in the temporary directory:
  /// every compile captures its compiler's messages, and creating a file
  /// there can cost more than all of ompcc's other work on a cached compile
  /// (0.28 ms on ext4 without a journal, docs/PERFORMANCE.md).
  int runCapturing(llvm::ArrayRef<std::string> Argv, std::string &Stderr);
  /// Starts Argv with its stderr captured, and the descriptor InputFD as the
  /// child's ChildFD (a number free in ompcc, so that the child inherits
  /// nothing else under it); nullopt when it cannot be started (reported
  /// unless no memory file can be made, which the caller takes as a reason
  /// to run the command otherwise). A termination signal reaches it too.
  std::optional<BackgroundCommand> startCapturing(llvm::ArrayRef<std::string> Argv, int InputFD,
                                                  int ChildFD);
  /// Waits for a command startCapturing() started: its exit status (1 when
  /// it died from a signal, reported), its stderr into Stderr.
  int finishCapturing(BackgroundCommand &Command, std::string &Stderr);

  llvm::raw_ostream &diagnostics() { return Diagnostics; }
  bool verbose() const { return Verbose; }

private:
  /// run() with stderr into StderrFile, or onto the descriptor StderrFD.
  int spawnAndWait(llvm::ArrayRef<std::string> Argv, std::optional<llvm::StringRef> StderrFile,
                   int StderrFD);
  /// Starts Argv (stderr as for spawnAndWait, Input.first as the child's
  /// Input.second when not -1); nullopt when it cannot, reported.
  std::optional<pid_t> spawn(llvm::ArrayRef<std::string> Argv,
                             std::optional<llvm::StringRef> StderrFile, int StderrFD,
                             std::pair<int, int> Input);
  /// Waits for Pid: its exit status, 1 when it died from a signal (reported).
  int waitFor(pid_t Pid, llvm::StringRef Program);
  /// Appends what the memory file Memory holds to Stderr and closes it.
  static void readCaptured(int Memory, std::string &Stderr);

  std::string ToolName;
  bool Verbose;
  llvm::raw_ostream &Diagnostics;
  TempDirectory *Scratch;
  unsigned ResponseFiles = 0;
  unsigned CapturedFiles = 0;
};

/// Notes a process that another process started for us (ompinst-clang's
/// child in its start-up server) as the running child, to which a
/// termination signal is passed on; 0 when it ended.
void noteRunningChild(int Pid);

/// The command as a shell would take it: words quoted where needed.
std::string shellQuote(llvm::ArrayRef<std::string> Argv);

/// Writes the contents of the file at Path (a command's captured stderr) to
/// OS; nothing when it cannot be read.
void copyFileTo(llvm::StringRef Path, llvm::raw_ostream &OS);

} // namespace pomp::ompcc

#endif // POMP_OMPCC_PROCESS_H
