//===- core/Output.cpp - The experiment directory -------------------------===//

#include "core/Output.h"

#include "core/CallPath.h"
#include "core/Json.h"
#include "core/Metrics.h"
#include "pomp/ctc/SourceRoot.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits>
#include <link.h>
#include <map>
#include <mutex>
#include <optional>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

extern char **environ;

#ifndef POMP_VERSION
#define POMP_VERSION "unknown"
#endif

namespace pomp::rt {
namespace {

constexpr int ProfileFormatVersion = 2;
constexpr std::string_view ProfileSchema = "pomp-profile";
constexpr double NsPerSecondD = 1e9;
constexpr double Percent = 100.0;
/// Suffixes tried before giving up on finding a free directory name.
constexpr int MaxDirectorySuffix = 10000;
/// Regions the stderr summary lists.
constexpr std::size_t SummaryRegions = 3;
/// Room for a formatted date and time.
constexpr std::size_t TimeBufferSize = 64;
/// Room for one formatted line of profile.txt.
constexpr std::size_t LineBufferSize = 512;
/// Missing parents of the experiment directory are made as mkdir -p makes
/// them; the umask narrows both modes.
constexpr mode_t ParentDirectoryMode = 0777;
/// The experiment directory: nobody but its owner may add, replace or
/// remove a file in it, so no one else can plant a link where libpomp or
/// OTF2 will write.
constexpr mode_t ExperimentDirectoryMode = 0755;
constexpr mode_t FileMode = 0666;
/// Unique names tried before a temporary file is given up.
constexpr int MaxTemporaryAttempts = 100;

std::string formatTime(std::time_t Time, const char *Format, bool Utc) {
  std::tm Parts{};
  if (Utc)
    gmtime_r(&Time, &Parts);
  else
    localtime_r(&Time, &Parts);
  char Buffer[TimeBufferSize];
  const std::size_t N = std::strftime(Buffer, sizeof Buffer, Format, &Parts);
  return std::string(Buffer, N);
}

double seconds(std::uint64_t Ns) { return static_cast<double>(Ns) / NsPerSecondD; }

std::string_view nodeKind(const ProfileNode &N) {
  if (N.Parent == ProfileNode::NoParent)
    return "root";
  if (info(N.Opener).EventRole == Role::EVENT)
    return "event";
  return N.Waiting ? "wait" : "work";
}

/// What a node is (nodeConstruct() of Profile.h); "program" for the root.
std::string nodeConstruct(const ProfileNode &N, const RegionTable &Regions) {
  if (N.Parent == ProfileNode::NoParent)
    return "program";
  return nodeConstruct(N.Region, N.Opener, Regions);
}

/// "parallel body @demo.c:7", "critical(lock) @x.c:3" for people.
std::string nodeTitle(const ProfileNode &N, const RegionTable &Regions) {
  if (N.Parent == ProfileNode::NoParent)
    return "program";
  return nodeTitle(N.Region, N.Opener, Regions);
}

/// Waiting per thread, sorted by thread.
using ThreadWaits = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

/// For every node, each thread's waiting at and below it: the exclusive time
/// of the `wait` nodes in its subtree (pomp-report computes the same,
/// report/lib/Rows.cpp).
std::vector<ThreadWaits> subtreeWaits(const Profile &P) {
  std::vector<ThreadWaits> Waits(P.Nodes.size());
  // Pre-order: a backward pass has finished a node's children before the node.
  for (std::size_t I = P.Nodes.size(); I-- > 1;) {
    const ProfileNode &N = P.Nodes[I];
    ThreadWaits &Own = Waits[I];
    if (N.Waiting)
      for (const ThreadMetrics &M : N.PerThread)
        Own.emplace_back(M.Thread, M.ExclusiveNs);
    std::sort(Own.begin(), Own.end());
    ThreadWaits Combined;
    for (const auto &[Thread, Ns] : Own) {
      if (!Combined.empty() && Combined.back().first == Thread)
        Combined.back().second += Ns;
      else
        Combined.emplace_back(Thread, Ns);
    }
    Own = std::move(Combined);
    if (N.Parent != ProfileNode::NoParent && N.Parent != 0) {
      ThreadWaits &Into = Waits[N.Parent];
      Into.insert(Into.end(), Own.begin(), Own.end());
    }
  }
  return Waits;
}

/// A thread's waiting at and below node I.
std::uint64_t threadWait(const std::vector<ThreadWaits> &Waits, std::uint32_t I,
                         std::uint32_t Thread) {
  const ThreadWaits &W = Waits[I];
  const auto It = std::lower_bound(W.begin(), W.end(), Thread,
                                   [](const std::pair<std::uint32_t, std::uint64_t> &E,
                                      std::uint32_t T) { return E.first < T; });
  return It == W.end() || It->first != Thread ? 0 : It->second;
}

/// Each visiting thread's work at node I: its inclusive time without its
/// waiting at and below the node (0 where a task's waiting, run elsewhere,
/// exceeds it).
std::vector<std::uint64_t> workPerThread(const ProfileNode &N, std::uint32_t I,
                                         const std::vector<ThreadWaits> &Waits) {
  std::vector<std::uint64_t> Work;
  for (const ThreadMetrics &M : N.PerThread) {
    const std::uint64_t Wait = threadWait(Waits, I, M.Thread);
    Work.push_back(M.InclusiveNs > Wait ? M.InclusiveNs - Wait : 0);
  }
  return Work;
}

void writeMetrics(JsonWriter &W, const ThreadMetrics &M) {
  W.key("visits").value(M.Visits);
  W.key("inclusive_ns").value(M.InclusiveNs);
  W.key("exclusive_ns").value(M.ExclusiveNs);
  W.key("min_ns").value(M.MinNs);
  W.key("max_ns").value(M.MaxNs);
  W.key("folded_visits").value(M.FoldedVisits);
  W.key("nested_visits").value(M.NestedVisits);
  // Hardware counters (POMP_METRICS): only in profiles that recorded some.
  const std::vector<std::string> &Names = metricsReport().Recorded;
  if (Names.empty())
    return;
  W.key("metrics").beginObject();
  for (std::size_t I = 0; I < Names.size(); ++I) {
    const bool Has = I < M.CounterInclusive.size();
    W.key(Names[I]).beginObject();
    W.key("inclusive").value(Has ? M.CounterInclusive[I] : 0);
    W.key("exclusive").value(Has ? M.CounterExclusive[I] : 0);
    W.endObject();
  }
  W.endObject();
}

/// Visits counted by recursion folding and nested visits, over the profile.
struct FoldingSummary {
  std::uint64_t FoldedVisits = 0;
  std::uint64_t NestedVisits = 0;
  std::uint64_t Nodes = 0; ///< nodes with folded or nested visits
};

FoldingSummary foldingSummary(const Profile &P) {
  FoldingSummary S;
  for (const ProfileNode &N : P.Nodes) {
    const ThreadMetrics T = N.total();
    S.FoldedVisits += T.FoldedVisits;
    S.NestedVisits += T.NestedVisits;
    S.Nodes += T.FoldedVisits + T.NestedVisits > 0 ? 1 : 0;
  }
  return S;
}

void writeLines(JsonWriter &W, std::string_view Key, const std::optional<pomp::ctc::LineRange> &L) {
  W.key(Key);
  if (!L) {
    W.null();
    return;
  }
  W.beginArray().value(L->First).value(L->Last).endArray();
}

/// One row of the table of regions: a (region, opener) pair summed over the
/// call paths it occurs on.
struct FlatEntry {
  std::uint32_t FirstNode = 0;
  std::uint64_t Visits = 0;
  std::uint64_t ExclusiveNs = 0;
  /// Only occurrences not nested in another occurrence (recursion) count.
  std::uint64_t InclusiveNs = 0;
  std::map<std::uint32_t, std::uint64_t> PerThreadInclusive;
  /// Each thread's work: inclusive time without its waiting below.
  std::map<std::uint32_t, std::uint64_t> PerThreadWork;
  /// Waiting at and below the row's outermost nodes, summed over threads.
  std::uint64_t WaitNs = 0;

