//===- Server.cpp - ompinst-clang's start-up server -----------------------===//
///
/// \file
/// The server only forks: it keeps one spare child ready, forked ahead of
/// the next request, which accepts the next connection itself, tells the
/// server so (and the server forks the next spare), reads the request,
/// takes on the client's process state and runs ompinst-clang's main. A
/// slow or broken client therefore never holds up the server or another
/// client, and the server touches none of the state (LLVM's options,
/// Clang's) that the children start from. Forking ahead takes the fork off
/// the request's time (docs/PERFORMANCE.md, "Issue 15: session 19"). The
/// next spare is forked once the child that took the connection has ended,
/// or at once when another client waits: the fork and the spare's mapping
/// of its pages do not take a CPU from the request or from the compile that
/// runs beside it (session 25).
///
//===----------------------------------------------------------------------===//

#include "HotPages.h"
#include "Wire.h"
#include "pomp/server/OmpinstServer.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <string_view>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace pomp::server {
namespace {

/// How long a child waits for its client's request.
constexpr int RequestTimeoutMs = 10000;
/// Idle times a server accepts, in seconds.
constexpr unsigned MaxIdleSeconds = 24 * 3600;
/// The exit status of a child whose client went away.
constexpr int ClientGoneStatus = 1;
/// How long the server waits for a busy child to end before it forks the
/// next spare anyway (a long request), in milliseconds.
constexpr int BusyWaitLimitMs = 2000;
/// A key is a hash in hex; anything else could name files elsewhere.
constexpr std::size_t MaxKeySize = 64;

/// A spare child that ends without taking a connection this many times in a
/// row (it cannot accept, or crashes before) ends the server: its clients
/// then run ompinst-clang themselves, and start a new server.
constexpr int MaxSpareFailures = 3;
/// How long a server that stops waits for its spare to go (or to say that it
/// took a connection just before), in milliseconds.
constexpr int RetireTimeoutMs = 2000;

volatile std::sig_atomic_t StopRequested = 0;

void onStopSignal(int) { StopRequested = 1; }

/// In a spare child: the server wants it gone (SpareRetireSignal).
volatile std::sig_atomic_t SpareRetired = 0;
constexpr int SpareRetireSignal = SIGUSR1;

void onRetireSignal(int) { SpareRetired = 1; }

bool startsWith(std::string_view Text, std::string_view Prefix) {
  return Text.substr(0, Prefix.size()) == Prefix;
}

bool isHexKey(std::string_view Key) {
  if (Key.empty() || Key.size() > MaxKeySize)
    return false;
  for (const char C : Key)
    if (!((C >= '0' && C <= '9') || (C >= 'a' && C <= 'f')))
      return false;
  return true;
}

/// Receives the request's header with its descriptors; false when the client
/// sent no well-formed header in time.
bool receiveHeader(int Conn, wire::RequestHeader &Header, int (&FDs)[wire::DescriptorCount]) {
  pollfd P{Conn, POLLIN, 0};
  if (poll(&P, 1, RequestTimeoutMs) <= 0)
    return false;
  alignas(cmsghdr) char Control[CMSG_SPACE(sizeof(int) * wire::DescriptorCount)];
  iovec Vector{&Header, sizeof Header};
  msghdr Message{};
  Message.msg_iov = &Vector;
  Message.msg_iovlen = 1;
  Message.msg_control = Control;
  Message.msg_controllen = sizeof Control;
  ssize_t Got;
  do
    Got = recvmsg(Conn, &Message, MSG_CMSG_CLOEXEC);
  while (Got < 0 && errno == EINTR);
  if (Got <= 0)
    return false;
  int Received = 0;
  for (cmsghdr *C = CMSG_FIRSTHDR(&Message); C; C = CMSG_NXTHDR(&Message, C)) {
    if (C->cmsg_level != SOL_SOCKET || C->cmsg_type != SCM_RIGHTS)
      continue;
    const std::size_t Count = (C->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (std::size_t I = 0; I < Count; ++I) {
      int FD;
      std::memcpy(&FD, CMSG_DATA(C) + I * sizeof(int), sizeof FD);
      if (Received < wire::DescriptorCount)
        FDs[Received++] = FD;
      else
        close(FD);
    }
  }
  if (Received != wire::DescriptorCount || (Message.msg_flags & MSG_CTRUNC))
    return false;
  // The rest of the header, should the first read have split it.
  const std::size_t Rest = sizeof Header - static_cast<std::size_t>(Got);
  return Rest == 0 ||
         wire::receiveAll(Conn, reinterpret_cast<char *>(&Header) + Got, Rest, RequestTimeoutMs);
}

void answerStart(int Conn, std::int32_t Pid) {
  const wire::StartAnswer Answer{wire::Magic, ProtocolVersion, Pid};
  wire::sendAll(Conn, &Answer, sizeof Answer, RequestTimeoutMs);
}

/// Takes on the request's state; false (the client runs ompinst-clang
/// itself) when a part of it cannot be taken on.
bool adopt(const wire::Request &Request, int (&FDs)[wire::DescriptorCount]) {
  for (const wire::Request::Limit &L : Request.Limits) {
    const rlimit Limit{static_cast<rlim_t>(L.Current), static_cast<rlim_t>(L.Maximum)};
    if (setrlimit(static_cast<int>(L.Resource), &Limit) != 0)
      return false;
  }
  umask(static_cast<mode_t>(Request.Umask));
  if (fchdir(FDs[0]) != 0)
    return false;
  for (int Stream = 0; Stream < 3; ++Stream)
    if (dup2(FDs[Stream + 1], Stream) < 0)
      return false;
  for (const int FD : FDs)
    if (FD > STDERR_FILENO)
      close(FD);
  if (clearenv() != 0)
    return false;
  for (const std::string &Variable : Request.Environment)
    if (Variable.find('=') == std::string::npos || putenv(strdup(Variable.c_str())) != 0)
      return false;
  return true;
}

/// Set once the request's answer is out: the client then hangs up, which
/// ends the child no more (it may still learn its pages).
std::atomic<bool> Answered{false};

/// One request, in the forked child; never returns.
[[noreturn]] void serveRequest(int Conn, const MainFunction &Main, HotPages &Hot) {
  std::signal(SIGCHLD, SIG_DFL);
  std::signal(SIGPIPE, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGINT, SIG_DFL);
  // The directory is private, but root could still connect to another's.
  ucred Peer{};
  socklen_t PeerSize = sizeof Peer;
  if (getsockopt(Conn, SOL_SOCKET, SO_PEERCRED, &Peer, &PeerSize) != 0 || Peer.uid != geteuid() ||
      Peer.gid != getegid())
    _exit(ClientGoneStatus);
  wire::RequestHeader Header{};
  int FDs[wire::DescriptorCount] = {-1, -1, -1, -1};
  if (!receiveHeader(Conn, Header, FDs) || Header.Magic != wire::Magic)
    _exit(ClientGoneStatus);
  if (Header.Version != ProtocolVersion || Header.PayloadSize > wire::MaxPayload) {
    answerStart(Conn, 0);
    _exit(ClientGoneStatus);
  }
  std::string Payload(Header.PayloadSize, '\0');
  wire::Request Request;
  if (!wire::receiveAll(Conn, Payload.data(), Payload.size(), RequestTimeoutMs) ||
      !wire::decode(Payload, Request) || !adopt(Request, FDs)) {
    answerStart(Conn, 0);
    _exit(ClientGoneStatus);
  }
  const wire::StartAnswer Started{wire::Magic, ProtocolVersion,
                                  static_cast<std::int32_t>(getpid())};
  if (!wire::sendAll(Conn, &Started, sizeof Started, RequestTimeoutMs))
    _exit(ClientGoneStatus);
  // A client that is gone (killed, interrupted) wants no result: stop.
  std::thread([Conn] {
    pollfd P{Conn, POLLRDHUP, 0};
    while (poll(&P, 1, -1) < 0 && errno == EINTR) {
    }
    if (!Answered)
      _exit(ClientGoneStatus);
  }).detach();
  std::vector<const char *> Argv;
  for (const std::string &Arg : Request.Argv)
    Argv.push_back(Arg.c_str());
  Argv.push_back(nullptr);
  const int Status = Main(static_cast<int>(Request.Argv.size()), Argv.data());
  std::fflush(nullptr);
  const wire::EndAnswer Ended{wire::Magic, Status};
  Answered = true;
  wire::sendAll(Conn, &Ended, sizeof Ended, RequestTimeoutMs);
  Hot.learn();
  _exit(Status);
}

/// The server's end of a spare child: the child's pid, and the pipe on which
/// it says that it took a connection (a byte) or ended without one (EOF).
struct Spare {
  pid_t Pid;
  int Notice;
};

/// The spare child: waits for the next connection, says so, and serves it;
/// never returns. Until it has a connection, it dies with the server.
[[noreturn]] void runSpare(int Listen, int Notice, pid_t Server, const MainFunction &Main,
                           HotPages &Hot) {
  if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != Server)
    _exit(0);
  std::signal(SIGTERM, SIG_DFL);
  std::signal(SIGINT, SIG_DFL);
  struct sigaction Retire {};
  Retire.sa_handler = onRetireSignal; // no SA_RESTART: accept returns
  sigemptyset(&Retire.sa_mask);
  sigaction(SpareRetireSignal, &Retire, nullptr);
  // Unless a client already waits, map the code requests use while there is
  // time.
  pollfd Waiting{Listen, POLLIN, 0};
  if (poll(&Waiting, 1, 0) == 0)
    Hot.populate();
  // Retired while it mapped (accept would not see the signal).
  if (SpareRetired)
    _exit(0);
  int Conn;
  while ((Conn = accept4(Listen, nullptr, nullptr, SOCK_CLOEXEC)) < 0)
    if (SpareRetired || (errno != EINTR && errno != ECONNABORTED))
      _exit(0);
  // From here the request is this child's: neither the server's end nor a
  // late retirement may end it.
  std::signal(SpareRetireSignal, SIG_IGN);
  prctl(PR_SET_PDEATHSIG, 0);
  close(Listen);
  const char Taken = 1;
  while (write(Notice, &Taken, 1) < 0 && errno == EINTR) {
  }
  // Notice stays open while this child serves: its end at the child's exit
  // tells the server that the request no longer needs the CPU.
  serveRequest(Conn, Main, Hot);
}

/// Forks the next spare child; nullopt when it cannot.
std::optional<Spare> startSpare(int Listen, int Lock, int Dir, const MainFunction &Main,
                                HotPages &Hot) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    return std::nullopt;
  const pid_t Server = getpid();
  const pid_t Child = fork();
  if (Child == 0) {
    close(Pipe[0]);
    close(Lock);
    close(Dir);
    runSpare(Listen, Pipe[1], Server, Main, Hot);
  }
  close(Pipe[1]);
  if (Child < 0) {
    close(Pipe[0]);
    return std::nullopt;
  }
  return Spare{Child, Pipe[0]};
}

