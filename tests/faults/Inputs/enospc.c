// An LD_PRELOAD shim that makes writes fail as on a full disk, without root (tests/faults).
//
// Only files under FAULT_UNDER (a directory; unset: the shim does nothing) whose name
// contains FAULT_NAME (unset: every file) are affected, so the program's stdout and stderr
// never are. What fails is chosen by FAULT_OP:
//   write   (default) FAULT_AFTER bytes (0 unless set) may be in such files, summed over all of
//           them as on a disk that fills up (unlink gives a file's bytes back); a write, pwrite,
//           writev, fwrite, fputc or fputs beyond that fails with ENOSPC, one that crosses the
//           limit is short
//   close   close and fclose of such a file that was written to fail with ENOSPC (the file is
//           closed, as Linux does: a delayed write-back error)
//   rename  rename of such a file fails with ENOSPC (a directory that cannot grow)
//   create  creating such a file (open with O_CREAT, fopen for writing) fails with ENOSPC (a
//           directory that cannot grow, no inode left)
// FAULT_LOG names a file that gets one line "<op> <path>" for every path a fault hit, so that
// a test can tell the fault was injected at all. libpomp creates files with open() and writes
// with write(), OTF2 3.0 with fopen/fwrite/fclose (`nm -D libopen-trace-format2.so.10`, strace):
// stdio's own flushes call no interposable function, so fwrite is where its bytes are counted.
// Neither calls fsync.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

enum Op { OpWrite, OpClose, OpRename, OpCreate };

static pthread_once_t Once = PTHREAD_ONCE_INIT;
static char Under[PATH_MAX];
static size_t UnderLength;
static const char *Name;
static const char *Log;
static enum Op Fault = OpWrite;
static long long Budget;
/// Bytes written to matching files and not yet removed, under UsedMutex.
static long long Used;
static pthread_mutex_t UsedMutex = PTHREAD_MUTEX_INITIALIZER;
/// Descriptors of matching files that were written to (for OpClose).
enum { MaxFds = 4096 };
static atomic_bool Written[MaxFds];
static pthread_mutex_t LogMutex = PTHREAD_MUTEX_INITIALIZER;

#define REAL(Fn) ((__typeof__(&Fn))dlsym(RTLD_NEXT, #Fn))

static void configure(void) {
  const char *Dir = getenv("FAULT_UNDER");
  if (!Dir || !*Dir || !realpath(Dir, Under))
    return;
  UnderLength = strlen(Under);
  Name = getenv("FAULT_NAME");
  Log = getenv("FAULT_LOG");
  const char *After = getenv("FAULT_AFTER");
  Budget = After ? atoll(After) : 0;
  const char *Op = getenv("FAULT_OP");
  if (Op && strcmp(Op, "close") == 0)
    Fault = OpClose;
  else if (Op && strcmp(Op, "rename") == 0)
    Fault = OpRename;
  else if (Op && strcmp(Op, "create") == 0)
    Fault = OpCreate;
}

/// Whether Path (absolute, resolved) is a file the faults are for.
static int matchesPath(const char *Path) {
  if (UnderLength == 0 || strncmp(Path, Under, UnderLength) != 0 || Path[UnderLength] != '/')
    return 0;
  const char *Base = strrchr(Path, '/') + 1;
  return !Name || !*Name || strstr(Base, Name) != NULL;
}

static int matchesFd(int Fd, char *Path, size_t Size) {
  pthread_once(&Once, configure);
  if (UnderLength == 0 || Fd < 0)
    return 0;
  char Link[64];
  snprintf(Link, sizeof Link, "/proc/self/fd/%d", Fd);
  const ssize_t N = readlink(Link, Path, Size - 1);
  if (N <= 0)
    return 0;
  Path[N] = '\0';
  return matchesPath(Path);
}

