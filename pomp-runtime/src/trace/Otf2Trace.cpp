//===- trace/Otf2Trace.cpp - The OTF2 trace writer ------------------------===//

#include "trace/Otf2Trace.h"

#include "core/Profile.h"
#include "core/Regions.h"
#include "trace/LockTracker.h"
#include "trace/Otf2Library.h"
#include "trace/RegionRoles.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

/// OTF2's lock object is the caller's to define: a plain mutex.
struct OTF2_LockObject {
  std::mutex Mutex;
};

namespace pomp::rt {
namespace {

/// While the program runs a thread refers to a region by its node key, so
/// that no table is consulted per event; each location's local definitions
/// map those keys to the dense global region references (OTF2 mapping tables).
static_assert((NodeKey(RegionTable::MaxRegions) << OpenerBits) <
                  std::numeric_limits<OTF2_RegionRef>::max(),
              "node keys must fit an OTF2 region reference");
OTF2_RegionRef localRegionRef(NodeKey Key) { return static_cast<OTF2_RegionRef>(Key); }

constexpr const char *ArchiveDirectory = "trace";
constexpr const char *ArchiveName = "traces";
/// The archive's and each location's count of dropped events.
constexpr const char *DroppedProperty = "POMP::EVENTS_DROPPED";
constexpr double NsPerSecond = 1e9;
/// Room for OTF2's first error message.
constexpr std::size_t ErrorBufferSize = 512;
/// The most threads one fork can ask for in a ThreadFork record.
constexpr std::uint64_t MaxRequestedThreads = std::numeric_limits<std::uint32_t>::max();

//--- OTF2's callbacks ------------------------------------------------------//

/// OTF2 reports errors through a process-wide callback, which by default
/// prints them: keep the first one for our own message instead. Any error
/// stops the trace (WriteFailed): OTF2 3.0 does not always pass a failed
/// write on to the caller (closing an event writer returns success), and a
/// writer whose file write failed must never be used again: its next record
/// or its closing writes the broken buffer again, which crashes in memcpy or
/// frees it twice (issue 13).
std::mutex ErrorMutex;
char FirstError[ErrorBufferSize];
OTF2_ErrorCode FirstErrorCode = OTF2_SUCCESS;
std::atomic<bool> WriteFailed{false};

OTF2_ErrorCode keepError(void *, const char *, uint64_t, const char *, OTF2_ErrorCode Code,
                         const char *Format, va_list Args) {
  // OTF2_WARNING and OTF2_DEPRECATED are below OTF2_SUCCESS.
  if (Code <= OTF2_SUCCESS)
    return Code;
  WriteFailed.store(true, std::memory_order_relaxed);
  std::lock_guard<std::mutex> Guard(ErrorMutex);
  if (FirstErrorCode == OTF2_SUCCESS) {
    FirstErrorCode = Code;
    if (Format) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
      std::vsnprintf(FirstError, sizeof FirstError, Format, Args);
#pragma GCC diagnostic pop
    }
  }
  return Code;
}

std::string firstError() {
  std::lock_guard<std::mutex> Guard(ErrorMutex);
  return FirstError;
}

OTF2_ErrorCode firstErrorCode() {
  std::lock_guard<std::mutex> Guard(ErrorMutex);
  return FirstErrorCode;
}

/// Forgets the errors of an earlier archive (a forked child's parent's).
void resetErrors() {
  std::lock_guard<std::mutex> Guard(ErrorMutex);
  FirstError[0] = '\0';
  FirstErrorCode = OTF2_SUCCESS;
  WriteFailed.store(false, std::memory_order_relaxed);
}

/// The errno behind OTF2's code for a failed system call, 0 for OTF2's own
/// errors.
int errnoOf(OTF2_ErrorCode Code) {
  switch (Code) {
  case OTF2_ERROR_ENOSPC:
    return ENOSPC;
  case OTF2_ERROR_EDQUOT:
    return EDQUOT;
  case OTF2_ERROR_EFBIG:
    return EFBIG;
  case OTF2_ERROR_EIO:
    return EIO;
  case OTF2_ERROR_EROFS:
    return EROFS;
  case OTF2_ERROR_EACCES:
    return EACCES;
  case OTF2_ERROR_EPERM:
    return EPERM;
  case OTF2_ERROR_ENOENT:
    return ENOENT;
  case OTF2_ERROR_ENOTDIR:
    return ENOTDIR;
  case OTF2_ERROR_EISDIR:
    return EISDIR;
  case OTF2_ERROR_EMFILE:
    return EMFILE;
  case OTF2_ERROR_ENFILE:
    return ENFILE;
  case OTF2_ERROR_ENOMEM:
  case OTF2_ERROR_MEM_FAULT:
  case OTF2_ERROR_MEM_ALLOC_FAILED:
    return ENOMEM;
  default:
    return 0;
  }
}

/// The tasks alive in a trace: OTF2 names a task by its creating thread and
/// that thread's count of the tasks it created (its generation number); the
/// runtime names it by its task data, which another thread may switch to or
/// complete. Only live tasks are kept, so the table stays as small as the
/// program's task pool.
class TaskTable {
public:
  /// OTF2's name of a task.
  struct Id {
    std::uint32_t Creator;
    std::uint32_t Generation;
  };
  void add(std::uint64_t Task, Id Name) {
    std::lock_guard<std::mutex> Guard(Mutex);
    Live[Task] = Name;
  }
  std::optional<Id> find(std::uint64_t Task) const {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto It = Live.find(Task);
    return It == Live.end() ? std::nullopt : std::optional<Id>(It->second);
  }
  /// A token for a task of instrumented code: small numbers, which no task
  /// data address of the runtime's is, reused after Tokens (only live tasks
  /// must differ).
  std::uint32_t nextToken() {
    return NextToken.fetch_add(1, std::memory_order_relaxed) % Tokens + 1;
  }
  static constexpr std::uint32_t Tokens = (1u << 17) - 1;

  std::optional<Id> take(std::uint64_t Task) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto It = Live.find(Task);
    if (It == Live.end())
      return std::nullopt;
    const Id Name = It->second;
    Live.erase(It);
    return Name;
  }

private:
  mutable std::mutex Mutex;
  std::unordered_map<std::uint64_t, Id> Live;
  std::atomic<std::uint32_t> NextToken{0};
};

/// The one thread team of the trace's task records: every location, ranked by
/// thread index (definitions in writeDefinitions()).
constexpr OTF2_CommRef ThreadTeam = 0;

/// The size of the calling thread's team, from the program's OpenMP runtime:
/// weak, so that libpomp needs none (a program without one never forks).
extern "C" int omp_get_num_threads(void) __attribute__((weak));

/// The thread-team communicators of the ThreadTeamBegin/End records, one per
/// team size (`OpenMP team of 4 threads`), with the locations that were
/// members of a team of that size. Their references follow ThreadTeam; the
/// definitions are written at finalisation (writeDefinitions()).
class TeamComms {
public:
  /// The communicator of teams of Size threads, with Member recorded in it.
  OTF2_CommRef join(std::uint32_t Size, std::uint32_t Member) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto [It, New] = BySize.try_emplace(Size);
    if (New)
      It->second.Comm = static_cast<OTF2_CommRef>(ThreadTeam + BySize.size());
    It->second.Members.insert(Member);
    return It->second.Comm;
  }
  /// Calls F(size, comm, members) for every team size, smallest first.
  template <typename Fn> void forEach(Fn &&F) const {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const auto &[Size, Team] : BySize)
      F(Size, Team.Comm, Team.Members);
  }

private:
  struct Team {
    OTF2_CommRef Comm = 0;
    std::set<std::uint32_t> Members;
  };
  mutable std::mutex Mutex;
  std::map<std::uint32_t, Team> BySize;
};

/// The chunks of one OTF2 buffer: an event buffer may hold at most Limit of
/// them, after which OTF2 flushes it to disk and frees them for reuse.
struct ChunkPool {
  std::vector<void *> Chunks;
  std::size_t Limit = 0;
};

class Otf2Sink;

/// One thread's OTF2 event writer: only its thread writes it.
class Otf2ThreadTrace final : public ThreadTrace {
public:
  Otf2ThreadTrace(const Otf2Library &Lib, LockTracker &Locks, TaskTable &Tasks, TeamComms &Teams,
                  std::uint32_t Index, OTF2_EvtWriter *Writer)
      : Lib(Lib), Locks(Locks), Tasks(Tasks), Index(Index), Writer(Writer), Teams(Teams) {
    // Without its writer the thread's events cannot be in the trace.
    if (!Writer)
      WriteFailed.store(true, std::memory_order_relaxed);
  }

  void enter(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) override {
    const bool Body = E == EventId::Parallel_begin || E == EventId::Parallel_begin_forked;
    // The master's body begins right after its fork: in the team, where
    // the team's size is known.
    const std::uint32_t Size = Body ? teamSize() : 0;
    writeFork(Size);
    put(Lib.OTF2_EvtWriter_Enter, Now, localRegionRef(Key));
    if (E == EventId::Parallel_enter || E == EventId::Parallel_fork) {
      // Written with the next record: the team size it carries is the real
      // one when that record is this thread's body in the new team.
      PendingFork = true;
      ForkTime = Now;
      ForkRequested = Payload;
    }
    if (Body && Size > 0) {
      const OTF2_CommRef Comm = Teams.join(Size, Index);
      put(Lib.OTF2_EvtWriter_ThreadTeamBegin, Now, Comm);
      OpenTeams.push_back({Key, Comm});
    }
  }

