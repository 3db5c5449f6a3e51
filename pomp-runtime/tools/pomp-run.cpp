//===- pomp-run.cpp - Runs a program measured by libpomp through OMPT -----===//
///
/// \file
/// `pomp-run [options] [--] <program> [args...]` measures a program that was
/// not rebuilt: it names libpomp.so in OMP_TOOL_LIBRARIES, so that LLVM's
/// libomp loads libpomp as its OMPT tool, sets libpomp's POMP_* variables
/// from its options, and replaces itself with the program (exec), so the
/// program's exit status and signals are the command's own. Everything else
/// of the environment is left alone. docs/RUNTIME.md, "Measuring an
/// uninstrumented program", says more.
///
/// libpomp.so is found relative to this executable: <prefix>/bin/pomp-run
/// uses <prefix>/lib/libpomp.so, in an installed toolkit wherever it was
/// moved and in the build tree (build/bin, build/lib); the build tree's
/// library, compiled in, is the fallback, as for ompcc.
///
//===----------------------------------------------------------------------===//

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <string>
#include <string_view>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>
#include <vector>

#ifndef POMP_RUN_BUILD_LIBPOMP
#error "the build defines POMP_RUN_BUILD_LIBPOMP (the build tree's libpomp.so) and POMP_VERSION"
#endif