/// Appends "<op> <path>" to the log, once per path and op.
static void note(const char *Op, const char *Path) {
  if (!Log)
    return;
  pthread_mutex_lock(&LogMutex);
  char Line[PATH_MAX + 16];
  const int Length = snprintf(Line, sizeof Line, "%s %s\n", Op, Path);
  int Seen = 0;
  FILE *In = REAL(fopen)(Log, "r");
  if (In) {
    char Old[PATH_MAX + 16];
    while (!Seen && fgets(Old, sizeof Old, In))
      Seen = strcmp(Old, Line) == 0;
    REAL(fclose)(In);
  }
  if (!Seen) {
    const int Out = REAL(open)(Log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (Out >= 0) {
      (void)!REAL(write)(Out, Line, (size_t)Length);
      REAL(close)(Out);
    }
  }
  pthread_mutex_unlock(&LogMutex);
}

/// How many of Size bytes to Fd may be written: Size when Fd is not a matching file or the
/// budget allows it, less (possibly 0, errno ENOSPC) when the disk is "full".
static size_t allowed(int Fd, size_t Size) {
  char Path[PATH_MAX];
  if (!matchesFd(Fd, Path, sizeof Path))
    return Size;
  if (Fd < MaxFds)
    Written[Fd] = 1;
  if (Fault != OpWrite)
    return Size;
  pthread_mutex_lock(&UsedMutex);
  const long long Room = Budget > Used ? Budget - Used : 0;
  const size_t Ok = (long long)Size <= Room ? Size : (size_t)Room;
  Used += (long long)Ok;
  pthread_mutex_unlock(&UsedMutex);
  if (Ok < Size) {
    note("write", Path);
    errno = ENOSPC;
  }
  return Ok;
}

ssize_t write(int Fd, const void *Data, size_t Size) {
  const size_t Ok = allowed(Fd, Size);
  if (Ok == 0 && Size != 0)
    return -1;
  return REAL(write)(Fd, Data, Ok);
}

ssize_t pwrite(int Fd, const void *Data, size_t Size, off_t Offset) {
  const size_t Ok = allowed(Fd, Size);
  if (Ok == 0 && Size != 0)
    return -1;
  return REAL(pwrite)(Fd, Data, Ok, Offset);
}

ssize_t pwrite64(int Fd, const void *Data, size_t Size, off_t Offset) {
  return pwrite(Fd, Data, Size, Offset);
}

ssize_t writev(int Fd, const struct iovec *Parts, int Count) {
  size_t Size = 0;
  for (int I = 0; I < Count; ++I)
    Size += Parts[I].iov_len;
  if (allowed(Fd, Size) < Size)
    return -1;
  return REAL(writev)(Fd, Parts, Count);
}

size_t fwrite(const void *Data, size_t Size, size_t Count, FILE *Stream) {
  const size_t Bytes = Size * Count;
  const size_t Ok = allowed(fileno(Stream), Bytes);
  if (Ok < Bytes) {
    const int Reason = errno;
    const size_t Items = Size ? REAL(fwrite)(Data, Size, Ok / Size, Stream) : 0;
    errno = Reason;
    return Items;
  }
  return REAL(fwrite)(Data, Size, Count, Stream);
}

int fputc(int C, FILE *Stream) {
  if (allowed(fileno(Stream), 1) == 0)
    return EOF;
  return REAL(fputc)(C, Stream);
}

int fputs(const char *S, FILE *Stream) {
  const size_t Bytes = strlen(S);
  if (allowed(fileno(Stream), Bytes) < Bytes)
    return EOF;
  return REAL(fputs)(S, Stream);
}

/// Whether closing Fd is to fail as the fault asks.
static int failsAt(int Fd, enum Op Op, const char *What) {
  char Path[PATH_MAX];
  if (Fault != Op || !matchesFd(Fd, Path, sizeof Path))
    return 0;
  if (Op == OpClose && (Fd >= MaxFds || !Written[Fd]))
    return 0;
  note(What, Path);
  return 1;
}

int close(int Fd) {
  const int Fails = failsAt(Fd, OpClose, "close");
  if (Fd >= 0 && Fd < MaxFds)
    Written[Fd] = 0;
  const int Result = REAL(close)(Fd);
  if (Fails) {
    errno = ENOSPC;
    return -1;
  }
  return Result;
}

int fclose(FILE *Stream) {
  const int Fd = fileno(Stream);
  const int Fails = failsAt(Fd, OpClose, "close");
  if (Fd >= 0 && Fd < MaxFds)
    Written[Fd] = 0;
  const int Result = REAL(fclose)(Stream);
  if (Fails) {
    errno = ENOSPC;
    return EOF;
  }
  return Result;
}

/// Removing a matching file gives its room back, as on a real disk (where it is only given back
/// when the last descriptor is closed; the tests do not depend on that).
int unlink(const char *Path) {
  pthread_once(&Once, configure);
  char Resolved[PATH_MAX];
  struct stat Info;
  const int Matches = UnderLength != 0 && realpath(Path, Resolved) && matchesPath(Resolved) &&
                      lstat(Path, &Info) == 0 && S_ISREG(Info.st_mode);
  const int Result = REAL(unlink)(Path);
  if (Result == 0 && Matches) {
    pthread_mutex_lock(&UsedMutex);
    Used = Used > Info.st_size ? Used - Info.st_size : 0;
    pthread_mutex_unlock(&UsedMutex);
  }
  return Result;
}

int rename(const char *From, const char *To) {
  pthread_once(&Once, configure);
  char Path[PATH_MAX];
  if (Fault == OpRename && UnderLength != 0 && realpath(From, Path) && matchesPath(Path)) {
    note("rename", Path);
    errno = ENOSPC;
    return -1;
  }
  return REAL(rename)(From, To);
}

/// Whether creating Path is to fail: its directory resolved, as the file does not exist yet.
static int failsCreate(const char *Path) {
  pthread_once(&Once, configure);
  if (Fault != OpCreate || UnderLength == 0)
    return 0;
  char Directory[PATH_MAX];
  const char *Slash = strrchr(Path, '/');
  if (!Slash)
    strcpy(Directory, ".");
  else
    snprintf(Directory, sizeof Directory, "%.*s", (int)(Slash - Path), Path);
  char Resolved[PATH_MAX];
  char Full[2 * PATH_MAX];
  if (!realpath(Directory, Resolved))
    return 0;
  snprintf(Full, sizeof Full, "%s/%s", Resolved, Slash ? Slash + 1 : Path);
  if (!matchesPath(Full))
    return 0;
  note("create", Full);
  return 1;
}

int open(const char *Path, int Flags, ...) {
  mode_t Mode = 0;
  if (Flags & O_CREAT) {
    va_list Args;
    va_start(Args, Flags);
    Mode = (mode_t)va_arg(Args, int);
    va_end(Args);
    if (failsCreate(Path)) {
      errno = ENOSPC;
      return -1;
    }
  }
  return REAL(open)(Path, Flags, Mode);
}

FILE *fopen(const char *Path, const char *Mode) {
  if ((Mode[0] == 'w' || Mode[0] == 'a') && failsCreate(Path)) {
    errno = ENOSPC;
    return NULL;
  }
  return REAL(fopen)(Path, Mode);
}