  void closing(NodeKey, EventId Closer, Tick Now, std::uint64_t Payload) override {
    writeFork(0);
    if (Closer == EventId::Parallel_exit)
      put(Lib.OTF2_EvtWriter_ThreadJoin, Now, OTF2_PARADIGM_OPENMP);
    else if (Closer == EventId::Set_lock_exit || Closer == EventId::Set_nest_lock_exit)
      acquired(Now, Payload);
  }

  void leave(NodeKey Key, Tick Now) override {
    writeFork(0);
    // A body's team ends however its region is closed (its end, an
    // enclosing region's end, finalisation), so team records always pair.
    if (!OpenTeams.empty() && OpenTeams.back().Body == Key) {
      put(Lib.OTF2_EvtWriter_ThreadTeamEnd, Now, OpenTeams.back().Comm);
      OpenTeams.pop_back();
    }
    put(Lib.OTF2_EvtWriter_Leave, Now, localRegionRef(Key));
  }

  void event(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) override {
    // A single event is a region without duration, so that it has a place in
    // the timeline and the lock records have a region around them.
    writeFork(0);
    put(Lib.OTF2_EvtWriter_Enter, Now, localRegionRef(Key));
    switch (E) {
    case EventId::Set_lock_event:
    case EventId::Set_nest_lock_event:
    case EventId::Test_lock_event:
    case EventId::Test_nest_lock_event:
      acquired(Now, Payload);
      break;
    case EventId::Unset_lock_event:
    case EventId::Unset_nest_lock_event:
      if (Payload != 0)
        if (const auto R = Locks.release(Payload, Index))
          put(Lib.OTF2_EvtWriter_ThreadReleaseLock, Now, OTF2_PARADIGM_OPENMP, R->Id, R->Order);
      break;
    default:
      break;
    }
    put(Lib.OTF2_EvtWriter_Leave, Now, localRegionRef(Key));
  }

  void task(TaskRecord What, std::uint64_t Task, Tick Now) override {
    writeFork(0);
    std::optional<TaskTable::Id> Name;
    switch (What) {
    case TaskRecord::Create:
      // Generation 0 is the thread's implicit task.
      Name = TaskTable::Id{Index, ++CreatedTasks};
      Tasks.add(Task, *Name);
      put(Lib.OTF2_EvtWriter_ThreadTaskCreate, Now, ThreadTeam, Name->Creator, Name->Generation);
      return;
    case TaskRecord::Switch:
      if ((Name = Tasks.find(Task)))
        put(Lib.OTF2_EvtWriter_ThreadTaskSwitch, Now, ThreadTeam, Name->Creator, Name->Generation);
      return;
    case TaskRecord::Complete:
      if ((Name = Tasks.take(Task)))
        put(Lib.OTF2_EvtWriter_ThreadTaskComplete, Now, ThreadTeam, Name->Creator,
            Name->Generation);
      return;
    }
  }

  std::uint32_t createTask(Tick Now) override {
    const std::uint32_t Token = Tasks.nextToken();
    task(TaskRecord::Create, Token, Now);
    return Token;
  }

  const Otf2Library &Lib;
  LockTracker &Locks;
  TaskTable &Tasks;
  const std::uint32_t Index;
  std::uint32_t CreatedTasks = 0;
  /// nullptr when OTF2 could not create it: every record is then dropped.
  OTF2_EvtWriter *Writer;
  std::uint64_t Written = 0;
  std::uint64_t Dropped = 0;
  /// OTF2's count of the location's records (with its BufferFlush records),
  /// taken when the writer is closed.
  std::uint64_t Records = 0;

private:
  /// Writes one record, counting it as written or dropped: after any write
  /// of the trace failed (a full disk), no thread writes again.
  template <typename Fn, typename... Args> void put(Fn Record, Tick Now, Args... Rest) {
    if (Writer && !WriteFailed.load(std::memory_order_relaxed)) {
      if (Record(Writer, nullptr, Now, Rest...) == OTF2_SUCCESS) {
        ++Written;
        return;
      }
      WriteFailed.store(true, std::memory_order_relaxed);
    }
    ++Dropped;
  }

  /// The calling thread's team size, 0 without an OpenMP runtime.
  static std::uint32_t teamSize() {
    const int N = omp_get_num_threads ? omp_get_num_threads() : 0;
    return N > 0 ? static_cast<std::uint32_t>(N) : 0;
  }

  /// Writes the pending ThreadFork, with TeamSize threads when known (the
  /// thread's body in the new team comes next), else with the threads the
  /// fork asked for (num_threads, 0 when not given).
  void writeFork(std::uint32_t TeamSize) {
    if (!PendingFork)
      return;
    PendingFork = false;
    const std::uint64_t Threads = TeamSize > 0 ? TeamSize : ForkRequested;
    put(Lib.OTF2_EvtWriter_ThreadFork, ForkTime, OTF2_PARADIGM_OPENMP,
        static_cast<std::uint32_t>(std::min(Threads, MaxRequestedThreads)));
  }

  /// A team this thread began: its body's region and its communicator.
  struct OpenTeam {
    NodeKey Body;
    OTF2_CommRef Comm;
  };
  TeamComms &Teams;
  std::vector<OpenTeam> OpenTeams;
  bool PendingFork = false;
  Tick ForkTime = 0;
  std::uint64_t ForkRequested = 0;

  void acquired(Tick Now, std::uint64_t Lock) {
    // 0: a test that did not set the lock.
    if (Lock != 0)
      if (const auto R = Locks.acquire(Lock, Index))
        put(Lib.OTF2_EvtWriter_ThreadAcquireLock, Now, OTF2_PARADIGM_OPENMP, R->Id, R->Order);
  }
};

/// Interns the strings of the global definitions; OTF2 wants every string
/// defined once, before the definitions that refer to it.
class StringTable {
public:
  OTF2_StringRef operator()(const std::string &S) {
    auto [It, New] = Refs.try_emplace(S, static_cast<OTF2_StringRef>(Order.size()));
    if (New)
      Order.push_back(&It->first);
    return It->second;
  }
  template <typename Fn> void forEach(Fn &&F) const {
    for (std::size_t I = 0; I < Order.size(); ++I)
      F(static_cast<OTF2_StringRef>(I), *Order[I]);
  }

private:
  std::unordered_map<std::string, OTF2_StringRef> Refs;
  std::vector<const std::string *> Order;
};

/// What a region's OTF2 definition says, before its strings are interned.
struct RegionText {
  std::string Name, Description, File;
  TraceRegionKind Kind;
  std::uint32_t Begin = 0, End = 0;
};

/// The definitions of the regions of Keys, in their order.
std::vector<RegionText> regionTexts(const TraceFinish &Info, const std::vector<NodeKey> &Keys) {
  std::vector<RegionText> Texts;
  for (const NodeKey Key : Keys) {
    const RegionId Id = keyRegion(Key);
    const EventId Opener = keyOpener(Key);
    RegionText T{nodeTitle(Id, Opener, *Info.Regions), "", "", traceRegionKind(Opener), 0, 0};
    if (Info.Regions->isValid(Id)) {
      const Region &R = Info.Regions->get(Id);
      const pomp::ctc::RegionDescriptor &D = R.Descriptor;
      T.Description = R.Key;
      T.File = D.File;
      T.Begin = D.StartLines ? D.StartLines->First : 0;
      T.End = D.EndLines ? D.EndLines->Last : D.StartLines ? D.StartLines->Last : 0;
      // libpomp-mpi's calls (docs/MPI.md): named as the user wrote them,
      // paradigm MPI, role by what the call does.
      if (D.Type == MpiRegionType) {
        T.Name = D.Name;
        T.Kind = mpiRegionKind(D.Name);
      }
    }
    Texts.push_back(std::move(T));
  }
  return Texts;
}

//--- the job's one archive (docs/MPI.md, "Traces") -----------------------//

/// The definitions ranks exchange, as bytes: numbers and strings in order.
class ByteWriter {
public:
  void put(std::uint64_t V) { Out.append(reinterpret_cast<const char *>(&V), sizeof V); }
  void putDouble(double V) {
    std::uint64_t Bits = 0;
    std::memcpy(&Bits, &V, sizeof Bits);
    put(Bits);
  }
  void putString(const std::string &S) {
    put(S.size());
    Out += S;
  }
  std::string Out;
};

/// Reads what a ByteWriter wrote; Bad after reading past the end.
class ByteReader {
public:
  explicit ByteReader(const std::string &In) : In(In) {}
  std::uint64_t get() {
    std::uint64_t V = 0;
    if (At + sizeof V <= In.size())
      std::memcpy(&V, In.data() + At, sizeof V);
    else
      Bad = true;
    At += sizeof V;
    return V;
  }
  double getDouble() {
    const std::uint64_t Bits = get();
    double V = 0;
    std::memcpy(&V, &Bits, sizeof V);
    return V;
  }
  std::string getString() {
    const std::uint64_t N = get();
    if (Bad || At > In.size() || N > In.size() - At) {
      Bad = true;
      return {};
    }
    std::string S = In.substr(At, N);
    At += N;
    return S;
  }
  bool Bad = false;

private:
  const std::string &In;
  std::size_t At = 0;
};