  /// Waiting constructs have no work of their own (their imbalance is the
  /// work's before them), so they never top a sort by imbalance.
  bool Waiting = false;

  double imbalance() const {
    if (Waiting)
      return 0.0;
    std::vector<std::uint64_t> Work;
    for (const auto &[Thread, Ns] : PerThreadWork)
      Work.push_back(Ns);
    return imbalanceOf(Work);
  }
};

/// The (region, opener) entries of the profile, by exclusive time, largest first.
std::vector<FlatEntry> flatProfile(const Profile &P, const RegionTable &Regions) {
  const std::vector<ThreadWaits> Waits = subtreeWaits(P);
  // Rows are keyed by what they are called: copies of one construct (inlined
  // into several functions, so several code addresses of the OMPT adapter's)
  // are one row, as a person looks for them.
  using RowKey = std::pair<std::string, EventId>;
  std::map<RowKey, FlatEntry> ByKey;
  std::map<RowKey, int> Open;
  /// A node on the walk and the next of its children to visit.
  struct Visit {
    std::uint32_t Node;
    std::size_t NextChild;
  };
  std::vector<Visit> Pending = {{0, 0}};
  while (!Pending.empty()) {
    const std::uint32_t I = Pending.back().Node;
    const ProfileNode &N = P.Nodes[I];
    const bool IsRoot = N.Parent == ProfileNode::NoParent;
    const RowKey Key{IsRoot ? std::string() : nodeTitle(N, Regions), N.Opener};
    if (Pending.back().NextChild == 0 && !IsRoot) {
      FlatEntry &E = ByKey[Key];
      if (E.Visits == 0 && E.ExclusiveNs == 0 && E.InclusiveNs == 0)
        E.FirstNode = I;
      E.Waiting = N.Waiting;
      const ThreadMetrics T = N.total();
      E.Visits += T.Visits;
      E.ExclusiveNs += T.ExclusiveNs;
      if (Open[Key] == 0) {
        E.InclusiveNs += T.InclusiveNs;
        for (const ThreadMetrics &M : N.PerThread) {
          E.PerThreadInclusive[M.Thread] += M.InclusiveNs;
          const std::uint64_t Wait = threadWait(Waits, I, M.Thread);
          E.PerThreadWork[M.Thread] += M.InclusiveNs > Wait ? M.InclusiveNs - Wait : 0;
          E.WaitNs += Wait;
        }
      }
      ++Open[Key];
    }
    if (Pending.back().NextChild < N.Children.size()) {
      const std::uint32_t Child = N.Children[Pending.back().NextChild++];
      Pending.push_back({Child, 0});
      continue;
    }
    if (!IsRoot)
      --Open[Key];
    Pending.pop_back();
  }
  std::vector<FlatEntry> Entries;
  for (auto &[Key, E] : ByKey)
    Entries.push_back(std::move(E));
  std::sort(Entries.begin(), Entries.end(), [](const FlatEntry &A, const FlatEntry &B) {
    return A.ExclusiveNs != B.ExclusiveNs ? A.ExclusiveNs > B.ExclusiveNs
                                          : A.FirstNode < B.FirstNode;
  });
  return Entries;
}

std::string formatLine(const char *Format, ...) __attribute__((format(printf, 1, 2)));
std::string formatLine(const char *Format, ...) {
  char Buffer[LineBufferSize];
  va_list Args;
  va_start(Args, Format);
  va_list Again;
  va_copy(Again, Args);
  const int N = std::vsnprintf(Buffer, sizeof Buffer, Format, Args);
  va_end(Args);
  std::string Line;
  if (N >= 0 && static_cast<std::size_t>(N) < sizeof Buffer) {
    Line.assign(Buffer, static_cast<std::size_t>(N));
  } else if (N >= 0) {
    // A long C++ name with its path and function: printed whole, never cut.
    Line.resize(static_cast<std::size_t>(N) + 1);
    std::vsnprintf(Line.data(), Line.size(), Format, Again);
    Line.resize(static_cast<std::size_t>(N));
  }
  va_end(Again);
  return Line;
}

/// The directory that holds the source files of all regions whose location
/// is an absolute path, ending in '/' (pomp::ctc::SourceRoot). The tables of
/// profile.txt show paths relative to it, as pomp-report's do; profile.json
/// keeps them whole.
std::string commonRoot(const RegionTable &Regions) {
  pomp::ctc::SourceRoot Root;
  for (RegionId Id = 1; Id <= Regions.size(); ++Id)
    Root.add(Regions.get(Id).Location);
  return Root.root();
}

/// A node's title with the common root taken off its location; with the
/// DWARF inline chain for a call-path line (Inlining).
std::string shortTitle(const ProfileNode &N, const RegionTable &Regions, const std::string &Root,
                       bool Inlining = false) {
  std::string Title = Inlining ? nodePathTitle(N.Region, N.Opener, Regions) : nodeTitle(N, Regions);
  if (Root.empty())
    return Title;
  const std::size_t At = Title.find(" @" + Root);
  if (At != std::string::npos)
    Title.erase(At + 2, Root.size());
  return Title;
}

std::string anomalyText(const AnomalyCounts &Counts) {
  std::string Text;
  for (std::size_t A = 0; A < AnomalyCount; ++A)
    if (Counts[A] != 0)
      Text +=
          formatLine("  %llu %.*s: %.*s\n", static_cast<unsigned long long>(Counts[A]),
                     static_cast<int>(AnomalyInfos[A].Json.size()), AnomalyInfos[A].Json.data(),
                     static_cast<int>(AnomalyInfos[A].Text.size()), AnomalyInfos[A].Text.data());
  return Text;
}

/// The warning block of profile.txt: the files whose constructs are missing.
std::string uninstrumentedText(const std::vector<UninstrumentedFile> &Files) {
  if (Files.empty())
    return {};
  std::string Text = "\nWARNING: " + std::to_string(Files.size()) +
                     (Files.size() == 1 ? " source file was" : " source files were") +
                     " compiled without instrumentation; their OpenMP constructs are not\n"
                     "in this profile (ompcc could not instrument them):\n";
  for (const UninstrumentedFile &F : Files)
    Text += "  " + F.File + ": " + F.Reason + "\n";
  return Text;
}

/// What went wrong with an incomplete trace, for profile.json and profile.txt.
std::string traceError(const TraceReport &T) {
  if (T.Complete)
    return {};
  if (T.Errno == 0)
    return T.Failure;
  return "writing '" + T.Failure + "' failed: " + std::strerror(T.Errno);
}

/// "the OTF2 trace" or "the Chrome trace trace.json", for messages.
std::string traceTitle(const TraceReport &T) {
  return T.Format == "otf2" ? "the OTF2 trace" : "the Chrome trace " + T.File;
}

/// The profile.txt lines of the incomplete traces.
std::string incompleteTraceText(const std::vector<TraceReport> &Traces) {
  std::string Text;
  for (const TraceReport &T : Traces)
    if (!T.Complete)
      Text += "TRACE INCOMPLETE: " + T.File + (T.Removed ? " (removed)" : "") + ": " +
              traceError(T) + "; " + std::to_string(T.Events - T.Written) + " of " +
              std::to_string(T.Events) + " events lost\n";
  return Text;
}

/// The summary line of each complete trace.
void printTraceSummaries(const std::string &Directory, const std::vector<TraceReport> &Traces) {
  for (const TraceReport &T : Traces) {
    // An MPI job's one archive is next to the rank's part (docs/MPI.md).
    std::string Path = Directory + "/" + T.File;
    if (T.File.rfind("../", 0) == 0 && Directory.find('/') != std::string::npos)
      Path = Directory.substr(0, Directory.find_last_of('/')) + T.File.substr(2);
    if (T.Complete)
      printMessage("trace " + Path + ": " + std::to_string(T.Written) + " events, " +
                   std::to_string(T.Threads) + " threads, " + std::to_string(T.Flushes) +
                   " buffer flushes, no events dropped");
  }
}

/// One message for everything that failed to be written at finalisation: the
/// experiment directory and the first errno, then what that cost. Traces that
/// were not finished for another reason (threads busy) get their own line.
void reportFailures(const std::string &Directory, const std::vector<TraceReport> &Traces,
                    const std::string &ProfileFile, int ProfileErrno, bool JsonWritten) {
  std::string Lost;
  // The traces were finished before the profile was written: the first
  // failed trace's error came first.
  std::string FirstFile = ProfileFile;
  int Errno = ProfileErrno;
  bool TraceFailed = false;
  for (const TraceReport &T : Traces) {
    if (T.Complete)
      continue;
    if (T.Errno == 0) {
      printMessage("trace " + Directory + "/" + T.File + " not finished: " + T.Failure +
                   (T.Removed ? "; removed" : "") + "; " + std::to_string(T.Events - T.Written) +
                   " of " + std::to_string(T.Events) + " events lost");
      continue;
    }
    if (!TraceFailed) {
      Errno = T.Errno;
      FirstFile = T.Failure;
      TraceFailed = true;
    }
    Lost += "; " + traceTitle(T) + " is incomplete" + (T.Removed ? " and was removed" : "") + ": " +
            std::to_string(T.Events - T.Written) + " of " + std::to_string(T.Events) +
            " events lost";
  }
  if (!TraceFailed && ProfileFile.empty())
    return;
  // A failed system call that left no errno is still a failure to say.
  std::string Message = "cannot write in '" + Directory + "' (" + FirstFile +
                        "): " + std::strerror(Errno != 0 ? Errno : EIO) + Lost;
  if (ProfileFile.empty())
    Message += Lost.empty() ? "" : " (recorded in profile.json)";
  else if (JsonWritten)
    Message += "; " + ProfileFile + " not written (profile.json is)";
  else
    Message += "; no profile written";
  printMessage(Message);
}

/// The prefixes of the variables that set up an OpenMP run and its
/// measurement, recorded in the profile.
constexpr std::string_view SettingPrefixes[] = {"OMP_", "KMP_", "GOMP_", "POMP_"};
/// Room for a host name (HOST_NAME_MAX is 64 on Linux).
constexpr std::size_t HostNameSize = 256;

/// The OMPT adapter's word, kept until finalisation.
struct OmptState {
  std::mutex Lock;
  bool Known = false;
  bool Active = false;
  std::string Reason;
};
OmptState &omptState() {
  static OmptState *State = new OmptState(); // never destroyed: used at exit
  return *State;
}

/// The OpenMP runtimes a process may have loaded, by the start of their
/// shared object's file name.
constexpr std::string_view RuntimeNames[] = {"libomp", "libgomp", "libiomp5"};

std::string readCommandLine(std::vector<std::string> &Arguments) {
  const int Fd = ::open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return {};
  std::string Text;
  char Buffer[LineBufferSize];
  for (ssize_t N; (N = ::read(Fd, Buffer, sizeof Buffer)) != 0;) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Text.append(Buffer, static_cast<std::size_t>(N));
  }
  ::close(Fd);
  for (std::size_t Start = 0; Start < Text.size();) {
    const std::size_t End = std::min(Text.find('\0', Start), Text.size());
    Arguments.push_back(Text.substr(Start, End - Start));
    Start = End + 1;
  }
  return Text;
}

/// "a b 'c d'": the command line for people, quoted where a shell needs it.
std::string shellLine(const std::vector<std::string> &Arguments) {
  std::string Line;
  for (const std::string &A : Arguments) {
    Line += Line.empty() ? "" : " ";
    if (!A.empty() && A.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos) {
      Line += A;
      continue;
    }
    Line += '\'';
    for (char C : A)
      Line += C == '\'' ? std::string("'\\''") : std::string(1, C);
    Line += '\'';
  }
  return Line;
}

/// The lines of profile.txt's header that say how the run was made.
std::string runMetadataText(const RunMetadata &M) {
  std::string Text;
  if (!M.CommandLine.empty())
    Text += "command: " + shellLine(M.CommandLine) + "\n";
  std::string Settings;
  for (const auto &[Name, Value] : M.Settings)
    Settings += (Settings.empty() ? "" : " ") + Name + "=" + shellLine({Value});
  Text += "settings: " + (Settings.empty() ? std::string("none") : Settings) + "\n";
  Text += "host: " + (M.Host.empty() ? std::string("unknown") : M.Host) +
          "   OpenMP runtime: " + (M.OpenMPRuntime.empty() ? "none" : M.OpenMPRuntime) +
          "   OMPT: " + (M.OmptActive ? "active (" : "inactive (") + M.OmptReason + ")" +
          "   compiler: " + (M.Compiler.empty() ? std::string("unknown") : M.Compiler) +
          "   pomp " + M.ToolkitVersion + "\n";
  return Text;
}

/// Reads Size bytes at Offset of a file, or nothing.
bool readAt(int Fd, std::uint64_t Offset, void *Into, std::size_t Size) {
  return ::pread(Fd, Into, Size, static_cast<off_t>(Offset)) == static_cast<ssize_t>(Size);
}

/// The compilers that built the program, as they record themselves in its
/// ELF `.comment` section ("GCC: (Debian 12.2.0-14) 12.2.0", "Debian clang
/// version 19.1.7"), each once, joined by "; "; "" when there is none. Reads
/// the section headers and their names in one read each: a read per section
/// took 60 system calls, 70 µs at this VM's 1.2 µs a call (PERFORMANCE.md,
/// session 28).
std::string programCompilers() {
  /// The most of .comment read: a program has a few dozen bytes of it.
  constexpr std::uint64_t MaxComment = 1 << 16;
  /// The most section headers and bytes of section names read: a program has
  /// a few dozen sections and a few hundred bytes of their names.
  constexpr unsigned MaxSections = 1 << 12;
  constexpr std::uint64_t MaxSectionNames = 1 << 16;
  constexpr std::string_view CommentName = ".comment";
  const int Fd = ::open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return {};
  std::string Text;
  Elf64_Ehdr Header;
  if (readAt(Fd, 0, &Header, sizeof Header) && std::memcmp(Header.e_ident, ELFMAG, SELFMAG) == 0 &&
      Header.e_ident[EI_CLASS] == ELFCLASS64 && Header.e_shentsize == sizeof(Elf64_Shdr) &&
      Header.e_shnum <= MaxSections && Header.e_shstrndx < Header.e_shnum) {
    std::vector<Elf64_Shdr> Sections(Header.e_shnum);
    const Elf64_Shdr &Names = Sections[Header.e_shstrndx];
    std::string NameBytes;
    if (readAt(Fd, Header.e_shoff, Sections.data(), Sections.size() * sizeof(Elf64_Shdr)) &&
        Names.sh_size <= MaxSectionNames) {
      NameBytes.resize(Names.sh_size);
      if (!readAt(Fd, Names.sh_offset, NameBytes.data(), NameBytes.size()))
        NameBytes.clear();
    }
    for (const Elf64_Shdr &Section : Sections) {
      if (Section.sh_name >= NameBytes.size() ||
          std::string_view(NameBytes.c_str() + Section.sh_name) != CommentName ||
          Section.sh_size > MaxComment)
        continue;
      Text.resize(Section.sh_size);
      if (!readAt(Fd, Section.sh_offset, Text.data(), Text.size()))
        Text.clear();
      break;
    }
  }
  ::close(Fd);
  std::string Result;
  std::vector<std::string> Seen;
  for (std::size_t Start = 0; Start < Text.size();) {
    const std::size_t End = std::min(Text.find('\0', Start), Text.size());
    std::string Entry = Text.substr(Start, End - Start);
    Start = End + 1;
    if (Entry.empty() || std::find(Seen.begin(), Seen.end(), Entry) != Seen.end())
      continue;
    Seen.push_back(Entry);
    Result += (Result.empty() ? "" : "; ") + Entry;
  }
  return Result;
}

} // namespace

