//===- core/Lifecycle.h - Phases of the library and what is legal -*- C++ -*-===//
///
/// \file
/// The library's life, written down once. Every entry point checks the phase
/// through the functions below; nothing else decides what may happen when.
///
/// Phases (Runtime::phase()):
///
///   Uninitialized --initialize()--> Initializing --> Running
///                                         \--> Failed
///   Running --finalize()--> Finalizing --> Finalized
///
/// Subsystems, initialised in this order and finalised in reverse:
///
///   | # | subsystem  | initialise                         | finalise                            |
///   |---|------------|------------------------------------|-------------------------------------|
///   | 1 | options    | read POMP_* once, report invalid   | -                                   |
///   | 2 | clock      | choose TSC or monotonic, calibrate | refine the rate over the whole run  |
///   | 3 | activation | group levels from POMP_<GROUP>     | record the levels for the profile   |
///   | 4 | core       | thread registry, regions           | stop attaching, merge the trees     |
///   | 5 | output     | settings, program name, start time | write the experiment directory      |
///   |   |  + trace   | POMP_TRACE: claim the directory,   | finish the trace after the profile  |
///   |   |            | open the sink, fast path off       | was collected                       |
///   | 6 | handles    | call POMP_Init_Handles()           | -                                   |
///   | 7 | exit hook  | atexit(): auto-finalise; fork()    | -                                   |
///   |   |            | handlers (a child measures itself);|                                     |
///   |   |            | SIGTERM/SIGINT watcher (Signals.h) |                                     |
///   | 8 | recording  | activation bits on: events record  | bits off, wait for events in flight |
///
/// (Finalisation runs 8 first, then 4, 3 and 2 to build the profile, then 5.)
///
/// Per-thread initialisation: a thread's state is created by its first event
/// (Runtime::attach()), registered under a mutex, and lives until the process
/// ends; thread pools reuse it from region to region.
///
/// What is legal in each phase:
///
///   | call                 | Uninitialized | Initializing       | Running | Finalizing/Finalized |
///   |----------------------|---------------|--------------------|---------|----------------------|
///   | event routines       | initialise,   | other threads wait;| record  | POMP_ERROR_FINALIZED |
///   |                      | then record   | the initialising   |         |                      |
///   |                      |               | thread gets        |         |                      |
///   |                      |               | NOT_INITIALIZED    |         |                      |
///   | POMP_Get_handle      | binds         | binds              | binds   | POMP_ERROR_FINALIZED |
///   | POMP_Init            | initialises   | waits (other       | no-op   | POMP_ERROR_FINALIZED |
///   |                      |               | thread)            |         |                      |
///   | POMP_Finalize        | initialises,  | waits              | writes  | no-op                |
///   |                      | then writes   |                    |         |                      |
///   | On/Off/levels        | initialise    | waits              | apply   | POMP_ERROR_FINALIZED |
///
/// Failed: initialisation could not allocate its state; every event returns
/// POMP_ERROR_NOT_INITIALIZED. The library never restarts after finalisation.
///
/// Finalisation may run while other threads still raise events (a detached
/// thread, a program that calls POMP_Finalize inside a parallel region): it
/// switches recording off, makes every thread see that (membarrier), and waits
/// for the events already in flight before it reads any thread's state.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_LIFECYCLE_H
#define POMP_RUNTIME_CORE_LIFECYCLE_H

#include "core/Activation.h"
#include "core/Config.h"
#include "core/Core.h"
#include "core/Regions.h"
#include "trace/Trace.h"

#include <atomic>
#include <cstdint>
#include <string_view>

namespace pomp::rt {

/// The phases of the library (see the file comment).
enum class Phase : std::uint8_t {
  Uninitialized,
  Initializing,
  Running,
  Failed,
  Finalizing,
  Finalized
};

/// POMP_HELP: print the option list at initialisation.
inline constexpr OptionSpec HelpOption = {
    "POMP_HELP", OptionType::Bool, "0", "0, 1",
    "Print this list of options to stderr at initialisation."};
/// POMP_VERBOSE: report what the library set up.
inline constexpr OptionSpec VerboseOption = {
    "POMP_VERBOSE", OptionType::Bool, "0", "0, 1",
    "1: report at initialisation what the library set up, e.g. which OMPT callbacks the OpenMP "
    "runtime accepted."};
/// POMP_DEBUG_EVENTS: the event printer of the tests.
inline constexpr OptionSpec DebugEventsOption = {
    "POMP_DEBUG_EVENTS", OptionType::Bool, "0", "0, 1",
    "1: print every region enter and leave and every single event on stderr, one line each: "
    "thread index, what, event, region, [pomp] or [ompt]. For tests and debugging; slow."};
inline constexpr OptionSpec LifecycleOptions[] = {HelpOption, VerboseOption, DebugEventsOption};

/// The calling thread's measurement state; nullptr until its first event.
/// initial-exec: one load from the thread pointer, no __tls_get_addr call,
/// also in the shared library.
extern __thread ThreadState *CurrentThread __attribute__((tls_model("initial-exec")));

namespace detail {
/// Storage that is never destroyed: the library's state must outlive every
/// static destructor, because the exit hook and late threads may still use it.
template <typename T> union NoDestroy {
  constexpr NoDestroy() : Value() {}
  ~NoDestroy() {}
  T Value;
};

/// The global instances. Declared here so that event sites reach them with one
/// PC-relative load; defined in Lifecycle.cpp.
extern NoDestroy<RegionTable> GlobalRegions;
extern Activation GlobalActivation;
extern Core *GlobalCore;
} // namespace detail

/// The process-wide library: phases, the global core and its parts.
class Runtime {
public:
  static Phase phase() { return CurrentPhase.load(std::memory_order_acquire); }

  /// POMP_Init and lazy initialisation; idempotent. POMP_SUCCESS once running.
  static int32_t initialize();
  /// POMP_Finalize and the exit hook; idempotent.
  static int32_t finalize();

  /// Always usable, in every phase.
  static RegionTable &regions() { return detail::GlobalRegions.Value; }
  static Activation &activation() { return detail::GlobalActivation; }
  /// Usable from Running on.
  static Core &core() { return *detail::GlobalCore; }

  /// Creates the calling thread's state on its first event (after
  /// initialising the library if needed) and makes it CurrentThread. nullptr
  /// with the error code in Error when the library is not running.
  static ThreadState *attach(int32_t &Error);

  /// The error a control call gets in the current phase after trying to
  /// initialise: POMP_SUCCESS when running.
  static int32_t ensureRunning();

  /// POMP_Note_mpi_part: the run is rank Rank of an MPI job of Size ranks
  /// and writes its part into Directory (libpomp-mpi, docs/MPI.md).
  static int32_t noteMpiPart(const char *Directory, int32_t Rank, int32_t Size);
  /// POMP_Otf2_trace_open: this process writes an OTF2 trace.
  static bool otf2TraceOpen();
  /// POMP_Finalize_mpi_job: finalises now, the OTF2 writer also writing the
  /// job's one archive collectively (docs/MPI.md, "Traces").
  static int32_t finalizeMpiJob(const MpiJobTrace &Job);

  /// The profile finalisation wrote; nullptr before. For tests and tools
  /// linked with the library.
  static const Profile *finalProfile();

private:
  static inline std::atomic<Phase> CurrentPhase{Phase::Uninitialized};
};

/// Records the message POMP_Last_error_message() returns on this thread.
void setLastError(std::string_view Message);
const char *lastError();

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_LIFECYCLE_H
