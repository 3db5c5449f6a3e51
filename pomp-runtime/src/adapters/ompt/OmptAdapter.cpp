//===- adapters/ompt/OmptAdapter.cpp - libpomp as an OMPT tool ------------===//
///
/// \file
/// The second event source of the measurement core: the OpenMP runtime's OMPT
/// callbacks (OpenMP 5.1, seeds 000-003). It translates callbacks into the
/// core's enter/leave/event operations with the events of pomp_events.def, so
/// that regions the runtime reports look exactly like instrumented ones.
///
/// Both sources may report the same construct instance. The rules that keep
/// it once in the profile (docs/OMPT.md):
///
///  - POMP's enter event comes before the runtime's begin callback (the
///    instrumented code calls it before the directive). So a callback that
///    finds the POMP region of the same construct innermost on its thread
///    belongs to that instance: it opens nothing and records nothing. (The
///    runtime's waiting inside a barrier or lock is not measured apart: a
///    barrier's or an acquisition's region is waiting time already, so
///    sync_region_wait is not registered.)
///  - A team forked inside a POMP parallel enter is marked instrumented; its
///    implicit tasks and join barrier are POMP's, and the runtime's late end
///    events of it are ignored.
///  - Tasks created inside a POMP task creation are marked in their task data.
///  - masked/master has no POMP enter event: the runtime's begin comes first,
///    and POMP's Master_begin/Masked_begin takes its place (Core::
///    discardInnermost, called from the POMP adapter).
///  - Single events that POMP reports without an open region (flush, atomic,
///    lock init/destroy/release/test, cancel) come from POMP alone once the
///    program registered any POMP region.
///
/// Closing callbacks close only regions this adapter opened. Callbacks never
/// call the OpenMP API; they use the thread state of the core and the
/// ompt_data_t fields the runtime hands them.
///
//===----------------------------------------------------------------------===//

#include "adapters/TsanEdges.h"
#include "adapters/ompt/OmptOptions.h"
#include "core/Clock.h"
#include "core/Core.h"
#include "core/Events.h"
#include "core/Lifecycle.h"
#include "core/Output.h"

#include <atomic>
#include <cstdlib>

#include <omp-tools.h>

#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <array>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "pomplib.h"

namespace pomp::rt {
namespace {

/// The kinds of regions the adapter registers, with their CTC `type` and the
/// name of the runtime call for the lock routines.
enum class Construct : std::uint8_t {
  Parallel,
  Teams,
  Loop,
  Distribute,
  Sections,
  Single,
  Workshare,
  Scope,
  Taskloop,
  Critical,
  Ordered,
  Masked,
  Barrier,
  ImplicitBarrier,
  Reduction,
  Taskwait,
  Taskgroup,
  Task,
  Flush,
  Atomic,
  Cancel,
  CancellationPoint,
  SetLock,
  UnsetLock,
  TestLock,
  InitLock,
  DestroyLock,
  SetNestLock,
  UnsetNestLock,
  TestNestLock,
  InitNestLock,
  DestroyNestLock,
  Count
};

/// A construct's CTC type and, for runtime calls, the routine's name.
struct ConstructInfo {
  const char *Type;
  const char *Name;
};

constexpr ConstructInfo Constructs[] = {
    {"parallel", ""},
    {"teams", ""},
    {"for", ""},
    {"distribute", ""},
    {"sections", ""},
    {"single", ""},
    {"workshare", ""},
    {"scope", ""},
    {"taskloop", ""},
    {"critical", ""},
    {"ordered", ""},
    {"masked", ""},
    {"barrier", ""},
    {"implicitbarrier", ""},
    {"reduction", ""},
    {"taskwait", ""},
    {"taskgroup", ""},
    {"task", ""},
    {"flush", ""},
    {"atomic", ""},
    {"cancel", ""},
    {"cancellationpoint", ""},
    {"apicall", "omp_set_lock"},
    {"apicall", "omp_unset_lock"},
    {"apicall", "omp_test_lock"},
    {"apicall", "omp_init_lock"},
    {"apicall", "omp_destroy_lock"},
    {"apicall", "omp_set_nest_lock"},
    {"apicall", "omp_unset_nest_lock"},
    {"apicall", "omp_test_nest_lock"},
    {"apicall", "omp_init_nest_lock"},
    {"apicall", "omp_destroy_nest_lock"},
};
static_assert(std::size(Constructs) == static_cast<std::size_t>(Construct::Count),
              "one ConstructInfo per Construct");

/// Bits of a cache key left for the construct kind below the code address.
constexpr unsigned ConstructBits = 6;
static_assert(static_cast<unsigned>(Construct::Count) < (1u << ConstructBits));

/// Tags in an explicit task's ompt_data_t. Its value is the context of the
/// task creation's node (an aligned address) plus Started once the task began,
/// or Instrumented when POMP reports an untied task; 0 for tasks this adapter
/// does not follow (not seen created, or tied ones POMP reports).
constexpr std::uint64_t TaskInstrumented = 1;
constexpr std::uint64_t TaskStarted = 2;
/// A suspended task's data holds its SuspendedTask with this tag instead.
constexpr std::uint64_t TaskSuspended = 3;
constexpr std::uint64_t TaskTagMask = 3;
static_assert(alignof(Node) > TaskTagMask, "node addresses leave the tag bits free");
static_assert(alignof(SuspendedTask) > TaskTagMask, "its address leaves the tag bits free");

//--- ThreadSanitizer --------------------------------------------------//
// libomp is not built with ThreadSanitizer: its barriers, locks and task
// queues synchronise threads in ways TSan does not see, and LLVM's archer
// tool, which declares them to TSan through OMPT, cannot run beside libpomp
// (libomp loads one OMPT tool). In a TSan build of libpomp, the callbacks
// declare the same happens-before edges themselves, coarsely (more edges than
// the runtime guarantees, never fewer): what a thread did before a fork,
// barrier, task creation, task switch, task completion or lock release
// happens before what another thread does after the matching implicit-task
// begin, barrier end, task start, taskwait end or lock acquisition. In any
// other build these are empty and cost nothing. docs/RELIABILITY.md, "TSan".
// POMP_TSAN comes from adapters/TsanEdges.h.
#ifdef POMP_TSAN
} // namespace
} // namespace pomp::rt
#include <mutex>
#include <sched.h>
#include <unordered_set>
namespace pomp::rt {
namespace {
/// Synchronisation objects of libpomp's own, one per hash of the runtime's
/// object (a team, a task, a lock): TSan needs an address of ordinary memory.
/// Two objects sharing a slot only add edges.
constexpr std::size_t SyncSlots = 4096;
char SyncSlot[SyncSlots];
char *slotOf(const void *Object) {
  constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
  constexpr unsigned Shift = 52;
  const auto Key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(Object));
  return &SyncSlot[((Key * Multiplier) >> Shift) % SyncSlots];
}
void tsanRelease(const void *Object) { __tsan_release(slotOf(Object)); }
void tsanAcquire(const void *Object) { __tsan_acquire(slotOf(Object)); }
/// A flush orders a thread's accesses with every other thread's flushes: one
/// object that each flush releases and then acquires.
char Flushes;
void tsanFlush() {
  __tsan_release(&Flushes);
  __tsan_acquire(&Flushes);
}

/// libomp reports a mutex's release after the mutex is free: another thread
/// may acquire it, and report that, before the release callback ran, so a
/// release annotation there would come too late. Instead, a thread that
/// acquired a mutex waits until the previous holder's release callback has
/// run; the table's lock then orders the two threads for TSan. The wait is
/// for a thread that is past the mutex already, in a TSan build only.
std::mutex HolderLock;
std::unordered_set<ompt_wait_id_t> Held;
void tsanMutexAcquired(ompt_wait_id_t Mutex) {
  for (;;) {
    {
      std::lock_guard<std::mutex> Guard(HolderLock);
      if (Held.insert(Mutex).second)
        return;
    }
    sched_yield();
  }
}
void tsanMutexReleased(ompt_wait_id_t Mutex) {
  std::lock_guard<std::mutex> Guard(HolderLock);
  Held.erase(Mutex);
}
#else
void tsanRelease(const void *) {}
void tsanAcquire(const void *) {}
void tsanFlush() {}
void tsanMutexAcquired(ompt_wait_id_t) {}
void tsanMutexReleased(ompt_wait_id_t) {}
#endif

//--- A team's parallel data ---------------------------------------------//
// A team's parallel data holds its TeamInstance together with what each
// member's implicit task needs to know at its begin: whether instrumented code
// reports the team, whether the team skips its explicit join barrier, whether
// it is a league, and the low bits of the instance's generation. The members
// then do not read the instance's cache line, which the master has just
// written at the fork: that read was a cross-core transfer per member and
// parallel region on the path to the team's join (docs/PERFORMANCE.md).

/// The facts about a team its parallel data carries.
struct TeamFacts {
  TeamInstance *Team = nullptr;
  std::uint16_t Generation = 0;
  bool Instrumented = false;
  bool RuntimeJoin = false;
  bool League = false;
};

constexpr std::uint64_t FactInstrumented = 1;
constexpr std::uint64_t FactRuntimeJoin = 2;
constexpr std::uint64_t FactLeague = 4;
/// The instance's address needs the high bits (a 57-bit address space): the
/// generation is read from the instance instead.
constexpr std::uint64_t FactUnpacked = 8;
constexpr std::uint64_t FactBits = 15;
constexpr unsigned GenerationShift = 48;
constexpr std::uint64_t LowAddressMask = (std::uint64_t{1} << GenerationShift) - 1;
static_assert(alignof(TeamInstance) > FactBits, "instance addresses leave the fact bits free");

/// The parallel data value of a team whose instance is complete.
std::uint64_t packTeam(const TeamInstance &Team) {
  const auto Address = reinterpret_cast<std::uint64_t>(&Team);
  std::uint64_t Value = Address | (Team.Id.Instrumented ? FactInstrumented : 0) |
                        (Team.Id.RuntimeJoin ? FactRuntimeJoin : 0) |
                        (Team.Id.League ? FactLeague : 0);
  if ((Address & ~LowAddressMask) != 0)
    return Value | FactUnpacked;
  const auto Generation =
      static_cast<std::uint16_t>(Team.Generation.load(std::memory_order_relaxed));
  return Value | (std::uint64_t{Generation} << GenerationShift);
}

TeamInstance *teamOf(const ompt_data_t *ParallelData) {
  if (!ParallelData)
    return nullptr;
  const std::uint64_t Value = ParallelData->value;
  const std::uint64_t Address = (Value & FactUnpacked) ? Value : Value & LowAddressMask;
  return reinterpret_cast<TeamInstance *>(Address & ~FactBits);
}

TeamFacts factsOf(const ompt_data_t *ParallelData) {
  TeamFacts Facts;
  Facts.Team = teamOf(ParallelData);
  if (!Facts.Team)
    return Facts;
  const std::uint64_t Value = ParallelData->value;
  Facts.Instrumented = (Value & FactInstrumented) != 0;
  Facts.RuntimeJoin = (Value & FactRuntimeJoin) != 0;
  Facts.League = (Value & FactLeague) != 0;
  Facts.Generation =
      (Value & FactUnpacked)
          ? static_cast<std::uint16_t>(Facts.Team->Generation.load(std::memory_order_relaxed))
          : static_cast<std::uint16_t>(Value >> GenerationShift);
  return Facts;
}

/// A team's object for TSan: the TeamInstance its parallel data names (the
/// runtime hands parallel_begin a different ompt_data_t than the team's
/// threads get, with the same value).
const void *teamObject(const ompt_data_t *ParallelData) {
  if (!ParallelData)
    return nullptr;
  if (const TeamInstance *Team = teamOf(ParallelData))
    return Team;
  return ParallelData;
}

Core &core() { return Runtime::core(); }

/// The time of a callback, read on first use: a callback that finds POMP
/// reporting its construct already records nothing and reads no clock (the
/// clock read is most of a callback's cost).
class CallbackTime {
public:
  Tick operator()() {
    if (!Read) {
      Value = Clock::now();
      Read = true;
    }
    return Value;
  }