RunMetadata startRunMetadata() {
  RunMetadata Meta;
  readCommandLine(Meta.CommandLine);
  for (char **Entry = environ; Entry && *Entry; ++Entry) {
    const std::string_view Text(*Entry);
    const std::size_t Equals = Text.find('=');
    if (Equals == std::string_view::npos)
      continue;
    for (std::string_view Prefix : SettingPrefixes)
      if (Text.substr(0, Prefix.size()) == Prefix) {
        Meta.Settings.emplace_back(Text.substr(0, Equals), Text.substr(Equals + 1));
        break;
      }
  }
  std::sort(Meta.Settings.begin(), Meta.Settings.end());
  char Host[HostNameSize] = {};
  if (::gethostname(Host, sizeof Host - 1) == 0)
    Meta.Host = Host;
  Meta.ToolkitVersion = POMP_VERSION;
  Meta.Compiler = programCompilers();
  return Meta;
}

void noteOmptState(bool Active, std::string Reason) {
  OmptState &S = omptState();
  std::lock_guard<std::mutex> Lock(S.Lock);
  S.Known = true;
  S.Active = Active;
  S.Reason = std::move(Reason);
}

void finishRunMetadata(RunMetadata &Meta) {
  dl_iterate_phdr(
      [](dl_phdr_info *Module, std::size_t, void *Data) {
        auto &M = *static_cast<RunMetadata *>(Data);
        const std::string_view Path = Module->dlpi_name ? Module->dlpi_name : "";
        const std::size_t Slash = Path.rfind('/');
        const std::string_view File =
            Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
        for (std::string_view Name : RuntimeNames)
          if (File.substr(0, Name.size()) == Name && File.size() > Name.size() &&
              File[Name.size()] == '.') {
            M.OpenMPRuntime = Name;
            M.OpenMPRuntimePath = Path;
            return 1;
          }
        return 0;
      },
      &Meta);
  OmptState &S = omptState();
  std::lock_guard<std::mutex> Lock(S.Lock);
  Meta.OmptActive = S.Known && S.Active;
  if (S.Known)
    Meta.OmptReason = S.Reason;
  else if (const char *Tool = std::getenv("OMP_TOOL"); Tool && std::string_view(Tool) == "disabled")
    Meta.OmptReason = "OMP_TOOL=disabled";
  else if (Meta.OpenMPRuntime == "libgomp")
    Meta.OmptReason = "libgomp has no OMPT interface";
  else if (Meta.OpenMPRuntime.empty())
    Meta.OmptReason = "no OpenMP runtime was loaded";
  else
    Meta.OmptReason = "the OpenMP runtime did not start libpomp as its OMPT tool";
}

