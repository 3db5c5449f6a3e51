//===- Client.cpp - Running ompinst-clang in its start-up server ----------===//
///
/// \file
/// Every way this can fail ends in a result without a status, and the
/// caller runs ompinst-clang itself: nothing here waits without a bound
/// before the child has answered that it runs, and after that the child
/// holds the only other end of the connection, so its end (normal or not)
/// ends the wait.
///
//===----------------------------------------------------------------------===//

#include "Wire.h"
#include "pomp/server/OmpinstServer.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string_view>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace pomp::server {
namespace {

/// After a server was started and did not come up (it failed to bind, or
/// died first: a library that cannot be bound at start), clients start none
/// for this long.
constexpr time_t FailedBackoffSeconds = 60;
/// The descriptors closed one by one where close_range is missing (Linux
/// before 5.9).
constexpr int FallbackDescriptorLimit = 4096;

/// Closes a descriptor when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int FD = -1) : FD(FD) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() {
    if (FD >= 0)
      close(FD);
  }
  int get() const { return FD; }
  void reset(int New) {
    if (FD >= 0)
      close(FD);
    FD = New;
  }

private:
  int FD;
};

/// The umask without changing it (Linux 4.7 and later), else by setting it
/// back at once.
mode_t currentUmask() {
  if (std::FILE *Status = std::fopen("/proc/self/status", "re")) {
    char Line[256];
    unsigned Mask = 0;
    bool Found = false;
    while (!Found && std::fgets(Line, sizeof Line, Status))
      Found = std::sscanf(Line, "Umask: %o", &Mask) == 1;
    std::fclose(Status);
    if (Found)
      return static_cast<mode_t>(Mask);
  }
  const mode_t Mask = umask(0);
  umask(Mask);
  return Mask;
}

