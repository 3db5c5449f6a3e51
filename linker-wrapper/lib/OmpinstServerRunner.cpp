//===- OmpinstServerRunner.cpp - ompinst-clang through its server ---------===//

#include "pomp/ompcc/OmpinstServerRunner.h"

#include "pomp/server/OmpinstServer.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pomp::ompcc {
namespace {

namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;
using llvm::StringRef;

constexpr const char *EnableVariable = "OMPCC_SERVER";
constexpr const char *DirectoryVariable = "OMPCC_SERVER_DIR";
constexpr const char *IdleVariable = "OMPCC_SERVER_IDLE";
constexpr const char *TimeoutVariable = "OMPCC_SERVER_TIMEOUT";
/// A server exits after a minute without a request: long enough for the
/// pauses of a build, short enough to leave nothing behind for long.
constexpr unsigned DefaultIdleSeconds = 60;
constexpr unsigned MaxIdleSeconds = 3600;
/// How long ompcc waits for the server to take a request (the child's first
/// answer) before it runs ompinst-clang itself: a fork, on a loaded machine.
constexpr unsigned DefaultTimeoutMs = 10000;
constexpr unsigned MaxTimeoutMs = 600000;

/// "<path>:<device>:<inode>:<size>:<mtime ns>", or "<path>:missing".
std::string identity(StringRef File) {
  struct stat Status {};
  if (stat(File.str().c_str(), &Status) != 0)
    return File.str() + ":missing";
  return File.str() + ":" + std::to_string(Status.st_dev) + ":" + std::to_string(Status.st_ino) +
         ":" + std::to_string(Status.st_size) + ":" + std::to_string(Status.st_mtim.tv_sec) + "." +
         std::to_string(Status.st_mtim.tv_nsec);
}

/// A whole number in [Min, Max] from a variable; Default when unset.
llvm::Expected<unsigned> numberSetting(const char *Variable, unsigned Default, unsigned Min,
                                       unsigned Max, StringRef Unit) {
  const char *Value = std::getenv(Variable);
  if (!Value || !*Value)
    return Default;
  unsigned Parsed = 0;
  if (StringRef(Value).getAsInteger(10, Parsed) || Parsed < Min || Parsed > Max)
    return llvm::createStringError(std::string(Variable) + "='" + Value +
                                   "' is not a valid setting: use a whole number of " + Unit.str() +
                                   " from " + std::to_string(Min) + " to " + std::to_string(Max));
  return Parsed;
}

/// The sockets' directory: OMPCC_SERVER_DIR, else in $XDG_RUNTIME_DIR (the
/// user's private, local run-time directory), else in the user's cache
/// directory; its parent is created when missing. Empty when there is none.
std::string serverDirectory() {
  llvm::SmallString<256> Directory;
  if (const char *Dir = std::getenv(DirectoryVariable); Dir && *Dir)
    Directory = Dir;
  else if (const char *Run = std::getenv("XDG_RUNTIME_DIR"); Run && *Run && path::is_absolute(Run))
    path::append(Directory, Run, "pomp-ompinst");
  else if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg && path::is_absolute(Xdg))
    path::append(Directory, Xdg, "pomp-ompinst-server");
  else if (const char *Home = std::getenv("HOME"); Home && *Home)
    path::append(Directory, Home, ".cache", "pomp-ompinst-server");
  else
    return "";
  if (fs::make_absolute(Directory))
    return "";
  path::remove_dots(Directory, /*remove_dot_dot=*/true);
  fs::create_directories(path::parent_path(Directory));
  return std::string(Directory);
}

} // namespace

llvm::Expected<std::optional<OmpinstServerRunner>>
OmpinstServerRunner::fromEnvironment(StringRef Program, StringRef ParserLibraries) {
  // Every setting is checked, also when the server is off: a misspelt one is
  // never ignored.
  llvm::Expected<unsigned> Idle =
      numberSetting(IdleVariable, DefaultIdleSeconds, 1, MaxIdleSeconds, "seconds");
  if (!Idle)
    return Idle.takeError();
  llvm::Expected<unsigned> Timeout =
      numberSetting(TimeoutVariable, DefaultTimeoutMs, 1, MaxTimeoutMs, "milliseconds");
  if (!Timeout)
    return Timeout.takeError();
  const char *Enable = std::getenv(EnableVariable);
  const StringRef Value = Enable ? Enable : "";
  if (Value == "0")
    return std::nullopt;
  if (!Value.empty() && Value != "1")
    return llvm::createStringError(std::string(EnableVariable) + "='" + Value.str() +
                                   "' is not a valid setting: use 1 (ompinst-clang through its "
                                   "start-up server, the default) or 0 (ompinst-clang run by "
                                   "itself)");
  if (Program.empty())
    return std::nullopt;
  OmpinstServerRunner Runner;
  Runner.Program = Program.str();
  Runner.ParserLibraries = ParserLibraries.str();
  Runner.IdleSeconds = *Idle;
  Runner.AnswerTimeoutMs = *Timeout;
  return std::optional<OmpinstServerRunner>(std::move(Runner));
}