OutputSettings readOutputSettings(const OptionSource &Options) {
  OutputSettings S;
  S.ExperimentDir = Options.readPath(ExperimentDirOption);
  S.Quiet = Options.readBool(QuietOption);
  return S;
}

void printMessage(std::string_view Message) {
  std::string Line = "pomp: ";
  Line += Message;
  Line += '\n';
  const char *Data = Line.data();
  std::size_t Left = Line.size();
  while (Left > 0) {
    const ssize_t Written = ::write(STDERR_FILENO, Data, Left);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0)
      return;
    Data += Written;
    Left -= static_cast<std::size_t>(Written);
  }
}

std::string profileJson(const Profile &P, const RegionTable &Regions, const RunInfo &Run) {
  JsonWriter W;
  W.beginObject();
  W.breakLine().key("schema").value(ProfileSchema);
  W.key("version").value(ProfileFormatVersion);
  W.breakLine().key("program").value(Run.Program);
  W.key("pid").value(Run.Pid);
  W.key("start_time").value(formatTime(Run.StartTime, "%Y-%m-%dT%H:%M:%SZ", true));
  W.key("duration_ns").value(Run.DurationNs);
  W.key("partial").value(!Run.Partial.empty());
  W.key("partial_reason").value(Run.Partial);
  const RunMetadata &M = Run.Meta;
  W.breakLine().key("run").beginObject();
  W.key("command_line").beginArray();
  for (const std::string &A : M.CommandLine)
    W.value(A);
  W.endArray();
  W.key("settings").beginObject();
  for (const auto &[Name, Value] : M.Settings)
    W.key(Name).value(Value);
  W.endObject();
  W.key("host").value(M.Host);
  W.key("threads").value(static_cast<std::uint64_t>(P.Threads.size()));
  W.key("openmp_runtime").value(M.OpenMPRuntime);
  W.key("openmp_runtime_path").value(M.OpenMPRuntimePath);
  W.key("ompt").beginObject().key("active").value(M.OmptActive);
  W.key("reason").value(M.OmptReason).endObject();
  W.key("compiler").value(M.Compiler);
  W.key("toolkit_version").value(M.ToolkitVersion);
  W.endObject();
  if (Run.MpiRank >= 0) {
    W.breakLine().key("mpi").beginObject();
    W.key("rank").value(static_cast<std::int64_t>(Run.MpiRank));
    W.key("size").value(static_cast<std::int64_t>(Run.MpiSize));
    W.endObject();
  }
  W.breakLine().key("traces").beginArray();
  for (const TraceReport &T : Run.Traces) {
    W.breakLine().beginObject();
    W.key("format").value(T.Format).key("file").value(T.File);
    W.key("complete").value(T.Complete).key("removed").value(T.Removed);
    W.key("events").value(T.Events).key("events_written").value(T.Written);
    W.key("events_lost").value(T.Events - T.Written);
    W.key("error").value(traceError(T));
    W.endObject();
  }
  if (!Run.Traces.empty())
    W.breakLine();
  W.endArray();
  W.breakLine().key("metrics").beginObject();
  const MetricsReport &Metrics = metricsReport();
  W.key("requested").beginArray();
  for (const std::string &Name : Metrics.Requested)
    W.value(Name);
  W.endArray().key("recorded").beginArray();
  for (const std::string &Name : Metrics.Recorded)
    W.value(Name);
  W.endArray().key("unavailable").beginArray();
  for (const UnavailableMetric &U : Metrics.Unavailable) {
    W.beginObject();
    W.key("name").value(U.Name).key("reason").value(U.Reason);
    W.endObject();
  }
  W.endArray();
  W.key("threads_without_counters").value(Metrics.ThreadsWithout);
  W.endObject();
  W.breakLine().key("clock").beginObject();
  W.key("source").value(Clock::sourceName(Run.Clock.Source));
  W.key("ticks_per_ns").value(Run.Clock.TicksPerNs);
  W.key("invariant_tsc").value(Run.Clock.InvariantTsc);
  W.key("tsc_read_ns").value(Run.Clock.TscReadNs);
  W.key("monotonic_read_ns").value(Run.Clock.MonotonicReadNs);
  W.key("reason").value(Run.Clock.Reason);
  W.key("rate_change").value(Run.Clock.RateChange);
  W.key("warning").value(Run.Clock.Warning);
  W.endObject();
  W.breakLine().key("levels").beginObject();
  for (int G = 0; G < POMP_GROUP_COUNT; ++G) {
    std::string Name(groupName(static_cast<POMP_Group>(G)));
    std::transform(Name.begin(), Name.end(), Name.begin(), [](char C) { return C - 'A' + 'a'; });
    W.key(Name).value(levelName(Run.Levels[G]));
  }
  W.endObject();
  W.key("monitoring_on").value(Run.MonitoringOn);
  W.breakLine().key("uninstrumented").beginArray();
  for (const UninstrumentedFile &F : Run.Uninstrumented) {
    W.breakLine().beginObject();
    W.key("file").value(F.File).key("reason").value(F.Reason);
    W.endObject();
  }
  if (!Run.Uninstrumented.empty())
    W.breakLine();
  W.endArray();

  const FoldingSummary Folding = foldingSummary(P);
  W.breakLine().key("folding").beginObject();
  W.key("folded_visits").value(Folding.FoldedVisits);
  W.key("nested_visits").value(Folding.NestedVisits);
  W.key("nodes").value(Folding.Nodes);
  W.endObject();

  W.breakLine().key("threads").beginArray();
  for (const ProfileThread &T : P.Threads) {
    W.breakLine().beginObject();
    W.key("index").value(T.Index).key("events").value(T.Recorded);
    W.key("handed_over").value(T.HandedOver);
    W.endObject();
  }
  W.breakLine().endArray();

  W.breakLine().key("regions").beginArray();
  for (RegionId Id = 1; Id <= Regions.size(); ++Id) {
    const Region &R = Regions.get(Id);
    const pomp::ctc::RegionDescriptor &D = R.Descriptor;
    W.breakLine().beginObject();
    W.key("id").value(Id);
    W.key("type").value(D.Type);
    W.key("label").value(R.Label);
    W.key("name").value(D.Name);
    W.key("file").value(D.File);
    writeLines(W, "start_lines", D.StartLines);
    writeLines(W, "end_lines", D.EndLines);
    W.key("location").value(R.Location);
    W.key("function").value(D.Function);
    if (!R.InlinedInto.empty()) {
      W.key("inlined_into").beginArray();
      for (const std::string &Caller : R.InlinedInto)
        W.value(Caller);
      W.endArray();
    }
    W.key("origin").value(R.Origin == RegionOrigin::Ompt ? "ompt" : "pomp");
    W.key("ctc").value(R.Key);
    W.endObject();
  }
  W.breakLine().endArray();

  W.breakLine().key("nodes").beginArray();
  const std::vector<ThreadWaits> Waits = subtreeWaits(P);
  std::vector<std::uint32_t> Depth(P.Nodes.size(), 0);
  for (std::uint32_t I = 0; I < P.Nodes.size(); ++I) {
    const ProfileNode &N = P.Nodes[I];
    const bool IsRoot = N.Parent == ProfileNode::NoParent;
    if (!IsRoot)
      Depth[I] = Depth[N.Parent] + 1;
    W.breakLine().beginObject();
    W.key("id").value(I);
    W.key("parent");
    if (IsRoot)
      W.null();
    else
      W.value(N.Parent);
    W.key("depth").value(Depth[I]);
    W.key("region");
    if (IsRoot)
      W.null();
    else
      W.value(N.Region);
    W.key("event");
    if (IsRoot)
      W.null();
    else
      W.value(info(N.Opener).Name);
    W.key("construct").value(nodeConstruct(N, Regions));
    W.key("kind").value(nodeKind(N));
    const ThreadMetrics Total = N.total();
    writeMetrics(W, Total);
    W.key("threads").value(static_cast<std::uint64_t>(N.PerThread.size()));
    W.key("imbalance").value(N.Waiting ? 0.0 : imbalanceOf(workPerThread(N, I, Waits)));
    W.key("per_thread").beginArray();
    for (const ThreadMetrics &M : N.PerThread) {
      W.beginObject();
      W.key("thread").value(M.Thread);
      writeMetrics(W, M);
      W.endObject();
    }
    W.endArray();
    W.endObject();
  }
  W.breakLine().endArray();

  W.breakLine().key("anomalies").beginObject();
  for (std::size_t A = 0; A < AnomalyCount; ++A)
    W.key(AnomalyInfos[A].Json).value(P.Anomalies[A]);
  W.endObject();
  W.breakLine().endObject();
  return W.text() + "\n";
}