/// Starts a server of the key, detached from this process (its own session,
/// no descriptor of ours, so that neither make's pipes nor the terminal wait
/// for it), unless one runs, or one was started a short while ago and has
/// not come up.
/// Returns what it did, for ompcc -v.
std::string startServer(const ClientSettings &S, int Dir) {
  struct stat Failed {};
  if (fstatat(Dir, (S.Key + ".failed").c_str(), &Failed, AT_SYMLINK_NOFOLLOW) == 0 &&
      std::time(nullptr) - Failed.st_mtime < FailedBackoffSeconds)
    return "a server started less than a minute ago has not come up";
  {
    const FileDescriptor Lock(
        openat(Dir, (S.Key + ".lock").c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (Lock.get() >= 0 && flock(Lock.get(), LOCK_SH | LOCK_NB) != 0)
      return "the server is starting or ending";
  }
  const std::string Serve = std::string(ServeOption) + S.Directory;
  const std::string Key = std::string(ServeKeyOption) + S.Key;
  const std::string Idle = std::string(ServeIdleOption) + std::to_string(S.IdleSeconds);
  const char *Argv[] = {S.Program.c_str(), Serve.c_str(), Key.c_str(), Idle.c_str(), nullptr};
  // The server binds every symbol at its start, once, rather than each child
  // the ones it calls (the children take on the client's environment).
  std::vector<char *> Environment;
  for (char **Variable = environ; Variable && *Variable; ++Variable)
    if (std::strncmp(*Variable, "LD_BIND_NOW=", std::strlen("LD_BIND_NOW=")) != 0)
      Environment.push_back(*Variable);
  static char BindNow[] = "LD_BIND_NOW=1";
  Environment.push_back(BindNow);
  Environment.push_back(nullptr);
  // Until the server listens (and removes it), the key counts as failed: a
  // server that dies before is not started again by every later command.
  const FileDescriptor Starting(openat(Dir, (S.Key + ".failed").c_str(),
                                       O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
                                       S_IRUSR | S_IWUSR));
  if (Starting.get() >= 0)
    futimens(Starting.get(), nullptr);
  const pid_t Child = fork();
  if (Child < 0)
    return std::string("cannot start a server: ") + std::strerror(errno);
  if (Child == 0) {
    // Only async-signal-safe calls from here: the parent may have threads.
    setsid();
    if (fork() != 0)
      _exit(0);
    const int Null = open("/dev/null", O_RDWR);
    if (Null < 0)
      _exit(1);
    dup2(Null, STDIN_FILENO);
    dup2(Null, STDOUT_FILENO);
    dup2(Null, STDERR_FILENO);
    // None of ompcc's descriptors (make's jobserver pipe, a terminal, a
    // log): close_range, or on a kernel without it the usual range.
    if (syscall(SYS_close_range, STDERR_FILENO + 1, ~0U, 0) != 0)
      for (int FD = STDERR_FILENO + 1; FD < FallbackDescriptorLimit; ++FD)
        close(FD);
    if (chdir("/") != 0)
      _exit(1);
    execve(Argv[0], const_cast<char *const *>(Argv), Environment.data());
    _exit(1);
  }
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  return "started one for the next file";
}

/// The request of this process's state and Argv.
std::string requestPayload(const std::vector<std::string> &Argv) {
  wire::Request R;
  R.Umask = currentUmask();
  for (const int Resource : wire::ForwardedLimits) {
    rlimit Limit{};
    if (getrlimit(Resource, &Limit) == 0)
      R.Limits.push_back({static_cast<std::uint32_t>(Resource), Limit.rlim_cur, Limit.rlim_max});
  }
  R.Argv = Argv;
  for (char **Variable = environ; Variable && *Variable; ++Variable)
    R.Environment.emplace_back(*Variable);
  return wire::encode(R);
}

/// A descriptor for a standard stream: Stream itself when open, else
/// /dev/null (into Substitute).
int streamOrNull(int Stream, int Flags, FileDescriptor &Substitute) {
  if (fcntl(Stream, F_GETFD) >= 0)
    return Stream;
  Substitute.reset(open("/dev/null", Flags | O_CLOEXEC));
  return Substitute.get();
}

/// Sends the header with the descriptors, then the payload.
bool sendRequest(int Conn, const std::string &Payload, const int (&FDs)[wire::DescriptorCount],
                 int TimeoutMs) {
  const wire::RequestHeader Header{wire::Magic, ProtocolVersion,
                                   static_cast<std::uint32_t>(Payload.size())};
  pollfd P{Conn, POLLOUT, 0};
  if (poll(&P, 1, TimeoutMs) <= 0)
    return false;
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof FDs)] = {};
  iovec Vector{const_cast<wire::RequestHeader *>(&Header), sizeof Header};
  msghdr Message{};
  Message.msg_iov = &Vector;
  Message.msg_iovlen = 1;
  Message.msg_control = Control;
  Message.msg_controllen = sizeof Control;
  cmsghdr *C = CMSG_FIRSTHDR(&Message);
  C->cmsg_level = SOL_SOCKET;
  C->cmsg_type = SCM_RIGHTS;
  C->cmsg_len = CMSG_LEN(sizeof FDs);
  std::memcpy(CMSG_DATA(C), FDs, sizeof FDs);
  ssize_t Sent;
  do
    Sent = sendmsg(Conn, &Message, MSG_NOSIGNAL | MSG_DONTWAIT);
  while (Sent < 0 && errno == EINTR);
  if (Sent <= 0)
    return false;
  const std::size_t Rest = sizeof Header - static_cast<std::size_t>(Sent);
  return (Rest == 0 ||
          wire::sendAll(Conn, reinterpret_cast<const char *>(&Header) + Sent, Rest, TimeoutMs)) &&
         wire::sendAll(Conn, Payload.data(), Payload.size(), TimeoutMs);
}

} // namespace

