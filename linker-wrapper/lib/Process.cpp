//===- Process.cpp - Commands and temporary files -------------------------===//
///
/// \file
/// The signal handler may only read plain memory and make async-signal-safe
/// calls (kill, waitpid, unlink, rmdir, sigaction, raise), so the paths to
/// remove are kept as C strings in a fixed table filled before each file is
/// created, and the running child's pid in an atomic.
///
//===----------------------------------------------------------------------===//

#include "pomp/ompcc/Process.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <atomic>
#include <cassert>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

/// Paths the signal handler removes. One invocation registers a handful per
/// input file; a command with more inputs than fit loses only the cleanup
/// on a signal, never the normal one (the destructor removes the whole
/// tree).
constexpr std::size_t MaxCleanupPaths = 4096;
std::atomic<const char *> CleanupPaths[MaxCleanupPaths];
std::atomic<std::size_t> CleanupCount{0};
/// Storage of the registered paths: a deque keeps the C strings in place.
std::deque<std::string> CleanupStorage;
/// The child being waited for, to pass the signal on; 0 when none.
std::atomic<pid_t> RunningChild{0};
/// A child running beside it (CommandRunner::startCapturing: the compile
/// beside the instrumentation), which gets the signal too; 0 when none.
std::atomic<pid_t> BackgroundChild{0};
bool HandlersInstalled = false;

/// SIGPIPE too: `ompcc -v ... 2>&1 | head` ends ompcc at a write once head
/// is gone, which left the directory behind.
const int TerminationSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};

void onTerminationSignal(int Signal) {
  // The compiler may still be writing into the directory: stop it first.
  for (std::atomic<pid_t> *Running : {&RunningChild, &BackgroundChild})
    if (const pid_t Child = Running->load(); Child > 0) {
      kill(Child, Signal);
      waitpid(Child, nullptr, 0);
    }
  // Registered in creation order, so removing in reverse empties each
  // directory before it is removed.
  for (std::size_t I = CleanupCount.load(); I-- > 0;)
    if (const char *Path = CleanupPaths[I].load(); Path && unlink(Path) != 0)
      rmdir(Path);
  // Die of the signal, as make expects.
  struct sigaction Default {};
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  sigaction(Signal, &Default, nullptr);
  raise(Signal);
}

void installSignalHandlers() {
  if (HandlersInstalled)
    return;
  HandlersInstalled = true;
  for (const int Signal : TerminationSignals) {
    struct sigaction Previous {};
    sigaction(Signal, nullptr, &Previous);
    // A signal the parent made us ignore (nohup) stays ignored.
    if (Previous.sa_handler == SIG_IGN)
      continue;
    struct sigaction Action {};
    Action.sa_handler = onTerminationSignal;
    sigemptyset(&Action.sa_mask);
    sigaction(Signal, &Action, nullptr);
  }
}

void registerForCleanup(const std::string &Path) {
  const std::size_t Index = CleanupCount.load();
  if (Index >= MaxCleanupPaths)
    return;
  CleanupStorage.push_back(Path);
  CleanupPaths[Index].store(CleanupStorage.back().c_str());
  CleanupCount.store(Index + 1);
}

void clearCleanupRegistry() {
  CleanupCount.store(0);
  CleanupStorage.clear();
}

/// Characters a shell takes literally in an unquoted word.
bool isShellSafe(char C) { return llvm::isAlnum(C) || StringRef("_-./=,:+@%^").contains(C); }

/// A word as gcc's response file reader (libiberty's buildargv) reads it:
/// whitespace, quotes and backslashes escaped with a backslash.
std::string responseFileWord(StringRef Word) {
  std::string Out;
  for (const char C : Word) {
    if (C == '\\' || C == '"' || C == '\'' || llvm::isSpace(C))
      Out += '\\';
    Out += C;
  }
  return Out;
}

} // namespace