std::string profileText(const Profile &P, const RegionTable &Regions, const RunInfo &Run) {
  std::string Text;
  Text += formatLine("POMP profile of %s (pid %lld), started %s, %.6f s\n", Run.Program.c_str(),
                     static_cast<long long>(Run.Pid),
                     formatTime(Run.StartTime, "%Y-%m-%d %H:%M:%S", false).c_str(),
                     seconds(Run.DurationNs));
  Text += runMetadataText(Run.Meta);
  if (!Run.Partial.empty())
    Text += "PARTIAL: the run was " + Run.Partial + "; this is what was measured until then\n";
  if (Run.MpiRank >= 0)
    Text += formatLine("MPI: rank %d of %d\n", Run.MpiRank, Run.MpiSize);
  Text += incompleteTraceText(Run.Traces);
  Text += formatLine("threads: %zu   regions: %u   clock: %s, %.4f ticks/ns (%.*s)\n",
                     P.Threads.size(), Regions.size(),
                     std::string(Clock::sourceName(Run.Clock.Source)).c_str(), Run.Clock.TicksPerNs,
                     static_cast<int>(Run.Clock.Reason.size()), Run.Clock.Reason.data());
  if (!Run.Clock.Warning.empty())
    Text += formatLine("warning: %.*s (%+.3f %%)\n", static_cast<int>(Run.Clock.Warning.size()),
                       Run.Clock.Warning.data(), 100.0 * Run.Clock.RateChange);
  Text += "levels:";
  for (int G = 0; G < POMP_GROUP_COUNT; ++G) {
    std::string Name(groupName(static_cast<POMP_Group>(G)));
    std::transform(Name.begin(), Name.end(), Name.begin(), [](char C) { return C - 'A' + 'a'; });
    Text += " " + Name + "=" + std::string(levelName(Run.Levels[G]));
  }
  Text += Run.MonitoringOn ? "\n" : "   (monitoring was off at the end)\n";
  Text += uninstrumentedText(Run.Uninstrumented);
  const std::string Root = commonRoot(Regions);
  if (!Root.empty())
    Text += "paths: relative to " + Root + " (full paths in profile.json)\n";

  std::uint64_t WaitNs = 0;
  for (const ProfileNode &N : P.Nodes)
    if (N.Waiting)
      WaitNs += N.total().ExclusiveNs;
  const double ThreadTimeNs =
      static_cast<double>(Run.DurationNs) * static_cast<double>(P.Threads.size());
  Text += formatLine("waiting: %.6f s, %.1f%% of the threads' time (%zu threads x %.6f s)\n",
                     seconds(WaitNs),
                     ThreadTimeNs > 0 ? Percent * static_cast<double>(WaitNs) / ThreadTimeNs : 0.0,
                     P.Threads.size(), seconds(Run.DurationNs));
  Text += "\nRegions by exclusive time, summed over threads and call paths; imbalance is\n"
          "(max - mean) / max of the threads' work: inclusive time without the waiting in it.\n";
  Text += formatLine("%14s %14s %12s %7s %9s %-5s %s\n", "exclusive[s]", "inclusive[s]", "visits",
                     "threads", "imbalance", "kind", "construct");
  for (const FlatEntry &E : flatProfile(P, Regions)) {
    const ProfileNode &N = P.Nodes[E.FirstNode];
    const std::string Kind(nodeKind(N));
    Text += formatLine("%14.6f %14.6f %12llu %7zu %8.1f%% %-5s %s\n", seconds(E.ExclusiveNs),
                       seconds(E.InclusiveNs), static_cast<unsigned long long>(E.Visits),
                       E.PerThreadInclusive.size(), Percent * E.imbalance(), Kind.c_str(),
                       shortTitle(N, Regions, Root).c_str());
  }

  const FoldingSummary Folding = foldingSummary(P);
  if (Folding.Nodes > 0)
    Text += formatLine("\nRecursion: %llu visits folded into the node of their region already on "
                       "the call path,\n%llu visits made inside an open visit of the same node "
                       "(their time counted once);\nsuch nodes are marked [recursive: folded "
                       "F, nested N] below.\n",
                       static_cast<unsigned long long>(Folding.FoldedVisits),
                       static_cast<unsigned long long>(Folding.NestedVisits));

  Text += "\nCall paths: inclusive and exclusive time summed over threads, per-thread\n"
          "inclusive time min..max.\n";
  Text += formatLine("%14s %14s %12s %7s %23s  %s\n", "inclusive[s]", "exclusive[s]", "visits",
                     "threads", "per thread min..max[s]", "call path");
  std::vector<std::uint32_t> Depth(P.Nodes.size(), 0);
  for (std::uint32_t I = 1; I < P.Nodes.size(); ++I) {
    const ProfileNode &N = P.Nodes[I];
    Depth[I] = Depth[N.Parent] + 1;
    const ThreadMetrics T = N.total();
    std::uint64_t Low = std::numeric_limits<std::uint64_t>::max(), High = 0;
    for (const ThreadMetrics &M : N.PerThread) {
      Low = std::min(Low, M.InclusiveNs);
      High = std::max(High, M.InclusiveNs);
    }
    if (N.PerThread.empty())
      Low = 0;
    constexpr std::uint32_t IndentPerLevel = 2;
    std::string Recursion;
    if (T.FoldedVisits + T.NestedVisits > 0)
      Recursion = formatLine("  [recursive: folded %llu, nested %llu]",
                             static_cast<unsigned long long>(T.FoldedVisits),
                             static_cast<unsigned long long>(T.NestedVisits));
    Text += formatLine("%14.6f %14.6f %12llu %7zu %11.6f..%10.6f  %*s%s%s\n",
                       seconds(T.InclusiveNs), seconds(T.ExclusiveNs),
                       static_cast<unsigned long long>(T.Visits), N.PerThread.size(), seconds(Low),
                       seconds(High), static_cast<int>(IndentPerLevel * (Depth[I] - 1)), "",
                       shortTitle(N, Regions, Root, true).c_str(), Recursion.c_str());
  }

  const std::string Anomalies = anomalyText(P.Anomalies);
  Text += Anomalies.empty() ? "\nanomalies: none\n" : "\nanomalies:\n" + Anomalies;
  return Text;
}