/// What one rank tells rank 0 about its trace (Otf2Sink::rankDefinitions).
struct RankDefs {
  bool Ok = false;
  std::uint64_t ChunkBytes = 0;
  std::string Host, Process;
  double NsPerTick = 1.0;
  std::uint64_t TicksAtOpen = 0, RealtimeAtOpen = 0, Start = 0, End = 0;
  std::vector<RegionText> Regions;
  struct Location {
    std::uint32_t Index = 0;
    std::uint64_t Records = 0, Dropped = 0;
  };
  std::vector<Location> Locations;
  struct Team {
    std::uint32_t Comm = 0, Size = 0;
    std::vector<std::uint32_t> Members;
  };
  std::vector<Team> Teams;
};

bool parseRankDefs(const std::string &Bytes, RankDefs &D) {
  ByteReader R(Bytes);
  D.Ok = R.get() != 0;
  D.ChunkBytes = R.get();
  D.Host = R.getString();
  D.Process = R.getString();
  D.NsPerTick = R.getDouble();
  D.TicksAtOpen = R.get();
  D.RealtimeAtOpen = R.get();
  D.Start = R.get();
  D.End = R.get();
  for (std::uint64_t N = R.get(); !R.Bad && N > 0; --N) {
    RegionText T;
    T.Name = R.getString();
    T.Description = R.getString();
    T.File = R.getString();
    T.Begin = static_cast<std::uint32_t>(R.get());
    T.End = static_cast<std::uint32_t>(R.get());
    T.Kind.Role = static_cast<OTF2_RegionRole>(R.get());
    T.Kind.Paradigm = static_cast<OTF2_Paradigm>(R.get());
    D.Regions.push_back(std::move(T));
  }
  for (std::uint64_t N = R.get(); !R.Bad && N > 0; --N) {
    RankDefs::Location L;
    L.Index = static_cast<std::uint32_t>(R.get());
    L.Records = R.get();
    L.Dropped = R.get();
    D.Locations.push_back(L);
  }
  for (std::uint64_t N = R.get(); !R.Bad && N > 0; --N) {
    RankDefs::Team T;
    T.Comm = static_cast<std::uint32_t>(R.get());
    T.Size = static_cast<std::uint32_t>(R.get());
    for (std::uint64_t M = R.get(); !R.Bad && M > 0; --M)
      T.Members.push_back(static_cast<std::uint32_t>(R.get()));
    D.Teams.push_back(std::move(T));
  }
  return !R.Bad;
}

/// A ClockOffset record of a location's local definitions: at local Time,
/// Offset ticks make the rank's timestamps rank 0's (OTF2 readers apply them,
/// interpolating between the records, as Score-P's traces do).
struct ClockPoint {
  std::uint64_t Time = 0;
  std::int64_t Offset = 0;
  double Deviation = 0.0;
};

/// The clock point of rank R when its CLOCK_REALTIME read At, Off ns ahead of
/// rank 0's (Error ns either way): R's tick then, and rank 0's tick at the
/// same moment, each from its own (realtime, tick) pair taken at open().
ClockPoint clockPoint(const RankDefs &Zero, const RankDefs &R, std::int64_t At, std::int64_t Off,
                      std::int64_t Error) {
  const double SinceOpen = static_cast<double>(At - static_cast<std::int64_t>(R.RealtimeAtOpen));
  const double ZeroSinceOpen =
      static_cast<double>(At - Off - static_cast<std::int64_t>(Zero.RealtimeAtOpen));
  const double LocalSince = SinceOpen / R.NsPerTick;
  ClockPoint P;
  P.Time = static_cast<std::uint64_t>(
      std::max<double>(0.0, static_cast<double>(R.TicksAtOpen) + LocalSince));
  P.Offset = static_cast<std::int64_t>(Zero.TicksAtOpen) -
             static_cast<std::int64_t>(R.TicksAtOpen) +
             std::llround(ZeroSinceOpen / Zero.NsPerTick - LocalSince);
  P.Deviation = static_cast<double>(Error) / Zero.NsPerTick;
  return P;
}

/// A local time on rank 0's clock, by the rank's clock points (constant
/// before the first and after the last, linear between).
std::int64_t onRankZeroClock(const std::vector<ClockPoint> &Points, std::uint64_t Time) {
  std::int64_t Offset = 0;
  if (Points.size() == 1 || (!Points.empty() && Time <= Points.front().Time))
    Offset = Points.front().Offset;
  else if (!Points.empty() && Time >= Points.back().Time)
    Offset = Points.back().Offset;
  else if (Points.size() == 2) {
    const double F = static_cast<double>(Time - Points[0].Time) /
                     static_cast<double>(Points[1].Time - Points[0].Time);
    Offset = Points[0].Offset +
             std::llround(F * static_cast<double>(Points[1].Offset - Points[0].Offset));
  }
  return static_cast<std::int64_t>(Time) + Offset;
}

/// Rank 0's plan of the job's global definitions.
struct JobPlan {
  std::vector<RankDefs> Ranks;
  std::vector<RegionText> Regions; ///< unified over the ranks
  std::vector<std::vector<std::uint64_t>> RegionMaps;
  std::vector<std::uint64_t> LocationBase, CommBase;
  std::vector<std::vector<ClockPoint>> Clocks;
  std::int64_t Start = 0, End = 0;
};

/// The collectives of the job (OTF2's callbacks, which libpomp-mpi implements
/// with MPI) for the definitions' exchange; rank 0 is the root.
class JobCollectives {
public:
  explicit JobCollectives(const MpiJobTrace &Job)
      : C(static_cast<const OTF2_CollectiveCallbacks *>(Job.Collectives)), Data(Job.CollectiveData),
        Context(static_cast<OTF2_CollectiveContext *>(Job.CollectiveContext)), Rank(Job.Rank),
        Size(static_cast<std::uint32_t>(Job.Size)) {}

  /// Every rank's bytes on rank 0, in rank order.
  bool gather(const std::string &Mine, std::vector<std::string> &All) const {
    const std::uint64_t Length = Mine.size();
    std::vector<std::uint64_t> Lengths(Rank == 0 ? Size : 1);
    if (C->otf2_gather(Data, Context, &Length, Lengths.data(), 1, OTF2_TYPE_UINT64, 0) !=
        OTF2_CALLBACK_SUCCESS)
      return false;
    std::vector<std::uint32_t> Counts;
    std::string Buffer;
    if (Rank == 0) {
      for (const std::uint64_t L : Lengths)
        Counts.push_back(static_cast<std::uint32_t>(L));
      std::uint64_t Total = 0;
      for (const std::uint64_t L : Lengths)
        Total += L;
      Buffer.resize(Total);
    }
    if (C->otf2_gatherv(Data, Context, Mine.data(), static_cast<std::uint32_t>(Mine.size()),
                        Buffer.data(), Counts.data(), OTF2_TYPE_UINT8, 0) != OTF2_CALLBACK_SUCCESS)
      return false;
    std::size_t At = 0;
    for (const std::uint32_t N : Counts) {
      All.push_back(Buffer.substr(At, N));
      At += N;
    }
    return true;
  }

  /// Rank 0's All[r] on rank r.
  bool scatter(const std::vector<std::string> &All, std::string &Mine) const {
    std::vector<std::uint64_t> Lengths;
    std::vector<std::uint32_t> Counts;
    std::string Buffer;
    for (const std::string &S : All) {
      Lengths.push_back(S.size());
      Counts.push_back(static_cast<std::uint32_t>(S.size()));
      Buffer += S;
    }
    std::uint64_t Length = 0;
    if (C->otf2_scatter(Data, Context, Lengths.data(), &Length, 1, OTF2_TYPE_UINT64, 0) !=
        OTF2_CALLBACK_SUCCESS)
      return false;
    Mine.resize(Length);
    return C->otf2_scatterv(Data, Context, Buffer.data(), Counts.data(), Mine.data(),
                            static_cast<std::uint32_t>(Length), OTF2_TYPE_UINT8,
                            0) == OTF2_CALLBACK_SUCCESS;
  }

  /// Rank 0's Value on every rank.
  bool broadcast(std::uint64_t &Value) const {
    return C->otf2_bcast(Data, Context, &Value, 1, OTF2_TYPE_UINT64, 0) == OTF2_CALLBACK_SUCCESS;
  }

  /// Whether Ok holds on every rank (false when the exchange failed).
  bool all(bool Ok) const {
    const std::uint8_t Mine = Ok ? 1 : 0;
    std::vector<std::uint8_t> Each(Rank == 0 ? Size : 1);
    if (C->otf2_gather(Data, Context, &Mine, Each.data(), 1, OTF2_TYPE_UINT8, 0) !=
        OTF2_CALLBACK_SUCCESS)
      return false;
    std::uint64_t Every = 1;
    if (Rank == 0)
      for (const std::uint8_t E : Each)
        Every = Every && E;
    return broadcast(Every) && Every != 0;
  }

  const OTF2_CollectiveCallbacks *C;
  void *Data;
  OTF2_CollectiveContext *Context;
  int Rank;
  std::uint32_t Size;
};

/// The OTF2 archive of a run.
class Otf2Sink final : public TraceSink {
public:
  Otf2Sink(const Otf2Library &Lib, std::string Directory, std::uint64_t BufferBytes)
      : Lib(Lib), Directory(std::move(Directory)) {
    ChunkBytes =
        std::clamp<std::uint64_t>(BufferBytes, OTF2_CHUNK_SIZE_MIN, OTF2_CHUNK_SIZE_EVENTS_DEFAULT);
    ChunksPerBuffer = std::max<std::uint64_t>(1, BufferBytes / ChunkBytes);
  }
  ~Otf2Sink() override {
    if (Archive && !WriteFailed.load(std::memory_order_relaxed))
      Lib.OTF2_Archive_Close(Archive);
  }