  /// Makes the callback's time End (an end the runtime delivered late).
  void set(Tick End) {
    Value = End;
    Read = true;
  }

private:
  Tick Value = 0;
  bool Read = false;
};

/// The address range of the OpenMP runtime's own code, found at tool
/// initialisation; empty when unknown.
std::uintptr_t RuntimeBegin = 0;
std::uintptr_t RuntimeEnd = 0;
/// The runtime is a shared library of its own (libomp.so), so that no code
/// of the program lies in its range; false when it is linked into the
/// executable (a static libomp, the tests' fake runtimes).
bool RuntimeApart = false;
/// The runtime's ompt_get_task_info; null when it has none.
ompt_get_task_info_t GetTaskInfo = nullptr;

bool inRuntime(const void *Code) {
  const auto Address = reinterpret_cast<std::uintptr_t>(Code);
  return Address >= RuntimeBegin && Address < RuntimeEnd;
}

/// Finds the loaded module that contains Address and records its extent.
void findRuntimeCode(const void *Address) {
  Dl_info Info;
  if (!dladdr(Address, &Info) || !Info.dli_fbase)
    return;
  struct Search {
    std::uintptr_t Base, Begin, End;
    bool Apart;
  } S{reinterpret_cast<std::uintptr_t>(Info.dli_fbase), 0, 0, false};
  dl_iterate_phdr(
      [](dl_phdr_info *Module, std::size_t, void *Data) {
        auto &S = *static_cast<Search *>(Data);
        std::uintptr_t Begin = ~std::uintptr_t(0), End = 0;
        for (int I = 0; I < Module->dlpi_phnum; ++I) {
          const ElfW(Phdr) &P = Module->dlpi_phdr[I];
          if (P.p_type != PT_LOAD)
            continue;
          Begin = std::min<std::uintptr_t>(Begin, Module->dlpi_addr + P.p_vaddr);
          End = std::max<std::uintptr_t>(End, Module->dlpi_addr + P.p_vaddr + P.p_memsz);
        }
        if (Begin > S.Base || End <= S.Base)
          return 0;
        S.Begin = Begin;
        S.End = End;
        // The executable comes first and has no name.
        S.Apart = Module->dlpi_name && Module->dlpi_name[0] != '\0';
        return 1;
      },
      &S);
  RuntimeBegin = S.Begin;
  RuntimeEnd = S.End;
  RuntimeApart = S.Apart;
}

/// A team the runtime forks for itself: from its own code, in a thread's
/// initial task (no team, no explicit task around the fork), the runtime a
/// library of its own. libomp's hidden helper team, which runs the tasks of
/// `target nowait` and waits until shutdown, is one. A program's parallel
/// construct never is: a tail call to the fork (a nested team's, or one at
/// the end of a task's body) leaves a return address in the runtime, but in
/// a team or an explicit task.
bool forkedByRuntime(const ImplicitTask *Encountering, const void *Code) {
  if (!RuntimeApart || Encountering || !inRuntime(Code) || !GetTaskInfo)
    return false;
  int Flags = 0;
  ompt_data_t *Data = nullptr;
  ompt_frame_t *Frame = nullptr;
  ompt_data_t *Parallel = nullptr;
  int ThreadNum = 0;
  return GetTaskInfo(0, &Flags, &Data, &Frame, &Parallel, &ThreadNum) != 0 &&
         (Flags & ompt_task_initial) != 0;
}

/// The code address a region of the thread is named by. libomp reports no
/// address for some events of workers, and an address inside itself when the
/// compiler made the runtime call a tail call (clang's outlined body ends
/// with __kmpc_barrier): those are charged to the parallel construct of the
/// thread's team, as a person would look for them.
const void *attributable(ThreadState &T, const void *Code) {
  if (Code && !inRuntime(Code))
    return Code;
  const ImplicitTask *Task = T.Teams.innermost();
  return Task && Task->Team && Task->Team->Id.Code ? Task->Team->Id.Code : Code;
}

/// The key of a construct at an (attributable()) code address in the thread's
/// cache of regions: never 0.
std::uintptr_t codeKey(Construct C, const void *Code) {
  const auto Address = reinterpret_cast<std::uintptr_t>(Code);
  return (Address << ConstructBits) | (static_cast<std::uintptr_t>(C) + 1);
}

/// codeRegion() past the thread's cache, out of line: its buffers and the
/// registration kept a frame and six saved registers on every cache hit.
[[gnu::noinline]] RegionId registerCodeRegion(ThreadState &T, Construct C, const void *Code,
                                              std::uintptr_t Key, CodeRegionCache::Entry &Slot);

/// The region of a construct at a code address: from the thread's cache, or
/// registered (once per construct and address, under the table's lock).
[[gnu::always_inline]] inline RegionId codeRegion(ThreadState &T, Construct C, const void *Code) {
  Code = attributable(T, Code);
  const std::uintptr_t Key = codeKey(C, Code);
  CodeRegionCache::Entry &Slot = T.Codes.Slots[CodeRegionCache::slot(Key)];
  if (Slot.Key == Key)
    return Slot.Region;
  return registerCodeRegion(T, C, Code, Key, Slot);
}

/// codeRegion() when the thread's cache has it; 0 otherwise.
RegionId cachedCodeRegion(ThreadState &T, Construct C, const void *Code) {
  const std::uintptr_t Key = codeKey(C, attributable(T, Code));
  const CodeRegionCache::Entry &Slot = T.Codes.Slots[CodeRegionCache::slot(Key)];
  return Slot.Key == Key ? Slot.Region : 0;
}

/// The node of construct C at Code, entered with E under the innermost open
/// region, when the thread's caches hold the region and the node is one of
/// the innermost's two latest children (Core::cachedChild()); nullptr
/// otherwise. The fast paths' common lookup.
Node *cachedCodeChild(ThreadState &T, Construct C, const void *Code, EventId E) {
  const RegionId R = cachedCodeRegion(T, C, Code);
  return R ? Core::cachedChild(T, T.current(), makeKey(R, canonicalOpener(E))) : nullptr;
}

RegionId registerCodeRegion(ThreadState &T, Construct C, const void *Code, std::uintptr_t Key,
                            CodeRegionCache::Entry &Slot) {
  const auto Address = reinterpret_cast<std::uintptr_t>(Code);
  // The constructs of a team the runtime forked for itself, at its own code:
  // none of the program's (the tasks its threads run are, with their own
  // code).
  if (const ImplicitTask *Task = T.Teams.innermost();
      Task && Task->Team && Task->Team->Id.RuntimeOwn && inRuntime(Code))
    return 0;
  const ConstructInfo &Info = Constructs[static_cast<std::size_t>(C)];
  char Name[64];
  std::snprintf(Name, sizeof Name, "ompt:%s:%s@0x%" PRIxPTR, Info.Type, Info.Name, Address);
  pomp::ctc::RegionDescriptor Descriptor;
  Descriptor.Type = Info.Type;
  Descriptor.Kind = pomp::ctc::regionKindFromSpelling(Info.Type);
  Descriptor.Name = Info.Name;
  const RegisterResult R =
      Runtime::regions().registerDescriptor(Name, Descriptor, RegionOrigin::Ompt, Address);
  if (R.Id != 0)
    Slot = {Key, R.Id};
  return R.Id;
}

/// The thread's innermost open region as the adapter's checks see it: which
/// source opened it, with which event (its node's Node::OriginOpener, one
/// load: each check is one comparison).
struct Innermost {
  /// originOpener() of the region; 0 when none is open.
  std::uint16_t OriginOpener = 0;