bool OmpinstServerRunner::locate() {
  if (Located)
    return !Directory.empty();
  Located = true;
  Directory = serverDirectory();
  if (Directory.empty())
    return false;
  // A server runs one ompinst-clang with the libraries it loaded at its
  // start: anything that changes what a new ompinst-clang would load gives
  // another server. The host: a home directory shared by several machines.
  // The placement: what its children inherit from it, not from the request.
  std::string Identity = "protocol " + std::to_string(server::ProtocolVersion) + "\n";
  Identity += identity(Program) + "\n";
  llvm::SmallVector<StringRef, 2> Libraries;
  StringRef(ParserLibraries).split(Libraries, ':', -1, false);
  for (StringRef Library : Libraries)
    Identity += identity(Library) + "\n";
  for (const char *Variable : {"LD_LIBRARY_PATH", "LD_PRELOAD"}) {
    const char *Setting = std::getenv(Variable);
    Identity += std::string(Variable) + "=" + (Setting ? Setting : "") + "\n";
  }
  char Host[256] = {};
  gethostname(Host, sizeof Host - 1);
  Identity += std::string(Host) + "\n";
  Identity += server::placementIdentity();
  Key = llvm::utohexstr(llvm::xxh3_64bits(StringRef(Identity)), /*LowerCase=*/true);
  return true;
}

int OmpinstServerRunner::stopServers(llvm::raw_ostream &Out, llvm::raw_ostream &Diagnostics,
                                     StringRef ToolName) {
  const std::string Directory = serverDirectory();
  if (Directory.empty()) {
    Diagnostics << ToolName << ": error: no directory for ompinst servers (set "
                << DirectoryVariable << ", XDG_RUNTIME_DIR or HOME)\n";
    return 1;
  }
  std::string Why;
  const std::optional<int> Stopped = server::stopServers(Directory, Why);
  if (!Stopped) {
    Diagnostics << ToolName << ": error: " << Why << "\n";
    return 1;
  }
  Out << ToolName << ": stopped " << *Stopped << " ompinst server" << (*Stopped == 1 ? "" : "s")
      << " in '" << Directory << "'\n";
  return 0;
}

std::optional<int> OmpinstServerRunner::run(llvm::ArrayRef<std::string> Argv,
                                            const std::string &StderrFile, TempDirectory &Temp,
                                            bool Verbose, llvm::raw_ostream &Diagnostics,
                                            StringRef ToolName) {
  if (!locate()) {
    if (Verbose)
      Diagnostics << ToolName << ": ompinst server: no directory for its socket (set "
                  << DirectoryVariable << ", XDG_RUNTIME_DIR or HOME); ompinst-clang runs by "
                  << "itself\n";
    return std::nullopt;
  }
  // Its own file for the server's child: should the child still write when
  // ompcc has given up on it, the direct run's file is not touched.
  const std::string ServerLog = Temp.add(path::filename(StderrFile).str() + ".server");
  const int Log = open(ServerLog.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  server::ClientResult Result;
  if (Log < 0) {
    Result.WhyNot = "cannot create '" + ServerLog + "'";
  } else {
    server::ClientSettings Settings{Directory, Key, Program, IdleSeconds, AnswerTimeoutMs};
    Result = server::runInServer(Settings, std::vector<std::string>(Argv.begin(), Argv.end()), Log,
                                 [](int Pid) { noteRunningChild(Pid); });
    noteRunningChild(0);
    close(Log);
  }
  if (Result.Status && !fs::rename(ServerLog, StderrFile)) {
    if (Verbose)
      Diagnostics << ToolName << ": " << shellQuote(Argv) << "\n"
                  << ToolName << ": (run in the ompinst server " << Result.Socket << ")\n";
    return Result.Status;
  }
  if (Result.Status)
    Result.WhyNot = "cannot rename '" + ServerLog + "'";
  if (Verbose)
    Diagnostics << ToolName << ": ompinst server: " << Result.WhyNot
                << "; ompinst-clang runs by itself\n";
  return std::nullopt;
}

} // namespace pomp::ompcc