/// True when the spare took a connection, false when it ended without one;
/// waits at most TimeoutMs (-1: no bound). Closes its pipe unless it took
/// one (then the pipe ends with the child: waitUntilIdle).
bool spareTookConnection(const Spare &S, int TimeoutMs) {
  pollfd P{S.Notice, POLLIN, 0};
  char Byte = 0;
  ssize_t Got = -1;
  int Ready;
  while ((Ready = poll(&P, 1, TimeoutMs)) < 0 && errno == EINTR) {
  }
  if (Ready > 0)
    while ((Got = read(S.Notice, &Byte, 1)) < 0 && errno == EINTR) {
    }
  if (Got != 1)
    close(S.Notice);
  return Got == 1;
}

/// After a spare took a connection: waits until that child has ended (the
/// end of Busy, its notice pipe), another client waits on Listen, a stop
/// is asked or BusyWaitLimitMs have passed; then closes Busy. On a machine
/// with two CPUs the fork and the next spare's mapping of its pages would
/// otherwise run beside the request and gcc's compile (docs/OMPCC.md, "The
/// ompinst server").
void waitUntilIdle(int Busy, int Listen) {
  pollfd P[2] = {{Busy, POLLIN, 0}, {Listen, POLLIN, 0}};
  while (!StopRequested && poll(P, 2, BusyWaitLimitMs) < 0 && errno == EINTR) {
  }
  close(Busy);
}

