//===- Wire.h - What the ompinst server and its clients exchange -*- C++ -*-===//
///
/// \file
/// The request (client to server): a header {Magic, ProtocolVersion, payload
/// size} carrying four descriptors (working directory, stdin, stdout,
/// stderr) as SCM_RIGHTS, then the payload: umask, resource limits, argv,
/// environment. The child's answers: {Magic, version, pid} when it starts
/// (pid 0: it refuses, and the client runs ompinst-clang itself), then
/// {Magic, exit status} when it ends. All integers in the host's order: both
/// ends run on one machine.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_SERVER_WIRE_H
#define POMP_SERVER_WIRE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <vector>

namespace pomp::server::wire {

/// "POMP" in the first four bytes of every message.
constexpr std::uint32_t Magic = 0x504d4f50;
/// The descriptors a request carries, in this order.
constexpr int DescriptorCount = 4;
/// A request larger than this is refused (argv and environment of a
/// command; Linux limits both together to a few MB).
constexpr std::uint32_t MaxPayload = 64u << 20;

/// The limits a child takes on from the client (setrlimit).
constexpr int ForwardedLimits[] = {RLIMIT_AS,    RLIMIT_CORE,   RLIMIT_CPU,  RLIMIT_DATA,
                                   RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_STACK};

struct RequestHeader {
  std::uint32_t Magic;
  std::uint32_t Version;
  std::uint32_t PayloadSize;
};

struct StartAnswer {
  std::uint32_t Magic;
  std::uint32_t Version;
  std::int32_t Pid;
};

struct EndAnswer {
  std::uint32_t Magic;
  std::int32_t Status;
};

/// What a request asks the child to take on.
struct Request {
  std::uint32_t Umask = 0;
  struct Limit {
    std::uint32_t Resource;
    std::uint64_t Current;
    std::uint64_t Maximum;
  };
  std::vector<Limit> Limits;
  std::vector<std::string> Argv;
  std::vector<std::string> Environment;
};

std::string encode(const Request &R);
/// False when Payload is not a well-formed request.
bool decode(const std::string &Payload, Request &R);

/// The socket's address in the directory DirFD (named Directory): the path
/// itself when it fits into sun_path, else /proc/self/fd/<DirFD>/<Name>.
/// False when neither fits.
bool socketAddress(const std::string &Directory, int DirFD, const std::string &Name,
                   sockaddr_un &Address, socklen_t &Length);

/// Opens Directory (O_PATH) after checking that it is private: a directory,
/// not a link, owned by this user, no access for group or others. With
/// Create, makes it (0700) when missing. -1 and Why otherwise.
int openPrivateDirectory(const std::string &Directory, bool Create, std::string &Why);

/// Writes or reads exactly Size bytes on a socket within TimeoutMs (negative:
/// no limit); false on an error, the end of the stream or the time-out.
bool sendAll(int FD, const void *Data, std::size_t Size, int TimeoutMs);
bool receiveAll(int FD, void *Data, std::size_t Size, int TimeoutMs);

/// Milliseconds of a monotonic clock.
std::int64_t nowMs();

} // namespace pomp::server::wire

#endif // POMP_SERVER_WIRE_H