namespace {

/// How many names a stable directory may take (<name>, <name>-1, ...)
/// before a random one is used: one per concurrent command with the same
/// key, which a build runs rarely more than twice.
constexpr unsigned MaxStableNames = 8;
/// How often a stable name is tried again when the directory was removed
/// between its creation and its lock (its previous owner finished).
constexpr unsigned MaxStableRetries = 4;

/// Removes everything inside the directory Path (what a killed command
/// left), not the directory.
void emptyDirectory(const std::string &Path) {
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Path, EC), End; !EC && It != End; It.increment(EC)) {
    if (llvm::sys::fs::remove(It->path()))
      llvm::sys::fs::remove_directories(It->path(), /*IgnoreErrors=*/true);
  }
}

/// Creates (or finds) the directory Path and locks it; the locked
/// descriptor, or -1 when the directory is not safely ours now: in use by
/// a concurrent command, someone else's, accessible to others, or a link.
int lockStableDirectory(const std::string &Path) {
  for (unsigned Retry = 0; Retry < MaxStableRetries; ++Retry) {
    if (mkdir(Path.c_str(), S_IRWXU) != 0 && errno != EEXIST)
      return -1;
    const int FD = open(Path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (FD < 0)
      return -1;
    struct stat Opened {};
    if (fstat(FD, &Opened) != 0 || Opened.st_uid != geteuid() ||
        (Opened.st_mode & (S_IRWXG | S_IRWXO)) != 0 || flock(FD, LOCK_EX | LOCK_NB) != 0) {
      close(FD);
      return -1;
    }
    // The previous owner may have removed the directory between our mkdir
    // and our lock: the lock is then on a directory without a name.
    struct stat Named {};
    if (lstat(Path.c_str(), &Named) == 0 && Named.st_dev == Opened.st_dev &&
        Named.st_ino == Opened.st_ino)
      return FD;
    close(FD);
  }
  return -1;
}

} // namespace

llvm::Expected<TempDirectory> TempDirectory::create(StringRef ToolName,
                                                    std::optional<StringRef> Key) {
  llvm::SmallString<128> Base;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Base);
  assert(CleanupCount.load() == 0 && "one temporary directory per process");
  TempDirectory Temp(ToolName.str(), std::string(Base),
                     Key ? std::optional<std::string>(Key->str()) : std::nullopt);
  // Also when no directory is ever made: the running child gets the signal.
  installSignalHandlers();
  if (!Key)
    Temp.path();
  return std::move(Temp);
}

std::string TempDirectory::firstName() const {
  llvm::SmallString<128> Name(Base);
  llvm::sys::path::append(Name, ToolName + "-" + (Key ? *Key : std::string("XXXXXX")));
  return std::string(Name);
}

std::string TempDirectory::planned(StringRef Name) const {
  llvm::SmallString<128> Full(made() ? Path : firstName());
  llvm::sys::path::append(Full, Name);
  return std::string(Full);
}

const std::string &TempDirectory::path() const {
  if (made())
    return Path;
  if (Key) {
    for (unsigned Name = 0; Name < MaxStableNames; ++Name) {
      std::string Stable = firstName();
      if (Name > 0)
        Stable += "-" + std::to_string(Name);
      const int FD = lockStableDirectory(Stable);
      if (FD < 0)
        continue;
      registerForCleanup(Stable);
      emptyDirectory(Stable);
      LockFD = FD;
      Path = std::move(Stable);
      return Path;
    }
  }
  llvm::SmallString<128> Model(Base);
  llvm::sys::path::append(Model, ToolName);
  llvm::SmallString<128> Created;
  if (std::error_code EC = llvm::sys::fs::createUniqueDirectory(Model, Created)) {
    // Asked for where no error can be returned: the command ends here, before
    // it wrote anything.
    llvm::errs() << ToolName << ": error: cannot create a temporary directory in '" << Base
                 << "': " << EC.message() << "\n";
    std::exit(1);
  }
  registerForCleanup(std::string(Created));
  Path = std::string(Created);
  return Path;
}

TempDirectory::TempDirectory(TempDirectory &&Other) noexcept
    : ToolName(std::move(Other.ToolName)), Base(std::move(Other.Base)), Key(std::move(Other.Key)),
      Path(std::move(Other.Path)), LockFD(Other.LockFD) {
  Other.Path.clear();
  Other.LockFD = -1;
}