  bool open(std::string &Error);
  ThreadTrace *attach(std::uint32_t ThreadIndex) override;
  std::vector<TraceReport> finish(const TraceFinish &Info) override;

private:
  /// Whether the trace failed (OTF2 reported an error): no call may reach
  /// the archive any more.
  bool failed() const { return WriteFailed.load(std::memory_order_relaxed); }
  /// Leaves the failed archive alone, removes its files and says why.
  TraceReport abandon(TraceReport Report);

  static OTF2_FlushType preFlush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool);
  static OTF2_TimeStamp postFlush(void *, OTF2_FileType, OTF2_LocationRef);
  static void *allocateChunk(void *, OTF2_FileType, OTF2_LocationRef, void **, uint64_t);
  static void freeChunks(void *, OTF2_FileType, OTF2_LocationRef, void **, bool);
  static void releaseLocking(void *) {}
  static OTF2_CallbackCode createLock(void *, OTF2_Lock *);
  static OTF2_CallbackCode destroyLock(void *, OTF2_Lock);
  static OTF2_CallbackCode lockLock(void *, OTF2_Lock);
  static OTF2_CallbackCode unlockLock(void *, OTF2_Lock);

  bool writeLocalDefinitions(const std::vector<NodeKey> &Keys);
  /// This rank's own archive, in its directory.
  TraceReport finishRank(const TraceFinish &Info, const std::vector<NodeKey> &Keys);
  /// The job's one archive, collectively with every rank (docs/MPI.md).
  TraceReport finishJob(const TraceFinish &Info, const std::vector<NodeKey> &Keys,
                        TraceReport Report);
  /// What this rank tells rank 0 for the job's definitions.
  std::string rankDefinitions(const TraceFinish &Info, const std::vector<NodeKey> &Keys,
                              bool Ok) const;
  /// Writes this rank's local definitions and links its event files into the
  /// job's archive.
  bool writeJobLocal(OTF2_Archive *Job, const std::string &JobTrace, const std::string &Reply,
                     const std::vector<NodeKey> &Keys);
  /// Rank 0: the job's global definitions.
  bool writeJobGlobal(OTF2_GlobalDefWriter *Defs, const JobPlan &Plan) const;
  bool writeDefinitions(const TraceFinish &Info, const std::vector<NodeKey> &Keys);

  const Otf2Library &Lib;
  const std::string Directory;
  std::uint64_t ChunkBytes = 0;
  std::uint64_t ChunksPerBuffer = 0;
  OTF2_Archive *Archive = nullptr;
  LockTracker Locks;
  TaskTable Tasks;
  TeamComms Teams;
  /// Appended under the core's registry lock; read at finalisation.
  std::vector<std::unique_ptr<Otf2ThreadTrace>> Threads;
  std::atomic<std::uint64_t> Flushes{0};
  /// realtime and clock at open(), to date the trace's first timestamp.
  std::uint64_t RealtimeNsAtOpen = 0;
  Tick TicksAtOpen = 0;
};

OTF2_FlushType Otf2Sink::preFlush(void *Data, OTF2_FileType Type, OTF2_LocationRef, void *,
                                  bool Final) {
  if (Type == OTF2_FILETYPE_EVENTS && !Final)
    static_cast<Otf2Sink *>(Data)->Flushes.fetch_add(1, std::memory_order_relaxed);
  // A full buffer is always written out: events are never dropped for room.
  return OTF2_FLUSH;
}

OTF2_TimeStamp Otf2Sink::postFlush(void *, OTF2_FileType, OTF2_LocationRef) {
  // The end of the flush, for the BufferFlush record OTF2 adds.
  return Clock::now();
}

void *Otf2Sink::allocateChunk(void *Data, OTF2_FileType Type, OTF2_LocationRef, void **PerBuffer,
                              uint64_t Size) {
  auto *Pool = static_cast<ChunkPool *>(*PerBuffer);
  if (!Pool) {
    Pool = new (std::nothrow) ChunkPool;
    if (!Pool)
      return nullptr;
    // Only event buffers are bounded: definitions are few and written once.
    Pool->Limit = Type == OTF2_FILETYPE_EVENTS ? static_cast<Otf2Sink *>(Data)->ChunksPerBuffer
                                               : std::numeric_limits<std::size_t>::max();
    *PerBuffer = Pool;
  }
  // Full: OTF2 asks preFlush(), writes the buffer, frees the chunks and asks again.
  if (Pool->Chunks.size() >= Pool->Limit)
    return nullptr;
  void *Chunk = std::malloc(Size);
  if (!Chunk)
    return nullptr;
  try {
    Pool->Chunks.push_back(Chunk);
  } catch (...) {
    std::free(Chunk);
    return nullptr;
  }
  return Chunk;
}

void Otf2Sink::freeChunks(void *, OTF2_FileType, OTF2_LocationRef, void **PerBuffer, bool Final) {
  auto *Pool = static_cast<ChunkPool *>(*PerBuffer);
  if (!Pool)
    return;
  for (void *Chunk : Pool->Chunks)
    std::free(Chunk);
  Pool->Chunks.clear();
  if (Final) {
    delete Pool;
    *PerBuffer = nullptr;
  }
}