/// The lock of a key's server, held while it runs: an open file in the
/// directory, still the one its name refers to (a server that exits removes
/// it). -1 when another server holds it.
int takeLock(int Dir, const std::string &Name) {
  const int FD =
      openat(Dir, Name.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (FD < 0)
    return -1;
  struct stat Opened {
  }, Named{};
  if (flock(FD, LOCK_EX | LOCK_NB) != 0 || fstat(FD, &Opened) != 0 ||
      fstatat(Dir, Name.c_str(), &Named, AT_SYMLINK_NOFOLLOW) != 0 ||
      Opened.st_ino != Named.st_ino || Opened.st_dev != Named.st_dev) {
    close(FD);
    return -1;
  }
  // The pid, for a person (or a test) who wants to stop the server.
  const std::string Pid = std::to_string(getpid()) + "\n";
  if (ftruncate(FD, 0) != 0 || pwrite(FD, Pid.data(), Pid.size(), 0) < 0) {
    // Not needed to serve.
  }
  return FD;
}

} // namespace

std::string socketName(const std::string &Key) { return Key + ".sock"; }

std::optional<int> serveIfAsked(int Argc, const char **Argv, const MainFunction &Main,
                                const std::function<void()> &Prepare) {
  if (Argc < 2 || !startsWith(Argv[1], ServeOption))
    return std::nullopt;
  std::string Directory, Key;
  unsigned long Idle = 0;
  bool Unknown = false;
  for (int I = 1; I < Argc; ++I) {
    const std::string_view Arg = Argv[I];
    if (startsWith(Arg, ServeOption))
      Directory = Arg.substr(std::strlen(ServeOption));
    else if (startsWith(Arg, ServeKeyOption))
      Key = Arg.substr(std::strlen(ServeKeyOption));
    else if (startsWith(Arg, ServeIdleOption))
      Idle = std::strtoul(Argv[I] + std::strlen(ServeIdleOption), nullptr, 10);
    else
      Unknown = true;
  }
  if (Unknown || Directory.empty() || !isHexKey(Key) || Idle == 0 || Idle > MaxIdleSeconds) {
    std::fprintf(stderr, "ompinst: error: usage: ompinst-clang %s<dir> %s<hex key> %s<seconds>\n",
                 ServeOption, ServeKeyOption, ServeIdleOption);
    return 2;
  }
  std::string Why;
  const int Dir = wire::openPrivateDirectory(Directory, /*Create=*/false, Why);
  if (Dir < 0) {
    std::fprintf(stderr, "ompinst: error: %s\n", Why.c_str());
    return 1;
  }
  const std::string LockName = Key + ".lock";
  const std::string SocketName = socketName(Key);
  const std::string FailedName = Key + ".failed";
  const int Lock = takeLock(Dir, LockName);
  if (Lock < 0) {
    // Another server of this key runs (or is exiting): it serves, and a
    // client that started this one marked the key as failed (Client.cpp).
    unlinkat(Dir, FailedName.c_str(), 0);
    return 0;
  }
  unlinkat(Dir, SocketName.c_str(), 0);
  sockaddr_un Address{};
  socklen_t Length = 0;
  const int Listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct stat Bound {};
  if (Listen < 0 || !wire::socketAddress(Directory, Dir, SocketName, Address, Length) ||
      bind(Listen, reinterpret_cast<const sockaddr *>(&Address), Length) != 0 ||
      listen(Listen, SOMAXCONN) != 0 ||
      fstatat(Dir, SocketName.c_str(), &Bound, AT_SYMLINK_NOFOLLOW) != 0) {
    // Clients do not start another server for a while (Client.cpp).
    const int Failed = openat(Dir, FailedName.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                              S_IRUSR | S_IWUSR);
    if (Failed >= 0)
      close(Failed);
    unlinkat(Dir, LockName.c_str(), 0);
    return 1;
  }
  unlinkat(Dir, FailedName.c_str(), 0);

  struct sigaction Stop {};
  Stop.sa_handler = onStopSignal;
  sigemptyset(&Stop.sa_mask);
  sigaction(SIGTERM, &Stop, nullptr);
  sigaction(SIGINT, &Stop, nullptr);
  // Children are reaped by the kernel; their clients learn their status.
  std::signal(SIGCHLD, SIG_IGN);
  std::signal(SIGPIPE, SIG_IGN);
  // Once, for every child to inherit.
  Prepare();
  HotPages Hot;
  constexpr int MsPerSecond = 1000;
  int Failures = 0;
  // Without a spare nobody accepts: clients see no answer, and run
  // ompinst-clang themselves.
  std::optional<Spare> Current = startSpare(Listen, Lock, Dir, Main, Hot);
  while (Current && !StopRequested) {
    pollfd P{Current->Notice, POLLIN, 0};
    const int Ready = poll(&P, 1, static_cast<int>(Idle * MsPerSecond));
    if (Ready == 0)
      break;
    if (Ready < 0)
      continue;
    if (spareTookConnection(*Current, 0)) {
      Failures = 0;
      waitUntilIdle(Current->Notice, Listen);
    } else if (++Failures == MaxSpareFailures) {
      Current.reset();
    }
    if (Current)
      Current = startSpare(Listen, Lock, Dir, Main, Hot);
  }
  // A connection the spare took before it saw the signal is still served.
  if (Current && kill(Current->Pid, SpareRetireSignal) == 0) {
    if (spareTookConnection(*Current, RetireTimeoutMs))
      close(Current->Notice);
  } else if (Current) {
    close(Current->Notice);
  }
  // Only our own socket: a later server may have replaced a removed one.
  struct stat Now {};
  if (fstatat(Dir, SocketName.c_str(), &Now, AT_SYMLINK_NOFOLLOW) == 0 &&
      Now.st_ino == Bound.st_ino && Now.st_dev == Bound.st_dev)
    unlinkat(Dir, SocketName.c_str(), 0);
  close(Listen);
  unlinkat(Dir, LockName.c_str(), 0);
  close(Lock);
  close(Dir);
  return 0;
}

} // namespace pomp::server