std::string claimDirectory(const std::string &Wanted, std::string &Error) {
  // Create the parents first (mkdir -p); the last component is claimed below.
  for (std::size_t Slash = Wanted.find('/', 1); Slash != std::string::npos;
       Slash = Wanted.find('/', Slash + 1)) {
    const std::string Parent = Wanted.substr(0, Slash);
    if (::mkdir(Parent.c_str(), ParentDirectoryMode) != 0 && errno != EEXIST) {
      Error = "cannot create directory '" + Parent + "': " + std::strerror(errno);
      return {};
    }
  }
  std::string Candidate = Wanted;
  for (int Suffix = 1; Suffix <= MaxDirectorySuffix; ++Suffix) {
    // mkdir() never follows a link: a planted one is a name that exists.
    if (::mkdir(Candidate.c_str(), ExperimentDirectoryMode) == 0)
      return Candidate;
    if (errno != EEXIST) {
      Error = "cannot create directory '" + Candidate + "': " + std::strerror(errno);
      return {};
    }
    Candidate = Wanted + "-" + std::to_string(Suffix);
  }
  Error = "no free directory name like '" + Wanted + "'";
  return {};
}

int createFileExclusively(const std::string &Directory, const std::string &Prefix,
                          std::string &Path) {
  for (int Attempt = 0; Attempt < MaxTemporaryAttempts; ++Attempt) {
    std::uint64_t Random = 0;
    if (::getrandom(&Random, sizeof Random, GRND_NONBLOCK) != sizeof Random) {
      // No entropy yet: unique within the process is enough, since O_EXCL
      // refuses a name another process chose.
      static std::atomic<std::uint64_t> Counter{0};
      Random = (static_cast<std::uint64_t>(::getpid()) << 32) ^
               Counter.fetch_add(1, std::memory_order_relaxed) ^
               static_cast<std::uint64_t>(Clock::now());
    }
    char Suffix[2 * sizeof Random + 1];
    std::snprintf(Suffix, sizeof Suffix, "%016llx", static_cast<unsigned long long>(Random));
    Path = Directory + "/" + Prefix + Suffix;
    const int Fd =
        ::open(Path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, FileMode);
    if (Fd >= 0 || errno != EEXIST)
      return Fd;
  }
  errno = EEXIST;
  return -1;
}

