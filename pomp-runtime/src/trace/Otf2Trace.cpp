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
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <set>
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
  const OTF2_StringRef Empty = Strings("");

  struct RegionDef {
    OTF2_StringRef Name, Description, File;
    TraceRegionKind Kind;
    std::uint32_t Begin, End;
  };
  std::vector<RegionDef> RegionDefs;
  for (const NodeKey Key : Keys) {
    const RegionId Id = keyRegion(Key);
    const EventId Opener = keyOpener(Key);
    std::string Name = nodeTitle(Id, Opener, *Info.Regions);
    RegionDef Def{0, Empty, Empty, traceRegionKind(Opener), 0, 0};
    if (Info.Regions->isValid(Id)) {
      const Region &R = Info.Regions->get(Id);
      const pomp::ctc::RegionDescriptor &D = R.Descriptor;
      Def.Description = Strings(R.Key);
      Def.File = Strings(D.File);
      Def.Begin = D.StartLines ? D.StartLines->First : 0;
      Def.End = D.EndLines ? D.EndLines->Last : D.StartLines ? D.StartLines->Last : 0;
      // libpomp-mpi's calls (docs/MPI.md): named as the user wrote them,
      // paradigm MPI, role by what the call does.
      if (D.Type == MpiRegionType) {
        Name = D.Name;
        Def.Kind = mpiRegionKind(D.Name);
      }
    }
    Def.Name = Strings(Name);
    RegionDefs.push_back(Def);
  }

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
    return {Report};
  }
  if (failed())
    return {abandon(Report)};
  for (const auto &T : Threads) {
    // The location's definition needs the count, which dies with the writer.
    Lib.OTF2_EvtWriter_GetNumberOfEvents(T->Writer, &T->Records);
    // Each closing writes the rest of a buffer: stop at the first failure.
    if (Lib.OTF2_Archive_CloseEvtWriter(Archive, T->Writer) != OTF2_SUCCESS || failed())
      return {abandon(Report)};
    T->Writer = nullptr;
  }
  if (Lib.OTF2_Archive_CloseEvtFiles(Archive) != OTF2_SUCCESS || failed())
    return {abandon(Report)};
  // Every (region, opener) that was entered or raised on a thread is a node
  // of the profile, or one of the uncounted ones; their global references
  // follow the keys' order.
  std::set<NodeKey> Used;
  for (std::size_t I = 1; I < Info.Final->Nodes.size(); ++I)
    Used.insert(makeKey(Info.Final->Nodes[I].Region, Info.Final->Nodes[I].Opener));
  Used.insert(Info.Uncounted.begin(), Info.Uncounted.end());
  const std::vector<NodeKey> Keys(Used.begin(), Used.end());
  if (!writeLocalDefinitions(Keys) || failed() || !writeDefinitions(Info, Keys) || failed()) {
    WriteFailed.store(true, std::memory_order_relaxed);
    return {abandon(Report)};
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
    return {abandon(Report)};
  }
  Report.Complete = true;
  Report.Written = Written;
  return {Report};
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
