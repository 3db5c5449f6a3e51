//===- OmpinstServer.h - ompinst-clang as a start-up server -----*- C++ -*-===//
///
/// \file
/// Loading and relocating the shared libclang-cpp and libLLVM is most of
/// ompinst-clang's time on a small file (docs/PERFORMANCE.md, session 8). A
/// start-up server ("zygote") pays it once: a long-lived ompinst-clang that
/// has the libraries loaded forks a child per request, and the child runs
/// ompinst-clang's main with the client's arguments, environment, working
/// directory, umask, resource limits and standard streams (passed over a
/// Unix socket with SCM_RIGHTS), then reports the exit status.
/// The child is forked ahead of its request (a spare, waiting for the next
/// connection), and the server runs with its libraries bound at start
/// (LD_BIND_NOW), so that neither the fork nor the binding of the symbols a
/// run calls is part of a request's time.
///
/// The client (ompcc, unless OMPCC_SERVER=0) falls back to running ompinst-clang
/// itself whenever the server cannot answer exactly as a direct run would:
/// no server yet (it starts one for the next file), a stale socket, a server
/// of another protocol, one that does not answer in time, a child that ends
/// without a status (a crash: the direct run shows the crash's diagnostic),
/// limits the child cannot take on. docs/OMPCC.md, "The ompinst server".
///
/// The socket lives in a private directory (0700, the user's own); each
/// server is keyed by the identity of the ompinst-clang it runs (the client
/// computes the key) and exits after an idle time. Socket paths longer than
/// sockaddr_un allows are reached through /proc/self/fd/<directory fd>.
///
/// Only POSIX and the C++ library: the client is linked into ompcc (LLVM's
/// Support statically), the server into ompinst-clang (shared libLLVM).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_SERVER_OMPINSTSERVER_H
#define POMP_SERVER_OMPINSTSERVER_H

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace pomp::server {

/// The version of the request and answer formats; a client and a server of
/// different versions never serve each other.
constexpr std::uint32_t ProtocolVersion = 1;

/// ompinst-clang's options that make it a server (never user options: they
/// are taken before its command line is parsed).
constexpr const char ServeOption[] = "--pomp-serve=";
constexpr const char ServeKeyOption[] = "--pomp-serve-key=";
constexpr const char ServeIdleOption[] = "--pomp-serve-idle=";

/// ompinst-clang's main, which a child runs for one request.
using MainFunction = std::function<int(int Argc, const char **Argv)>;

/// The server's side: `ompinst-clang --pomp-serve=<dir> --pomp-serve-key=<key>
/// --pomp-serve-idle=<seconds>`. When Argv asks for the server, runs it and
/// returns its exit status (0 also when another server of the key runs);
/// nullopt for an ordinary command line. Prepare runs once in the server,
/// before its first child: work that every run of Main would otherwise
/// repeat, and that leaves Main's result as it is.
std::optional<int> serveIfAsked(int Argc, const char **Argv, const MainFunction &Main,
                                const std::function<void()> &Prepare);

/// What the client needs to reach (or start) the server of one ompinst-clang.
struct ClientSettings {
  /// The private directory of the sockets (created 0700 when missing).
  std::string Directory;
  /// Names the server: a hash of the ompinst-clang it runs and of what it loads.
  std::string Key;
  /// The ompinst-clang a new server runs.
  std::string Program;
  /// A new server exits after this many seconds without a request.
  unsigned IdleSeconds = 0;
  /// How long the client waits for the server to take a request (the child's
  /// first answer), in milliseconds; then it runs ompinst-clang itself.
  unsigned AnswerTimeoutMs = 0;
};

/// One request's outcome: the exit status of ompinst-clang in the server,
/// or nullopt and why not (the caller then runs ompinst-clang itself).
struct ClientResult {
  std::optional<int> Status;
  /// Why the server did not run it, for ompcc -v; empty when it did.
  std::string WhyNot;
  /// The socket used, for ompcc -v.
  std::string Socket;
};

/// Runs Argv (Argv[0] is ompinst-clang) in the server, with this process's
/// working directory, environment, umask, limits, standard input and output,
/// and StderrFD as its standard error. Started is called with the child's
/// pid as soon as it runs (the caller passes signals on to it). Starts a
/// server for the next request when none answers.
ClientResult runInServer(const ClientSettings &Settings, const std::vector<std::string> &Argv,
                         int StderrFD, const std::function<void(int Pid)> &Started);

/// What a server's children inherit from the server and a request cannot
/// hand over: the control group, the namespaces, the scheduling (priority,
/// policy, CPU and memory placement, I/O priority), the capabilities and
/// seccomp mode, the OOM score adjustment and the personality. The client
/// puts it into the key: a command is served only by a server started from
/// the same placement (a batch job's commands by one inside the job).
std::string placementIdentity();

/// Stops every server of Directory (SIGTERM to the pid in each lock a server
/// holds) and waits, at most 10 s, until they have removed their locks.
/// Returns how many it stopped (0 without the directory), or nullopt and why
/// not (a directory that is not private).
std::optional<int> stopServers(const std::string &Directory, std::string &Why);

/// The socket's name in the directory, for a key.
std::string socketName(const std::string &Key);

} // namespace pomp::server

#endif // POMP_SERVER_OMPINSTSERVER_H
