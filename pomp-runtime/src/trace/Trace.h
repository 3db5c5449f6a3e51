//===- trace/Trace.h - Event traces behind the core -------------*- C++ -*-===//
///
/// \file
/// A trace is a sink behind the measurement core: with POMP_TRACE=1 every
/// thread's state (ThreadState::Trace) points to a ThreadTrace, and the core's
/// enter, leave and event operations hand it each event they record, in the
/// thread's order, with the timestamp the profile uses. Adapters know nothing
/// of traces; whatever reaches the core reaches the trace.
///
/// The adapters' fast paths bypass the core's operations, so while a trace is
/// written the library clears Activation's fast bits (Lifecycle.cpp): every
/// event takes the general path.
///
/// Lifecycle (docs/TRACE_FORMAT.md):
///   initialisation  the experiment directory is claimed and the sink opened
///                   (openTraceSink); a failure is one message, tracing off
///   first event     Core::attachThread asks the sink for the thread's
///                   ThreadTrace under the core's registry lock
///   finalisation    after recording stopped and the open regions were closed
///                   (Core::collect), finish() closes the threads' buffers,
///                   writes the definitions and reports what it wrote, before
///                   the profile is written (which records the reports)
///
/// A write that fails (a full disk) stops the trace at once: later events are
/// counted, not written, and finish() removes the incomplete trace, so that
/// nothing that looks like a valid trace stays (docs/TRACE_FORMAT.md, "When
/// the disk is full").
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_TRACE_H
#define POMP_RUNTIME_TRACE_TRACE_H

#include "core/CallPath.h"
#include "core/Clock.h"
#include "core/Config.h"
#include "core/Events.h"
#include "core/Output.h"

#include <cstdint>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

namespace pomp::rt {

struct Profile;
class RegionTable;

/// What one thread's trace receives from the core, in the thread's order.
/// Key is the node key of the region (makeKey(region, canonical opener));
/// Payload is what the event carries besides its region: the lock id of lock
/// events (0 when a test did not set the lock), the requested team size of
/// Parallel_enter/Parallel_fork, else 0.
class ThreadTrace {
public:
  virtual ~ThreadTrace() = default;
  /// A region was entered by event E.
  virtual void enter(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) = 0;
  /// Closer is about to close the open region Key (before its leave()).
  virtual void closing(NodeKey Key, EventId Closer, Tick Now, std::uint64_t Payload) = 0;
  /// The region Key was left: by its own closing event, because an enclosing
  /// region ended, or at finalisation.
  virtual void leave(NodeKey Key, Tick Now) = 0;
  /// A single event.
  virtual void event(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) = 0;