TempDirectory::~TempDirectory() {
  if (!Path.empty()) {
    clearCleanupRegistry();
    llvm::sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
  }
  // Only now, with the directory gone, may another command take its name.
  if (LockFD >= 0)
    close(LockFD);
}

std::string TempDirectory::add(StringRef Name) {
  llvm::SmallString<128> Full(path());
  llvm::sys::path::append(Full, Name);
  registerForCleanup(std::string(Full));
  return std::string(Full);
}

llvm::Expected<std::string> TempDirectory::addDirectory(StringRef Name) {
  std::string Full = add(Name);
  if (std::error_code EC = llvm::sys::fs::create_directory(Full))
    return llvm::createStringError(EC, "cannot create '%s': %s", Full.c_str(),
                                   EC.message().c_str());
  return Full;
}

int CommandRunner::run(llvm::ArrayRef<std::string> Argv, std::optional<StringRef> StderrFile) {
  return spawnAndWait(Argv, StderrFile, /*StderrFD=*/-1);
}

int CommandRunner::runCapturing(llvm::ArrayRef<std::string> Argv, std::string &Stderr) {
  Stderr.clear();
  const int Memory = memfd_create("ompcc-stderr", MFD_CLOEXEC);
  if (Memory < 0) {
    // No memfd (an old kernel, a seccomp filter): a file, as before.
    if (!Scratch)
      return spawnAndWait(Argv, std::nullopt, -1);
    const std::string File = Scratch->add("stderr-" + std::to_string(++CapturedFiles) + ".log");
    const int Status = spawnAndWait(Argv, StringRef(File), -1);
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
            llvm::MemoryBuffer::getFile(File, /*IsText=*/true))
      Stderr = (*Text)->getBuffer().str();
    return Status;
  }
  const int Status = spawnAndWait(Argv, std::nullopt, Memory);
  readCaptured(Memory, Stderr);
  return Status;
}

std::optional<BackgroundCommand> CommandRunner::startCapturing(llvm::ArrayRef<std::string> Argv,
                                                               int InputFD, int ChildFD) {
  const int Memory = memfd_create("ompcc-stderr", MFD_CLOEXEC);
  if (Memory < 0)
    return std::nullopt;
  const std::optional<pid_t> Pid = spawn(Argv, std::nullopt, Memory, {InputFD, ChildFD});
  if (!Pid) {
    close(Memory);
    return std::nullopt;
  }
  BackgroundChild.store(*Pid);
  return BackgroundCommand{*Pid, Memory, Argv.front()};
}

int CommandRunner::finishCapturing(BackgroundCommand &Command, std::string &Stderr) {
  const int Status = waitFor(Command.Pid, Command.Program);
  BackgroundChild.store(0);
  Stderr.clear();
  readCaptured(Command.StderrFD, Stderr);
  Command.Pid = -1;
  Command.StderrFD = -1;
  return Status;
}

void CommandRunner::readCaptured(int Memory, std::string &Stderr) {
  char Buffer[4096];
  for (off_t Offset = 0;;) {
    const ssize_t Read = pread(Memory, Buffer, sizeof Buffer, Offset);
    if (Read < 0 && errno == EINTR)
      continue;
    if (Read <= 0)
      break;
    Stderr.append(Buffer, static_cast<std::size_t>(Read));
    Offset += Read;
  }
  close(Memory);
}

int CommandRunner::spawnAndWait(llvm::ArrayRef<std::string> Argv,
                                std::optional<StringRef> StderrFile, int StderrFD) {
  const std::optional<pid_t> Pid = spawn(Argv, StderrFile, StderrFD, {-1, -1});
  if (!Pid)
    return 1;
  RunningChild.store(*Pid);
  const int Status = waitFor(*Pid, Argv.front());
  RunningChild.store(0);
  return Status;
}