  /// True when the region came from Origin and was opened by E
  /// (canonically); false when none is open or it is the other source's.
  bool is(RegionOrigin Origin, EventId E) const {
    return OriginOpener == originOpener(Origin, canonicalOpener(E));
  }
  /// True when this adapter opened it: only then may a callback close it.
  bool fromOmpt() const { return from(RegionOrigin::Ompt); }
  /// True when instrumented code opened it.
  bool fromPomp() const { return from(RegionOrigin::Pomp); }

private:
  bool from(RegionOrigin Origin) const {
    return (OriginOpener >> 8) == originOpener(Origin, EventId{}) >> 8;
  }
};

Innermost innermost(const ThreadState &T) { return {T.current()->OriginOpener}; }

bool innermostIs(ThreadState &T, RegionOrigin Origin, EventId Opener) {
  return innermost(T).is(Origin, Opener);
}
bool pompHas(ThreadState &T, EventId Opener) { return innermostIs(T, RegionOrigin::Pomp, Opener); }
bool omptHas(ThreadState &T, EventId Opener) { return innermostIs(T, RegionOrigin::Ompt, Opener); }
// The core's operations as this adapter's callbacks call them: through the
// core's cached paths where the POMP adapter's fast path would take them
// (Activation::isActiveFast(): no trace, counters or debug output, the TSC
// clock; the node one of its parent's two latest children), else the general
// ones. Payload is what a trace records (a lock).

/// The general paths of enterInnermost() and leaveInnermost(), out of line so
/// that the cached ones, inlined into each callback, save no registers.
[[gnu::noinline]] Node *enterGeneral(ThreadState &T, RegionId R, EventId Opener, CallbackTime &Now,
                                     std::uint64_t Payload) {
  // A region entered below itself (a task created in a task of the same
  // construct) whose child the core found before: cached as well.
  if (Runtime::activation().isActiveFast(Opener))
    if (Node *N = Core::cachedSlowVisit(T, T.current(), makeKey(R, canonicalOpener(Opener)))) {
      Core::enterCached(T, N, Now);
      return N;
    }
  return core().enter(T, R, Opener, Now(), T.current(), Payload);
}
[[gnu::noinline]] void leaveGeneral(ThreadState &T, CallbackTime &Now, std::uint64_t Payload) {
  core().leaveInnermost(T, Now(), Payload);
}

/// Core::enter() under the thread's innermost open region.
[[gnu::always_inline]] inline Node *enterInnermost(ThreadState &T, RegionId R, EventId Opener,
                                                   CallbackTime &Now, std::uint64_t Payload = 0) {
  if (Runtime::activation().isActiveFast(Opener) && !visitsTracked(Opener))
    if (Node *N = Core::cachedChild(T, T.current(), makeKey(R, canonicalOpener(Opener)))) {
      Core::enterCached(T, N, Now);
      return N;
    }
  return enterGeneral(T, R, Opener, Now, Payload);
}

/// Core::leaveInnermost().
[[gnu::always_inline]] inline void leaveInnermost(ThreadState &T, CallbackTime &Now,
                                                  std::uint64_t Payload = 0) {
  if (Runtime::activation().isActiveFast(keyOpener(T.current()->Key))) {
    Core::popCached(T, Now);
    return;
  }
  leaveGeneral(T, Now, Payload);
}

/// Core::unwindTo(): closes the open regions above Depth (at least one), the
/// common single one through leaveInnermost().
[[gnu::always_inline]] inline void unwindTo(ThreadState &T, std::size_t Depth, CallbackTime &Now) {
  if (T.Stack.depth() == Depth + 1)
    leaveInnermost(T, Now);
  else
    core().unwindTo(T, Depth, Now());
}

/// A visit of no duration under the innermost open region: enterInnermost()
/// and leaveInnermost() at one time, which on the cached path need no clock.
[[gnu::always_inline]] inline Node *visitInstant(ThreadState &T, RegionId R, EventId Opener,
                                                 CallbackTime &Now) {
  if (Runtime::activation().isActiveFast(Opener) && !visitsTracked(Opener)) {
    const NodeKey Key = makeKey(R, canonicalOpener(Opener));
    Node *N = Core::cachedChild(T, T.current(), Key);
    // A region visited below itself (a task created in a task of the same
    // construct): a recursive node, which cachedChild() never finds.
    if (N == nullptr)
      N = Core::cachedSlowInstant(T, T.current(), Key);
    if (N != nullptr) {
      Core::chargeInstant(N);
      return N;
    }
  }
  Node *N = enterGeneral(T, R, Opener, Now, 0);
  leaveInnermost(T, Now);
  return N;
}

/// enterUnderContext()'s general path, out of line as enterGeneral().
[[gnu::noinline]] Node *enterUnderContextGeneral(ThreadState &T, RegionId R, EventId Opener,
                                                 POMP_Context_t Context, CallbackTime &Now) {
  return core().enter(T, R, Opener, Now(), core().forkParent(T, Context));
}

/// Core::enter() under a context another thread handed on (a task's
/// creation, a team's fork), through the cached paths POMP's Task_begin and
/// Parallel_begin_forked take, else the general one.
[[gnu::always_inline]] inline Node *enterUnderContext(ThreadState &T, RegionId R, EventId Opener,
                                                      POMP_Context_t Context, CallbackTime &Now) {
  if (Runtime::activation().isActiveFast(Opener))
    if (Node *Parent = Core::cachedForkParent(T, Context)) {
      const NodeKey Key = makeKey(R, canonicalOpener(Opener));
      if (Node *N = Core::cachedChild(T, Parent, Key)) {
        if (!visitsTracked(Opener)) {
          Core::enterCached(T, N, Now);
          return N;
        }
        if (Node *Entered = Core::enterCachedTracked(T, N, Now))
          return Entered;
      } else if (Node *Recursive = Core::cachedSlowVisit(T, Parent, Key)) {
        // A task of the construct that created the task running it.
        Core::enterCached(T, Recursive, Now);
        return Recursive;
      }
    }
  return enterUnderContextGeneral(T, R, Opener, Context, Now);
}

/// Enters a region of this adapter under the innermost open one.
[[gnu::always_inline]] inline void open(ThreadState &T, Construct C, const void *Code,
                                        EventId Opener, CallbackTime &Now) {
  if (!Runtime::activation().isActive(Opener))
    return;
  if (const RegionId R = codeRegion(T, C, Code))
    enterInnermost(T, R, Opener, Now);
}

/// Closes the innermost region when this adapter opened it with Opener.
[[gnu::always_inline]] inline bool closeOwn(ThreadState &T, EventId Opener, CallbackTime &Now) {
  if (!omptHas(T, Opener))
    return false;
  leaveInnermost(T, Now);
  return true;
}

/// A single event at a code address. Without a trace it needs no time.
[[gnu::always_inline]] inline void single(ThreadState &T, Construct C, const void *Code, EventId E,
                                          CallbackTime &Now, std::uint64_t Payload = 0) {
  if (!Runtime::activation().isActive(E))
    return;
  const RegionId R = codeRegion(T, C, Code);
  if (R == 0)
    return;
  if (Runtime::activation().isActiveFast(E))
    if (Node *N = Core::cachedChild(T, T.current(), makeKey(R, canonicalOpener(E)))) {
      Core::eventCached(N);
      return;
    }
  core().event(T, R, E, Now(), Payload);
}

/// True when the program reports single events itself (it is instrumented).
bool pompReportsSingles() { return Runtime::regions().hasPompRegions(); }

/// Makes the callback's time the end of the thread's current team when that
/// ended already: the runtime delivered this end event late (Teams.h). Only
/// a worker's come late: a master's come in the join, before the team's end.
void capAtTeamEnd(ThreadState &T, CallbackTime &Now) {
  if (const ImplicitTask *Task = T.Teams.innermost(); Task && Task->MayEndLate)
    if (const Tick End = Task->teamEnd(); End != 0)
      Now.set(End);
}

/// True when the thread's current implicit task belongs to a team that
/// instrumented code reports.
bool inInstrumentedTeam(ThreadState &T) {
  const ImplicitTask *Task = T.Teams.innermost();
  return Task && Task->Instrumented;
}

//--- Entering a callback -------------------------------------------------//

/// The calling thread's state with its InEvent flag set, or nullptr when the
/// library is not running (before initialisation, after finalisation) or the
/// thread is already inside an event. The flag is the same handshake with
/// finalisation as in the POMP adapter (Lifecycle.h).
ThreadState *enterCallback() {
  if (Runtime::phase() != Phase::Running)
    return nullptr;
  ThreadState *T = CurrentThread;
  if (!T) {
    int32_t Error = POMP_SUCCESS;
    T = Runtime::attach(Error);
    if (!T)
      return nullptr;
  }
  if (T->InEvent.load(std::memory_order_relaxed))
    return nullptr;
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (Runtime::phase() != Phase::Running) {
    T->InEvent.store(false, std::memory_order_release);
    return nullptr;
  }
  return T;
}

/// Runs a callback's body on the thread's state; nothing escapes to the
/// runtime (only warm-up allocations can throw).
template <typename Fn> void guarded(Fn &&Body) noexcept {
  ThreadState *T = enterCallback();
  if (!T)
    return;
  try {
    CallbackTime Now;
    Body(*T, Now);
  } catch (...) {
    core().anomalies().count(Anomaly::InvalidArgument);
  }
  T->InEvent.store(false, std::memory_order_release);
}

/// The calling thread's state with its InEvent flag set, for a callback's
/// fast path, when E's events take the fast path (Activation::isActiveFast():
/// the library running, no trace, counters or debug output, the TSC clock);
/// nullptr, with nothing held, otherwise. The POMP adapter's fast path makes
/// the same handshake with finalisation: the bit is tested with the flag set.
ThreadState *enterFast(EventId E) {
  ThreadState *T = CurrentThread;
  if (!T || T->InEvent.load(std::memory_order_relaxed))
    return nullptr;
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (__builtin_expect(Runtime::activation().isActiveFast(E), 1))
    return T;
  T->InEvent.store(false, std::memory_order_release);
  return nullptr;
}

/// Runs a callback's fast path, Held(thread), with the thread's flag held
/// (enterFast(E)): true when it did the callback's work, false when it did not
/// run or declined (Held returns false having changed nothing) and the
/// callback's general path must.
template <typename Fn> bool tryFast(EventId E, Fn &&Held) {
  ThreadState *T = enterFast(E);
  if (!T)
    return false;
  const bool Done = Held(*T);
  T->InEvent.store(false, std::memory_order_release);
  return Done;
}

/// The clock as the core's cached paths read it.
Tick readClock() { return Clock::now(); }

/// nothingToDo() for the callbacks that name no task (the mutex callbacks),
/// which never complete the thread's tasks. A program without instrumented
/// code (OMPT only) skips the test at once. Nothing(thread) reads the thread's
/// state with its InEvent flag set, as enterCallback() sets it: finalisation
/// changes that state (its teams, its stack) once it has seen the flag clear,
/// and a worker can still be in its join barrier's end callback when the
/// master finalises (ThreadSanitizer reported that read against
/// Core::closeEndedTeams()).
template <typename Fn> bool nothingToDoHere(Fn &&Nothing) {
  if (!Runtime::regions().hasPompRegions())
    return false;
  ThreadState *T = CurrentThread;
  if (!T || T->InEvent.load(std::memory_order_relaxed))
    return false;
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const bool Result = Runtime::phase() == Phase::Running && Nothing(*T);
  T->InEvent.store(false, std::memory_order_release);
  return Result;
}

/// For callbacks that record nothing when instrumented code reports their
/// construct (most work and sync-region callbacks of instrumented code): the
/// calling thread's state when the callback may have something to do, nullptr
/// when Nothing(thread) says it has not. Decided without the rest of the
/// callback protocol (enterCallback(): attaching, the callback's clock), which
/// was most of such a callback's cost, from the thread's own innermost region,
/// holding only the thread's flag (nothingToDoHere()). The thread's running
/// tasks must need no completion (noteCurrentTask()) for the shortcut.
template <typename Fn> bool nothingToDo(const ompt_data_t *TaskData, Fn &&Nothing) {
  return nothingToDoHere([&](ThreadState &T) {
    if (!T.RunningTasks.empty() && T.RunningTasks.back().Task != TaskData)
      return false;
    return Nothing(T);
  });
}

void countOther() {
  if (Runtime::phase() == Phase::Running)
    core().anomalies().count(Anomaly::OmptOtherKind);
}

//--- Explicit tasks a thread runs -----------------------------------------//

/// Makes Task the thread's innermost running task, started or resumed after
/// From at the stack's depth. Field by field: a braced temporary was built on
/// the stack and copied with an 8-byte load of its 4-byte and 1-byte stores, a
/// store-forwarding stall at every task start (7 % of a switch's samples).
RunningTask &pushRunningTask(ThreadState &T, const void *Task, const void *From, bool OwnsRegion) {
  RunningTask &R = T.RunningTasks.emplace_back();
  R.Task = Task;
  R.From = From;
  R.Base = static_cast<std::uint32_t>(T.Stack.depth());
  R.OwnsRegion = OwnsRegion;
  return R;
}

/// Ends the thread's innermost running task: the regions it left open end
/// with it (its own task region when this adapter opened it; regions
/// instrumented code did not close, counted as closed inner regions).
void completeTask(ThreadState &T, CallbackTime &Now) {
  const RunningTask Task = T.RunningTasks.back();
  T.RunningTasks.pop_back();
  const std::size_t Open = T.Stack.depth() > Task.Base ? T.Stack.depth() - Task.Base : 0;
  const std::size_t Own = Task.OwnsRegion ? 1 : 0;
  if (Open > Own)
    core().anomalies().count(Anomaly::ClosedInnerRegions, Open - Own);
  if (Open != 0)
    unwindTo(T, Task.Base, Now);
}

/// How many of the thread's running tasks endUnreportedTasks() keeps.
std::size_t runningTasksKept(const ThreadState &T, const ompt_data_t *Current) {
  constexpr std::size_t Searched = 4;
  const std::vector<RunningTask> &Running = T.RunningTasks;
  std::size_t Keep = Running.size();
  const std::size_t Bottom = Running.size() > Searched ? Running.size() - Searched : 0;
  for (std::size_t I = Running.size(); I-- > Bottom;) {
    if (Running[I].Task == Current)
      return I + 1;
    if (Running[I].From == Current)
      Keep = I;
  }
  return Keep;
}

/// Ends the running tasks whose end the runtime did not report to this
/// thread, now that an event names Current as the thread's task. libomp counts
/// the parts of an untied task in flight: when a thread runs the task's last
/// part before the part that queued it has returned on another thread, the
/// last part ends without an event and the completion goes to the other
/// thread (tests/ompt/untied_last_part.c). A task above Current, or above
/// the task that came from Current, ended.
///
/// Only the innermost few running tasks are looked at: a task whose end went
/// unreported is the innermost one when it ends, and the thread's next event
/// notices it. A Current found nowhere near the top is a task this adapter
/// does not follow, or an untied task's next part that libomp runs at once,
/// nested in the previous part (its deque full: a switch from the task to
/// itself); looking through the whole stack for it made BOTS uts, whose
/// untied tasks nest thousands deep, three times slower.
void endUnreportedTasks(ThreadState &T, const ompt_data_t *Current, CallbackTime &Now) {
  const std::size_t Keep = runningTasksKept(T, Current);
  while (T.RunningTasks.size() > Keep)
    completeTask(T, Now);
}

/// True when Current (a callback's task) is the thread's innermost running
/// task, or the thread runs none: noteCurrentTask() has nothing to do.
bool runsInnermost(const ThreadState &T, const ompt_data_t *Current) {
  return T.RunningTasks.empty() || T.RunningTasks.back().Task == Current;
}

/// The thread's innermost running task is not Current (a callback's task):
/// the common case, the task running or none, costs one comparison.
void noteCurrentTask(ThreadState &T, const ompt_data_t *Current, CallbackTime &Now) {
  if (__builtin_expect(!runsInnermost(T, Current), 0))
    endUnreportedTasks(T, Current, Now);
}

//--- Threads and teams ---------------------------------------------------//

void on_thread_begin(ompt_thread_t, ompt_data_t *) {
  // Registers the thread's state now rather than at its first event.
  guarded([](ThreadState &, CallbackTime &) {});
}

void on_thread_end(ompt_data_t *) {
  guarded([](ThreadState &T, CallbackTime &) { core().closeEndedTeams({&T}); });
}

void on_parallel_begin(ompt_data_t *, const ompt_frame_t *, ompt_data_t *ParallelData,
                       unsigned int Requested, int Flags, const void *Code) {
  ParallelData->ptr = nullptr;
  guarded([&](ThreadState &T, CallbackTime &Now) {
    const bool League = (Flags & ompt_parallel_league) != 0;
    const EventId Enter = League ? EventId::Teams_enter : EventId::Parallel_enter;
    const ImplicitTask *Encountering = T.Teams.innermost();
    TeamInstance &Team = T.Teams.nextInstance();
    TeamIdentity Id;
    Id.League = League;
    if (!League && !Code && Encountering && Encountering->Initial && Encountering->Team) {
      // libomp runs each team's body of a host teams region as a parallel
      // region of one thread without a code address, inside the team's
      // initial task: not a parallel construct of the program. Its implicit
      // task is part of the team's body, which its events are charged to.
      Id.Code = Encountering->Team->Id.Code;
      Id.Instrumented = Encountering->Instrumented;
      Id.Fork = T.current();
      Team.setIdentity(Id);
      ParallelData->value = packTeam(Team);
      return;
    }
    Id.Code = Code;
    if (pompHas(T, Enter)) {
      // POMP reports the team: it needs no region of this adapter.
      Id.Instrumented = true;
      // The fork's context told the team whether to skip its explicit join
      // barrier (same flag, read at the fork just before).
      Id.RuntimeJoin = !League && Core::forkJoinBit() != 0;
    } else if (!League && forkedByRuntime(Encountering, Code)) {
      // No region: not a construct of the program.
      Id.RuntimeOwn = true;
    } else if ((Id.Region = codeRegion(T, League ? Construct::Teams : Construct::Parallel, Code)) !=
                   0 &&
               Runtime::activation().isActive(Enter)) {
      enterInnermost(T, Id.Region, Enter, Now, Requested);
      Id.ForkEntered = true;
      Id.ForkDepth = static_cast<std::uint32_t>(T.Stack.depth());
    }
    Id.Fork = T.current();
    Team.setIdentity(Id);
    ParallelData->value = packTeam(Team);
  });
  tsanRelease(teamObject(ParallelData));
}

void on_parallel_end(ompt_data_t *ParallelData, ompt_data_t *, int, const void *) {
  tsanAcquire(teamObject(ParallelData));
  guarded([&](ThreadState &T, CallbackTime &Now) {
    TeamInstance *Team = teamOf(ParallelData);
    if (!Team)
      return;
    bool Foreign;
    Team = T.Teams.endForked(Team, Foreign);
    if (__builtin_expect(Foreign, 0))
      core().anomalies().count(Anomaly::OmptForeignTeamEnd);
    // Only the late ends of teams this adapter measures, or whose regions
    // it closes at the join, need the team's end: other instrumented teams
    // ignore them (and save the clock read).
    if (!Team->Id.Instrumented || Team->Id.RuntimeJoin)
      Team->ended(Now());
    if (Team->Id.ForkEntered && T.Stack.depth() >= Team->Id.ForkDepth)
      unwindTo(T, Team->Id.ForkDepth - 1, Now);
    Team->Running = false;
  });
}

/// The body of a team this adapter measures, entered under its fork; out of
/// line, so that the implicit tasks of instrumented teams save no registers
/// for it.
[[gnu::noinline]] void enterTeamBody(ThreadState &T, const TeamInstance &Team, EventId Begin,
                                     CallbackTime &Now) {
  enterUnderContext(T, Team.Id.Region, Begin,
                    Core::contextOf(Team.Id.Fork ? Team.Id.Fork : T.current()), Now);
}

void beginImplicitTask(ThreadState &T, const TeamFacts &Facts, bool Initial, bool Worker,
                       CallbackTime &Now) {
  ImplicitTask &Task = T.Teams.Tasks.emplace_back();
  Task.Initial = Initial;
  Task.MayEndLate = Worker || Initial;
  TeamInstance *Team = Facts.Team;
  if (!Team)
    return;
  Task.Team = Team;
  Task.Generation = Facts.Generation;
  Task.Instrumented = Facts.Instrumented;
  const EventId Begin = Facts.League ? EventId::Teams_begin : EventId::Parallel_begin;
  if (Facts.RuntimeJoin) {
    // POMP's Parallel_begin comes next, one deeper; the regions that the
    // skipped join barrier leaves open from there on end with this task.
    Task.Depth = static_cast<std::uint32_t>(T.Stack.depth() + 1);
    return;
  }
  if (Task.Instrumented || Team->Id.Region == 0 || !Runtime::activation().isActive(Begin))
    return;
  enterTeamBody(T, *Team, Begin, Now);
  Task.Depth = static_cast<std::uint32_t>(T.Stack.depth());
}

void endImplicitTask(ThreadState &T, CallbackTime &Now) {
  std::vector<ImplicitTask> &Tasks = T.Teams.Tasks;
  if (Tasks.empty())
    return;
  const ImplicitTask &Task = Tasks.back();
  if (Task.Depth != 0 && T.Stack.depth() >= Task.Depth) {
    // Only regions left open need the team's end, a line its master wrote:
    // a team whose regions POMP closed reads nothing of it, and a worker
    // with nothing below them reads it later, with the ends of the master's
    // next teams (Teams.h).
    if (!Task.MayEndLate || !core().deferLateEnd(T, Task)) {
      capAtTeamEnd(T, Now);
      unwindTo(T, Task.Depth - 1, Now);
    }
  }
  Tasks.pop_back();
  // Every explicit task bound to the team ended at its barrier: entries left
  // above the stack are of tasks whose end was not delivered.
  std::vector<RunningTask> &Running = T.RunningTasks;
  while (!Running.empty() && Running.back().Base > T.Stack.depth())
    Running.pop_back();
}

void on_implicit_task(ompt_scope_endpoint_t Endpoint, ompt_data_t *ParallelData, ompt_data_t *,
                      unsigned int, unsigned int Index, int Flags) {
  if (ParallelData && (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend))
    tsanAcquire(teamObject(ParallelData));
  guarded([&](ThreadState &T, CallbackTime &Now) {
    const bool Initial = (Flags & ompt_task_initial) != 0;
    if (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend) {
      // A thread's own initial task is no region; the initial task of a team
      // of a league (host teams region) is the team's body, its Teams_begin.
      const TeamFacts Facts = factsOf(ParallelData);
      if (!Initial || (Facts.Team && Facts.League))
        beginImplicitTask(T, Facts, Initial, /*Worker=*/Index != 0, Now);
    }
    if (Endpoint == ompt_scope_end || Endpoint == ompt_scope_beginend) {
      // The end of an initial task names no team: it ends a league's team
      // only when that is the innermost implicit task.
      const ImplicitTask *Innermost = T.Teams.innermost();
      if (!Initial || (Innermost && Innermost->Initial))
        endImplicitTask(T, Now);
    }
  });
}

//--- Worksharing ---------------------------------------------------------//

/// What a kind of an OMPT enumeration becomes: the POMP event that opens its
/// region and the construct it is registered as.
struct KindMapping {
  int Kind;
  EventId Enter;
  Construct C;
};

/// A table of KindMappings indexed by the kind, built at compile time: every
/// work and synchronisation callback looks its kind up, and a search of the
/// rows cost some twenty instructions per callback.
template <std::size_t Size> struct KindIndex {
  /// Kinds are small enumerators; larger ones (a newer runtime's) are unknown.
  static constexpr int MaxKind = 31;
  struct Slot {
    bool Known = false;
    EventId Enter{};
    Construct C{};
  };
  std::array<Slot, MaxKind + 1> Slots{};

  constexpr explicit KindIndex(const KindMapping (&Table)[Size]) {
    for (const KindMapping &Row : Table)
      Slots[static_cast<std::size_t>(Row.Kind)] = {true, Row.Enter, Row.C};
  }

  /// The row for Kind; false for a kind the table does not know.
  bool lookup(int Kind, EventId &Enter, Construct &C) const {
    if (Kind < 0 || Kind > MaxKind || !Slots[static_cast<std::size_t>(Kind)].Known)
      return false;
    const Slot &S = Slots[static_cast<std::size_t>(Kind)];
    Enter = S.Enter;
    C = S.C;
    return true;
  }
};

/// True when every kind of Table fits a KindIndex.
template <std::size_t N> constexpr bool fitsIndex(const KindMapping (&Table)[N]) {
  for (const KindMapping &Row : Table)
    if (Row.Kind < 0 || Row.Kind > KindIndex<N>::MaxKind)
      return false;
  return true;
}

constexpr KindMapping WorkKinds[] = {
    {ompt_work_loop, EventId::Loop_enter, Construct::Loop},
    {ompt_work_loop_static, EventId::Loop_enter, Construct::Loop},
    {ompt_work_loop_dynamic, EventId::Loop_enter, Construct::Loop},
    {ompt_work_loop_guided, EventId::Loop_enter, Construct::Loop},
    {ompt_work_loop_other, EventId::Loop_enter, Construct::Loop},
    {ompt_work_distribute, EventId::Loop_enter, Construct::Distribute},
    {ompt_work_sections, EventId::Sections_enter, Construct::Sections},
    {ompt_work_single_executor, EventId::Single_enter, Construct::Single},
    {ompt_work_single_other, EventId::Single_enter, Construct::Single},
    {ompt_work_workshare, EventId::Workshare_enter, Construct::Workshare},
    {ompt_work_taskloop, EventId::Taskloop_enter, Construct::Taskloop},
    {ompt_work_scope, EventId::Scope_enter, Construct::Scope},
};

/// The POMP event and construct of a kind of work; false for an unknown kind.
static_assert(fitsIndex(WorkKinds), "work kinds are small enumerators");
constexpr KindIndex WorkIndex(WorkKinds);

bool workEvent(ompt_work_t Kind, EventId &Enter, Construct &C) {
  return WorkIndex.lookup(static_cast<int>(Kind), Enter, C);
}

/// Closes the chunk or section this adapter opened inside a construct.
void closePart(ThreadState &T, CallbackTime &Now) {
  if (!closeOwn(T, EventId::Loop_chunk_begin, Now))
    closeOwn(T, EventId::Section_begin, Now);
}

/// True when a loop the runtime reports is the instrumented sections construct
/// the thread is in: flang 19 lowers `sections` to a worksharing loop over its
/// sections, which libomp reports as a loop. A real worksharing loop cannot be
/// closely nested in a sections region (OpenMP's nesting rules), so a loop that
/// begins while POMP's sections is the innermost region is that construct.
bool isLoweredSections(const Innermost &I, EventId Enter) {
  return Enter == EventId::Loop_enter && I.is(RegionOrigin::Pomp, EventId::Sections_enter);
}

/// A scope endpoint as a compile-time constant.
template <ompt_scope_endpoint_t E>
using EndpointConstant = std::integral_constant<ompt_scope_endpoint_t, E>;

/// Calls Record with Endpoint as a compile-time constant, so that a general
/// path compiled once per endpoint keeps only that endpoint's part (a begin's
/// or an end's): fewer registers to save and fewer tests. Any other value
/// (none the runtime sends) goes as 0, which neither part takes.
template <typename Fn> void byEndpoint(ompt_scope_endpoint_t Endpoint, Fn &&Record) {
  switch (Endpoint) {
  case ompt_scope_begin:
    Record(EndpointConstant<ompt_scope_begin>{});
    break;
  case ompt_scope_end:
    Record(EndpointConstant<ompt_scope_end>{});
    break;
  case ompt_scope_beginend:
    Record(EndpointConstant<ompt_scope_beginend>{});
    break;
  default:
    Record(EndpointConstant<static_cast<ompt_scope_endpoint_t>(0)>{});
    break;
  }
}

/// on_work() past its shortcut: kept out of line, so that the shortcut, the
/// common case of instrumented code, saves no registers; one per endpoint
/// (byEndpoint()).
template <ompt_scope_endpoint_t Endpoint>
[[gnu::noinline]] void recordWork(ompt_work_t Kind, ompt_data_t *TaskData, const void *Code,
                                  EventId Enter, Construct C) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    noteCurrentTask(T, TaskData, Now);
    const bool Executor = Kind == ompt_work_single_executor;
    if (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend) {
      const Innermost I = innermost(T);
      if (!I.is(RegionOrigin::Pomp, Enter) && !isLoweredSections(I, Enter)) {
        open(T, C, Code, Enter, Now);
        if (Executor && omptHas(T, Enter))
          enterInnermost(T, keyRegion(T.current()->Key), EventId::Single_begin, Now);
      }
    }
    // Only a region this adapter opened can end here: POMP reports the
    // construct whenever its region is the innermost.
    if ((Endpoint == ompt_scope_end || Endpoint == ompt_scope_beginend) &&
        innermost(T).fromOmpt()) {
      closePart(T, Now);
      if (Executor)
        closeOwn(T, EventId::Single_begin, Now);
      closeOwn(T, Enter, Now);
    }
  });
}

