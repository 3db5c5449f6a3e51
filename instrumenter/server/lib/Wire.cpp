//===- Wire.cpp - What the ompinst server and its clients exchange --------===//

#include "Wire.h"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

namespace pomp::server::wire {
namespace {

void put32(std::string &Out, std::uint32_t Value) {
  Out.append(reinterpret_cast<const char *>(&Value), sizeof Value);
}

void put64(std::string &Out, std::uint64_t Value) {
  Out.append(reinterpret_cast<const char *>(&Value), sizeof Value);
}

void putStrings(std::string &Out, const std::vector<std::string> &Strings) {
  put32(Out, static_cast<std::uint32_t>(Strings.size()));
  for (const std::string &S : Strings) {
    put32(Out, static_cast<std::uint32_t>(S.size()));
    Out += S;
  }
}

/// Reads the payload front to back; every read checks what is left.
class Reader {
public:
  explicit Reader(const std::string &Payload) : Data(Payload) {}

  template <typename T> bool get(T &Value) {
    if (Data.size() - Offset < sizeof Value)
      return false;
    std::memcpy(&Value, Data.data() + Offset, sizeof Value);
    Offset += sizeof Value;
    return true;
  }

  bool getStrings(std::vector<std::string> &Strings) {
    std::uint32_t Count = 0;
    if (!get(Count))
      return false;
    for (std::uint32_t I = 0; I < Count; ++I) {
      std::uint32_t Size = 0;
      if (!get(Size) || Data.size() - Offset < Size)
        return false;
      Strings.emplace_back(Data, Offset, Size);
      // A string holding a NUL cannot be an argument or a variable.
      if (Strings.back().find('\0') != std::string::npos)
        return false;
      Offset += Size;
    }
    return true;
  }

  bool atEnd() const { return Offset == Data.size(); }

private:
  const std::string &Data;
  std::size_t Offset = 0;
};

/// Waits until FD is ready for Events, within the deadline (negative: none).
bool waitFor(int FD, short Events, std::int64_t Deadline) {
  while (true) {
    int Timeout = -1;
    if (Deadline >= 0) {
      const std::int64_t Left = Deadline - nowMs();
      if (Left <= 0)
        return false;
      Timeout = static_cast<int>(Left);
    }
    pollfd P{FD, Events, 0};
    const int Ready = poll(&P, 1, Timeout);
    if (Ready > 0)
      return true;
    if (Ready < 0 && errno != EINTR)
      return false;
  }
}

} // namespace

std::string encode(const Request &R) {
  std::string Out;
  put32(Out, R.Umask);
  put32(Out, static_cast<std::uint32_t>(R.Limits.size()));
  for (const Request::Limit &L : R.Limits) {
    put32(Out, L.Resource);
    put64(Out, L.Current);
    put64(Out, L.Maximum);
  }
  putStrings(Out, R.Argv);
  putStrings(Out, R.Environment);
  return Out;
}

bool decode(const std::string &Payload, Request &R) {
  Reader In(Payload);
  std::uint32_t LimitCount = 0;
  if (!In.get(R.Umask) || !In.get(LimitCount) || LimitCount > std::size(ForwardedLimits))
    return false;
  for (std::uint32_t I = 0; I < LimitCount; ++I) {
    Request::Limit L{};
    if (!In.get(L.Resource) || !In.get(L.Current) || !In.get(L.Maximum))
      return false;
    R.Limits.push_back(L);
  }
  return In.getStrings(R.Argv) && !R.Argv.empty() && In.getStrings(R.Environment) && In.atEnd();
}

bool socketAddress(const std::string &Directory, int DirFD, const std::string &Name,
                   sockaddr_un &Address, socklen_t &Length) {
  std::memset(&Address, 0, sizeof Address);
  Address.sun_family = AF_UNIX;
  std::string Path = Directory + "/" + Name;
  if (Path.size() >= sizeof Address.sun_path)
    Path = "/proc/self/fd/" + std::to_string(DirFD) + "/" + Name;
  if (Path.size() >= sizeof Address.sun_path)
    return false;
  std::memcpy(Address.sun_path, Path.c_str(), Path.size() + 1);
  Length = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + Path.size() + 1);
  return true;
}

int openPrivateDirectory(const std::string &Directory, bool Create, std::string &Why) {
  if (Create && mkdir(Directory.c_str(), S_IRWXU) != 0 && errno != EEXIST) {
    Why = "cannot create '" + Directory + "': " + std::strerror(errno);
    return -1;
  }
  const int FD = open(Directory.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (FD < 0) {
    Why = "cannot open '" + Directory + "': " + std::strerror(errno);
    return -1;
  }
  struct stat Status {};
  if (fstat(FD, &Status) != 0 || Status.st_uid != geteuid() ||
      (Status.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
    Why = "'" + Directory + "' is not a private directory of this user (mode 0700)";
    close(FD);
    return -1;
  }
  return FD;
}

bool sendAll(int FD, const void *Data, std::size_t Size, int TimeoutMs) {
  const std::int64_t Deadline = TimeoutMs < 0 ? -1 : nowMs() + TimeoutMs;
  const char *Next = static_cast<const char *>(Data);
  while (Size > 0) {
    if (!waitFor(FD, POLLOUT, Deadline))
      return false;
    const ssize_t Sent = send(FD, Next, Size, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (Sent < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return false;
    }
    Next += Sent;
    Size -= static_cast<std::size_t>(Sent);
  }
  return true;
}

bool receiveAll(int FD, void *Data, std::size_t Size, int TimeoutMs) {
  const std::int64_t Deadline = TimeoutMs < 0 ? -1 : nowMs() + TimeoutMs;
  char *Next = static_cast<char *>(Data);
  while (Size > 0) {
    if (!waitFor(FD, POLLIN, Deadline))
      return false;
    const ssize_t Got = recv(FD, Next, Size, MSG_DONTWAIT);
    if (Got < 0) {
      if (errno == EINTR || errno == EAGAIN)
        continue;
      return false;
    }
    if (Got == 0)
      return false;
    Next += Got;
    Size -= static_cast<std::size_t>(Got);
  }
  return true;
}

std::int64_t nowMs() {
  timespec T{};
  clock_gettime(CLOCK_MONOTONIC, &T);
  constexpr std::int64_t MsPerSecond = 1000;
  constexpr std::int64_t NsPerMs = 1000000;
  return static_cast<std::int64_t>(T.tv_sec) * MsPerSecond + T.tv_nsec / NsPerMs;
}

} // namespace pomp::server::wire