OTF2_CallbackCode Otf2Sink::createLock(void *, OTF2_Lock *Lock) {
  *Lock = new (std::nothrow) OTF2_LockObject;
  return *Lock ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR;
}
OTF2_CallbackCode Otf2Sink::destroyLock(void *, OTF2_Lock Lock) {
  delete Lock;
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode Otf2Sink::lockLock(void *, OTF2_Lock Lock) {
  Lock->Mutex.lock();
  return OTF2_CALLBACK_SUCCESS;
}
OTF2_CallbackCode Otf2Sink::unlockLock(void *, OTF2_Lock Lock) {
  Lock->Mutex.unlock();
  return OTF2_CALLBACK_SUCCESS;
}

bool Otf2Sink::open(std::string &Error) {
  resetErrors();
  Lib.OTF2_Error_RegisterCallback(keepError, nullptr);
  const std::string Path = Directory + "/" + ArchiveDirectory;
  Archive = Lib.OTF2_Archive_Open(Path.c_str(), ArchiveName, OTF2_FILEMODE_WRITE, ChunkBytes,
                                  OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT, OTF2_SUBSTRATE_POSIX,
                                  OTF2_COMPRESSION_NONE);
  static const OTF2_FlushCallbacks Flush = {preFlush, postFlush};
  static const OTF2_MemoryCallbacks Memory = {allocateChunk, freeChunks};
  static const OTF2_LockingCallbacks Locking = {releaseLocking, createLock, destroyLock, lockLock,
                                                unlockLock};
  if (!Archive || Lib.OTF2_Archive_SetFlushCallbacks(Archive, &Flush, this) != OTF2_SUCCESS ||
      Lib.OTF2_Archive_SetMemoryCallbacks(Archive, &Memory, this) != OTF2_SUCCESS ||
      Lib.OTF2_Archive_SetLockingCallbacks(Archive, &Locking, nullptr) != OTF2_SUCCESS ||
      Lib.OTF2_Archive_SetSerialCollectiveCallbacks(Archive) != OTF2_SUCCESS ||
      Lib.OTF2_Archive_OpenEvtFiles(Archive) != OTF2_SUCCESS) {
    const std::string Reason = firstError();
    Error = "cannot create the OTF2 trace in '" + Path + "'" +
            (Reason.empty() ? std::string() : ": " + Reason);
    if (Archive)
      Lib.OTF2_Archive_Close(Archive);
    Archive = nullptr;
    return false;
  }
  timespec Now;
  clock_gettime(CLOCK_REALTIME, &Now);
  RealtimeNsAtOpen = static_cast<std::uint64_t>(Now.tv_sec) * Clock::NsPerSecond +
                     static_cast<std::uint64_t>(Now.tv_nsec);
  TicksAtOpen = Clock::now();
  return true;
}

ThreadTrace *Otf2Sink::attach(std::uint32_t ThreadIndex) {
  try {
    Threads.reserve(Threads.size() + 1);
    OTF2_EvtWriter *Writer = Lib.OTF2_Archive_GetEvtWriter(Archive, ThreadIndex);
    Threads.push_back(
        std::make_unique<Otf2ThreadTrace>(Lib, Locks, Tasks, Teams, ThreadIndex, Writer));
    return Threads.back().get();
  } catch (...) {
    return nullptr;
  }
}

bool Otf2Sink::writeDefinitions(const TraceFinish &Info, const std::vector<NodeKey> &Keys) {
  OTF2_GlobalDefWriter *Defs = Lib.OTF2_Archive_GetGlobalDefWriter(Archive);
  if (!Defs)
    return false;
  StringTable Strings;
  // The empty string first, as OTF2's tools expect.
  Strings("");

  struct RegionDef {
    OTF2_StringRef Name, Description, File;
    TraceRegionKind Kind;
    std::uint32_t Begin, End;
  };
  std::vector<RegionDef> RegionDefs;
  for (const RegionText &T : regionTexts(Info, Keys))
    RegionDefs.push_back(
        {Strings(T.Name), Strings(T.Description), Strings(T.File), T.Kind, T.Begin, T.End});

  char Host[HOST_NAME_MAX + 1] = "localhost";
  ::gethostname(Host, sizeof Host);
  Host[HOST_NAME_MAX] = '\0';
  const OTF2_StringRef MachineName = Strings("machine");
  const OTF2_StringRef MachineClass = Strings("machine");
  const OTF2_StringRef NodeName = Strings(Host);
  const OTF2_StringRef NodeClass = Strings("node");
  const OTF2_StringRef ProcessName =
      Strings(Info.Program + " (pid " + std::to_string(Info.Pid) + ")");
  const OTF2_StringRef OpenMpName = Strings("OpenMP");
  const OTF2_StringRef TeamName = Strings("OpenMP threads");
  std::map<std::uint32_t, OTF2_StringRef> TeamNames;
  Teams.forEach([&](std::uint32_t Size, OTF2_CommRef, const std::set<std::uint32_t> &) {
    TeamNames[Size] = Strings("OpenMP team of " + std::to_string(Size) + " threads");
  });
  const OTF2_StringRef DroppedName = Strings(DroppedProperty);
  std::vector<std::pair<Otf2ThreadTrace *, OTF2_StringRef>> Locations;
  for (const auto &T : Threads)
    Locations.emplace_back(T.get(), Strings("thread " + std::to_string(T->Index)));

  Strings.forEach([&](OTF2_StringRef Ref, const std::string &S) {
    Lib.OTF2_GlobalDefWriter_WriteString(Defs, Ref, S.c_str());
  });
  const auto Resolution = static_cast<std::uint64_t>(std::llround(NsPerSecond / Info.NsPerTick));
  const double SinceOpenNs =
      (static_cast<double>(Info.Start) - static_cast<double>(TicksAtOpen)) * Info.NsPerTick;
  const auto Realtime =
      static_cast<std::uint64_t>(static_cast<double>(RealtimeNsAtOpen) + SinceOpenNs);
  Lib.OTF2_GlobalDefWriter_WriteClockProperties(Defs, Resolution, Info.Start,
                                                Info.End - Info.Start + 1, Realtime);
  Lib.OTF2_GlobalDefWriter_WriteParadigm(Defs, OTF2_PARADIGM_OPENMP, OpenMpName,
                                         OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  constexpr OTF2_SystemTreeNodeRef Machine = 0;
  constexpr OTF2_SystemTreeNodeRef Node = 1;
  constexpr OTF2_LocationGroupRef Process = 0;
  Lib.OTF2_GlobalDefWriter_WriteSystemTreeNode(Defs, Machine, MachineName, MachineClass,
                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  Lib.OTF2_GlobalDefWriter_WriteSystemTreeNode(Defs, Node, NodeName, NodeClass, Machine);
  Lib.OTF2_GlobalDefWriter_WriteLocationGroup(Defs, Process, ProcessName,
                                              OTF2_LOCATION_GROUP_TYPE_PROCESS, Node,
                                              OTF2_UNDEFINED_LOCATION_GROUP);
  for (const auto &[T, Name] : Locations) {
    Lib.OTF2_GlobalDefWriter_WriteLocation(Defs, T->Index, Name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                           T->Records, Process);
    OTF2_AttributeValue Dropped;
    Dropped.uint64 = T->Dropped;
    Lib.OTF2_GlobalDefWriter_WriteLocationProperty(Defs, T->Index, DroppedName, OTF2_TYPE_UINT64,
                                                   Dropped);
  }
  // The thread team the task records name: all locations, a thread's rank
  // being its index (threads get locations, and indices, as they attach).
  std::vector<std::uint64_t> Members;
  for (const auto &[T, Name] : Locations)
    Members.push_back(T->Index);
  std::sort(Members.begin(), Members.end());
  std::vector<std::uint64_t> Ranks(Members.size());
  for (std::size_t I = 0; I < Ranks.size(); ++I)
    Ranks[I] = I;
  constexpr OTF2_GroupRef AllThreads = 0;
  constexpr OTF2_GroupRef TeamRanks = 1;
  Lib.OTF2_GlobalDefWriter_WriteGroup(Defs, AllThreads, OpenMpName, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                      OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                      static_cast<std::uint32_t>(Members.size()), Members.data());
  Lib.OTF2_GlobalDefWriter_WriteGroup(Defs, TeamRanks, TeamName, OTF2_GROUP_TYPE_COMM_GROUP,
                                      OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                      static_cast<std::uint32_t>(Ranks.size()), Ranks.data());
  Lib.OTF2_GlobalDefWriter_WriteComm(Defs, ThreadTeam, TeamName, TeamRanks, OTF2_UNDEFINED_COMM,
                                     OTF2_COMM_FLAG_NONE);
  // The teams of ThreadTeamBegin/End: a group of the member locations' ranks
  // in AllThreads per team size, its communicator a child of ThreadTeam;
  // in the order of their references, which OTF2 wants.
  struct TeamDef {
    OTF2_CommRef Comm;
    std::uint32_t Size;
    std::set<std::uint32_t> In;
  };
  std::vector<TeamDef> TeamDefs;
  Teams.forEach([&](std::uint32_t Size, OTF2_CommRef Comm, const std::set<std::uint32_t> &In) {
    TeamDefs.push_back({Comm, Size, In});
  });
  std::sort(TeamDefs.begin(), TeamDefs.end(),
            [](const TeamDef &A, const TeamDef &B) { return A.Comm < B.Comm; });
  OTF2_GroupRef NextGroup = TeamRanks + 1;
  for (const TeamDef &Def : TeamDefs) {
    const std::uint32_t Size = Def.Size;
    const OTF2_CommRef Comm = Def.Comm;
    const std::set<std::uint32_t> &In = Def.In;
    std::vector<std::uint64_t> TeamMembers;
    for (const std::uint32_t Thread : In) {
      const auto At = std::lower_bound(Members.begin(), Members.end(), Thread);
      if (At != Members.end() && *At == Thread)
        TeamMembers.push_back(static_cast<std::uint64_t>(At - Members.begin()));
    }
    const OTF2_GroupRef Group = NextGroup++;
    Lib.OTF2_GlobalDefWriter_WriteGroup(
        Defs, Group, TeamNames.at(Size), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
        OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(TeamMembers.size()), TeamMembers.data());
    Lib.OTF2_GlobalDefWriter_WriteComm(Defs, Comm, TeamNames.at(Size), Group, ThreadTeam,
                                       OTF2_COMM_FLAG_NONE);
  }
  bool Ok = true;
  for (std::size_t I = 0; I < RegionDefs.size(); ++I) {
    const RegionDef &R = RegionDefs[I];
    Ok = Lib.OTF2_GlobalDefWriter_WriteRegion(
             Defs, static_cast<OTF2_RegionRef>(I), R.Name, R.Name, R.Description, R.Kind.Role,
             R.Kind.Paradigm, OTF2_REGION_FLAG_NONE, R.File, R.Begin, R.End) == OTF2_SUCCESS &&
         Ok;
  }
  return Ok;
}

bool Otf2Sink::writeLocalDefinitions(const std::vector<NodeKey> &Keys) {
  if (Lib.OTF2_Archive_OpenDefFiles(Archive) != OTF2_SUCCESS || failed())
    return false;
  // Every location gets a local definition file, as readers expect, also
  // when no region was recorded (OTF2 refuses an empty map).
  OTF2_IdMap *Map = Keys.empty() ? nullptr : Lib.OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, Keys.size());
  bool Ok = Keys.empty() || Map;
  for (std::size_t I = 0; Map && I < Keys.size(); ++I)
    Ok = Lib.OTF2_IdMap_AddIdPair(Map, localRegionRef(Keys[I]), I) == OTF2_SUCCESS && Ok;
  // Each closing writes a file: stop at the first failure, as for events.
  for (std::size_t I = 0; Ok && !failed() && I < Threads.size(); ++I) {
    OTF2_DefWriter *Local = Lib.OTF2_Archive_GetDefWriter(Archive, Threads[I]->Index);
    if (!Local) {
      Ok = false;
      break;
    }
    if (Map)
      Ok = Lib.OTF2_DefWriter_WriteMappingTable(Local, OTF2_MAPPING_REGION, Map) == OTF2_SUCCESS;
    Ok = Lib.OTF2_Archive_CloseDefWriter(Archive, Local) == OTF2_SUCCESS && Ok;
  }
  if (Map)
    Lib.OTF2_IdMap_Free(Map);
  return Ok && !failed() && Lib.OTF2_Archive_CloseDefFiles(Archive) == OTF2_SUCCESS;
}

TraceReport Otf2Sink::abandon(TraceReport Report) {
  // Closing the archive would write and free the failed buffers again: the
  // archive, its writers and their memory are left to the process's end.
  Archive = nullptr;
  const std::string Error = firstError();
  Report.Errno = errnoOf(firstErrorCode());
  if (Report.Errno != 0) {
    // OTF2's message names the file ("POSIX: <path>" or "POSIX: '<path>'"):
    // say it relative to the experiment directory.
    const std::size_t At = Error.find(Directory + "/");
    Report.Failure = At == std::string::npos ? std::string(ArchiveDirectory) + "/"
                                             : Error.substr(At + Directory.size() + 1);
    Report.Failure = Report.Failure.substr(0, Report.Failure.find('\''));
  } else {
    Report.Failure = "OTF2 failed" + (Error.empty() ? std::string() : ": " + Error);
  }
  // Partial event files without definitions are of no use, and the anchor
  // file must not make readers take them for a trace; the space is the
  // user's.
  Report.Removed = removeTree(Directory + "/" + ArchiveDirectory);
  Report.Written = 0;
  return Report;
}

std::vector<TraceReport> Otf2Sink::finish(const TraceFinish &Info) {
  // Every (region, opener) that was entered or raised on a thread is a node
  // of the profile, or one of the uncounted ones; their global references
  // follow the keys' order.
  std::set<NodeKey> Used;
  for (std::size_t I = 1; I < Info.Final->Nodes.size(); ++I)
    Used.insert(makeKey(Info.Final->Nodes[I].Region, Info.Final->Nodes[I].Opener));
  Used.insert(Info.Uncounted.begin(), Info.Uncounted.end());
  const std::vector<NodeKey> Keys(Used.begin(), Used.end());
  TraceReport Report = finishRank(Info, Keys);
  if (Info.Job)
    return {finishJob(Info, Keys, std::move(Report))};
  if (Info.MpiRank >= 0 && Report.Complete)
    printMessage("rank " + std::to_string(Info.MpiRank) +
                 ": this rank's OTF2 archive is in its part (trace/traces.otf2): the job's one "
                 "archive is written in MPI_Finalize, which this rank did not finish");
  return {Report};
}

TraceReport Otf2Sink::finishRank(const TraceFinish &Info, const std::vector<NodeKey> &Keys) {
  TraceReport Report;
  Report.Format = "otf2";
  Report.File = Otf2AnchorPath;
  Report.Threads = Threads.size();
  Report.Flushes = Flushes.load(std::memory_order_relaxed);
  std::uint64_t Written = 0;
  for (const auto &T : Threads) {
    Written += T->Written;
    Report.Events += T->Written + T->Dropped;
  }
  // A thread still inside an event may be writing its buffer: closing the
  // archive would free it under the thread's feet.
  if (const std::size_t Busy = busyThreads(Threads, Info.IdleThreads)) {
    Report.Failure = std::to_string(Busy) + " threads were still inside an event";
    return Report;
  }
  if (failed())
    return abandon(Report);
  for (const auto &T : Threads) {
    // The location's definition needs the count, which dies with the writer.
    Lib.OTF2_EvtWriter_GetNumberOfEvents(T->Writer, &T->Records);
    // Each closing writes the rest of a buffer: stop at the first failure.
    if (Lib.OTF2_Archive_CloseEvtWriter(Archive, T->Writer) != OTF2_SUCCESS || failed())
      return abandon(Report);
    T->Writer = nullptr;
  }
  if (Lib.OTF2_Archive_CloseEvtFiles(Archive) != OTF2_SUCCESS || failed())
    return abandon(Report);
  if (!writeLocalDefinitions(Keys) || failed() || !writeDefinitions(Info, Keys) || failed()) {
    WriteFailed.store(true, std::memory_order_relaxed);
    return abandon(Report);
  }
  Lib.OTF2_Archive_SetCreator(Archive, "libpomp (POMP toolkit)");
  Lib.OTF2_Archive_SetDescription(Archive, Info.Program.c_str());
  // Kept for readers of older traces: always 0 now, a trace that lost events
  // is removed.
  Lib.OTF2_Archive_SetProperty(Archive, DroppedProperty, "0", true);
  // Closing writes the anchor file and the global definitions.
  const bool Closed = Lib.OTF2_Archive_Close(Archive) == OTF2_SUCCESS && !failed();
  Archive = nullptr;
  if (!Closed) {
    WriteFailed.store(true, std::memory_order_relaxed);
    return abandon(Report);
  }
  Report.Complete = true;
  Report.Written = Written;
  return Report;
}

std::string Otf2Sink::rankDefinitions(const TraceFinish &Info, const std::vector<NodeKey> &Keys,
                                      bool Ok) const {
  char Host[HOST_NAME_MAX + 1] = "localhost";
  ::gethostname(Host, sizeof Host);
  Host[HOST_NAME_MAX] = '\0';
  ByteWriter W;
  W.put(Ok ? 1 : 0);
  W.put(ChunkBytes);
  W.putString(Host);
  W.putString("rank " + std::to_string(Info.Job->Rank) + ": " + Info.Program + " (pid " +
              std::to_string(Info.Pid) + ")");
  W.putDouble(Info.NsPerTick);
  W.put(TicksAtOpen);
  W.put(RealtimeNsAtOpen);
  W.put(Info.Start);
  W.put(Info.End);
  const std::vector<RegionText> Texts = regionTexts(Info, Keys);
  W.put(Texts.size());
  for (const RegionText &T : Texts) {
    W.putString(T.Name);
    W.putString(T.Description);
    W.putString(T.File);
    W.put(T.Begin);
    W.put(T.End);
    W.put(static_cast<std::uint64_t>(T.Kind.Role));
    W.put(static_cast<std::uint64_t>(T.Kind.Paradigm));
  }
  W.put(Threads.size());
  for (const auto &T : Threads) {
    W.put(T->Index);
    W.put(T->Records);
    W.put(T->Dropped);
  }
  std::vector<RankDefs::Team> TeamList;
  Teams.forEach([&](std::uint32_t Size, OTF2_CommRef Comm, const std::set<std::uint32_t> &In) {
    TeamList.push_back({static_cast<std::uint32_t>(Comm), Size, {In.begin(), In.end()}});
  });
  W.put(TeamList.size());
  for (const RankDefs::Team &T : TeamList) {
    W.put(T.Comm);
    W.put(T.Size);
    W.put(T.Members.size());
    for (const std::uint32_t M : T.Members)
      W.put(M);
  }
  return W.Out;
}

/// Rank 0: unifies the ranks' definitions (regions by all their fields,
/// locations and communicators numbered rank after rank) and aligns their
/// clocks to rank 0's; Why says what prevents the job's archive.
bool planJob(const MpiJobTrace &Job, const std::vector<std::string> &All, JobPlan &Plan,
             std::string &Why) {
  for (std::size_t R = 0; R < All.size(); ++R) {
    RankDefs D;
    if (!parseRankDefs(All[R], D)) {
      Why = "rank " + std::to_string(R) + "'s definitions did not arrive whole";
      return false;
    }
    if (!D.Ok) {
      Why = "rank " + std::to_string(R) + "'s own trace is incomplete";
      return false;
    }
    if (R > 0 && D.ChunkBytes != Plan.Ranks[0].ChunkBytes) {
      Why = "rank " + std::to_string(R) + " has another POMP_TRACE_BUFFER than rank 0";
      return false;
    }
    Plan.Ranks.push_back(std::move(D));
  }
  std::map<std::string, std::uint64_t> RegionIds;
  std::uint64_t Locations = 0, Comms = 0;
  const bool HaveClocks = Job.ClockAt.size() == 2 * All.size() &&
                          Job.ClockOffset.size() == Job.ClockAt.size() &&
                          Job.ClockError.size() == Job.ClockAt.size();
  Plan.Start = std::numeric_limits<std::int64_t>::max();
  Plan.End = std::numeric_limits<std::int64_t>::min();
  for (std::size_t R = 0; R < Plan.Ranks.size(); ++R) {
    const RankDefs &D = Plan.Ranks[R];
    std::vector<std::uint64_t> Map;
    for (const RegionText &T : D.Regions) {
      const std::string Key = T.Name + '\0' + T.Description + '\0' + T.File + '\0' +
                              std::to_string(T.Begin) + ':' + std::to_string(T.End) + ':' +
                              std::to_string(T.Kind.Role) + ':' + std::to_string(T.Kind.Paradigm);
      auto [It, New] = RegionIds.try_emplace(Key, Plan.Regions.size());
      if (New)
        Plan.Regions.push_back(T);
      Map.push_back(It->second);
    }
    Plan.RegionMaps.push_back(std::move(Map));
    Plan.LocationBase.push_back(Locations);
    std::uint32_t Highest = 0;
    for (const RankDefs::Location &L : D.Locations)
      Highest = std::max(Highest, L.Index + 1);
    Locations += Highest;
    // The rank's thread team (local 0) and its team-size communicators.
    Plan.CommBase.push_back(Comms);
    Comms += 1 + D.Teams.size();
    std::vector<ClockPoint> Points;
    for (std::size_t At = 0; HaveClocks && At < 2; ++At) {
      const std::size_t I = 2 * R + At;
      const ClockPoint P =
          clockPoint(Plan.Ranks[0], D, Job.ClockAt[I], Job.ClockOffset[I], Job.ClockError[I]);
      // OTF2 wants the records in increasing time.
      if (Points.empty() || P.Time > Points.back().Time)
        Points.push_back(P);
    }
    Plan.Start = std::min(Plan.Start, onRankZeroClock(Points, D.Start));
    Plan.End = std::max(Plan.End, onRankZeroClock(Points, D.End));
    Plan.Clocks.push_back(std::move(Points));
  }
  Plan.Start = std::max<std::int64_t>(0, Plan.Start);
  Plan.End = std::max(Plan.End, Plan.Start);
  return true;
}

bool Otf2Sink::writeJobGlobal(OTF2_GlobalDefWriter *Defs, const JobPlan &Plan) const {
  StringTable Strings;
  // The empty string first, as OTF2's tools expect.
  Strings("");
  struct RegionDef {
    OTF2_StringRef Name, Description, File;
  };
  std::vector<RegionDef> RegionDefs;
  for (const RegionText &T : Plan.Regions)
    RegionDefs.push_back({Strings(T.Name), Strings(T.Description), Strings(T.File)});
  const OTF2_StringRef Machine = Strings("machine");
  const OTF2_StringRef NodeClass = Strings("node");
  const OTF2_StringRef OpenMpName = Strings("OpenMP");
  const OTF2_StringRef MpiName = Strings("MPI");
  const OTF2_StringRef DroppedName = Strings(DroppedProperty);
  std::map<std::string, OTF2_SystemTreeNodeRef> Nodes;
  for (const RankDefs &D : Plan.Ranks)
    Nodes.try_emplace(D.Host, static_cast<OTF2_SystemTreeNodeRef>(Nodes.size() + 1));
  std::map<std::string, OTF2_StringRef> NodeNames;
  for (const auto &[Host, Ref] : Nodes)
    NodeNames[Host] = Strings(Host);
  std::vector<OTF2_StringRef> ProcessNames, TeamNames;
  std::vector<std::vector<OTF2_StringRef>> LocationNames;
  std::map<std::uint32_t, OTF2_StringRef> SizeNames;
  for (std::size_t R = 0; R < Plan.Ranks.size(); ++R) {
    const RankDefs &D = Plan.Ranks[R];
    ProcessNames.push_back(Strings(D.Process));
    TeamNames.push_back(Strings("OpenMP threads of rank " + std::to_string(R)));
    std::vector<OTF2_StringRef> Names;
    for (const RankDefs::Location &L : D.Locations)
      Names.push_back(Strings("rank " + std::to_string(R) + " thread " + std::to_string(L.Index)));
    LocationNames.push_back(std::move(Names));
    for (const RankDefs::Team &T : D.Teams)
      if (!SizeNames.count(T.Size))
        SizeNames[T.Size] = Strings("OpenMP team of " + std::to_string(T.Size) + " threads");
  }
  Strings.forEach([&](OTF2_StringRef Ref, const std::string &S) {
    Lib.OTF2_GlobalDefWriter_WriteString(Defs, Ref, S.c_str());
  });
  const RankDefs &Zero = Plan.Ranks[0];
  const auto Resolution = static_cast<std::uint64_t>(std::llround(NsPerSecond / Zero.NsPerTick));
  const double SinceOpenNs =
      static_cast<double>(Plan.Start - static_cast<std::int64_t>(Zero.TicksAtOpen)) *
      Zero.NsPerTick;
  const auto Realtime =
      static_cast<std::uint64_t>(static_cast<double>(Zero.RealtimeAtOpen) + SinceOpenNs);
  Lib.OTF2_GlobalDefWriter_WriteClockProperties(
      Defs, Resolution, static_cast<std::uint64_t>(Plan.Start),
      static_cast<std::uint64_t>(Plan.End - Plan.Start) + 1, Realtime);
  Lib.OTF2_GlobalDefWriter_WriteParadigm(Defs, OTF2_PARADIGM_OPENMP, OpenMpName,
                                         OTF2_PARADIGM_CLASS_THREAD_FORK_JOIN);
  Lib.OTF2_GlobalDefWriter_WriteParadigm(Defs, OTF2_PARADIGM_MPI, MpiName,
                                         OTF2_PARADIGM_CLASS_PROCESS);
  constexpr OTF2_SystemTreeNodeRef Top = 0;
  Lib.OTF2_GlobalDefWriter_WriteSystemTreeNode(Defs, Top, Machine, Machine,
                                               OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (const auto &[Host, Ref] : Nodes)
    Lib.OTF2_GlobalDefWriter_WriteSystemTreeNode(Defs, Ref, NodeNames.at(Host), NodeClass, Top);
  // Every rank a process (its location group numbered by its rank), every
  // thread of it a location.
  std::vector<std::uint64_t> All;
  for (std::size_t R = 0; R < Plan.Ranks.size(); ++R) {
    const RankDefs &D = Plan.Ranks[R];
    Lib.OTF2_GlobalDefWriter_WriteLocationGroup(Defs, static_cast<OTF2_LocationGroupRef>(R),
                                                ProcessNames[R], OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                Nodes.at(D.Host), OTF2_UNDEFINED_LOCATION_GROUP);
    for (std::size_t L = 0; L < D.Locations.size(); ++L) {
      const std::uint64_t Id = Plan.LocationBase[R] + D.Locations[L].Index;
      All.push_back(Id);
      Lib.OTF2_GlobalDefWriter_WriteLocation(Defs, Id, LocationNames[R][L],
                                             OTF2_LOCATION_TYPE_CPU_THREAD, D.Locations[L].Records,
                                             static_cast<OTF2_LocationGroupRef>(R));
      OTF2_AttributeValue Dropped;
      Dropped.uint64 = D.Locations[L].Dropped;
      Lib.OTF2_GlobalDefWriter_WriteLocationProperty(Defs, Id, DroppedName, OTF2_TYPE_UINT64,
                                                     Dropped);
    }
  }
  // One group of every location for OpenMP; each rank's thread team and its
  // team-size communicators rank their members within it.
  std::sort(All.begin(), All.end());
  auto Position = [&](std::uint64_t Id) {
    return static_cast<std::uint64_t>(std::lower_bound(All.begin(), All.end(), Id) - All.begin());
  };
  constexpr OTF2_GroupRef AllThreads = 0;
  Lib.OTF2_GlobalDefWriter_WriteGroup(Defs, AllThreads, OpenMpName, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                      OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                      static_cast<std::uint32_t>(All.size()), All.data());
  OTF2_GroupRef NextGroup = AllThreads + 1;
  for (std::size_t R = 0; R < Plan.Ranks.size(); ++R) {
    const RankDefs &D = Plan.Ranks[R];
    std::vector<std::uint64_t> Members;
    for (const RankDefs::Location &L : D.Locations)
      Members.push_back(Position(Plan.LocationBase[R] + L.Index));
    std::sort(Members.begin(), Members.end());
    const OTF2_GroupRef TeamGroup = NextGroup++;
    const auto Team = static_cast<OTF2_CommRef>(Plan.CommBase[R]);
    Lib.OTF2_GlobalDefWriter_WriteGroup(Defs, TeamGroup, TeamNames[R], OTF2_GROUP_TYPE_COMM_GROUP,
                                        OTF2_PARADIGM_OPENMP, OTF2_GROUP_FLAG_NONE,
                                        static_cast<std::uint32_t>(Members.size()), Members.data());
    Lib.OTF2_GlobalDefWriter_WriteComm(Defs, Team, TeamNames[R], TeamGroup, OTF2_UNDEFINED_COMM,
                                       OTF2_COMM_FLAG_NONE);
    std::vector<RankDefs::Team> Sorted = D.Teams;
    std::sort(Sorted.begin(), Sorted.end(),
              [](const RankDefs::Team &A, const RankDefs::Team &B) { return A.Comm < B.Comm; });
    for (const RankDefs::Team &T : Sorted) {
      std::vector<std::uint64_t> In;
      for (const std::uint32_t M : T.Members)
        In.push_back(Position(Plan.LocationBase[R] + M));
      const OTF2_GroupRef Group = NextGroup++;
      Lib.OTF2_GlobalDefWriter_WriteGroup(
          Defs, Group, SizeNames.at(T.Size), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_OPENMP,
          OTF2_GROUP_FLAG_NONE, static_cast<std::uint32_t>(In.size()), In.data());
      Lib.OTF2_GlobalDefWriter_WriteComm(Defs, static_cast<OTF2_CommRef>(Team + T.Comm),
                                         SizeNames.at(T.Size), Group, Team, OTF2_COMM_FLAG_NONE);
    }
  }
  bool Ok = true;
  for (std::size_t I = 0; I < Plan.Regions.size(); ++I) {
    const RegionText &T = Plan.Regions[I];
    const RegionDef &R = RegionDefs[I];
    Ok = Lib.OTF2_GlobalDefWriter_WriteRegion(
             Defs, static_cast<OTF2_RegionRef>(I), R.Name, R.Name, R.Description, T.Kind.Role,
             T.Kind.Paradigm, OTF2_REGION_FLAG_NONE, R.File, T.Begin, T.End) == OTF2_SUCCESS &&
         Ok;
  }
  return Ok && !failed();
}

/// Links From to To, or copies it when they are on different file systems.
bool linkOrCopy(const std::string &From, const std::string &To) {
  if (::link(From.c_str(), To.c_str()) == 0)
    return true;
  if (errno != EXDEV && errno != EPERM)
    return false;
  std::FILE *In = std::fopen(From.c_str(), "rb");
  std::FILE *Out = In ? std::fopen(To.c_str(), "wb") : nullptr;
  bool Ok = In && Out;
  char Buffer[1 << 16];
  for (std::size_t N; Ok && (N = std::fread(Buffer, 1, sizeof Buffer, In)) > 0;)
    Ok = std::fwrite(Buffer, 1, N, Out) == N;
  Ok = Ok && In && !std::ferror(In);
  if (Out)
    Ok = std::fclose(Out) == 0 && Ok;
  if (In)
    std::fclose(In);
  return Ok;
}

bool Otf2Sink::writeJobLocal(OTF2_Archive *Job, const std::string &JobTrace,
                             const std::string &Reply, const std::vector<NodeKey> &Keys) {
  ByteReader R(Reply);
  std::vector<std::uint64_t> RegionMap;
  for (std::uint64_t N = R.get(); !R.Bad && N > 0; --N)
    RegionMap.push_back(R.get());
  const std::uint64_t LocationBase = R.get();
  const std::uint64_t CommBase = R.get();
  std::vector<ClockPoint> Points;
  for (std::uint64_t N = R.get(); !R.Bad && N > 0; --N) {
    ClockPoint P;
    P.Time = R.get();
    P.Offset = static_cast<std::int64_t>(R.get());
    P.Deviation = R.getDouble();
    Points.push_back(P);
  }
  if (R.Bad || RegionMap.size() != Keys.size())
    return false;
  std::size_t LocalComms = 1;
  Teams.forEach(
      [&](std::uint32_t, OTF2_CommRef, const std::set<std::uint32_t> &) { ++LocalComms; });
  OTF2_IdMap *Regions =
      Keys.empty() ? nullptr : Lib.OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, Keys.size());
  OTF2_IdMap *Comms = Lib.OTF2_IdMap_Create(OTF2_ID_MAP_SPARSE, LocalComms);
  bool Ok = (Keys.empty() || Regions) && Comms;
  for (std::size_t I = 0; Regions && I < Keys.size(); ++I)
    Ok = Lib.OTF2_IdMap_AddIdPair(Regions, localRegionRef(Keys[I]), RegionMap[I]) == OTF2_SUCCESS &&
         Ok;
  for (std::size_t C = 0; Comms && C < LocalComms; ++C)
    Ok = Lib.OTF2_IdMap_AddIdPair(Comms, C, CommBase + C) == OTF2_SUCCESS && Ok;
  for (std::size_t I = 0; Ok && !failed() && I < Threads.size(); ++I) {
    OTF2_DefWriter *Local = Lib.OTF2_Archive_GetDefWriter(Job, LocationBase + Threads[I]->Index);
    if (!Local) {
      Ok = false;
      break;
    }
    if (Regions)
      Ok = Lib.OTF2_DefWriter_WriteMappingTable(Local, OTF2_MAPPING_REGION, Regions) ==
               OTF2_SUCCESS &&
           Ok;
    Ok =
        Lib.OTF2_DefWriter_WriteMappingTable(Local, OTF2_MAPPING_COMM, Comms) == OTF2_SUCCESS && Ok;
    for (const ClockPoint &P : Points)
      Ok = Lib.OTF2_DefWriter_WriteClockOffset(Local, P.Time, P.Offset, P.Deviation) ==
               OTF2_SUCCESS &&
           Ok;
    Ok = Lib.OTF2_Archive_CloseDefWriter(Job, Local) == OTF2_SUCCESS && Ok;
  }
  if (Regions)
    Lib.OTF2_IdMap_Free(Regions);
  if (Comms)
    Lib.OTF2_IdMap_Free(Comms);
  // The events are the rank's own archive's files, under their job-wide
  // location numbers.
  const std::string Events = JobTrace + "/" + ArchiveName;
  if (::mkdir(Events.c_str(), 0777) != 0 && errno != EEXIST)
    return false;
  for (std::size_t I = 0; Ok && I < Threads.size(); ++I) {
    const std::string From = Directory + "/" + ArchiveDirectory + "/" + ArchiveName + "/" +
                             std::to_string(Threads[I]->Index) + ".evt";
    const std::string To = Events + "/" + std::to_string(LocationBase + Threads[I]->Index) + ".evt";
    Ok = linkOrCopy(From, To);
  }
  return Ok && !failed();
}

TraceReport Otf2Sink::finishJob(const TraceFinish &Info, const std::vector<NodeKey> &Keys,
                                TraceReport Report) {
  const MpiJobTrace &Job = *Info.Job;
  const auto Began = std::chrono::steady_clock::now();
  const JobCollectives Comm(Job);
  const std::string Kept = "each rank's archive stays in its part (rank-<N>/trace/traces.otf2)";
  auto Say = [&](const std::string &Why) {
    if (Job.Rank == 0)
      printMessage("the job's one OTF2 archive is not written: " + Why + "; " + Kept);
  };
  // 1. every rank's definitions to rank 0, which unifies them and says
  // whether the archive can be written.
  std::vector<std::string> All;
  if (!Comm.gather(rankDefinitions(Info, Keys, Report.Complete), All)) {
    Say("the ranks' definitions could not be gathered");
    return Report;
  }
  JobPlan Plan;
  std::string Why;
  std::uint64_t Go = 0;
  std::vector<std::string> Replies;
  if (Job.Rank == 0 && planJob(Job, All, Plan, Why)) {
    Go = 1;
    for (std::size_t R = 0; R < Plan.Ranks.size(); ++R) {
      ByteWriter W;
      W.put(Plan.RegionMaps[R].size());
      for (const std::uint64_t G : Plan.RegionMaps[R])
        W.put(G);
      W.put(Plan.LocationBase[R]);
      W.put(Plan.CommBase[R]);
      W.put(Plan.Clocks[R].size());
      for (const ClockPoint &P : Plan.Clocks[R]) {
        W.put(P.Time);
        W.put(static_cast<std::uint64_t>(P.Offset));
        W.putDouble(P.Deviation);
      }
      Replies.push_back(std::move(W.Out));
    }
  } else if (Job.Rank == 0) {
    Replies.assign(All.size(), std::string());
  }
  if (!Comm.broadcast(Go) || !Go) {
    Say(Why.empty() ? "rank 0 could not plan it" : Why);
    return Report;
  }
  std::string Reply;
  if (!Comm.scatter(Replies, Reply)) {
    Say("rank 0's plan could not be sent");
    return Report;
  }
  // 2. the archive, collectively: each rank its locations' local
  // definitions and events, rank 0 the global definitions.
  resetErrors();
  const std::string JobTrace = Job.Directory + "/" + ArchiveDirectory;
  OTF2_Archive *J = Lib.OTF2_Archive_Open(JobTrace.c_str(), ArchiveName, OTF2_FILEMODE_WRITE,
                                          ChunkBytes, OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                                          OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  static const OTF2_FlushCallbacks Flush = {preFlush, postFlush};
  bool Ok = J && Lib.OTF2_Archive_SetFlushCallbacks(J, &Flush, this) == OTF2_SUCCESS;
  Ok = J &&
       Lib.OTF2_Archive_SetCollectiveCallbacks(
           J, static_cast<const OTF2_CollectiveCallbacks *>(Job.Collectives), Job.CollectiveData,
           static_cast<OTF2_CollectiveContext *>(Job.CollectiveContext), nullptr) == OTF2_SUCCESS &&
       Ok;
  Ok = J && Lib.OTF2_Archive_OpenDefFiles(J) == OTF2_SUCCESS && Ok;
  Ok = Ok && writeJobLocal(J, JobTrace, Reply, Keys);
  Ok = J && Lib.OTF2_Archive_CloseDefFiles(J) == OTF2_SUCCESS && Ok;
  if (Job.Rank == 0 && Ok) {
    OTF2_GlobalDefWriter *Defs = Lib.OTF2_Archive_GetGlobalDefWriter(J);
    Ok = Defs && writeJobGlobal(Defs, Plan);
  }
  if (J) {
    Lib.OTF2_Archive_SetCreator(J, "libpomp (POMP toolkit)");
    Lib.OTF2_Archive_SetDescription(J, Info.Program.c_str());
    Lib.OTF2_Archive_SetProperty(J, DroppedProperty, "0", true);
  }
  // Closing is collective: only when every rank got this far.
  if (!Comm.all(Ok && !failed())) {
    Say("writing it failed on a rank" +
        (firstError().empty() ? std::string() : " (" + firstError() + ")"));
    if (Job.Rank == 0)
      removeTree(JobTrace);
    return Report;
  }
  Ok = Lib.OTF2_Archive_Close(J) == OTF2_SUCCESS && !failed();
  if (!Comm.all(Ok)) {
    Say("closing it failed on a rank");
    if (Job.Rank == 0)
      removeTree(JobTrace);
    return Report;
  }
  // The job's archive holds every rank's events: the rank's own is redundant.
  removeTree(Directory + "/" + ArchiveDirectory);
  Report.File = std::string("../") + Otf2AnchorPath;
  if (Job.Rank == 0 && !Plan.Ranks.empty()) {
    std::size_t Locations = 0;
    for (const RankDefs &D : Plan.Ranks)
      Locations += D.Locations.size();
    printMessage("OTF2 trace of the job in " + JobTrace + "/" + ArchiveName + ".otf2: " +
                 std::to_string(Plan.Ranks.size()) + " ranks, " + std::to_string(Locations) +
                 " locations, " + std::to_string(Plan.Regions.size()) + " regions, written in " +
                 std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    std::chrono::steady_clock::now() - Began)
                                    .count()) +
                 " ms");
  }
  return Report;
}

} // namespace

std::unique_ptr<TraceSink> openOtf2Trace(const TraceSettings &Settings,
                                         const std::string &Directory, std::string &Error) {
  const Otf2Library *Lib = Otf2Library::load(Error);
  if (!Lib)
    return nullptr;
  auto Sink = std::make_unique<Otf2Sink>(*Lib, Directory, Settings.BufferBytes);
  if (!Sink->open(Error))
    return nullptr;
  return Sink;
}

} // namespace pomp::rt