namespace {

constexpr const char *ToolName = "pomp-run";

/// Where the toolkit's files are relative to its prefix (cmake/PompInstall.cmake).
constexpr const char *InstalledLibpomp = "lib/libpomp.so";

/// The OpenMP runtime's variables (OpenMP 5.x, "OMPT interface"): the tools to
/// load, a ':'-separated list, and a switch that disables them all.
constexpr const char *ToolLibrariesVariable = "OMP_TOOL_LIBRARIES";
constexpr const char *ToolVariable = "OMP_TOOL";
constexpr const char *ToolDisabled = "disabled";
constexpr char PathListSeparator = ':';

/// execvp()'s search path when PATH is unset (glibc).
constexpr const char *DefaultSearchPath = "/bin:/usr/bin";

/// Exit statuses of pomp-run itself; a shell's for a program it cannot run.
constexpr int ExitFailure = 1;
constexpr int ExitUsage = 2;
constexpr int ExitCannotExecute = 126;
constexpr int ExitNotFound = 127;

constexpr const char *UsageText =
    "usage: pomp-run [options] [--] <program> [args...]\n"
    "\n"
    "Runs <program> measured by libpomp, without rebuilding it: LLVM's OpenMP\n"
    "runtime (libomp) loads libpomp as its OMPT tool (OMP_TOOL_LIBRARIES).\n"
    "Programs built with ompcc are measured as well, and on libgomp only those.\n"
    "The exit status is the program's.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR  write the measurement to DIR (POMP_EXPERIMENT_DIR)\n"
    "  -q, --quiet       no summary at the end of the run (POMP_QUIET=1), no notes\n"
    "  --ompt=on|off     off: only the POMP events of instrumented code (POMP_OMPT)\n"
    "  --trace           also write a trace (POMP_TRACE=1)\n"
    "  --verbose         libpomp reports what it set up (POMP_VERBOSE=1); pomp-run\n"
    "                    prints the variables it sets\n"
    "  -h, --help        this text\n"
    "  --version         the toolkit's version\n"
    "\n"
    "libpomp's other options are environment variables (docs/RUNTIME.md; POMP_HELP=1\n"
    "lists them when the program starts).\n";

/// What the command line asks for.
struct Request {
  /// libpomp's variables, in the order given.
  std::vector<std::pair<std::string, std::string>> Variables;
  bool Quiet = false;
  bool Verbose = false;
  bool Help = false;
  bool Version = false;
  /// The program and its arguments, null-terminated for execvp().
  std::vector<char *> Command;
};

void setVariable(Request &R, const char *Name, std::string Value) {
  R.Variables.emplace_back(Name, std::move(Value));
}

/// DIR relative to the current directory, made absolute: the program may
/// change its directory before libpomp writes at the end.
std::string absoluteDirectory(const std::string &Dir) {
  if (Dir.front() == '/')
    return Dir;
  std::vector<char> Cwd(PATH_MAX);
  if (!::getcwd(Cwd.data(), Cwd.size()))
    return Dir;
  return std::string(Cwd.data()) + "/" + Dir;
}

/// Reads the options; "" on success, else what is wrong.
std::string parseArguments(int Argc, char **Argv, Request &R) {
  int I = 1;
  for (; I < Argc; ++I) {
    const std::string_view Arg = Argv[I];
    if (Arg == "--") {
      ++I;
      break;
    }
    if (Arg.empty() || Arg.front() != '-')
      break;
    if (Arg == "-h" || Arg == "--help") {
      R.Help = true;
    } else if (Arg == "--version") {
      R.Version = true;
    } else if (Arg == "-q" || Arg == "--quiet") {
      R.Quiet = true;
      setVariable(R, "POMP_QUIET", "1");
    } else if (Arg == "--verbose") {
      R.Verbose = true;
      setVariable(R, "POMP_VERBOSE", "1");
    } else if (Arg == "--trace") {
      setVariable(R, "POMP_TRACE", "1");
    } else if (Arg == "--ompt=on" || Arg == "--ompt=off") {
      setVariable(R, "POMP_OMPT", std::string(Arg.substr(Arg.find('=') + 1)));
    } else if (Arg.rfind("--ompt", 0) == 0) {
      return "--ompt takes on or off: '" + std::string(Arg) + "'";
    } else if (Arg == "-o" || Arg == "--output" || Arg.rfind("--output=", 0) == 0) {
      std::string Dir;
      if (Arg.rfind("--output=", 0) == 0)
        Dir = Arg.substr(std::strlen("--output="));
      else if (I + 1 < Argc)
        Dir = Argv[++I];
      if (Dir.empty())
        return std::string(Arg.substr(0, Arg.find('='))) + " needs a directory";
      setVariable(R, "POMP_EXPERIMENT_DIR", absoluteDirectory(Dir));
    } else {
      return "unknown option '" + std::string(Arg) + "'";
    }
  }
  if (R.Help || R.Version)
    return "";
  if (I >= Argc)
    return "no program given";
  R.Command.assign(Argv + I, Argv + Argc);
  R.Command.push_back(nullptr);
  return "";
}

std::string selfExecutable() {
  std::vector<char> Path(PATH_MAX);
  const ssize_t Size = ::readlink("/proc/self/exe", Path.data(), Path.size());
  if (Size <= 0 || static_cast<std::size_t>(Size) >= Path.size())
    return "";
  return std::string(Path.data(), static_cast<std::size_t>(Size));
}

std::string parentDirectory(const std::string &Path) {
  const std::size_t Slash = Path.rfind('/');
  if (Slash == std::string::npos)
    return ".";
  return Slash == 0 ? "/" : Path.substr(0, Slash);
}

/// Where libpomp.so may be, first choice first: next to this executable's
/// prefix, then the build tree this pomp-run was built in.
std::vector<std::string> libpompCandidates() {
  std::vector<std::string> Candidates;
  const std::string Self = selfExecutable();
  if (!Self.empty()) {
    const std::string Prefix = parentDirectory(parentDirectory(Self));
    Candidates.push_back((Prefix == "/" ? "" : Prefix) + "/" + InstalledLibpomp);
  }
  if (Candidates.empty() || Candidates.front() != POMP_RUN_BUILD_LIBPOMP)
    Candidates.push_back(POMP_RUN_BUILD_LIBPOMP);
  return Candidates;
}

/// Library first in a ':'-separated list, without another copy of it.
std::string prependToList(const char *List, const std::string &Library) {
  std::string Result = Library;
  if (!List)
    return Result;
  const std::string_view Rest = List;
  std::size_t Begin = 0;
  while (Begin <= Rest.size()) {
    std::size_t End = Rest.find(PathListSeparator, Begin);
    if (End == std::string_view::npos)
      End = Rest.size();
    const std::string_view Entry = Rest.substr(Begin, End - Begin);
    if (!Entry.empty() && Entry != Library) {
      Result += PathListSeparator;
      Result += Entry;
    }
    Begin = End + 1;
  }
  return Result;
}

/// The file execvp() runs for Name: Name itself when it holds a '/', else the
/// first executable file of that name on PATH; "" when there is none.
std::string findProgram(const std::string &Name) {
  if (Name.find('/') != std::string::npos)
    return Name;
  const char *Path = std::getenv("PATH");
  const std::string_view Dirs = Path ? Path : DefaultSearchPath;
  std::size_t Begin = 0;
  while (Begin <= Dirs.size()) {
    std::size_t End = Dirs.find(PathListSeparator, Begin);
    if (End == std::string_view::npos)
      End = Dirs.size();
    // An empty entry is the current directory.
    const std::string Dir(End > Begin ? Dirs.substr(Begin, End - Begin) : ".");
    const std::string Candidate = Dir + "/" + Name;
    struct stat Status;
    if (::stat(Candidate.c_str(), &Status) == 0 && S_ISREG(Status.st_mode) &&
        ::access(Candidate.c_str(), X_OK) == 0)
      return Candidate;
    Begin = End + 1;
  }
  return "";
}

/// A read-only view of a whole file.
class MappedFile {
public:
  explicit MappedFile(const std::string &Path) {
    const int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
    if (Fd < 0)
      return;
    struct stat Status;
    if (::fstat(Fd, &Status) == 0 && S_ISREG(Status.st_mode) && Status.st_size > 0) {
      void *Data =
          ::mmap(nullptr, static_cast<std::size_t>(Status.st_size), PROT_READ, MAP_PRIVATE, Fd, 0);
      if (Data != MAP_FAILED) {
        Begin = static_cast<const unsigned char *>(Data);
        Size = static_cast<std::size_t>(Status.st_size);
      }
    }
    ::close(Fd);
  }
  ~MappedFile() {
    if (Begin)
      ::munmap(const_cast<unsigned char *>(Begin), Size);
  }
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  /// The Count objects of type T at Offset, or null when the file is shorter.
  template <class T> const T *at(std::uint64_t Offset, std::uint64_t Count = 1) const {
    if (!Begin || Offset > Size || Count > (Size - Offset) / sizeof(T))
      return nullptr;
    return reinterpret_cast<const T *>(Begin + Offset);
  }
  std::size_t size() const { return Size; }

private:
  const unsigned char *Begin = nullptr;
  std::size_t Size = 0;
};

/// The DT_NEEDED entries of an ELF file of one class (32 or 64 bits), read
/// through its section headers; nothing for a file that is not what it
/// claims.
template <class Ehdr, class Shdr, class Dyn>
std::vector<std::string> neededLibraries(const MappedFile &File) {
  std::vector<std::string> Needed;
  const Ehdr *Header = File.at<Ehdr>(0);
  if (!Header || Header->e_shentsize != sizeof(Shdr))
    return Needed;
  const Shdr *Sections = File.at<Shdr>(Header->e_shoff, Header->e_shnum);
  if (!Sections)
    return Needed;
  for (unsigned I = 0; I < Header->e_shnum; ++I) {
    const Shdr &Dynamic = Sections[I];
    if (Dynamic.sh_type != SHT_DYNAMIC || Dynamic.sh_link >= Header->e_shnum)
      continue;
    const Shdr &Strings = Sections[Dynamic.sh_link];
    const Dyn *Entries = File.at<Dyn>(Dynamic.sh_offset, Dynamic.sh_size / sizeof(Dyn));
    const char *StringTable = File.at<char>(Strings.sh_offset, Strings.sh_size);
    if (!Entries || !StringTable)
      return Needed;
    for (std::uint64_t E = 0; E < Dynamic.sh_size / sizeof(Dyn) && Entries[E].d_tag != DT_NULL;
         ++E) {
      const std::uint64_t Offset = Entries[E].d_un.d_val;
      if (Entries[E].d_tag == DT_NEEDED && Offset < Strings.sh_size)
        Needed.emplace_back(StringTable + Offset,
                            strnlen(StringTable + Offset, Strings.sh_size - Offset));
    }
    return Needed;
  }
  return Needed;
}

/// The shared libraries Path names directly (DT_NEEDED); nothing for a
/// script, a static program or a file of another byte order.
std::vector<std::string> neededLibraries(const std::string &Path) {
  const MappedFile File(Path);
  const unsigned char *Ident = File.at<unsigned char>(0, EI_NIDENT);
  if (!Ident || std::memcmp(Ident, ELFMAG, SELFMAG) != 0)
    return {};
  constexpr unsigned char NativeByteOrder =
      __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB;
  if (Ident[EI_DATA] != NativeByteOrder)
    return {};
  if (Ident[EI_CLASS] == ELFCLASS64)
    return neededLibraries<Elf64_Ehdr, Elf64_Shdr, Elf64_Dyn>(File);
  if (Ident[EI_CLASS] == ELFCLASS32)
    return neededLibraries<Elf32_Ehdr, Elf32_Shdr, Elf32_Dyn>(File);
  return {};
}

bool startsWith(const std::string &Text, std::string_view Prefix) {
  return Text.compare(0, Prefix.size(), Prefix) == 0;
}

/// True when the program links GNU's OpenMP runtime and not an OMPT-capable
/// one (LLVM's libomp, Intel's libiomp5): the runtime never loads a tool.
bool usesOnlyLibgomp(const std::string &Program) {
  bool Gomp = false, Ompt = false;
  for (const std::string &Library : neededLibraries(Program)) {
    Gomp = Gomp || startsWith(Library, "libgomp.so");
    Ompt = Ompt || startsWith(Library, "libomp.so") || startsWith(Library, "libiomp5.so");
  }
  return Gomp && !Ompt;
}

void note(const std::string &Message) {
  std::fprintf(stderr, "%s: note: %s\n", ToolName, Message.c_str());
}

} // namespace