/// The begin or end of a worksharing construct this adapter measures (OMPT
/// only: a loop, a single, sections, a workshare, a taskloop, a scope) in its
/// common case, with the thread's flag held: its node in the thread's caches
/// (a single's executor enters its body's node under it at the same time);
/// the end closes what this adapter opened, a single's body with its
/// construct at one clock read. A chunk or section open at the end takes the
/// general path. False, with nothing changed, when recordWork() must.
template <ompt_scope_endpoint_t Endpoint>
bool workMeasuredHeld(ThreadState &T, ompt_work_t Kind, const ompt_data_t *TaskData,
                      const void *Code, EventId Enter, Construct C) {
  if (!runsInnermost(T, TaskData))
    return false;
  const bool Executor = Kind == ompt_work_single_executor;
  const Innermost I = innermost(T);
  if constexpr (Endpoint == ompt_scope_begin) {
    if (I.is(RegionOrigin::Pomp, Enter) || isLoweredSections(I, Enter))
      return false;
    Node *N = cachedCodeChild(T, C, Code, Enter);
    if (!N)
      return false;
    Node *Body = nullptr;
    if (Executor) {
      if (!Runtime::activation().isActiveFast(EventId::Single_begin) || !T.Stack.hasRoomForTwo())
        return false;
      Body = Core::cachedChild(T, N,
                               makeKey(keyRegion(N->Key), canonicalOpener(EventId::Single_begin)));
      if (!Body)
        return false;
    }
    const Tick Now = Clock::now();
    Core::enterCached(T, N, [Now] { return Now; });
    if (Body)
      Core::enterCached(T, Body, [Now] { return Now; });
    return true;
  } else {
    // Only a region this adapter opened can end here.
    if (!I.fromOmpt())
      return true;
    if (I.is(RegionOrigin::Ompt, EventId::Loop_chunk_begin) ||
        I.is(RegionOrigin::Ompt, EventId::Section_begin))
      return false;
    const Activation &Active = Runtime::activation();
    if (Executor && I.is(RegionOrigin::Ompt, EventId::Single_begin)) {
      if (!Active.isActiveFast(canonicalOpener(EventId::Single_begin)) ||
          !Active.isActiveFast(canonicalOpener(Enter)))
        return false;
      const Tick Now = Clock::now();
      Core::popCached(T, [Now] { return Now; });
      if (omptHas(T, Enter))
        Core::popCached(T, [Now] { return Now; });
      return true;
    }
    if (I.is(RegionOrigin::Ompt, Enter)) {
      if (!Active.isActiveFast(canonicalOpener(Enter)))
        return false;
      Core::popCached(T, readClock);
    }
    return true;
  }
}

/// on_work() past its shortcut: workMeasuredHeld(), else recordWork(). Out of
/// line and per endpoint as recordWork().
template <ompt_scope_endpoint_t Endpoint>
[[gnu::noinline]] void measureWork(ompt_work_t Kind, ompt_data_t *TaskData, const void *Code,
                                   EventId Enter, Construct C) {
  if constexpr (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_end)
    if (tryFast(Enter, [&](ThreadState &T) {
          return workMeasuredHeld<Endpoint>(T, Kind, TaskData, Code, Enter, C);
        }))
      return;
  recordWork<Endpoint>(Kind, TaskData, Code, Enter, C);
}

void on_work(ompt_work_t Kind, ompt_scope_endpoint_t Endpoint, ompt_data_t *, ompt_data_t *TaskData,
             uint64_t, const void *Code) {
  EventId Enter;
  Construct C;
  if (!workEvent(Kind, Enter, C)) {
    countOther();
    return;
  }
  // POMP's region of the construct is innermost at its begin; at its end only
  // a region this adapter opened is closed.
  if (nothingToDo(TaskData, [&](ThreadState &T) {
        const Innermost I = innermost(T);
        return Endpoint == ompt_scope_begin ? I.is(RegionOrigin::Pomp, Enter)
                                            : Endpoint == ompt_scope_end && I.fromPomp();
      }))
    return;
  byEndpoint(Endpoint,
             [&](auto E) { measureWork<decltype(E)::value>(Kind, TaskData, Code, Enter, C); });
}

/// on_dispatch() past its shortcut, out of line as recordWork(): the
/// shortcut (chunks whose events are off, the default) saves no registers.
[[gnu::noinline]] void recordDispatch(EventId Part, EventId Whole) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    closeOwn(T, Part, Now);
    const Region *R = core().innermostRegion(T);
    if (!R || keyOpener(T.current()->Key) != canonicalOpener(Whole))
      return;
    // Instrumented sections report their sections themselves.
    if (Part == EventId::Section_begin && R->Origin == RegionOrigin::Pomp)
      return;
    core().enter(T, R->Id, Part, Now());
  });
}

void on_dispatch(ompt_data_t *, ompt_data_t *, ompt_dispatch_t Kind, ompt_data_t) {
  EventId Part;
  EventId Whole;
  switch (static_cast<int>(Kind)) {
  case ompt_dispatch_ws_loop_chunk:
  case ompt_dispatch_distribute_chunk:
    Part = EventId::Loop_chunk_begin, Whole = EventId::Loop_enter;
    break;
  case ompt_dispatch_section:
    Part = EventId::Section_begin, Whole = EventId::Sections_enter;
    break;
  case ompt_dispatch_iteration:
  case ompt_dispatch_taskloop_chunk:
    // Iterations are the Loop group's iteration levels, which need the
    // instrumenter; taskloop chunks are the taskloop's tasks.
    return;
  default:
    countOther();
    return;
  }
  // Parts whose events are off (loop chunks at the default level) need
  // nothing: decided before the callback protocol, from the activation bits.
  if (Runtime::activation().isActive(Part))
    recordDispatch(Part, Whole);
}