bool writeFileAtomically(const std::string &Directory, const std::string &Name,
                         std::string_view Contents, std::string &Error, int &Errno) {
  const std::string Final = Directory + "/" + Name;
  std::string Temporary;
  const int Fd = createFileExclusively(Directory, "." + Name + ".tmp.", Temporary);
  if (Fd < 0) {
    Errno = errno;
    Error = "cannot create a temporary file for '" + Final + "': " + std::strerror(Errno);
    return false;
  }
  const char *Data = Contents.data();
  std::size_t Left = Contents.size();
  while (Left > 0) {
    const ssize_t Written = ::write(Fd, Data, Left);
    if (Written < 0 && errno == EINTR)
      continue;
    if (Written <= 0) {
      // write() returning 0 for a regular file means there is no room.
      Errno = Written < 0 ? errno : ENOSPC;
      Error = "cannot write '" + Final + "': " + std::strerror(Errno);
      ::close(Fd);
      ::unlink(Temporary.c_str());
      return false;
    }
    Data += Written;
    Left -= static_cast<std::size_t>(Written);
  }
  // close() reports a delayed write-back error (NFS, quotas); rename()
  // replaces a link at Final itself, never the file it points to.
  if (::close(Fd) != 0 || ::rename(Temporary.c_str(), Final.c_str()) != 0) {
    Errno = errno;
    Error = "cannot write '" + Final + "': " + std::strerror(Errno);
    ::unlink(Temporary.c_str());
    return false;
  }
  return true;
}

