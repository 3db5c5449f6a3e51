//===- core/Lifecycle.cpp - Initialisation and finalisation ---------------===//

#include "core/Lifecycle.h"

#include "adapters/ompt/OmptOptions.h"

#include "core/Clock.h"
#include "core/Metrics.h"
#include "core/Output.h"
#include "core/Signals.h"
#include "trace/Trace.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <exception>
#include <linux/membarrier.h>
#include <mutex>
#include <new>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

extern "C" void POMP_Init_Handles(void);

namespace pomp::rt {

void linkOmptAdapter();

__thread ThreadState *CurrentThread __attribute__((tls_model("initial-exec"))) = nullptr;

namespace detail {
NoDestroy<RegionTable> GlobalRegions;
Activation GlobalActivation;
Core *GlobalCore = nullptr;
} // namespace detail

using detail::GlobalActivation;
using detail::GlobalCore;
using detail::GlobalRegions;

namespace {

alignas(Core) unsigned char CoreStorage[sizeof(Core)];

/// What initialisation learns for finalisation.
struct RunState {
  OutputSettings Output;
  RunInfo Info;
  Tick StartTicks = 0;
  /// A forked child inherits the exit hook; only this process writes.
  pid_t InitPid = 0;
  bool BarrierRegistered = false;
  /// What finalisation collected, kept for finalProfile().
  Profile Final;
  bool HaveFinal = false;
  /// The trace being written (POMP_TRACE=1), or nullptr.
  std::unique_ptr<TraceSink> Trace;
  /// POMP_TRACE and its format, for a forked child's own trace.
  TraceSettings TraceConfig;
  /// libpomp-mpi is in the process and a trace was asked for: the trace is
  /// opened in the rank's part at MPI_Init (noteMpiPart, docs/MPI.md).
  bool TraceAwaitsMpiPart = false;
  /// Set by libpomp-mpi's MPI_Finalize (finalizeMpiJob): the OTF2 writer also
  /// writes the job's one archive, collectively.
  std::unique_ptr<MpiJobTrace> Job;
};
RunState *Run = nullptr;

std::mutex LifecycleMutex;
/// Set while this thread initialises or finalises: an event or control call
/// raised from inside (POMP_Init_Handles) must not wait for itself.
thread_local bool InLifecycle = false;

/// Longest time finalisation waits for a thread to leave its event, and the
/// step it sleeps between looks.
constexpr long BusyWaitLimitNs = 1000000000;
constexpr long BusyWaitStepNs = 100000;
/// Without membarrier(), the time after which every store buffer has drained.
constexpr long FallbackBarrierNs = 10000000;

constexpr std::size_t LastErrorSize = 256;
thread_local char LastErrorMessage[LastErrorSize];

void sleepNs(long Ns) {
  timespec Ts{0, Ns};
  while (::nanosleep(&Ts, &Ts) != 0 && errno == EINTR) {
  }
}

bool registerHeavyBarrier() {
  return ::syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/// Makes every thread of the process execute a full memory barrier, so that
/// any event that starts afterwards sees recording switched off, and any event
/// already past that test has its InEvent flag visible. The hot path pays
/// nothing for this: it has only a compiler barrier.
void heavyBarrier() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (Run && Run->BarrierRegistered &&
      ::syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
    return;
  sleepNs(FallbackBarrierNs);
}

bool waitUntilIdle(const ThreadState &T) {
  for (long Waited = 0; T.InEvent.load(std::memory_order_acquire); Waited += BusyWaitStepNs) {
    if (Waited >= BusyWaitLimitNs)
      return false;
    sleepNs(BusyWaitStepNs);
  }
  return true;
}

/// Claims the experiment directory and opens the trace in it (POMP_TRACE=1).
/// A failure is one message; the run goes on without a trace.
void openTrace(const TraceSettings &Settings) {
  std::string Error;
  const std::string Directory =
      claimDirectory(experimentDirectoryName(Run->Info, Run->Output), Error);
  if (Directory.empty()) {
    printMessage(Error + "; no trace or profile written");
    Run->Output.Unwritable = true;
    return;
  }
  Run->Output.Claimed = Directory;
  Run->Trace = openTraceSink(Settings, Directory, Error);
  if (!Run->Trace) {
    printMessage(Error + "; no trace written");
    return;
  }
  GlobalCore->setTraceSink(Run->Trace.get());
  // The adapters' fast paths bypass the core, and with it the trace.
  GlobalActivation.setFastPath(false);
}

//--- fork() ----------------------------------------------------------------//
// A child created by fork() measures itself (docs/RUNTIME.md, "fork()"): its
// own directory <parent's>-fork-<pid>, its own pid, its own events from the
// fork on. The locks the child needs are held across the fork, so that no
// other thread of the parent holds them in the child's copy.

/// Whether prepareFork() took the lifecycle lock (not when the forking thread
/// initialises or finalises the library itself, and so holds it already).
bool ForkHoldsLifecycle = false;

void prepareFork() {
  ForkHoldsLifecycle = !InLifecycle;
  if (ForkHoldsLifecycle)
    LifecycleMutex.lock();
  if (GlobalCore)
    GlobalCore->lockForFork();
  GlobalRegions.Value.lockForFork();
}

void releaseForkLocks() {
  GlobalRegions.Value.unlockAfterFork();
  if (GlobalCore)
    GlobalCore->unlockAfterFork();
  if (ForkHoldsLifecycle)
    LifecycleMutex.unlock();
}

void afterForkInParent() { releaseForkLocks(); }

/// libpomp-mpi (docs/MPI.md) marks its presence with this symbol.
/// True when an OpenMP runtime may report join barriers through OMPT later:
/// an LLVM-family runtime is loaded and neither POMP_OMPT=off nor
/// OMP_TOOL=disabled keeps libpomp from being its tool. libgomp has no OMPT.
bool omptRuntimePossible(const OptionSource &Options) {
  if (Options.readChoice(OmptOption) != 0)
    return false;
  if (const char *Tool = std::getenv("OMP_TOOL"); Tool && std::strcmp(Tool, "disabled") == 0)
    return false;
  return ::dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != nullptr;
}

bool mpiLayerPresent() { return ::dlsym(RTLD_DEFAULT, "pomp_mpi_layer_present") != nullptr; }

/// Opens the trace in an MPI rank's part, which the caller made, and gives
/// the calling thread its trace, starting with the regions open on it.
/// Threads that raised events before have none (docs/MPI.md, "Traces").
void openTraceInPart(const std::string &Directory, ThreadState *Caller, Tick Now) {
  std::string Error;
  Run->Trace = openTraceSink(Run->TraceConfig, Directory, Error);
  if (!Run->Trace) {
    printMessage(Error + "; no trace written");
    return;
  }
  GlobalCore->setTraceSink(Run->Trace.get());
  GlobalActivation.setFastPath(false);
  if (!Caller)
    return;
  Caller->Trace = Run->Trace->attach(Caller->Index);
  if (!Caller->Trace)
    return;
  for (std::size_t I = 0; I < Caller->Stack.depth(); ++I) {
    const NodeKey Key = Caller->Stack.open(I).Region->Key;
    Caller->Trace->enter(Key, keyOpener(Key), Now, 0);
  }
}

/// Claims the child's directory and gives its thread a trace of its own,
/// which starts with the regions open at the fork.
void openChildTrace(ThreadState *Forking, Tick Now) {
  openTrace(Run->TraceConfig);
  if (!Run->Trace || !Forking)
    return;
  Forking->Trace = Run->Trace->attach(Forking->Index);
  if (!Forking->Trace)
    return;
  for (std::size_t I = 0; I < Forking->Stack.depth(); ++I) {
    const NodeKey Key = Forking->Stack.open(I).Region->Key;
    Forking->Trace->enter(Key, keyOpener(Key), Now, 0);
  }
}

void restartInChild() {
  const Tick Now = Clock::now();
  const std::string ParentDirectory = !Run->Output.Claimed.empty()
                                          ? Run->Output.Claimed
                                          : experimentDirectoryName(Run->Info, Run->Output);
  const pid_t Pid = ::getpid();
  Run->InitPid = Pid;
  Run->Info.Pid = Pid;
  Run->Info.StartTime = std::time(nullptr);
  Run->StartTicks = Now;
  Run->Output.ExperimentDir = ParentDirectory + "-fork-" + std::to_string(Pid);
  Run->Output.Claimed.clear();
  Run->Output.Unwritable = false;
  // The parent's trace buffers and files are the parent's: never flushed,
  // closed or removed from here.
  if (Run->Trace) {
    [[maybe_unused]] TraceSink *Parents = Run->Trace.release();
    GlobalCore->setTraceSink(nullptr);
  }
  // The registration of membarrier() is not inherited.
  Run->BarrierRegistered = registerHeavyBarrier();
  ThreadState *Forking = CurrentThread;
  GlobalCore->restartInChild(Forking, Now);
  if (Run->TraceConfig.Enabled)
    openChildTrace(Forking, Now);
  restartSignalWatcherInChild();
}

void afterForkInChild() {
  releaseForkLocks();
  if (Runtime::phase() != Phase::Running || !Run)
    return;
  // What the child's program sees of errno is fork()'s.
  const int SavedErrno = errno;
  try {
    restartInChild();
  } catch (...) {
    printMessage("a forked child could not start its own measurement: out of memory");
  }
  errno = SavedErrno;
}

/// Closes the trace after the profile was collected, before the profile is
/// written (which records what became of the trace).
std::vector<TraceReport> finishTrace(const std::vector<ThreadState *> &Idle, Tick End,
                                     double NsPerTick) {
  TraceFinish Info;
  Info.Final = &Run->Final;
  Info.Regions = &GlobalRegions.Value;
  for (ThreadState *T : Idle) {
    Info.IdleThreads.push_back(T->Index);
    T->Nodes.forEach([&](const Node &N) {
      if (isRegionKind(N.Kind) && N.Visits == 0)
        Info.Uncounted.push_back(N.Key);
    });
  }
  Info.Start = Run->StartTicks;
  Info.End = End;
  Info.NsPerTick = NsPerTick;
  Info.Program = Run->Info.Program;
  Info.Pid = Run->Info.Pid;
  Info.Job = Run->Job.get();
  Info.MpiRank = Run->Info.MpiRank;
  return Run->Trace->finish(Info);
}

void exitHook() {
  if (Run && ::getpid() == Run->InitPid)
    Runtime::finalize();
}

/// Keeps errno as the program left it: the library's file and clock calls
/// must not change what the program sees.
class ErrnoKeeper {
public:
  ErrnoKeeper() : Saved(errno) {}
  ~ErrnoKeeper() { errno = Saved; }

private:
  int Saved;
};

int32_t initializeLocked() {
  // 1. options
  const OptionSource Options;
  if (Options.readBool(HelpOption))
    printMessage(optionHelpText());
  // 2. clock
  const ClockReport Chosen = Clock::select(Options);
  // 3. activation
  GlobalActivation.configure(Options);
  GlobalActivation.setFastPath(Chosen.Source == ClockSource::Tsc);
  // 4. core
  GlobalCore = new (CoreStorage) Core(GlobalRegions.Value);
  if (Options.readBool(DebugEventsOption)) {
    // Every event must reach the core, where the printer is.
    GlobalCore->setDebugEvents(true);
    GlobalActivation.setFastPath(false);
  }
  // 4b. hardware counters (POMP_METRICS): every enter and leave must reach
  // the core, which reads them.
  std::vector<std::string> MetricMessages;
  const bool Metrics = initializeMetrics(Options, MetricMessages);
  if (Metrics)
    GlobalActivation.setFastPath(false);
  // 5. output (its settings and the facts about the run; written at the end)
  Run = new RunState();
  Run->Output = readOutputSettings(Options);
  Run->Info.Program = program_invocation_short_name;
  Run->Info.Pid = ::getpid();
  Run->Info.StartTime = std::time(nullptr);
  Run->Info.Meta = startRunMetadata();
  Run->InitPid = ::getpid();
  Run->BarrierRegistered = registerHeavyBarrier();
  // 5b. trace: written during the run, so its directory is claimed now.
  Run->TraceConfig = readTraceSettings(Options);
  if (Run->TraceConfig.Enabled && mpiLayerPresent())
    Run->TraceAwaitsMpiPart = true;
  else if (Run->TraceConfig.Enabled)
    openTrace(Run->TraceConfig);
  // 5c. joins: where no OpenMP runtime can report join barriers, instrumented
  // teams skip their explicit one and close its regions themselves (Joins.h);
  // not when a trace or hardware counters need every region to end on time.
  if (!Run->TraceConfig.Enabled && !Metrics && !omptRuntimePossible(Options)) {
    Core::TeamSize = reinterpret_cast<int (*)()>(::dlsym(RTLD_DEFAULT, "omp_get_num_threads"));
    Core::setLateJoins(true);
  }
  // Read by libpomp-mpi; checked here, once, with the others.
  [[maybe_unused]] const std::size_t MpiLevel = Options.readChoice(MpiOption);
  Options.checkUnknown();
  for (const std::string &Message : Options.messages())
    printMessage(Message);
  for (const std::string &Message : MetricMessages)
    printMessage(Message);
  // 6. handles: a program linked by pomp-link binds all its handles here.
  POMP_Init_Handles();
  // 7. exit hook
  std::atexit(exitHook);
  pthread_atfork(prepareFork, afterForkInParent, afterForkInChild);
  installSignalHandlers();
  linkOmptAdapter();
  Run->StartTicks = Clock::now();
  return POMP_SUCCESS;
}

void finalizeLocked() {
  // 8. recording: off, and wait for the events in flight.
  GlobalActivation.setRunning(false);
  heavyBarrier();
  std::vector<ThreadState *> Idle;
  for (ThreadState *T : GlobalCore->stopAttaching()) {
    if (waitUntilIdle(*T))
      Idle.push_back(T);
    else
      GlobalCore->anomalies().count(Anomaly::BusyAtFinalize);
  }
  // 2. clock, 3. activation, 4. core
  const Tick End = Clock::now();
  const double NsPerTick = Clock::finishCalibration();
  RunInfo Info = Run->Info;
  Info.DurationNs =
      static_cast<std::uint64_t>(static_cast<double>(End - Run->StartTicks) * NsPerTick);
  Info.Clock = Clock::report();
  for (int G = 0; G < POMP_GROUP_COUNT; ++G)
    Info.Levels[G] = GlobalActivation.level(static_cast<POMP_Group>(G));
  Info.MonitoringOn = GlobalActivation.isOn();
  Info.Uninstrumented = uninstrumentedFiles();
  Info.Partial = partialReason();
  GlobalCore->closeEndedTeams(Idle);
  if (const std::string Message = metricsThreadMessage(); !Message.empty())
    printMessage(Message);
  // Closes the regions still open, which a trace records as well.
  Run->Final = GlobalCore->collect(End, NsPerTick, Idle);
  Run->HaveFinal = true;
  // 5. output, with the runtime's regions named by their code addresses:
  // the trace first, so that the profile records whether it is complete and
  // a removed incomplete trace leaves room for the profile.
  resolveCodeAddresses(GlobalRegions.Value);
  finishRunMetadata(Info.Meta);
  if (Run->Trace)
    Info.Traces = finishTrace(Idle, End, NsPerTick);
  else if (Run->TraceAwaitsMpiPart)
    printMessage("POMP_TRACE=1: no trace written: libpomp-mpi opens it in MPI_Init, which the "
                 "program never called");
  writeExperiment(Run->Final, GlobalRegions.Value, Info, Run->Output);
}

} // namespace

} // namespace pomp::rt

/// The table of init functions that `pomp-link --object` writes into the
/// program instead of a compiled POMP_Init_Handles() (handle-init's
/// ProgramInitTable, docs/HANDLE_INIT.md): the number of entries, then the
/// address of each init function, zero for one that is not linked. A weak
/// reference with default visibility: absent (zero) in a program linked
/// without it, and found in the executable by the shared libpomp too.
extern "C" __attribute__((weak, visibility("default")))
const std::uintptr_t POMP_Init_Handles_table[];

/// The default POMP_Init_Handles. Weak, so that a definition pomp-link
/// generates as C source (in the executable) takes precedence, with the static
/// library by the linker and with the shared one by symbol interposition.
/// Without one it calls the init functions of pomp-link's table, in its order
/// and skipping the unlinked ones, as the generated definition does; a program
/// linked without pomp-link has neither, and its handles are bound by their
/// load-time constructors or first events.
extern "C" __attribute__((weak, visibility("default"))) void POMP_Init_Handles(void) {
  const std::uintptr_t *Table = POMP_Init_Handles_table;
  if (Table == nullptr)
    return;
  const std::uintptr_t Count = Table[0];
  for (std::uintptr_t I = 1; I <= Count; ++I)
    if (Table[I] != 0)
      reinterpret_cast<void (*)(void)>(Table[I])();
}

namespace pomp::rt {

int32_t Runtime::initialize() {
  Phase P = phase();
  if (P == Phase::Running)
    return POMP_SUCCESS;
  if (P >= Phase::Finalizing)
    return POMP_ERROR_FINALIZED;
  if (P == Phase::Failed || InLifecycle)
    return POMP_ERROR_NOT_INITIALIZED;
  ErrnoKeeper KeepErrno;
  std::lock_guard<std::mutex> Lock(LifecycleMutex);
  P = phase();
  if (P != Phase::Uninitialized)
    return P == Phase::Running      ? POMP_SUCCESS
           : P >= Phase::Finalizing ? POMP_ERROR_FINALIZED
                                    : POMP_ERROR_NOT_INITIALIZED;
  InLifecycle = true;
  CurrentPhase.store(Phase::Initializing, std::memory_order_release);
  int32_t Result = POMP_ERROR_NOT_INITIALIZED;
  try {
    Result = initializeLocked();
  } catch (const std::bad_alloc &) {
    printMessage("initialisation failed: out of memory; nothing will be measured");
  } catch (const std::exception &E) {
    printMessage(std::string("initialisation failed: ") + E.what() + "; nothing will be measured");
  } catch (...) {
    printMessage("initialisation failed; nothing will be measured");
  }
  InLifecycle = false;
  CurrentPhase.store(Result == POMP_SUCCESS ? Phase::Running : Phase::Failed,
                     std::memory_order_release);
  // 8. recording: from here on events are recorded.
  if (Result == POMP_SUCCESS)
    GlobalActivation.setRunning(true);
  return Result;
}

int32_t Runtime::finalize() {
  if (InLifecycle)
    return POMP_ERROR_NOT_INITIALIZED;
  if (phase() == Phase::Uninitialized) {
    const int32_t Result = initialize();
    if (Result != POMP_SUCCESS)
      return Result;
  }
  ErrnoKeeper KeepErrno;
  std::lock_guard<std::mutex> Lock(LifecycleMutex);
  const Phase P = phase();
  if (P >= Phase::Finalizing)
    return POMP_SUCCESS;
  if (P != Phase::Running)
    return POMP_ERROR_NOT_INITIALIZED;
  InLifecycle = true;
  CurrentPhase.store(Phase::Finalizing, std::memory_order_release);
  try {
    finalizeLocked();
  } catch (const std::bad_alloc &) {
    printMessage("finalisation failed: out of memory; no profile written");
  } catch (const std::exception &E) {
    printMessage(std::string("finalisation failed: ") + E.what() + "; no profile written");
  } catch (...) {
    printMessage("finalisation failed; no profile written");
  }
  CurrentPhase.store(Phase::Finalized, std::memory_order_release);
  InLifecycle = false;
  return POMP_SUCCESS;
}

int32_t Runtime::ensureRunning() { return initialize(); }

int32_t Runtime::noteMpiPart(const char *Directory, int32_t Rank, int32_t Size) {
  if (const int32_t Error = initialize(); Error != POMP_SUCCESS)
    return Error;
  std::lock_guard<std::mutex> Lock(LifecycleMutex);
  if (phase() != Phase::Running)
    return POMP_ERROR_FINALIZED;
  Run->Info.MpiRank = Rank;
  Run->Info.MpiSize = Size;
  // Rank 0 speaks for the job; the other ranks' summaries would repeat it.
  if (Rank != 0)
    Run->Output.Quiet = true;
  if (!Run->Output.Claimed.empty()) {
    // A trace claimed its directory at initialisation and writes into it:
    // the part stays there (docs/MPI.md, "Traces").
    setLastError("the measurement's directory was claimed at initialisation (POMP_TRACE=1): " +
                 Run->Output.Claimed);
    return POMP_ERROR_INVALID_ARGUMENT;
  }
  // libpomp-mpi made the part inside the job's fresh directory: it is ours.
  Run->Output.ExperimentDir = Directory;
  Run->Output.Claimed = Directory;
  if (Run->TraceAwaitsMpiPart) {
    Run->TraceAwaitsMpiPart = false;
    openTraceInPart(Directory, CurrentThread, Clock::now());
  }
  return POMP_SUCCESS;
}

bool Runtime::otf2TraceOpen() {
  std::lock_guard<std::mutex> Lock(LifecycleMutex);
  return phase() == Phase::Running && Run && Run->Trace &&
         Run->TraceConfig.Format != TraceFormat::Chrome;
}

int32_t Runtime::finalizeMpiJob(const MpiJobTrace &Job) {
  {
    std::lock_guard<std::mutex> Lock(LifecycleMutex);
    if (phase() != Phase::Running || !Run)
      return POMP_ERROR_FINALIZED;
    Run->Job = std::make_unique<MpiJobTrace>(Job);
  }
  return finalize();
}

const Profile *Runtime::finalProfile() {
  return phase() == Phase::Finalized && Run && Run->HaveFinal ? &Run->Final : nullptr;
}

namespace {

/// Closes, when a thread ends, what it left open in its teams' joins: POMP
/// only's late joins (core/Joins.h) and late implicit-task ends (Teams.h).
/// libgomp ends the threads a smaller team does not need; such a worker never
/// begins another team, and by finalisation its master may have forked the
/// same construct again and overwritten the team's end the worker needs
/// (late_join_unknown). The OMPT adapter's thread_end callback does the same
/// for libomp's threads, before this.
struct ThreadEndHook {
  ThreadState *State = nullptr;
  ~ThreadEndHook();
};

thread_local ThreadEndHook EndHook;

ThreadEndHook::~ThreadEndHook() {
  ThreadState *T = State;
  if (!T || T->InEvent.load(std::memory_order_relaxed))
    return;
  // Held as an event holds it: finalisation changes a thread's state only
  // once it has seen the flag clear (Lifecycle.h).
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (Runtime::phase() == Phase::Running) {
    try {
      GlobalCore->closeEndedTeams({T});
    } catch (...) {
      // Out of memory: the regions stay open and finalisation closes them.
    }
  }
  T->InEvent.store(false, std::memory_order_release);
}

} // namespace

ThreadState *Runtime::attach(int32_t &Error) {
  Error = initialize();
  if (Error != POMP_SUCCESS)
    return nullptr;
  ThreadState *T = GlobalCore->attachThread();
  if (!T) {
    Error = phase() >= Phase::Finalizing ? POMP_ERROR_FINALIZED : POMP_ERROR_OUT_OF_RESOURCES;
    return nullptr;
  }
  CurrentThread = T;
  EndHook.State = T;
  return T;
}

void setLastError(std::string_view Message) {
  const std::size_t N = std::min(Message.size(), LastErrorSize - 1);
  std::memcpy(LastErrorMessage, Message.data(), N);
  LastErrorMessage[N] = '\0';
}

const char *lastError() { return LastErrorMessage; }

} // namespace pomp::rt