int main(int Argc, char **Argv) {
  Request R;
  if (const std::string Error = parseArguments(Argc, Argv, R); !Error.empty()) {
    std::fprintf(stderr, "%s: %s\n%s", ToolName, Error.c_str(), UsageText);
    return ExitUsage;
  }
  if (R.Help) {
    std::fputs(UsageText, stdout);
    return 0;
  }
  if (R.Version) {
    std::printf("%s (POMP toolkit) %s\n", ToolName, POMP_VERSION);
    return 0;
  }

  std::string Libpomp;
  const std::vector<std::string> Candidates = libpompCandidates();
  for (const std::string &Candidate : Candidates)
    if (::access(Candidate.c_str(), R_OK) == 0) {
      Libpomp = Candidate;
      break;
    }
  if (Libpomp.empty()) {
    std::string Looked;
    for (const std::string &Candidate : Candidates)
      Looked += (Looked.empty() ? "" : ", ") + Candidate;
    std::fprintf(stderr, "%s: libpomp.so not found (looked at %s)\n", ToolName, Looked.c_str());
    return ExitFailure;
  }

  setVariable(R, ToolLibrariesVariable, prependToList(std::getenv(ToolLibrariesVariable), Libpomp));
  for (const auto &[Name, Value] : R.Variables) {
    if (::setenv(Name.c_str(), Value.c_str(), /*overwrite=*/1) != 0) {
      std::fprintf(stderr, "%s: cannot set %s: %s\n", ToolName, Name.c_str(), std::strerror(errno));
      return ExitFailure;
    }
    if (R.Verbose)
      std::fprintf(stderr, "%s: %s=%s\n", ToolName, Name.c_str(), Value.c_str());
  }

  if (!R.Quiet) {
    const char *Tool = std::getenv(ToolVariable);
    if (Tool && ::strcasecmp(Tool, ToolDisabled) == 0)
      note(std::string(ToolVariable) + "=" + Tool +
           ": the OpenMP runtime loads no tool; only code built with ompcc is measured");
    const std::string Program = findProgram(R.Command.front());
    if (!Program.empty() && usesOnlyLibgomp(Program))
      note(std::string(R.Command.front()) +
           " uses libgomp, which has no OMPT: only code built with ompcc is measured");
  }

  std::fflush(nullptr);
  ::execvp(R.Command.front(), R.Command.data());
  const int Error = errno;
  std::fprintf(stderr, "%s: cannot run '%s': %s\n", ToolName, R.Command.front(),
               std::strerror(Error));
  return Error == ENOENT ? ExitNotFound : ExitCannotExecute;
}