  /// What happened to an explicit task.
  enum class TaskRecord : std::uint8_t { Create, Switch, Complete };
  /// A task record, from the OpenMP runtime's task callbacks (OMPT): Task
  /// identifies the task instance while it lives. POMP's task events name the
  /// construct, not the instance, so only the runtime can give these.
  virtual void task(TaskRecord What, std::uint64_t Task, Tick Now) {
    (void)What, (void)Task, (void)Now;
  }
  /// A task instrumented code created (POMP) where no runtime names tasks
  /// (libgomp): records its creation and returns the token that names it in
  /// task() until it completes; 0 when this trace keeps no task records.
  virtual std::uint32_t createTask(Tick Now) {
    (void)Now;
    return 0;
  }
};

/// The job's one OTF2 archive (docs/MPI.md, "Traces"): what libpomp-mpi hands
/// finalisation in MPI_Finalize (POMP_Finalize_mpi_job). The collectives are
/// an OTF2_CollectiveCallbacks implemented with MPI, kept opaque here so that
/// only the OTF2 writer knows OTF2's types.
struct MpiJobTrace {
  std::string Directory; ///< the job directory; the archive is its trace/traces.otf2
  int Rank = 0;
  int Size = 1;
  const void *Collectives = nullptr;
  void *CollectiveData = nullptr;
  void *CollectiveContext = nullptr;
  /// Rank 0 only, two per rank (at MPI_Init, at MPI_Finalize): the rank's
  /// CLOCK_REALTIME when its offset was measured, the offset to rank 0's
  /// clock and its error, in ns.
  std::vector<std::int64_t> ClockAt, ClockOffset, ClockError;
};

/// Facts finalisation hands a trace to write its definitions.
struct TraceFinish {
  const Profile *Final = nullptr; ///< every (region, opener) that was recorded
  /// (region, opener) keys entered without a visit the profile counts: a
  /// region of the runtime's that instrumented code took over (masked).
  std::vector<NodeKey> Uncounted;
  const RegionTable *Regions = nullptr;
  /// Indices of the threads that left their last event: only their buffers
  /// are closed. A thread still inside an event keeps the trace open.
  std::vector<std::uint32_t> IdleThreads;
  Tick Start = 0; ///< initialisation; no event is earlier
  Tick End = 0;   ///< finalisation; no event is later
  double NsPerTick = 1.0;
  std::string Program;
  std::int64_t Pid = 0;
  /// Set when libpomp-mpi's MPI_Finalize finalises: the OTF2 writer then also
  /// writes the job's archive, collectively (docs/MPI.md, "Traces").
  const MpiJobTrace *Job = nullptr;
  /// The rank of an MPI job whose finalisation is not that collective one
  /// (a signal, an exit without MPI_Finalize): -1 outside a job.
  std::int32_t MpiRank = -1;
};

/// The process's trace: one per run, created at initialisation.
class TraceSink {
public:
  virtual ~TraceSink() = default;
  /// The trace of a thread's events, created on its first event under the
  /// core's registry lock. Never null: a thread whose buffer could not be
  /// created gets one that counts its events as dropped.
  virtual ThreadTrace *attach(std::uint32_t ThreadIndex) = 0;
  /// Closes the buffers of the idle threads and writes the trace, or removes
  /// it when a write failed; one report per trace format.
  virtual std::vector<TraceReport> finish(const TraceFinish &Info) = 0;
};

/// How many of a sink's thread traces belong to threads that were not idle at
/// finalisation: their buffers must not be closed.
template <typename ThreadTraces>
std::size_t busyThreads(const ThreadTraces &Threads, const std::vector<std::uint32_t> &Idle) {
  std::size_t Busy = 0;
  for (const auto &T : Threads) {
    bool Found = false;
    for (std::uint32_t I : Idle)
      Found = Found || I == T->Index;
    Busy += Found ? 0 : 1;
  }
  return Busy;
}

/// The trace formats POMP_TRACE_FORMAT accepts, in its order.
enum class TraceFormat : std::uint8_t { Otf2, Chrome, Both };

inline constexpr OptionSpec TraceOption = {
    "POMP_TRACE", OptionType::Bool, "0", "0, 1",
    "1: also write an event trace into the experiment directory, which is then created at "
    "initialisation (docs/TRACE_FORMAT.md). Every event takes the library's general path."};
inline constexpr OptionSpec TraceFormatOption = {
    "POMP_TRACE_FORMAT", OptionType::Choice, "otf2", "otf2, chrome, both",
    "With POMP_TRACE=1: trace/traces.otf2 (OTF2), trace.json (Chrome trace events, for Perfetto) "
    "or both."};
/// The smallest buffer a thread gets: OTF2's smallest chunk.
inline constexpr std::uint64_t MinTraceBufferBytes = std::uint64_t(256) * 1024;
/// The largest: per thread, so that a typo cannot ask for all the memory.
inline constexpr std::uint64_t MaxTraceBufferBytes = std::uint64_t(16) << 30;
inline constexpr OptionSpec TraceBufferOption = {
    "POMP_TRACE_BUFFER",
    OptionType::Size,
    "8M",
    "a size in bytes, with K, M or G; 256K to 16G",
    "Trace memory per thread: a full buffer is written to disk and reused, so long runs need no "
    "more memory and lose no events.",
    MinTraceBufferBytes,
    MaxTraceBufferBytes};
inline constexpr OptionSpec TraceOptions[] = {TraceOption, TraceFormatOption, TraceBufferOption};

/// What the trace module reads at initialisation.
struct TraceSettings {
  bool Enabled = false;
  TraceFormat Format = TraceFormat::Otf2;
  std::uint64_t BufferBytes = 0;
};
TraceSettings readTraceSettings(const OptionSource &Options);

/// Opens the trace of this run in the claimed experiment directory. nullptr
/// and the reason when it cannot be written; the program is not affected.
std::unique_ptr<TraceSink> openTraceSink(const TraceSettings &Settings,
                                         const std::string &Directory, std::string &Error);

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_TRACE_H