//--- Synchronisation -----------------------------------------------------//

constexpr KindMapping SyncKinds[] = {
    {ompt_sync_region_barrier_explicit, EventId::Barrier_enter, Construct::Barrier},
    {ompt_sync_region_barrier, EventId::Implicit_barrier_enter, Construct::ImplicitBarrier},
    {ompt_sync_region_barrier_implicit, EventId::Implicit_barrier_enter,
     Construct::ImplicitBarrier},
    {ompt_sync_region_barrier_implementation, EventId::Implicit_barrier_enter,
     Construct::ImplicitBarrier},
    {ompt_sync_region_barrier_implicit_workshare, EventId::Implicit_barrier_enter,
     Construct::ImplicitBarrier},
    {ompt_sync_region_barrier_implicit_parallel, EventId::Implicit_barrier_enter,
     Construct::ImplicitBarrier},
    {ompt_sync_region_barrier_teams, EventId::Implicit_barrier_enter, Construct::ImplicitBarrier},
    {ompt_sync_region_taskwait, EventId::Taskwait_enter, Construct::Taskwait},
    {ompt_sync_region_taskgroup, EventId::Taskgroup_enter, Construct::Taskgroup},
    {ompt_sync_region_reduction, EventId::Implicit_barrier_enter, Construct::Reduction},
};

/// The POMP event and construct of a kind of synchronisation region.
static_assert(fitsIndex(SyncKinds), "synchronisation kinds are small enumerators");
constexpr KindIndex SyncIndex(SyncKinds);

bool syncEvent(ompt_sync_region_t Kind, EventId &Enter, Construct &C) {
  return SyncIndex.lookup(static_cast<int>(Kind), Enter, C);
}

/// True when POMP reports this synchronisation instance: its region of the
/// same kind is the innermost (ompinst turns implicit barriers into explicit
/// ones, so both barrier spellings match).
bool pompReportsSync(ThreadState &T, EventId Enter) {
  const Innermost I = innermost(T);
  if (Enter == EventId::Barrier_enter || Enter == EventId::Implicit_barrier_enter)
    return I.is(RegionOrigin::Pomp, EventId::Barrier_enter) ||
           I.is(RegionOrigin::Pomp, EventId::Implicit_barrier_enter);
  return I.is(RegionOrigin::Pomp, Enter);
}

/// The join barrier of a team that instrumented code reports: POMP's own
/// barrier before Parallel_end already synchronised the team. The same for
/// the barrier libomp puts at the end of each team of a host teams region,
/// after its Teams_end (in the other teams, its end comes late, at shutdown).
bool isInstrumentedJoin(ThreadState &T, ompt_sync_region_t Kind) {
  return (Kind == ompt_sync_region_barrier_implicit_parallel ||
          Kind == ompt_sync_region_barrier_teams) &&
         inInstrumentedTeam(T);
}

/// The barrier that ends a team, whose end libomp may deliver late (at the
/// next fork, or for the teams of a host teams region at shutdown).
bool isJoinKind(ompt_sync_region_t Kind) {
  return Kind == ompt_sync_region_barrier_implicit_parallel ||
         Kind == ompt_sync_region_barrier_teams || Kind == ompt_sync_region_barrier_implicit;
}

/// The end of a worker's join barrier, which libomp delivers late, right
/// before the worker's implicit-task end: that end closes the barrier with
/// the task, at the team's end, so that the team's end is read once (or not
/// yet: Core::deferLateEnd()).
bool isWorkersLateJoinEnd(ThreadState &T, ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint) {
  if (Kind != ompt_sync_region_barrier_implicit_parallel || Endpoint != ompt_scope_end)
    return false;
  const ImplicitTask *Task = T.Teams.innermost();
  return Task && Task->MayEndLate && Task->Depth != 0 && T.Stack.depth() > Task->Depth;
}

/// The edges a synchronisation region makes, for TSan: a barrier or
/// reduction orders the team (its parallel data), and its end, like a
/// taskwait's or taskgroup's, comes after the tasks it waited for.
void tsanSyncRegion(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                    const ompt_data_t *ParallelData) {
  const bool Team = Kind != ompt_sync_region_taskwait && Kind != ompt_sync_region_taskgroup;
  if (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend) {
    if (Team && ParallelData)
      tsanRelease(teamObject(ParallelData));
  }
  if (Endpoint == ompt_scope_end || Endpoint == ompt_scope_beginend) {
    if (Team && ParallelData)
      tsanAcquire(teamObject(ParallelData));
    tsan::acquireTasks();
  }
}

/// on_sync_region() past its shortcut, out of line and per endpoint as
/// recordWork().
template <ompt_scope_endpoint_t Endpoint>
[[gnu::noinline]] void recordSyncRegion(ompt_sync_region_t Kind, ompt_data_t *TaskData,
                                        const void *Code, EventId Enter, Construct C) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    noteCurrentTask(T, TaskData, Now);
    if (isInstrumentedJoin(T, Kind) || isWorkersLateJoinEnd(T, Kind, Endpoint))
      return;
    if ((Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend) &&
        !pompReportsSync(T, Enter)) {
      // libomp gives workers no code address for the join barrier, the
      // master the parallel construct's: both get the construct's.
      const ImplicitTask *Task = T.Teams.innermost();
      if (Kind == ompt_sync_region_barrier_implicit_parallel && Task && Task->Team)
        Code = Task->Team->Id.Code;
      open(T, C, Code, Enter, Now);
    }
    if (Endpoint == ompt_scope_end || Endpoint == ompt_scope_beginend) {
      // Nothing to close when POMP reports the instance (the common case
      // of instrumented code): no clock read, no team end to look up.
      if (omptHas(T, Enter)) {
        // Only a team's last barrier ends late: the others need no team end.
        if (isJoinKind(Kind))
          capAtTeamEnd(T, Now);
        leaveInnermost(T, Now);
      }
    }
  });
}

/// The begin or end of a synchronisation region this adapter measures (OMPT
/// only: a taskwait, a taskgroup, an explicit barrier or a worksharing
/// construct's) in its common case, with the thread's flag held: the region's
/// node in the thread's caches (or found below itself: the taskwait of a task
/// that runs inside the same taskwait), the end closing the innermost region.
/// Not the barriers that end a team (isJoinKind()), whose end libomp may
/// deliver late. False, with nothing changed, when recordSyncRegion() must.
template <ompt_scope_endpoint_t Endpoint>
bool syncMeasuredHeld(ThreadState &T, ompt_sync_region_t Kind, const ompt_data_t *TaskData,
                      const void *Code, EventId Enter, Construct C) {
  if (isJoinKind(Kind) || !runsInnermost(T, TaskData))
    return false;
  if constexpr (Endpoint == ompt_scope_begin) {
    if (visitsTracked(Enter) || pompReportsSync(T, Enter))
      return false;
    const RegionId R = cachedCodeRegion(T, C, Code);
    if (R == 0)
      return false;
    const NodeKey Key = makeKey(R, canonicalOpener(Enter));
    Node *N = Core::cachedChild(T, T.current(), Key);
    if (!N)
      N = Core::cachedSlowVisit(T, T.current(), Key);
    if (!N)
      return false;
    Core::enterCached(T, N, readClock);
    return true;
  } else {
    // Nothing to close when POMP reports the instance.
    if (!omptHas(T, Enter))
      return true;
    if (!Runtime::activation().isActiveFast(keyOpener(T.current()->Key)))
      return false;
    Core::popCached(T, readClock);
    return true;
  }
}

/// on_sync_region() past its shortcut: syncMeasuredHeld(), else
/// recordSyncRegion(). A taskwait cost some 350 instructions in BOTS fib
/// (OMPT only) before. Out of line and per endpoint as recordWork().
template <ompt_scope_endpoint_t Endpoint>
[[gnu::noinline]] void measureSyncRegion(ompt_sync_region_t Kind, ompt_data_t *TaskData,
                                         const void *Code, EventId Enter, Construct C) {
  if constexpr (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_end)
    if (tryFast(Enter, [&](ThreadState &T) {
          return syncMeasuredHeld<Endpoint>(T, Kind, TaskData, Code, Enter, C);
        }))
      return;
  recordSyncRegion<Endpoint>(Kind, TaskData, Code, Enter, C);
}

void on_sync_region(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint,
                    ompt_data_t *ParallelData, ompt_data_t *TaskData, const void *Code) {
  tsanSyncRegion(Kind, Endpoint, ParallelData);
  EventId Enter;
  Construct C;
  if (!syncEvent(Kind, Enter, C)) {
    countOther();
    return;
  }
  if (nothingToDo(TaskData, [&](ThreadState &T) {
        if (isInstrumentedJoin(T, Kind))
          return true;
        return Endpoint == ompt_scope_begin ? pompReportsSync(T, Enter)
                                            : Endpoint == ompt_scope_end && !omptHas(T, Enter);
      }))
    return;
  byEndpoint(Endpoint, [&](auto E) {
    measureSyncRegion<decltype(E)::value>(Kind, TaskData, Code, Enter, C);
  });
}

void on_reduction(ompt_sync_region_t Kind, ompt_scope_endpoint_t Endpoint, ompt_data_t *P,
                  ompt_data_t *Task, const void *Code) {
  on_sync_region(Kind, Endpoint, P, Task, Code);
}

/// Locks, critical sections and ordered regions: the POMP events that
/// enclose the acquisition of a mutex of this kind.
struct MutexEvents {
  EventId Enter; ///< the region around the acquisition
  EventId Body;  ///< the region while the mutex is held; Enter when none
  Construct C;
};

bool mutexEvents(ompt_mutex_t Kind, MutexEvents &M) {
  switch (static_cast<int>(Kind)) {
  case ompt_mutex_lock:
    M = {EventId::Set_lock_enter, EventId::Set_lock_enter, Construct::SetLock};
    return true;
  case ompt_mutex_nest_lock:
    M = {EventId::Set_nest_lock_enter, EventId::Set_nest_lock_enter, Construct::SetNestLock};
    return true;
  case ompt_mutex_critical:
    M = {EventId::Critical_enter, EventId::Critical_begin, Construct::Critical};
    return true;
  case ompt_mutex_ordered:
    M = {EventId::Ordered_enter, EventId::Ordered_begin, Construct::Ordered};
    return true;
  default:
    return false;
  }
}

/// True for an acquisition whose callbacks only report a single event (a
/// test or an atomic), false for one that may open a region.
bool acquireIsSingle(ompt_mutex_t Kind) {
  return Kind == ompt_mutex_test_lock || Kind == ompt_mutex_test_nest_lock ||
         Kind == ompt_mutex_atomic;
}

/// True for a release that only reports a single event (a lock's).
bool releaseIsSingle(ompt_mutex_t Kind) {
  return Kind == ompt_mutex_lock || Kind == ompt_mutex_test_lock || Kind == ompt_mutex_nest_lock ||
         Kind == ompt_mutex_test_nest_lock;
}

/// The acquisition ThreadState::PompAcquisition names for a mutex of each
/// kind; None for the kinds instrumented code enters no region for.
constexpr Acquisition AcquisitionByKind[] = {
    Acquisition::None, Acquisition::Lock,     Acquisition::None, Acquisition::NestLock,
    Acquisition::None, Acquisition::Critical, Acquisition::None, Acquisition::Ordered,
};
static_assert(ompt_mutex_lock == 1 && ompt_mutex_nest_lock == 3 && ompt_mutex_critical == 5 &&
                  ompt_mutex_ordered == 7,
              "AcquisitionByKind follows ompt_mutex_t");

Acquisition acquisitionOf(ompt_mutex_t Kind) {
  const auto Index = static_cast<unsigned>(Kind);
  return Index < std::size(AcquisitionByKind) ? AcquisitionByKind[Index] : Acquisition::None;
}

/// True when instrumented code has just entered its region of this
/// acquisition: the runtime's acquire and acquired callbacks of it have
/// nothing to record, and need neither the thread's stack nor the callback
/// protocol to know it (ThreadState::PompAcquisition). The acquired callback
/// (Consume) ends the acquisition.
bool pompAcquiring(ompt_mutex_t Kind, bool Consume) {
  ThreadState *T = CurrentThread;
  if (!T || T->PompAcquisition == Acquisition::None || T->PompAcquisition != acquisitionOf(Kind))
    return false;
  if (Consume)
    T->PompAcquisition = Acquisition::None;
  return true;
}

/// on_mutex_acquire() past its shortcuts, out of line as recordWork().
[[gnu::noinline]] void recordMutexAcquire(ompt_mutex_t Kind, const void *Code) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    switch (static_cast<int>(Kind)) {
    case ompt_mutex_test_lock:
      if (!pompReportsSingles())
        single(T, Construct::TestLock, Code, EventId::Test_lock_event, Now);
      return;
    case ompt_mutex_test_nest_lock:
      if (!pompReportsSingles())
        single(T, Construct::TestNestLock, Code, EventId::Test_nest_lock_event, Now);
      return;
    case ompt_mutex_atomic:
      if (!pompReportsSingles())
        single(T, Construct::Atomic, Code, EventId::Atomic_event, Now);
      return;
    default:
      break;
    }
    MutexEvents M;
    if (!mutexEvents(Kind, M)) {
      core().anomalies().count(Anomaly::OmptOtherKind);
      return;
    }
    // POMP's region of the acquisition (Set_lock_enter, Critical_enter,
    // Ordered_enter) is waiting time already: the runtime adds nothing.
    if (!pompHas(T, M.Enter))
      open(T, M.C, Code, M.Enter, Now);
  });
}

