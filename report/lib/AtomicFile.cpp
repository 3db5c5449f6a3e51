//===- AtomicFile.cpp - Writing a file all or nothing ---------------------===//

#include "pomp/report/AtomicFile.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace pomp::report {
namespace {

constexpr mode_t FileMode = 0666;

} // namespace

bool writeFileAtomically(const std::string &Path, std::string_view Contents, std::string &Error) {
  const std::size_t Slash = Path.rfind('/');
  const std::string Directory = Slash == std::string::npos ? "." : Path.substr(0, Slash + 1);
  const std::string Base = Slash == std::string::npos ? Path : Path.substr(Slash + 1);
  if (Base.empty()) {
    Error = "cannot write '" + Path + "': not a file name";
    return false;
  }
  // mkstemp makes the name unique, also between two pomp-report runs at once.
  std::string Temporary = Directory + (Slash == std::string::npos ? "/." : ".") + Base + ".XXXXXX";
  const int Fd = ::mkstemp(Temporary.data());
  if (Fd < 0) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    return false;
  }
  // mkstemp creates the file 0600; a report is as readable as any other file.
  const mode_t Mask = ::umask(0);
  ::umask(Mask);
  (void)::fchmod(Fd, FileMode & ~Mask);
  const char *Data = Contents.data();
  std::size_t Left = Contents.size();
  while (Left > 0) {
    const ssize_t Written = ::write(Fd, Data, Left);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0) {
      Error = "cannot write '" + Path + "': " + std::strerror(Written < 0 ? errno : ENOSPC);
      ::close(Fd);
      ::unlink(Temporary.c_str());
      return false;
    }
    Data += Written;
    Left -= static_cast<std::size_t>(Written);
  }
  if (::close(Fd) != 0 || ::rename(Temporary.c_str(), Path.c_str()) != 0) {
    Error = "cannot write '" + Path + "': " + std::strerror(errno);
    ::unlink(Temporary.c_str());
    return false;
  }
  return true;
}

} // namespace pomp::report