int CommandRunner::waitFor(pid_t Pid, StringRef Program) {
  llvm::sys::ProcessInfo Child;
  Child.Pid = Pid;
  Child.Process = Pid;
  std::string Error;
  const llvm::sys::ProcessInfo Result = llvm::sys::Wait(Child, std::nullopt, &Error);
  if (Result.ReturnCode < 0) {
    Diagnostics << ToolName << ": error: '" << Program << "' failed: " << Error << "\n";
    return 1;
  }
  return Result.ReturnCode;
}

std::optional<pid_t> CommandRunner::spawn(llvm::ArrayRef<std::string> Argv,
                                          std::optional<StringRef> StderrFile, int StderrFD,
                                          std::pair<int, int> Input) {
  assert(!Argv.empty() && "a command has a program");
  if (Verbose)
    Diagnostics << ToolName << ": " << shellQuote(Argv) << "\n";
  std::string Program = Argv.front();
  if (!StringRef(Program).contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found) {
      Diagnostics << ToolName << ": error: cannot find '" << Program << "' on PATH\n";
      return std::nullopt;
    }
    Program = *Found;
  }

  std::vector<StringRef> Args(Argv.begin(), Argv.end());
  // A link of thousands of objects may not fit into exec's limits once
  // response files are expanded: give the compiler one of its own then.
  std::string ResponseArgument;
  if (Scratch && !llvm::sys::commandLineFitsWithinSystemLimits(Program, Args)) {
    const std::string ResponsePath =
        Scratch->add("command-" + std::to_string(++ResponseFiles) + ".rsp");
    std::error_code EC;
    llvm::raw_fd_ostream Out(ResponsePath, EC);
    if (EC) {
      Diagnostics << ToolName << ": error: cannot write '" << ResponsePath << "': " << EC.message()
                  << "\n";
      return std::nullopt;
    }
    for (StringRef Word : llvm::ArrayRef(Args).drop_front())
      Out << responseFileWord(Word) << "\n";
    Out.close();
    ResponseArgument = "@" + ResponsePath;
    Args = {Args.front(), ResponseArgument};
  }

  // posix_spawn, as llvm::sys::ExecuteNoWait, which cannot hand the child a
  // descriptor (the memfd of runCapturing) as its stderr.
  std::vector<std::string> Words(Args.begin(), Args.end());
  std::vector<char *> Pointers;
  for (std::string &Word : Words)
    Pointers.push_back(Word.data());
  Pointers.push_back(nullptr);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  const std::string StderrPath = StderrFile ? StderrFile->str() : std::string();
  if (StderrFD >= 0)
    posix_spawn_file_actions_adddup2(&Actions, StderrFD, STDERR_FILENO);
  else if (StderrFile)
    posix_spawn_file_actions_addopen(&Actions, STDERR_FILENO, StderrPath.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0666);
  // The descriptor the child reads its input from (the compile beside the
  // instrumentation, docs/OMPCC.md): a different number, so that dup2 clears
  // the close-on-exec flag the parent's copy keeps.
  if (Input.first >= 0)
    posix_spawn_file_actions_adddup2(&Actions, Input.first, Input.second);
  pid_t Pid = 0;
  const int SpawnError =
      posix_spawn(&Pid, Program.c_str(), &Actions, /*attrp=*/nullptr, Pointers.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (SpawnError != 0) {
    Diagnostics << ToolName << ": error: cannot run '" << Argv.front()
                << "': " << std::strerror(SpawnError) << "\n";
    return std::nullopt;
  }
  return Pid;
}

void noteRunningChild(int Pid) { RunningChild.store(Pid); }

std::string shellQuote(llvm::ArrayRef<std::string> Argv) {
  std::string Out;
  for (const std::string &Word : Argv) {
    if (!Out.empty())
      Out += ' ';
    if (!Word.empty() && llvm::all_of(Word, isShellSafe)) {
      Out += Word;
      continue;
    }
    Out += '\'';
    for (const char C : Word) {
      if (C == '\'')
        Out += "'\\''";
      else
        Out += C;
    }
    Out += '\'';
  }
  return Out;
}

void copyFileTo(StringRef Path, llvm::raw_ostream &OS) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (Buffer)
    OS << (*Buffer)->getBuffer();
}

} // namespace pomp::ompcc