//--- Mutexes this adapter measures itself ---------------------------------//
// OMPT only's fast paths of a lock's, nest lock's, critical section's and
// ordered region's callbacks, with the thread's flag held (tryFast()): each
// does the callback's work through the core's cached paths, or changes
// nothing and leaves it to the general path (recordMutexAcquire() and the
// others). A lock and unlock were three general paths (some 170 instructions
// besides their two clock reads).

/// The acquisition's region opened under the innermost one.
bool acquireMeasured(ThreadState &T, const MutexEvents &M, const void *Code) {
  if (pompHas(T, M.Enter))
    return false;
  Node *N = cachedCodeChild(T, M.C, Code, M.Enter);
  if (!N)
    return false;
  Core::enterCached(T, N, readClock);
  return true;
}

/// The acquisition's region closed (a lock) or followed by the held region
/// (a critical section's or ordered region's body) under it.
bool acquiredMeasured(ThreadState &T, const MutexEvents &M) {
  if (!omptHas(T, M.Enter))
    return true;
  const Activation &Active = Runtime::activation();
  if (M.Body == M.Enter) {
    if (!Active.isActiveFast(keyOpener(T.current()->Key)))
      return false;
    Core::popCached(T, readClock);
    return true;
  }
  if (!Active.isActiveFast(M.Body))
    return false;
  Node *N = Core::cachedChild(T, T.current(),
                              makeKey(keyRegion(T.current()->Key), canonicalOpener(M.Body)));
  if (!N)
    return false;
  Core::enterCached(T, N, readClock);
  return true;
}

/// A lock's release: its single event, counted (the lock is no longer one
/// the thread holds by a test).
bool lockReleasedMeasured(ThreadState &T, Construct C, EventId E, ompt_wait_id_t Lock,
                          const void *Code) {
  Node *N = cachedCodeChild(T, C, Code, E);
  if (!N)
    return false;
  T.Tested.remove(Lock);
  Core::eventCached(N);
  return true;
}

/// A critical section's or ordered region's release: its body and its
/// acquisition's region closed at one clock read, where this adapter opened
/// them.
bool releasedMeasured(ThreadState &T, const MutexEvents &M) {
  const Activation &Active = Runtime::activation();
  if (!Active.isActiveFast(canonicalOpener(M.Body)) ||
      !Active.isActiveFast(canonicalOpener(M.Enter)))
    return false;
  const bool Body = omptHas(T, M.Body);
  if (!Body && !omptHas(T, M.Enter))
    return true;
  const Tick Now = Clock::now();
  Core::popCached(T, [Now] { return Now; });
  if (Body && omptHas(T, M.Enter))
    Core::popCached(T, [Now] { return Now; });
  return true;
}

/// on_mutex_acquire() past its shortcuts: acquireMeasured(), else
/// recordMutexAcquire(). Out of line as recordWork().
[[gnu::noinline]] void measureMutexAcquire(ompt_mutex_t Kind, const void *Code) {
  MutexEvents M;
  if (!acquireIsSingle(Kind) && mutexEvents(Kind, M) &&
      tryFast(M.Enter, [&](ThreadState &T) { return acquireMeasured(T, M, Code); }))
    return;
  recordMutexAcquire(Kind, Code);
}

void on_mutex_acquire(ompt_mutex_t Kind, unsigned int, unsigned int, ompt_wait_id_t,
                      const void *Code) {
  // Instrumented code reports the single events itself: such a callback has
  // nothing to do and returns before it takes the thread's state (of the
  // three callbacks of a lock and unlock pair, the release is one).
  // POMP's region of a lock, critical or ordered acquisition: likewise.
  if (pompAcquiring(Kind, /*Consume=*/false))
    return;
  const bool Nothing =
      acquireIsSingle(Kind) ? pompReportsSingles() : nothingToDoHere([&](ThreadState &T) {
        MutexEvents M;
        return mutexEvents(Kind, M) && pompHas(T, M.Enter);
      });
  if (!Nothing)
    measureMutexAcquire(Kind, Code);
}

/// on_mutex_acquired() past its shortcuts, out of line as recordWork().
[[gnu::noinline]] void recordMutexAcquired(ompt_mutex_t Kind, ompt_wait_id_t Lock, bool Tested) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    if (Tested) {
      T.Tested.add(Lock);
      return;
    }
    MutexEvents M;
    if (!mutexEvents(Kind, M) || !omptHas(T, M.Enter))
      return;
    if (M.Body == M.Enter)
      leaveInnermost(T, Now, Lock);
    else if (Runtime::activation().isActive(M.Body))
      enterInnermost(T, keyRegion(T.current()->Key), M.Body, Now);
  });
}

/// on_mutex_acquired() past its shortcuts: acquiredMeasured(), else
/// recordMutexAcquired(). Out of line as recordWork().
[[gnu::noinline]] void measureMutexAcquired(ompt_mutex_t Kind, ompt_wait_id_t Lock, bool Tested) {
  MutexEvents M;
  if (!Tested && mutexEvents(Kind, M) &&
      tryFast(M.Enter, [&](ThreadState &T) { return acquiredMeasured(T, M); }))
    return;
  recordMutexAcquired(Kind, Lock, Tested);
}

void on_mutex_acquired(ompt_mutex_t Kind, ompt_wait_id_t Lock, const void *) {
  tsanMutexAcquired(Lock);
  // POMP's own acquisition: its region stays open until POMP closes it.
  if (pompAcquiring(Kind, /*Consume=*/true))
    return;
  // The tested locks a thread holds matter only for the releases this adapter
  // reports (the list grew by one per successful test, unbounded, when
  // instrumented code reported them).
  const bool Tested = Kind == ompt_mutex_test_lock || Kind == ompt_mutex_test_nest_lock;
  // Otherwise only the acquisition's region this adapter opened ends here.
  const bool Nothing = Tested ? pompReportsSingles() : nothingToDoHere([&](ThreadState &T) {
    MutexEvents M;
    return mutexEvents(Kind, M) && !omptHas(T, M.Enter);
  });
  if (!Nothing)
    measureMutexAcquired(Kind, Lock, Tested);
}

/// on_mutex_released() past its shortcuts, out of line as recordWork().
[[gnu::noinline]] void recordMutexReleased(ompt_mutex_t Kind, ompt_wait_id_t Lock,
                                           const void *Code) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    switch (static_cast<int>(Kind)) {
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
      if (!pompReportsSingles())
        single(T, Construct::UnsetLock, Code, EventId::Unset_lock_event, Now,
               T.Tested.remove(Lock) ? 0 : Lock);
      return;
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock:
      if (!pompReportsSingles())
        single(T, Construct::UnsetNestLock, Code, EventId::Unset_nest_lock_event, Now,
               T.Tested.remove(Lock) ? 0 : Lock);
      return;
    default:
      break;
    }
    MutexEvents M;
    if (!mutexEvents(Kind, M))
      return;
    closeOwn(T, M.Body, Now);
    closeOwn(T, M.Enter, Now);
  });
}

/// on_mutex_released() past its shortcuts: lockReleasedMeasured() or
/// releasedMeasured(), else recordMutexReleased(). Out of line as
/// recordWork().
[[gnu::noinline]] void measureMutexReleased(ompt_mutex_t Kind, ompt_wait_id_t Lock,
                                            const void *Code) {
  MutexEvents M;
  bool Done = false;
  switch (static_cast<int>(Kind)) {
  case ompt_mutex_lock:
  case ompt_mutex_test_lock:
    Done = tryFast(EventId::Unset_lock_event, [&](ThreadState &T) {
      return lockReleasedMeasured(T, Construct::UnsetLock, EventId::Unset_lock_event, Lock, Code);
    });
    break;
  case ompt_mutex_nest_lock:
  case ompt_mutex_test_nest_lock:
    Done = tryFast(EventId::Unset_nest_lock_event, [&](ThreadState &T) {
      return lockReleasedMeasured(T, Construct::UnsetNestLock, EventId::Unset_nest_lock_event, Lock,
                                  Code);
    });
    break;
  default:
    Done = mutexEvents(Kind, M) &&
           tryFast(M.Enter, [&](ThreadState &T) { return releasedMeasured(T, M); });
    break;
  }
  if (!Done)
    recordMutexReleased(Kind, Lock, Code);
}

void on_mutex_released(ompt_mutex_t Kind, ompt_wait_id_t Lock, const void *Code) {
  // A critical or ordered region ends here only when this adapter opened it.
  const bool Nothing =
      releaseIsSingle(Kind)
          ? pompReportsSingles()
          : nothingToDoHere([&](ThreadState &T) { return !innermost(T).fromOmpt(); });
  if (!Nothing)
    measureMutexReleased(Kind, Lock, Code);
  tsanMutexReleased(Lock);
}

void on_nest_lock(ompt_scope_endpoint_t Endpoint, ompt_wait_id_t, const void *Code) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    if (Endpoint == ompt_scope_begin) {
      // A nested acquisition of a lock the thread owns: it completes the
      // acquisition mutex_acquire began.
      closeOwn(T, EventId::Set_nest_lock_enter, Now);
    } else if (Endpoint == ompt_scope_end && !pompReportsSingles()) {
      single(T, Construct::UnsetNestLock, Code, EventId::Unset_nest_lock_event, Now);
    }
  });
}

bool isNestKind(ompt_mutex_t Kind) {
  return Kind == ompt_mutex_nest_lock || Kind == ompt_mutex_test_nest_lock;
}

void on_lock_init(ompt_mutex_t Kind, unsigned int, unsigned int, ompt_wait_id_t, const void *Code) {
  if (pompReportsSingles())
    return;
  guarded([&](ThreadState &T, CallbackTime &Now) {
    if (isNestKind(Kind))
      single(T, Construct::InitNestLock, Code, EventId::Init_nest_lock_event, Now);
    else
      single(T, Construct::InitLock, Code, EventId::Init_lock_event, Now);
  });
}

void on_lock_destroy(ompt_mutex_t Kind, ompt_wait_id_t, const void *Code) {
  if (pompReportsSingles())
    return;
  guarded([&](ThreadState &T, CallbackTime &Now) {
    if (isNestKind(Kind))
      single(T, Construct::DestroyNestLock, Code, EventId::Destroy_nest_lock_event, Now);
    else
      single(T, Construct::DestroyLock, Code, EventId::Destroy_lock_event, Now);
  });
}

void on_masked(ompt_scope_endpoint_t Endpoint, ompt_data_t *, ompt_data_t *TaskData,
               const void *Code) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    noteCurrentTask(T, TaskData, Now);
    if (Endpoint == ompt_scope_begin || Endpoint == ompt_scope_beginend)
      open(T, Construct::Masked, Code, EventId::Masked_begin, Now);
    if (Endpoint == ompt_scope_end || Endpoint == ompt_scope_beginend)
      closeOwn(T, EventId::Masked_begin, Now);
  });
}

void on_flush(ompt_data_t *, const void *Code) {
  tsanFlush();
  if (pompReportsSingles())
    return;
  guarded([&](ThreadState &T, CallbackTime &Now) {
    single(T, Construct::Flush, Code, EventId::Flush_event, Now);
  });
}

void on_cancel(ompt_data_t *, int Flags, const void *Code) {
  if (pompReportsSingles())
    return;
  guarded([&](ThreadState &T, CallbackTime &Now) {
    if (Flags & ompt_cancel_activated)
      single(T, Construct::Cancel, Code, EventId::Cancel_event, Now);
    else if (Flags & ompt_cancel_detected)
      single(T, Construct::CancellationPoint, Code, EventId::Cancellation_point_event, Now);
  });
}

//--- Tasks ---------------------------------------------------------------//

/// Hands a trace the runtime's record of an explicit task, which names the
/// task instance (POMP's events name its construct): the task's data is its
/// identity while it lives.
void traceTask(ThreadState &T, ThreadTrace::TaskRecord What, const ompt_data_t *Task,
               CallbackTime &Now) {
  if (T.Trace)
    Core::traceTask(T, What, reinterpret_cast<std::uintptr_t>(Task), Now());
}

void recordTaskCreate(ompt_data_t *Encountering, ompt_data_t *NewTask, int Flags, const void *Code);

/// True when a new task whose creation POMP reports (T's innermost region)
/// must be followed between threads: an untied one whose regions may be open
/// when one of its parts ends. Not so when its CTC says that its block holds
/// no directive (ctc::RegionDescriptor::DirectiveFree): Clang ends the parts
/// of an untied task only at the scheduling points in its block, so such a
/// task runs its block, POMP's Task_begin to Task_end, in one part. That
/// spares the four followed switches of each such task.
bool followsInstrumentedTask(const ThreadState &T, int Flags) {
  return (Flags & ompt_task_untied) &&
         !Runtime::regions().get(keyRegion(T.current()->Key)).Descriptor.DirectiveFree;
}

[[gnu::noinline]] bool createMeasuredTask(ompt_data_t *Encountering, ompt_data_t *NewTask,
                                          const void *Code);