ClientResult runInServer(const ClientSettings &S, const std::vector<std::string> &Argv,
                         int StderrFD, const std::function<void(int Pid)> &Started) {
  ClientResult Result;
  Result.Socket = S.Directory + "/" + socketName(S.Key);
  const FileDescriptor Dir(wire::openPrivateDirectory(S.Directory, /*Create=*/true, Result.WhyNot));
  if (Dir.get() < 0)
    return Result;
  sockaddr_un Address{};
  socklen_t Length = 0;
  if (!wire::socketAddress(S.Directory, Dir.get(), socketName(S.Key), Address, Length)) {
    Result.WhyNot = "the socket's path is too long";
    return Result;
  }
  const FileDescriptor Conn(socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (Conn.get() < 0) {
    Result.WhyNot = std::string("cannot make a socket: ") + std::strerror(errno);
    return Result;
  }
  if (connect(Conn.get(), reinterpret_cast<const sockaddr *>(&Address), Length) != 0) {
    const int Error = errno;
    if (Error == ENOENT || Error == ECONNREFUSED)
      Result.WhyNot = "no server (" + startServer(S, Dir.get()) + ")";
    else if (Error == EAGAIN)
      Result.WhyNot = "the server is busy";
    else
      Result.WhyNot = std::string("cannot reach the server: ") + std::strerror(Error);
    return Result;
  }

  const FileDescriptor Cwd(open(".", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (Cwd.get() < 0) {
    Result.WhyNot = std::string("cannot open the working directory: ") + std::strerror(errno);
    return Result;
  }
  FileDescriptor NullIn, NullOut;
  const int FDs[wire::DescriptorCount] = {Cwd.get(), streamOrNull(STDIN_FILENO, O_RDONLY, NullIn),
                                          streamOrNull(STDOUT_FILENO, O_WRONLY, NullOut), StderrFD};
  for (const int FD : FDs)
    if (FD < 0) {
      Result.WhyNot = "a standard stream cannot be passed on";
      return Result;
    }
  const int Timeout = static_cast<int>(S.AnswerTimeoutMs);
  if (!sendRequest(Conn.get(), requestPayload(Argv), FDs, Timeout)) {
    Result.WhyNot = "the server did not take the request";
    return Result;
  }
  wire::StartAnswer Start{};
  if (!wire::receiveAll(Conn.get(), &Start, sizeof Start, Timeout)) {
    Result.WhyNot = "the server did not answer (it closed, or said nothing within " +
                    std::to_string(S.AnswerTimeoutMs) + " ms)";
    return Result;
  }
  if (Start.Magic != wire::Magic || Start.Version != ProtocolVersion) {
    Result.WhyNot = "the server speaks another protocol";
    return Result;
  }
  if (Start.Pid <= 0) {
    Result.WhyNot = "the server cannot take on this command's state (limits, directory, streams)";
    return Result;
  }
  Started(Start.Pid);
  wire::EndAnswer End{};
  if (!wire::receiveAll(Conn.get(), &End, sizeof End, /*TimeoutMs=*/-1) ||
      End.Magic != wire::Magic) {
    Result.WhyNot = "ompinst-clang ended in the server without an exit status";
    return Result;
  }
  Result.Status = End.Status;
  return Result;
}

std::optional<int> stopServers(const std::string &Directory, std::string &Why) {
  struct stat Status {};
  if (stat(Directory.c_str(), &Status) != 0 && errno == ENOENT)
    return 0;
  const FileDescriptor Dir(wire::openPrivateDirectory(Directory, /*Create=*/false, Why));
  if (Dir.get() < 0)
    return std::nullopt;
  DIR *Listing = fdopendir(openat(Dir.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!Listing) {
    Why = "cannot read '" + Directory + "': " + std::strerror(errno);
    return std::nullopt;
  }
  constexpr std::string_view LockSuffix = ".lock";
  std::vector<std::string> Stopped;
  while (const dirent *Entry = readdir(Listing)) {
    const std::string_view Name = Entry->d_name;
    if (Name.size() <= LockSuffix.size() ||
        Name.substr(Name.size() - LockSuffix.size()) != LockSuffix)
      continue;
    const FileDescriptor Lock(openat(Dir.get(), Entry->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    // A lock nobody holds is left by a server that is gone, or taken by
    // none yet: no process to stop.
    if (Lock.get() < 0 || flock(Lock.get(), LOCK_SH | LOCK_NB) == 0)
      continue;
    char Text[32] = {};
    const ssize_t Got = pread(Lock.get(), Text, sizeof Text - 1, 0);
    const long Pid = Got > 0 ? std::strtol(Text, nullptr, 10) : 0;
    if (Pid > 0 && kill(static_cast<pid_t>(Pid), SIGTERM) == 0)
      Stopped.emplace_back(Name);
  }
  closedir(Listing);
  // A stopped server removes its lock as it exits; a server in the middle
  // of a poll takes a moment.
  constexpr int WaitStepMs = 20, WaitLimitMs = 10000;
  for (int Waited = 0; Waited < WaitLimitMs; Waited += WaitStepMs) {
    bool Left = false;
    for (const std::string &Name : Stopped)
      Left = Left || faccessat(Dir.get(), Name.c_str(), F_OK, AT_SYMLINK_NOFOLLOW) == 0;
    if (!Left)
      break;
    poll(nullptr, 0, WaitStepMs);
  }
  return static_cast<int>(Stopped.size());
}

} // namespace pomp::server
