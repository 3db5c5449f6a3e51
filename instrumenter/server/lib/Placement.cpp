//===- Placement.cpp - What a server's children inherit from the server ---===//
///
/// \file
/// A request carries what a command can hand over (arguments, environment,
/// directory, umask, limits, streams). The rest of a process's placement is
/// inherited at fork and cannot be handed over by an unprivileged server:
/// its control group, namespaces, scheduling and capabilities. The client
/// puts all of it into the server's key, so that a command is served only
/// by a server started from the same placement: a batch job's commands by a
/// server inside the job's control group, which the batch system accounts
/// for and ends with the job.
///
//===----------------------------------------------------------------------===//

#include "pomp/server/OmpinstServer.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <sched.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace pomp::server {
namespace {

/// The lines of /proc/self/status that a fork passes on unchanged and a
/// request cannot: CPU and memory placement, capabilities, seccomp.
constexpr const char *InheritedStatusFields[] = {"Cpus_allowed_list:",
                                                 "Mems_allowed_list:",
                                                 "CapInh:",
                                                 "CapPrm:",
                                                 "CapEff:",
                                                 "CapBnd:",
                                                 "CapAmb:",
                                                 "NoNewPrivs:",
                                                 "Seccomp:"};

/// The namespaces a process lives in (their links name them by inode).
constexpr const char *Namespaces[] = {"cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts"};

bool startsWith(const char *Text, const char *Prefix) {
  while (*Prefix)
    if (*Text++ != *Prefix++)
      return false;
  return true;
}

/// The whole of a small /proc file, or "-" when it cannot be read.
std::string wholeFile(const char *Path) {
  std::FILE *File = std::fopen(Path, "re");
  if (!File)
    return "-";
  std::string Text;
  char Buffer[512];
  std::size_t Got;
  while ((Got = std::fread(Buffer, 1, sizeof Buffer, File)) > 0)
    Text.append(Buffer, Got);
  std::fclose(File);
  return Text;
}

} // namespace

std::string placementIdentity() {
  std::string Identity = "cgroup " + wholeFile("/proc/self/cgroup");
  for (const char *Namespace : Namespaces) {
    const std::string Link = std::string("/proc/self/ns/") + Namespace;
    char Target[PATH_MAX];
    const ssize_t Size = readlink(Link.c_str(), Target, sizeof Target - 1);
    Identity += std::string(Namespace) + " " +
                (Size > 0 ? std::string(Target, static_cast<std::size_t>(Size)) : "-") + "\n";
  }
  if (std::FILE *Status = std::fopen("/proc/self/status", "re")) {
    char Line[4096];
    while (std::fgets(Line, sizeof Line, Status))
      for (const char *Field : InheritedStatusFields)
        if (startsWith(Line, Field))
          Identity += Line;
    std::fclose(Status);
  }
  // getpriority returns -1 for nice 19 too: errno tells them apart.
  errno = 0;
  const int Nice = getpriority(PRIO_PROCESS, 0);
  Identity += "nice " + (errno ? std::string("-") : std::to_string(Nice)) + "\n";
  sched_param Parameters{};
  sched_getparam(0, &Parameters);
  Identity += "policy " + std::to_string(sched_getscheduler(0)) + " " +
              std::to_string(Parameters.sched_priority) + "\n";
  // ioprio_get(IOPRIO_WHO_PROCESS, this process): glibc has no wrapper.
  Identity += "ioprio " + std::to_string(syscall(SYS_ioprio_get, 1, 0)) + "\n";
  Identity += "oom " + wholeFile("/proc/self/oom_score_adj");
  Identity += "personality " + std::to_string(personality(0xffffffff)) + "\n";
  return Identity;
}

} // namespace pomp::server