void on_task_create(ompt_data_t *Encountering, const ompt_frame_t *, ompt_data_t *NewTask,
                    int Flags, int, const void *Code) {
  // libomp gives a new task the memory of a completed one (its own free lists), and the creating
  // code writes the firstprivate copies there: after every completed task for TSan, or it takes
  // the completed task's reads for a race (tasks_deps.c). This callback comes after those writes;
  // the TSan build's __kmpc_omp_task_alloc (end of file) acquires before them. Costs TSan sight
  // of a race between a completed task and the creating thread's later code;
  // docs/RELIABILITY.md, "ThreadSanitizer".
  tsan::acquireTasks();
  NewTask->value = 0;
  if (!(Flags & (ompt_task_explicit | ompt_task_target)))
    return;
  // POMP reports the task (the slow path's case below), no trace records it.
  bool Follow = false;
  if (nothingToDo(Encountering, [&](ThreadState &T) {
        if (T.Trace || !pompHas(T, EventId::Task_create_enter))
          return false;
        Follow = followsInstrumentedTask(T, Flags);
        return true;
      })) {
    if (Follow)
      NewTask->value = TaskInstrumented;
  } else if (!createMeasuredTask(Encountering, NewTask, Code)) {
    recordTaskCreate(Encountering, NewTask, Flags, Code);
  }
  tsanRelease(NewTask);
}

/// The creation of a task this adapter measures (OMPT only) in its common
/// case, without the callback protocol's general path: the thread runs the
/// encountering task as its innermost one (or none), instrumented code does
/// not report the construct, its region and the creation's node are in the
/// thread's caches (a task created in a task of the same construct too).
/// False, with nothing changed, when it needs recordTaskCreate(). These were
/// some 260 instructions a task with a recursive creation, two clock reads
/// among them (BOTS fib, OMPT only).
bool createMeasuredTask(ompt_data_t *Encountering, ompt_data_t *NewTask, const void *Code) {
  return tryFast(EventId::Task_create_enter, [&](ThreadState &T) {
    if (!runsInnermost(T, Encountering) || pompHas(T, EventId::Task_create_enter))
      return false;
    const RegionId R = cachedCodeRegion(T, Construct::Task, Code);
    if (R == 0)
      return false;
    const NodeKey Key = makeKey(R, canonicalOpener(EventId::Task_create_enter));
    Node *N = Core::cachedChild(T, T.current(), Key);
    if (!N)
      N = Core::cachedSlowInstant(T, T.current(), Key);
    if (!N)
      return false;
    Core::chargeInstant(N);
    NewTask->value = Core::contextOf(N);
    return true;
  });
}

/// on_task_create() past its shortcut, out of line as recordWork().
[[gnu::noinline]] void recordTaskCreate(ompt_data_t *Encountering, ompt_data_t *NewTask, int Flags,
                                        const void *Code) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    noteCurrentTask(T, Encountering, Now);
    // Recorded while task creation is (as POMP's Task_create_enter records it).
    if (Runtime::activation().isActive(EventId::Task_create_enter))
      traceTask(T, ThreadTrace::TaskRecord::Create, NewTask, Now);
    if (pompHas(T, EventId::Task_create_enter)) {
      // POMP reports the task and closes its regions. Only an untied one is
      // followed, whose regions must travel with it to the thread that
      // resumes it: a tied task stays on its thread, nested like a call, and
      // its switches need nothing here (some 80 instructions per task).
      if (followsInstrumentedTask(T, Flags))
        NewTask->value = TaskInstrumented;
      return;
    }
    if (!Runtime::activation().isActive(EventId::Task_create_enter))
      return;
    const RegionId R = codeRegion(T, Construct::Task, Code);
    if (R == 0)
      return;
    // Creation is one moment to the runtime: a region of no duration whose
    // node is the context the task's execution hangs under.
    Node *Created = visitInstant(T, R, EventId::Task_create_enter, Now);
    NewTask->value = Core::contextOf(Created);
  });
}

bool endsTask(ompt_task_status_t Status) {
  return Status == ompt_task_complete || Status == ompt_task_cancel || Status == ompt_task_detach;
}

/// The innermost running task was suspended (an untied task's part ended):
/// its open regions leave the thread's stack and travel in its task data to
/// the thread that resumes it (core/Tasks.h).
void suspendTask(ThreadState &T, ompt_data_t *Data, CallbackTime &Now) {
  const RunningTask Task = T.RunningTasks.back();
  T.RunningTasks.pop_back();
  if (T.Stack.depth() <= Task.Base)
    return;
  std::unique_ptr<SuspendedTask> Saved;
  if (!T.SpareSuspended.empty()) {
    Saved = std::move(T.SpareSuspended.back());
    T.SpareSuspended.pop_back();
  } else {
    Saved = std::make_unique<SuspendedTask>();
  }
  if (!core().suspendTask(T, Task.Base, Now(), *Saved))
    return;
  Saved->Value = Data->value;
  Data->value = reinterpret_cast<std::uintptr_t>(Saved.release()) | TaskSuspended;
}

/// The thread starts or resumes the task Data after From: it becomes the
/// thread's innermost running task, and a resumed one gets its regions back.
void runTask(ThreadState &T, ompt_data_t *From, ompt_data_t *Data, CallbackTime &Now) {
  RunningTask &Task = pushRunningTask(T, Data, From, false);
  std::uint64_t Value = Data->value;
  if ((Value & TaskTagMask) == TaskSuspended) {
    std::unique_ptr<SuspendedTask> Saved(reinterpret_cast<SuspendedTask *>(Value & ~TaskTagMask));
    Data->value = Value = Saved->Value;
    Task.OwnsRegion = (Value & TaskTagMask) == TaskStarted && !Saved->Regions.empty();
    core().resumeTask(T, *Saved, Now());
    if (T.SpareSuspended.size() < ThreadState::SpareSuspendedLimit)
      T.SpareSuspended.push_back(std::move(Saved));
    return;
  }
  // Resumed tasks (Started), tasks POMP reports (Instrumented).
  if ((Value & TaskTagMask) != 0)
    return;
  Data->value = Value | TaskStarted;
  if (!Runtime::activation().isActive(EventId::Task_begin))
    return;
  const auto *Created = reinterpret_cast<const Node *>(Value);
  enterUnderContext(T, keyRegion(Created->Key), EventId::Task_begin, Value, Now);
  Task.OwnsRegion = true;
}

/// True when a task switch needs nothing of this adapter: it follows neither
/// task (tied tasks that POMP reports are the common case), the thread runs no
/// followed task whose end could have gone unreported, and no trace records
/// the switch. Read without the callback protocol: only the calling thread's
/// own fields, which nothing else writes (a ThreadState lives until the
/// process ends), and the tasks' data, which the runtime hands this thread.
bool switchNeedsNothing(const ompt_data_t *Prior, const ompt_data_t *Next) {
  if ((Prior && Prior->value != 0) || (Next && Next->value != 0))
    return false;
  const ThreadState *T = CurrentThread;
  return T && !T->Trace && T->RunningTasks.empty();
}

/// A task switch of an instrumented untied task (POMP reports its regions)
/// that only pushes or pops the thread's stack of running tasks, done without
/// the callback protocol; false, with nothing changed, when it needs more
/// (followSwitch()). Such a switch closes, moves and opens no region: the task
/// starts, or it ends or is suspended with nothing open above its base. These
/// are most switches of instrumented untied tasks, four per task in libomp
/// (each runs in two parts), which followSwitch() took some 85 instructions
/// each for. The tasks this adapter measures itself (OMPT only) always have
/// their task region to open, move or close: they go to followSwitch() after
/// one test (switchesInstrumentedTask()). No trace may record the switch. Reads
/// and writes only what switchNeedsNothing() reads.
bool switchOnlyMovesRunningTasks(ompt_data_t *Prior, ompt_task_status_t Status, ompt_data_t *Next) {
  const std::uint64_t NextValue = Next ? Next->value : 0;
  ThreadState *T = CurrentThread;
  if (!T || T->Trace || T->InEvent.load(std::memory_order_relaxed) ||
      Runtime::phase() != Phase::Running)
    return false;
  std::vector<RunningTask> &Running = T->RunningTasks;
  const std::size_t Depth = T->Stack.depth();
  // What followSwitch() would do to Prior: nothing, or pop it (its end, or its
  // suspension on the switch back to the task it came from).
  bool PopPrior = false;
  if (Prior && !Running.empty()) {
    const RunningTask &Top = Running.back();
    // Another running task, whose end went unreported (noteCurrentTask()).
    if (Top.Task != Prior)
      return false;
    if (endsTask(Status) || Next == Top.From) {
      if (Depth > Top.Base)
        return false;
      PopPrior = true;
    }
  }
  bool PushNext = false;
  if (NextValue != 0) {
    // The task the thread returns to is running already (below Prior, if
    // that goes); else it starts, which only an instrumented task may here.
    const std::size_t Left = Running.size() - (PopPrior ? 1 : 0);
    if (Left == 0 || Running[Left - 1].Task != Next) {
      if ((NextValue & TaskTagMask) != TaskInstrumented)
        return false;
      PushNext = true;
    }
  }
  if (PopPrior)
    Running.pop_back();
  if (PushNext)
    pushRunningTask(*T, Next, Prior, false);
  return true;
}

/// True when the task the thread leaves or the one it starts is an
/// instrumented untied task: only such a switch may take
/// switchOnlyMovesRunningTasks().
bool switchesInstrumentedTask(const ompt_data_t *Prior, const ompt_data_t *Next) {
  return (Next && (Next->value & TaskTagMask) == TaskInstrumented) ||
         (Prior && (Prior->value & TaskTagMask) == TaskInstrumented);
}

void followSwitch(ompt_data_t *Prior, ompt_task_status_t Status, ompt_data_t *Next);

/// A switch of an instrumented untied task: the push or pop shortcut, else the
/// full path. Out of line, so that the switches that need nothing save no
/// registers.
[[gnu::noinline]] void recordSwitch(ompt_data_t *Prior, ompt_task_status_t Status,
                                    ompt_data_t *Next) {
  if (!switchOnlyMovesRunningTasks(Prior, Status, Next))
    followSwitch(Prior, Status, Next);
}

/// suspendTask() of the thread's innermost running task Prior, with only its
/// own task region open, on the switch back to the task it came from (Next),
/// when Next needs nothing after it: no allocation (a spare record with
/// room), the record's region charged and moved as Core::suspendTask() does.
/// False, with nothing changed, otherwise. libomp runs every untied task in
/// parts, so that each part's end is such a suspension (BOTS fib, OMPT only:
/// the general path's some 300 instructions, twice per part).
bool suspendMeasuredTask(ThreadState &T, ompt_data_t *Prior, const ompt_data_t *Next) {
  std::vector<RunningTask> &Running = T.RunningTasks;
  const RunningTask &Top = Running.back();
  const std::size_t Depth = T.Stack.depth();
  if (Depth != Top.Base + 1 || T.SpareSuspended.empty() ||
      T.SpareSuspended.back()->Regions.capacity() == 0 ||
      !Runtime::activation().isActiveFast(keyOpener(T.current()->Key)))
    return false;
  // What comes after the suspension must need nothing either.
  if (Next && Next->value != 0 && (Running.size() < 2 || Running.end()[-2].Task != Next))
    return false;
  std::unique_ptr<SuspendedTask> Saved = std::move(T.SpareSuspended.back());
  T.SpareSuspended.pop_back();
  Saved->Regions.resize(1);
  Core::suspendRegion(T, Top.Base, Clock::now(), Saved->Regions[0]);
  Saved->ParentContext = Core::parentContextOf(T.current()->Parent);
  T.Stack.pop();
  Running.pop_back();
  Saved->Value = Prior->value;
  Prior->value = reinterpret_cast<std::uintptr_t>(Saved.release()) | TaskSuspended;
  return true;
}

/// runTask() of a suspended task (Next) with one region, whose parent and
/// node are in the thread's caches, as Core::resumeTask() resumes it; the
/// record goes back to the spares when there is room without allocating.
/// False, with nothing changed, otherwise.
bool resumeMeasuredTask(ThreadState &T, ompt_data_t *Prior, ompt_data_t *Next) {
  std::vector<RunningTask> &Running = T.RunningTasks;
  auto *Saved = reinterpret_cast<SuspendedTask *>(Next->value & ~TaskTagMask);
  if (Saved->Regions.size() != 1 || Running.size() == Running.capacity() || !T.Stack.hasRoom())
    return false;
  const SuspendedTask::OpenRegion &R = Saved->Regions[0];
  Node *Parent = Saved->ParentContext ? Core::cachedForkParent(T, Saved->ParentContext) : T.Root;
  if (!Parent || !Runtime::activation().isActiveFast(keyOpener(R.Key)))
    return false;
  // As Core::resumeTask(): a resumed visit is no new one, so a folded node
  // counts no folded visit.
  bool Folded;
  Node *N = Core::cachedChild(T, Parent, R.Key);
  if (!N)
    N = T.cachedSlowChild(Parent, R.Key, Folded);
  if (N && (N->Recursive || visitsTracked(keyOpener(R.Key))))
    N = T.trackedVisitMade(N);
  if (!N)
    return false;
  const std::uint64_t Value = Saved->Value;
  pushRunningTask(T, Next, Prior, (Value & TaskTagMask) == TaskStarted);
  Next->value = Value;
  Core::resumeRegion(T, N, R, Clock::now());
  std::unique_ptr<SuspendedTask> Spare(Saved);
  if (T.SpareSuspended.size() <
      std::min(ThreadState::SpareSuspendedLimit, T.SpareSuspended.capacity()))
    T.SpareSuspended.push_back(std::move(Spare));
  return true;
}