bool writeFileAtomically(const std::string &Directory, const std::string &Name,
                         std::string_view Contents, std::string &Error) {
  int Errno = 0;
  return writeFileAtomically(Directory, Name, Contents, Error, Errno);
}

bool removeTree(const std::string &Path) {
  struct stat Info;
  if (::lstat(Path.c_str(), &Info) != 0)
    return errno == ENOENT;
  if (!S_ISDIR(Info.st_mode))
    return ::unlink(Path.c_str()) == 0;
  bool Ok = true;
  if (DIR *D = ::opendir(Path.c_str())) {
    std::vector<std::string> Names;
    while (const dirent *E = ::readdir(D))
      if (std::strcmp(E->d_name, ".") != 0 && std::strcmp(E->d_name, "..") != 0)
        Names.emplace_back(E->d_name);
    ::closedir(D);
    for (const std::string &Name : Names)
      Ok = removeTree(Path + "/" + Name) && Ok;
  }
  return ::rmdir(Path.c_str()) == 0 && Ok;
}

std::string experimentDirectoryName(const RunInfo &Run, const OutputSettings &Settings) {
  return !Settings.ExperimentDir.empty()
             ? Settings.ExperimentDir
             : "pomp-" + Run.Program + "-" + formatTime(Run.StartTime, "%Y%m%d-%H%M%S", false);
}

std::string writeExperiment(const Profile &P, const RegionTable &Regions, const RunInfo &Run,
                            const OutputSettings &Settings) {
  if (Settings.Unwritable)
    return {};
  std::string Error;
  const std::string Directory = !Settings.Claimed.empty()
                                    ? Settings.Claimed
                                    : claimDirectory(experimentDirectoryName(Run, Settings), Error);
  if (Directory.empty()) {
    printMessage(Error + "; no profile written");
    return {};
  }
  int Errno = 0;
  std::string FailedFile;
  const bool JsonWritten =
      writeFileAtomically(Directory, "profile.json", profileJson(P, Regions, Run), Error, Errno);
  if (!JsonWritten)
    FailedFile = "profile.json";
  else if (!writeFileAtomically(Directory, "profile.txt", profileText(P, Regions, Run), Error,
                                Errno))
    FailedFile = "profile.txt";
  reportFailures(Directory, Run.Traces, FailedFile, Errno, JsonWritten);
  if (!FailedFile.empty()) {
    // Nothing of the run may be left in it (an incomplete trace is removed):
    // then remove the directory too, rather than leave an empty experiment.
    if (!JsonWritten)
      ::rmdir(Directory.c_str());
    if (!Settings.Quiet)
      printTraceSummaries(Directory, Run.Traces);
    return {};
  }
  if (Settings.Quiet)
    return Directory;

  printMessage(formatLine("profile in %s/ (profile.txt, profile.json): %zu threads, %u regions, "
                          "%.3f s%s",
                          Directory.c_str(), P.Threads.size(), Regions.size(),
                          seconds(Run.DurationNs), Run.Partial.empty() ? "" : " (PARTIAL)"));
  const std::vector<FlatEntry> Flat = flatProfile(P, Regions);
  const std::string Root = commonRoot(Regions);
  for (std::size_t I = 0; I < Flat.size() && I < SummaryRegions; ++I)
    printMessage(formatLine("  %10.6f s exclusive  %s", seconds(Flat[I].ExclusiveNs),
                            shortTitle(P.Nodes[Flat[I].FirstNode], Regions, Root).c_str()));
  std::uint64_t AnomalyTotal = 0;
  for (std::uint64_t Count : P.Anomalies)
    AnomalyTotal += Count;
  if (AnomalyTotal != 0)
    printMessage(formatLine("%llu anomalies in the event stream, see profile.txt",
                            static_cast<unsigned long long>(AnomalyTotal)));
  if (!Run.Clock.Warning.empty())
    printMessage("warning: " + std::string(Run.Clock.Warning));
  if (!Run.Uninstrumented.empty()) {
    std::string Names;
    for (const UninstrumentedFile &F : Run.Uninstrumented)
      Names += (Names.empty() ? "" : ", ") + F.File;
    printMessage(
        "warning: " + std::to_string(Run.Uninstrumented.size()) +
        (Run.Uninstrumented.size() == 1 ? " source file was" : " source files were") +
        " compiled without instrumentation, their OpenMP constructs are not measured: " + Names);
  }
  printTraceSummaries(Directory, Run.Traces);
  return Directory;
}

} // namespace pomp::rt