/// switchMeasuredTask() with the thread's flag held: the completion of its
/// innermost running task, whose own task region is all it left open; the
/// start of a task whose creation's node and task node are in the thread's
/// caches (the running task stays, as at a taskwait); an untied task's
/// suspension and resumption (suspendMeasuredTask(), resumeMeasuredTask());
/// or neither task followed. False, with nothing changed, for anything else.
bool switchMeasuredTaskHeld(ThreadState &T, ompt_data_t *Prior, ompt_task_status_t Status,
                            ompt_data_t *Next) {
  std::vector<RunningTask> &Running = T.RunningTasks;
  const std::size_t Depth = T.Stack.depth();
  if (Prior && !Running.empty() && Running.back().Task != Prior) {
    // libomp reports an untied task's next part as a switch from the task
    // to itself; else a running task's end went unreported
    // (noteCurrentTask()).
    if (Prior != Next || (Next->value & TaskTagMask) != TaskSuspended ||
        runningTasksKept(T, Prior) != Running.size())
      return false;
  } else if (Prior && !Running.empty()) {
    const RunningTask &Top = Running.back();
    if (endsTask(Status)) {
      // The thread returns to a task it runs already, or to an implicit one.
      if (Next && Next->value != 0 && (Running.size() < 2 || Running.end()[-2].Task != Next))
        return false;
      if (Depth == Top.Base) {
        Running.pop_back();
        return true;
      }
      if (Depth != Top.Base + 1 || !Top.OwnsRegion ||
          !Runtime::activation().isActiveFast(keyOpener(T.current()->Key)))
        return false;
      Running.pop_back();
      Core::popCached(T, readClock);
      return true;
    }
    // A suspension (an untied task's part ended): its regions travel with
    // the task (suspendTask()).
    if (Next == Top.From && !suspendMeasuredTask(T, Prior, Next))
      return false;
  }
  if (!Next || Next->value == 0 || (!Running.empty() && Running.back().Task == Next))
    return true;
  const std::uint64_t Value = Next->value;
  if ((Value & TaskTagMask) == TaskSuspended)
    return resumeMeasuredTask(T, Prior, Next);
  // Resumed and instrumented tasks: runTask().
  if ((Value & TaskTagMask) != 0 || Running.size() == Running.capacity())
    return false;
  Node *Parent = Core::cachedForkParent(T, Value);
  if (!Parent || !T.Stack.hasRoom())
    return false;
  const auto *Created = reinterpret_cast<const Node *>(Value);
  const NodeKey Key = makeKey(keyRegion(Created->Key), canonicalOpener(EventId::Task_begin));
  Node *N = Core::cachedChild(T, Parent, Key);
  // A task of the construct that created the task running it.
  N = N ? T.trackedVisitMade(N) : Core::cachedSlowVisit(T, Parent, Key);
  if (!N)
    return false;
  Next->value = Value | TaskStarted;
  pushRunningTask(T, Next, Prior, true);
  Core::enterCached(T, N, readClock);
  return true;
}

/// A switch of the tasks this adapter measures itself (OMPT only): a task's
/// start, completion, suspension or resumption through the core's cached
/// paths, without the callback protocol's general path, else followSwitch().
/// Those were some 110 instructions per switch, two per tied task and four per
/// untied one (BOTS fib, OMPT only). Out of line, so that the switches that
/// need nothing save no registers.
[[gnu::noinline]] void switchMeasuredTask(ompt_data_t *Prior, ompt_task_status_t Status,
                                          ompt_data_t *Next) {
  if (!tryFast(EventId::Task_begin,
               [&](ThreadState &T) { return switchMeasuredTaskHeld(T, Prior, Status, Next); }))
    followSwitch(Prior, Status, Next);
}

void on_task_schedule(ompt_data_t *Prior, ompt_task_status_t Status, ompt_data_t *Next) {
  if (Next) {
    tsanAcquire(Next);
    tsan::acquireTasks();
  }
  if (!switchNeedsNothing(Prior, Next)) {
    if (switchesInstrumentedTask(Prior, Next))
      recordSwitch(Prior, Status, Next);
    else
      switchMeasuredTask(Prior, Status, Next);
  }
  if (Prior) {
    // After the task's data was written (a suspended task's regions).
    tsanRelease(Prior);
    if (endsTask(Status))
      tsan::releaseTasks();
  }
}

/// A task switch on the thread's stack of running tasks (core/Tasks.h), with
/// the callback protocol.
[[gnu::noinline]] void followSwitch(ompt_data_t *Prior, ompt_task_status_t Status,
                                    ompt_data_t *Next) {
  guarded([&](ThreadState &T, CallbackTime &Now) {
    std::vector<RunningTask> &Running = T.RunningTasks;
    if (Prior) {
      if (endsTask(Status))
        traceTask(T, ThreadTrace::TaskRecord::Complete, Prior, Now);
      noteCurrentTask(T, Prior, Now);
    }
    // A task that ends here without running here had its last part on
    // another thread, which ends its regions (endUnreportedTasks).
    if (Prior && !Running.empty() && Running.back().Task == Prior) {
      if (endsTask(Status))
        completeTask(T, Now);
      else if (Next == Running.back().From)
        suspendTask(T, Prior, Now);
      // Otherwise Next runs inside Prior (at a taskwait, a taskyield).
    }
    if (!Next)
      return;
    traceTask(T, ThreadTrace::TaskRecord::Switch, Next, Now);
    // Implicit tasks (0) are not explicit tasks this adapter follows; the
    // task the thread returns to is running already.
    if (Next->value == 0 || (!Running.empty() && Running.back().Task == Next))
      return;
    runTask(T, Prior, Next, Now);
  });
}

//--- Tool control --------------------------------------------------------//

/// omp_control_tool() commands and results (OpenMP 5.1, omp_control_tool_t
/// and omp_control_tool_result_t in omp.h, which a tool need not include).
enum ControlCommand : std::uint64_t {
  ControlStart = 1,
  ControlPause = 2,
  ControlFlush = 3,
  ControlEnd = 4,
};
constexpr int ControlSuccess = 0;
constexpr int ControlIgnored = 1;

int on_control_tool(uint64_t Command, uint64_t, void *, const void *) {
  // Not inside an event: the control routines take the library's own locks.
  switch (Command) {
  case ControlStart:
    return POMP_On() == POMP_SUCCESS ? ControlSuccess : ControlIgnored;
  case ControlPause:
    return POMP_Off() == POMP_SUCCESS ? ControlSuccess : ControlIgnored;
  case ControlFlush:
    // A profile holds nothing that could be lost: there is nothing to flush.
    return ControlSuccess;
  case ControlEnd:
    return POMP_Finalize() == POMP_SUCCESS ? ControlSuccess : ControlIgnored;
  default:
    countOther();
    return ControlIgnored;
  }
}

//--- Registration --------------------------------------------------------//

/// ompt_set_result_t as words, for the verbose report.
const char *setResultName(int Result) {
  switch (Result) {
  case ompt_set_never:
    return "never";
  case ompt_set_impossible:
    return "impossible";
  case ompt_set_sometimes:
    return "sometimes";
  case ompt_set_sometimes_paired:
    return "sometimes_paired";
  case ompt_set_always:
    return "always";
  default:
    return "error";
  }
}

/// The runtime's version string and POMP_VERBOSE, read by ompt_start_tool()
/// for initializeTool().
const char *RuntimeVersion = "";
bool Verbose = false;

/// Set once the program's exit handlers run. libomp finalizes its tool at
/// exit, but also when the program pauses the runtime
/// (omp_pause_resource(omp_pause_hard)); the measurement goes on after a
/// pause (instrumented code, a forked child), and the exit hook writes it.
std::atomic<bool> ProgramExiting{false};

void markProgramExiting() { ProgramExiting.store(true, std::memory_order_relaxed); }

int initializeTool(ompt_function_lookup_t Lookup, int, ompt_data_t *) {
  if (Runtime::initialize() != POMP_SUCCESS)
    return 0;
  std::atexit(markProgramExiting);
  // The lookup function is the runtime's own code.
  findRuntimeCode(reinterpret_cast<const void *>(Lookup));
  GetTaskInfo = reinterpret_cast<ompt_get_task_info_t>(Lookup("ompt_get_task_info"));
  auto SetCallback = reinterpret_cast<ompt_set_callback_t>(Lookup("ompt_set_callback"));
  if (!SetCallback) {
    printMessage("OMPT: the OpenMP runtime offers no ompt_set_callback; measuring POMP events "
                 "only");
    noteOmptState(false, "the OpenMP runtime offers no ompt_set_callback");
    return 0;
  }
  std::string Accepted;
  std::string Refused;
  int Registered = 0;
  int TaskRecordCallbacks = 0;
  int JoinCallbacks = 0;
#define POMP_OMPT_CALLBACK(Name)                                                                   \
  {                                                                                                \
    const int Result =                                                                             \
        SetCallback(ompt_callback_##Name, reinterpret_cast<ompt_callback_t>(&on_##Name));          \
    std::string &List = Result == ompt_set_always ? Accepted : Refused;                            \
    List += List.empty() ? "" : ", ";                                                              \
    List += #Name;                                                                                 \
    if (Result != ompt_set_always) {                                                               \
      List += '=';                                                                                 \
      List += setResultName(Result);                                                               \
    }                                                                                              \
    Registered += Result > ompt_set_never;                                                         \
    if (ompt_callback_##Name == ompt_callback_task_create ||                                       \
        ompt_callback_##Name == ompt_callback_task_schedule)                                       \
      TaskRecordCallbacks += Result == ompt_set_always;                                            \
    if (ompt_callback_##Name == ompt_callback_parallel_begin ||                                    \
        ompt_callback_##Name == ompt_callback_parallel_end ||                                      \
        ompt_callback_##Name == ompt_callback_implicit_task)                                       \
      JoinCallbacks += Result == ompt_set_always;                                                  \
  }
#include "adapters/ompt/OmptCallbacks.def"
  // The runtime names every task instance: traces take task records from it.
  core().setRuntimeTaskRecords(TaskRecordCallbacks == 2);
  noteOmptState(true, std::string("tool of ") + RuntimeVersion + ", " + std::to_string(Registered) +
                          " callbacks");
  // Instrumented teams skip their explicit join barrier when the runtime
  // reports every team's begin, end and implicit tasks, which close the
  // regions in its place; not while tracing (a trace records what POMP's
  // events report, in their order).
  Core::setRuntimeJoins(JoinCallbacks == 3 && !core().tracing());
  if (Verbose) {
    printMessage(std::string("OMPT: tool of ") + RuntimeVersion + ": " +
                 std::to_string(Registered) + " callbacks registered");
    printMessage("OMPT: always delivered: " + (Accepted.empty() ? "none" : Accepted));
    if (!Refused.empty())
      printMessage("OMPT: not always delivered: " + Refused);
  }
  return 1;
}

void finalizeTool(ompt_data_t *) {
  // No more callbacks (a pause, or shutdown): teams forked from now on run
  // their explicit join barriers again.
  Core::setRuntimeJoins(false);
  // libomp shuts down at exit, possibly before the exit hook ran. A pause
  // ends only the runtime's callbacks, not the measurement.
  if (ProgramExiting.load(std::memory_order_relaxed))
    Runtime::finalize();
}

ompt_start_tool_result_t ToolResult = {&initializeTool, &finalizeTool, {0}};

} // namespace

/// Referenced by Lifecycle.cpp so that a program linked with libpomp.a gets
/// this object file, and with it ompt_start_tool.
void linkOmptAdapter() {}

} // namespace pomp::rt

/// The OMPT entry point (OpenMP 5.1, 4.2.1): the runtime calls it once at
/// start-up when libpomp is linked, preloaded or named in OMP_TOOL_LIBRARIES.
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int, const char *RuntimeVersion) {
  const pomp::rt::OptionSource Options;
  const bool On = Options.readChoice(pomp::rt::OmptOption) == 0;
  pomp::rt::Verbose = Options.readBool(pomp::rt::VerboseOption);
  for (const std::string &Message : Options.messages())
    pomp::rt::printMessage(Message);
  if (!On) {
    pomp::rt::noteOmptState(false, "POMP_OMPT=off");
    if (pomp::rt::Verbose)
      pomp::rt::printMessage("OMPT: off (POMP_OMPT=off): measuring POMP events only");
    return nullptr;
  }
  pomp::rt::RuntimeVersion = RuntimeVersion ? RuntimeVersion : "an unnamed OpenMP runtime";
  return &pomp::rt::ToolResult;
}

#ifdef POMP_TSAN
/// In a TSan build only: libomp's task allocation, with the edge TSan needs
/// for the memory it reuses. libomp hands a new task the memory of a completed
/// one from its own free lists, which TSan does not see, and the creating code
/// writes the new task's firstprivate copies there before any callback (the
/// task_create callback comes after them), so TSan took those writes for a race
/// with the completed task's reads (samples/tasks_deps.c, 6-8 runs of 40). The
/// completed task's task_schedule callback, or where libpomp is not the OMPT
/// tool its POMP Task_end (adapters/TsanEdges.h), released every completed task
/// before libomp freed its memory, so the acquire after the allocation orders
/// the reads before the writes. A program linked with libpomp before libomp calls
/// this one (scripts/tsan.sh links so); docs/RELIABILITY.md, "ThreadSanitizer".
extern "C" __attribute__((visibility("default"))) void *
__kmpc_omp_task_alloc(void *Location, std::int32_t Gtid, std::int32_t Flags, std::size_t TaskSize,
                      std::size_t SharedsSize, void *Entry) {
  using TaskAlloc = void *(*)(void *, std::int32_t, std::int32_t, std::size_t, std::size_t, void *);
  static const auto Libomp = reinterpret_cast<TaskAlloc>(dlsym(RTLD_NEXT, "__kmpc_omp_task_alloc"));
  void *Task = Libomp(Location, Gtid, Flags, TaskSize, SharedsSize, Entry);
  pomp::rt::tsan::acquireTasks();
  return Task;
}
#endif
