//===- adapters/pomp/PompAdapter.cpp - The POMP API -----------------------===//
///
/// \file
/// Every routine of pomplib.h. The event routines are generated from
/// pomp_events.def and all have the same shape, written once in slowEvent():
/// guard against re-entry, initialise lazily, test the event's activation bit,
/// resolve the handle, hand the event to the core. handleEvent() does the same
/// for the common case without any call and hands everything else to
/// slowEvent(). Nothing here keeps state; the adapter only translates.
///
/// No C++ exception leaves this file: every routine returns an error code.
///
//===----------------------------------------------------------------------===//

#include "adapters/TsanEdges.h"
#include "core/Clock.h"
#include "core/Core.h"
#include "core/Events.h"
#include "core/Lifecycle.h"
#include "core/Uninstrumented.h"

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "pomplib.h"

/// The API is what libpomp exports; everything else is hidden
/// (-fvisibility=hidden and src/libpomp.map).
#define POMP_EXPORT extern "C" __attribute__((visibility("default")))

namespace pomp::rt {
namespace {

/// Stands for a parameter that an event routine does not have.
struct NoArg {};

/// Whether a routine returns a context (Parallel_fork, Teams_enter,
/// Task_create_enter), receives one (Parallel_begin_forked, Teams_begin,
/// Task_begin) or neither.
template <typename C> constexpr bool ReturnsContext = std::is_same_v<C, POMP_Context_t *>;
template <typename C> constexpr bool ReceivesContext = std::is_same_v<C, POMP_Context_t>;

constexpr NoArg pickContext(NoArg, NoArg) { return {}; }
template <typename C> constexpr C pickContext(C Fork, NoArg) { return Fork; }
template <typename C> constexpr C pickContext(NoArg, C Task) { return Task; }

constexpr const char *ctcOf(const char *Ctc) { return Ctc; }
constexpr const char *ctcOf(NoArg) { return nullptr; }

/// What the core hands a trace besides the region (Core.h): the lock id of a
/// lock event (0 when a test did not set the lock) and the requested team
/// size of a fork; 0 for every other event.
template <EventId E, typename LockArg, typename WasSetArg, typename ThreadsArg>
constexpr std::uint64_t payloadOf(LockArg Lock, WasSetArg WasSet, ThreadsArg NumThreads) {
  if constexpr (std::is_same_v<LockArg, POMP_Lock_id_t> && std::is_same_v<WasSetArg, NoArg>)
    return Lock;
  else if constexpr (std::is_same_v<LockArg, POMP_Lock_id_t>)
    return WasSet ? Lock : 0;
  else if constexpr (E == EventId::Parallel_enter || E == EventId::Parallel_fork)
    return NumThreads > 0 ? static_cast<std::uint64_t>(NumThreads) : 0;
  else
    return 0;
}

constexpr const char *ErrorStrings[] = {
    "success",
    "invalid handle: not 0 and not given out by this library",
    "missing CTC string: the handle is 0 and the CTC string is NULL",
    "malformed CTC string",
    "invalid argument",
    "unbalanced event: it closes no open region",
    "the library was finalised",
    "the library is not initialised",
    "re-entrant event: raised while the thread was inside an event",
    "out of resources",
};
static_assert(std::size(ErrorStrings) == POMP_ERROR_OUT_OF_RESOURCES + 1,
              "one string per POMP_Error");

/// Records the standard description of an error code for
/// POMP_Last_error_message() and returns the code.
int32_t failCode(int32_t Error) {
  if (Error != POMP_SUCCESS)
    setLastError(ErrorStrings[Error]);
  return Error;
}

/// Counts an anomaly, records the message for POMP_Last_error_message() and
/// returns the error code.
int32_t fail(Anomaly A, int32_t Error, std::string_view Message) {
  if (detail::GlobalCore)
    Runtime::core().anomalies().count(A);
  setLastError(Message);
  return Error;
}

/// False only for a NULL pointer to store a context in.
template <typename C> bool canStoreContext(C Context) {
  if constexpr (ReturnsContext<C>)
    return Context != nullptr;
  else
    return true;
}

/// Stores "no context" where a routine returns one, so that a region started
/// with it goes where the starting thread is.
template <typename C> void clearContext(C Context) {
  if constexpr (ReturnsContext<C>)
    if (Context)
      *Context = 0;
}

/// Binds a zero handle from its CTC string (paper section 3.2, unoptimised
/// scheme), correctly when many threads race for it: all of them get the
/// same region, found under the table's lock or in this thread's cache.
int32_t bindHandle(ThreadState &T, POMP_Handle_t *Handle, const char *Ctc, RegionId &Region) {
  if (!Ctc)
    return fail(Anomaly::MissingCtc, POMP_ERROR_MISSING_CTC,
                "the handle is 0 and the CTC string is NULL");
  RegionTable &Regions = Runtime::regions();
  CtcCache::Entry &Cached = T.Ctcs.Slots[CtcCache::slot(Ctc)];
  if (Cached.Ctc == Ctc) {
    const std::string &Key = Regions.get(Cached.Region).Key;
    if (std::strncmp(Ctc, Key.c_str(), Key.size()) == 0 && Ctc[Key.size()] == '\0')
      Region = Cached.Region;
  }
  if (Region == 0) {
    const std::size_t Length = strnlen(Ctc, pomp::ctc::MaxCtcLength + 1);
    if (Length > pomp::ctc::MaxCtcLength)
      return fail(Anomaly::MalformedCtc, POMP_ERROR_MALFORMED_CTC,
                  "malformed CTC string: longer than the reader accepts");
    RegisterResult R = Regions.registerCtc(std::string_view(Ctc, Length));
    if (R.Error != POMP_SUCCESS)
      return fail(R.Error == POMP_ERROR_MALFORMED_CTC ? Anomaly::MalformedCtc
                                                      : Anomaly::InvalidArgument,
                  R.Error, R.Message);
    Region = R.Id;
    Cached = {Ctc, Region};
  }
  // Threads that race to bind the same zero handle all found the same region.
  if (Handle)
    Regions.bind(Handle, Region);
  return POMP_SUCCESS;
}

/// The handle's value, 0 for a null pointer (the general path reports it).
inline POMP_Handle_t handleValue(POMP_Handle_t *Handle) {
  return Handle ? __atomic_load_n(Handle, __ATOMIC_ACQUIRE) : 0;
}
inline POMP_Handle_t handleValue(POMP_Handle_t Handle) { return Handle; }

/// The handle's value for the fast path: false for a null pointer and for a
/// value beyond the region table's capacity (RegionTable::withinCapacity()).
inline bool fastHandle(POMP_Handle_t *Handle, POMP_Handle_t &H) {
  if (__builtin_expect(Handle == nullptr, 0))
    return false;
  H = __atomic_load_n(Handle, __ATOMIC_ACQUIRE);
  return RegionTable::withinCapacity(H);
}
inline bool fastHandle(POMP_Handle_t Handle, POMP_Handle_t &H) {
  H = Handle;
  return RegionTable::withinCapacity(H);
}

/// The region of a valid handle, 0 for any other: the general path's
/// resolution of the common case (one load for a first event, one bounds
/// check).
inline RegionId quickRegion(POMP_Handle_t *Handle) {
  const POMP_Handle_t H = handleValue(Handle);
  return Runtime::regions().isValid(H) ? static_cast<RegionId>(H) : 0;
}
inline RegionId quickRegion(POMP_Handle_t Handle) {
  return Runtime::regions().isValid(Handle) ? static_cast<RegionId>(Handle) : 0;
}

/// resolveSlow()'s result for a later event of a construct whose first event
/// was not recorded because its events were off then: the event is ignored.
constexpr int32_t SkippedAfterSwitch = -1;

/// Why quickRegion() found no region: a zero handle of a first event is bound
/// from its CTC string, anything else is an error. The handle is read again:
/// another thread of the team may have bound it since quickRegion() (or the
/// fast path) read zero, and the value it stored is valid.
__attribute__((noinline)) int32_t resolveSlow(ThreadState &T, POMP_Handle_t *Handle,
                                              const char *Ctc, RegionId &Region) {
  const POMP_Handle_t H = Handle ? __atomic_load_n(Handle, __ATOMIC_ACQUIRE) : 0;
  if (H != 0) {
    if (!Runtime::regions().isValid(H))
      return fail(Anomaly::InvalidHandle, POMP_ERROR_INVALID_HANDLE,
                  "the handle was not given out by this library");
    Region = static_cast<RegionId>(H);
    return POMP_SUCCESS;
  }
  return bindHandle(T, Handle, Ctc, Region);
}

__attribute__((noinline)) int32_t resolveSlow(ThreadState &, POMP_Handle_t Handle, const char *,
                                              RegionId &) {
  if (Handle != 0)
    return fail(Anomaly::InvalidHandle, POMP_ERROR_INVALID_HANDLE,
                "the handle was not given out by this library");
  // The first event binds the handle; when it came while its events were off
  // (POMP_Off, a level change), the handle is still 0 here.
  if (Runtime::activation().generation() != 0) {
    Runtime::core().anomalies().count(Anomaly::SkippedAfterSwitch);
    return SkippedAfterSwitch;
  }
  return fail(Anomaly::MissingCtc, POMP_ERROR_MISSING_CTC,
              "the handle is 0: the construct's first event was not recorded");
}

/// A closing event that matches no open region.
__attribute__((noinline)) int32_t unmatched() {
  // After POMP_Off/POMP_On or a level change, the end of a region entered
  // while its events were off is expected: not an error of the program.
  if (Runtime::activation().generation() != 0) {
    Runtime::core().anomalies().count(Anomaly::SkippedAfterSwitch);
    return POMP_SUCCESS;
  }
  return fail(Anomaly::UnmatchedClose, POMP_ERROR_UNBALANCED,
              "the event closes no region open on this thread");
}

//--- Task records of a trace, where the runtime gives none (libgomp) ------//
// A POMP task context names the creating construct's node, the same for every
// task created there. While tracing, the trace's token of the task instance
// travels with it in the context's unused high bits, from Task_create_enter
// to Task_begin; the executing thread keeps it until Task_end. Only the
// general path (tracing turns the fast path off) sees such contexts.

/// The bits Task_create_enter adds to its context: the token of the new task.
POMP_Context_t createTracedTask(ThreadState &T, Tick Now) {
  if (!T.Trace || Runtime::core().runtimeTaskRecords())
    return 0;
  return static_cast<POMP_Context_t>(T.Trace->createTask(Now)) << Core::TaskTokenShift;
}

/// Task_begin's context without the token, which the trace now switches to.
POMP_Context_t beginTracedTask(ThreadState &T, POMP_Context_t Context, Tick Now) {
  const auto Token = static_cast<std::uint32_t>(Context >> Core::TaskTokenShift);
  if (T.Trace) {
    T.TaskTokens.push_back(Token);
    if (Token != 0)
      Core::traceTask(T, ThreadTrace::TaskRecord::Switch, Token, Now);
  }
  return Context & Core::TaskNodeMask;
}

/// Task_end: the trace completes the innermost task the thread executes.
void endTracedTask(ThreadState &T, Tick Now) {
  if (!T.Trace || T.TaskTokens.empty())
    return;
  const std::uint32_t Token = T.TaskTokens.back();
  T.TaskTokens.pop_back();
  if (Token != 0)
    Core::traceTask(T, ThreadTrace::TaskRecord::Complete, Token, Now);
}

/// The mutex acquisition whose region E enters (ThreadState::PompAcquisition).
constexpr Acquisition acquisitionEntered(EventId E) {
  switch (E) {
  case EventId::Set_lock_enter:
    return Acquisition::Lock;
  case EventId::Set_nest_lock_enter:
    return Acquisition::NestLock;
  case EventId::Critical_enter:
    return Acquisition::Critical;
  case EventId::Ordered_enter:
    return Acquisition::Ordered;
  default:
    return Acquisition::None;
  }
}

/// True for the events that come after a mutex's acquisition: whatever the
/// runtime reported of it, the thread's acquisition is over (a nested lock the
/// thread owns already gets no acquired callback).
constexpr bool endsAcquisition(EventId E) {
  return E == EventId::Set_lock_exit || E == EventId::Set_nest_lock_exit ||
         E == EventId::Critical_begin || E == EventId::Critical_exit ||
         E == EventId::Ordered_begin || E == EventId::Ordered_exit;
}

/// The bits a context returned by E carries beside its node N: a fork's tell
/// the team how to treat its join barrier (Core::JoinBit, Core::LateJoinBit).
template <EventId E> POMP_Context_t forkBits([[maybe_unused]] Node &N) {
  if constexpr (E == EventId::Parallel_fork)
    return Core::newForkBits(Runtime::activation().isActive(EventId::Parallel_begin_forked), N);
  else
    return 0;
}

/// Records an active event of a known region, in every case (handleEvent()
/// has the common ones inline).
template <EventId E, typename ContextArg>
__attribute__((always_inline)) inline int32_t record(ThreadState &T, RegionId Region,
                                                     ContextArg Context, std::uint64_t Payload) {
  constexpr Role R = info(E).EventRole;
  const Tick Now = Clock::now();
  Core &C = Runtime::core();
  if constexpr (R == Role::ENTER || R == Role::BEGIN) {
    // The runtime's masked callback came before this begin event of the same
    // construct (docs/OMPT.md). The fast path never gets here with such a
    // region innermost: nothing is ever entered under it.
    if constexpr (E == EventId::Master_begin || E == EventId::Masked_begin)
      C.replaceRuntimeRegion(T, EventId::Masked_begin, Now);
    if constexpr (E == EventId::Task_begin)
      Context = beginTracedTask(T, Context, Now);
    if constexpr (E == EventId::Parallel_begin_forked)
      if (!T.PendingJoins.empty() && Core::contextOf(T.current()) != Context)
        C.closeStaleJoins(T);
    Node *Parent;
    if constexpr (ReceivesContext<ContextArg>)
      Parent = Context ? C.forkParent(T, Context) : C.guessParent(T, Region, E);
    else if constexpr (R == Role::BEGIN && info(E).Group == POMP_GROUP_PARALLEL)
      Parent = C.guessParent(T, Region, E);
    else
      Parent = T.current();
    Node *N = C.enter(T, Region, E, Now, Parent, Payload);
    if constexpr (acquisitionEntered(E) != Acquisition::None)
      T.PompAcquisition = acquisitionEntered(E);
    if constexpr (ReturnsContext<ContextArg>)
      *Context = Core::contextOf(N) | forkBits<E>(*N);
    else if constexpr (R == Role::ENTER && info(E).Group == POMP_GROUP_PARALLEL)
      C.noteFork(Region, N);
    if constexpr (E == EventId::Task_create_enter)
      *Context |= createTracedTask(T, Now);
  } else if constexpr (R == Role::EXIT || R == Role::END) {
    if constexpr (E == EventId::Task_end)
      endTracedTask(T, Now);
    if constexpr (E == EventId::Parallel_exit)
      C.closeOwnJoin(T, makeKey(Region, canonicalOpener(E)), Now);
    if (__builtin_expect(C.leave(T, Region, E, Now, Payload) == LeaveResult::NoMatch, 0))
      return unmatched();
  } else {
    C.event(T, Region, E, Now, Payload);
  }
  return POMP_SUCCESS;
}

/// An active event that is not the common case: a zero handle to bind, a
/// garbage handle, a NULL context pointer.
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((noinline)) int32_t recordSlow(ThreadState &T, HandleArg Handle, const char *Ctc,
                                             ContextArg Context, std::uint64_t Payload) {
  if constexpr (ReturnsContext<ContextArg>)
    if (!Context)
      return fail(Anomaly::InvalidArgument, POMP_ERROR_INVALID_ARGUMENT,
                  "the pointer to store the context in is NULL");
  RegionId Region = 0;
  if (const int32_t Error = resolveSlow(T, Handle, Ctc, Region); Error != POMP_SUCCESS) {
    clearContext(Context);
    return Error == SkippedAfterSwitch ? POMP_SUCCESS : Error;
  }
  return record<E>(T, Region, Context, Payload);
}

/// An event whose bit is off: monitoring is off, its group's level excludes
/// it, or the library is not running.
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((noinline)) int32_t skip(ThreadState &T, HandleArg Handle, ContextArg Context,
                                       std::uint64_t Payload) {
  clearContext(Context);
  const Phase P = Runtime::phase();
  if (P != Phase::Running)
    return failCode(P >= Phase::Finalizing ? POMP_ERROR_FINALIZED : POMP_ERROR_NOT_INITIALIZED);
  // A region entered while its events were on ends with its own end event,
  // even when that comes after POMP_Off or a level change: profiles never hold
  // a region that was entered and not left.
  if constexpr (isCloser(info(E).EventRole) && std::is_same_v<HandleArg, POMP_Handle_t>) {
    const auto Region = static_cast<RegionId>(Handle);
    if (!Runtime::regions().isValid(Handle))
      return POMP_SUCCESS;
    if constexpr (E == EventId::Parallel_exit)
      Runtime::core().closeOwnJoin(T, makeKey(Region, canonicalOpener(E)), Clock::now());
    if (Core::closesInnermost(T, Region, E))
      Runtime::core().leave(T, Region, E, Clock::now(), Payload);
  }
  return POMP_SUCCESS;
}

__attribute__((noinline)) int32_t reentrant() {
  return fail(Anomaly::Reentrant, POMP_ERROR_REENTRANT,
              "an event was raised while this thread was inside an event");
}

/// Every event, in every case: the shape of every event routine, written
/// once. Guard against re-entry, initialise lazily, test the activation bit,
/// resolve the handle, record.
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((noinline)) int32_t slowEvent(HandleArg Handle, const char *Ctc, ContextArg Context,
                                            std::uint64_t Payload) noexcept {
  ThreadState *T = CurrentThread;
  if (!T) {
    int32_t Error = POMP_SUCCESS;
    T = Runtime::attach(Error);
    if (!T) {
      clearContext(Context);
      return failCode(Error);
    }
  }
  if (T->InEvent.load(std::memory_order_relaxed)) {
    clearContext(Context);
    return reentrant();
  }
  T->InEvent.store(true, std::memory_order_relaxed);
  // Orders the flag before the activation test for the compiler; finalisation
  // orders it for the CPU with membarrier() (Lifecycle.h).
  std::atomic_signal_fence(std::memory_order_seq_cst);
  T->Stack.dropHandOver();
  int32_t Result;
  try {
    RegionId Region;
    if (!Runtime::activation().isActive(E))
      Result = skip<E>(*T, Handle, Context, Payload);
    else if ((Region = quickRegion(Handle)) != 0 && canStoreContext(Context))
      Result = record<E>(*T, Region, Context, Payload);
    else
      Result = recordSlow<E>(*T, Handle, Ctc, Context, Payload);
  } catch (...) {
    // Only warm-up allocations can throw.
    clearContext(Context);
    Result = failCode(POMP_ERROR_OUT_OF_RESOURCES);
  }
  T->InEvent.store(false, std::memory_order_release);
  return Result;
}

/// Whether an event whose activation bit is clear needs the general path. It
/// changes nothing, unless it ends a region entered while its events were on
/// (T's innermost open region, looked at only when T is given: the caller
/// holds T's flag, since finalisation may be reading the stack), or it must
/// clear the context it returns, or the library is not running.
template <EventId E, typename HandleArg, typename ContextArg>
bool inactiveNeedsGeneralPath(const ThreadState *T, HandleArg Handle) {
  if (Runtime::phase() != Phase::Running)
    return true;
  if constexpr (E == EventId::Parallel_exit)
    if (T && !T->PendingJoins.empty())
      return true;
  if constexpr (isCloser(info(E).EventRole))
    return T && Core::innermostIs(
                    *T, makeKey(static_cast<RegionId>(handleValue(Handle)), canonicalOpener(E)));
  else
    return ReturnsContext<ContextArg>;
}

/// An inactive event that came where handleEvent() could not hold the flag
/// (a thread without state, a re-entered one).
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((noinline)) int32_t inactiveEvent(HandleArg Handle, const char *Ctc,
                                                ContextArg Context, std::uint64_t Payload) {
  ThreadState *T = CurrentThread;
  bool General;
  if (isCloser(info(E).EventRole) && T && !T->InEvent.load(std::memory_order_relaxed)) {
    T->InEvent.store(true, std::memory_order_relaxed);
    std::atomic_signal_fence(std::memory_order_seq_cst);
    T->Stack.dropHandOver();
    General = inactiveNeedsGeneralPath<E, HandleArg, ContextArg>(T, Handle);
    T->InEvent.store(false, std::memory_order_release);
  } else {
    General = inactiveNeedsGeneralPath<E, HandleArg, ContextArg>(nullptr, Handle);
  }
  return General ? slowEvent<E>(Handle, Ctc, Context, Payload) : POMP_SUCCESS;
}

/// Whether E's node may start at the exit time of the construct before it
/// (Node::AfterConstruct): a construct's enter. An implicit barrier's enter
/// has a hand-over of its own.
template <EventId E> constexpr bool mayFollowConstruct() {
  return info(E).EventRole == Role::ENTER && E != EventId::Implicit_barrier_enter;
}

/// Enters node N on the fast path with Enter(clock): an implicit barrier
/// entered right after a single's or section's end takes that end's clock
/// read (FrameStack::handOverToBarrier), a construct's enter marked
/// Node::AfterConstruct the exit time of the construct before it
/// (FrameStack::popHandingOver), both taken before the frame is pushed;
/// everything else reads the clock as it pushes. Enter returns what the
/// core's enter returns.
template <EventId E, typename EnterFn>
__attribute__((always_inline)) inline auto enterAtStart(ThreadState &T, Node *N, EnterFn &&Enter) {
  if constexpr (E == EventId::Implicit_barrier_enter) {
    const Tick Start = T.Stack.takeBarrierHandOver(Clock::readTsc);
    return Enter([Start] { return Start; });
  } else if constexpr (mayFollowConstruct<E>()) {
    if (__builtin_expect(N->AfterConstruct, 0)) {
      const Tick Start = T.Stack.takeSiblingHandOver(Clock::readTsc);
      return Enter([Start] { return Start; });
    }
  }
  return Enter(Clock::readTsc);
}

/// Pushes an enter's node N on the fast path with its start time
/// (enterAtStart()).
template <EventId E>
__attribute__((always_inline)) inline void pushCachedEnter(ThreadState &T, Node *N) {
  enterAtStart<E>(T, N, [&](auto &&Now) { Core::enterCached(T, N, Now); });
}

/// What the fast path does after it pushed an enter's node N: the mutex
/// acquisition's mark, the context a creating event returns.
template <EventId E, typename ContextArg>
__attribute__((always_inline)) inline void finishCachedEnter(ThreadState &T, Node *N,
                                                             ContextArg Context) {
  if constexpr (acquisitionEntered(E) != Acquisition::None)
    T.PompAcquisition = acquisitionEntered(E);
  if constexpr (ReturnsContext<ContextArg>)
    *Context = Core::contextOf(N) | forkBits<E>(*N);
}

/// handleEvent()'s enter when its cached child missed: a child reached by
/// recursion (a task created in a task of the same construct, a function
/// region inside itself) or a parent's third child, that the general path
/// found before (ThreadState::cachedSlowChild()), pushed as enter() would
/// push it;
/// else slowEvent(). Called with T's flag held, which it releases. Out of
/// line and called last, with the event's arguments where the caller got
/// them, so that the common case saves and moves no registers.
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((noinline)) int32_t enterCachedOrSlow(HandleArg Handle, const char *Ctc,
                                                    ContextArg Context, std::uint64_t Payload,
                                                    ThreadState &T, NodeKey Key) noexcept {
  Node *Parent;
  if constexpr (ReceivesContext<ContextArg>)
    Parent = Context ? Core::cachedForkParent(T, Context) : nullptr;
  else
    Parent = T.current();
  Node *N = Parent ? Core::cachedSlowVisit(T, Parent, Key) : nullptr;
  if (N == nullptr) {
    T.InEvent.store(false, std::memory_order_relaxed);
    return slowEvent<E>(Handle, Ctc, Context, Payload);
  }
  pushCachedEnter<E>(T, N);
  finishCachedEnter<E>(T, N, Context);
  T.InEvent.store(false, std::memory_order_release);
  return POMP_SUCCESS;
}

/// The common case of an event, on a warmed-up thread: what slowEvent() does
/// for it, without calls, allocation or spilled registers. Anything else (the
/// thread's first event, an inactive event, a handle to bind, a node or mirror
/// not yet cached, a full stack, an unmatched end, the clock_gettime clock,
/// the paper's context-free fork and begin) leaves before changing anything
/// and is done by slowEvent() or inactiveEvent().
///
/// The handle is not looked up in the region table: the call-path node found
/// for it has the handle in its key, and nodes exist only for published
/// regions, so a match proves it valid; a handle that matches no node goes to
/// the general path, which checks it.
template <EventId E, typename HandleArg, typename ContextArg>
__attribute__((always_inline)) inline int32_t
handleEvent(HandleArg Handle, const char *Ctc, ContextArg Context, std::uint64_t Payload) noexcept {
  constexpr Role R = info(E).EventRole;
  constexpr bool PlainFork = info(E).Group == POMP_GROUP_PARALLEL && !ReturnsContext<ContextArg> &&
                             !ReceivesContext<ContextArg> && (R == Role::ENTER || R == Role::BEGIN);
  ThreadState *T = CurrentThread;
  if constexpr (endsAcquisition(E))
    if (__builtin_expect(T != nullptr, 1))
      T->PompAcquisition = Acquisition::None;
  if (PlainFork || __builtin_expect(!T || T->InEvent.load(std::memory_order_relaxed), 0)) {
    if (!Runtime::activation().isActive(E))
      return inactiveEvent<E>(Handle, Ctc, Context, Payload);
    return slowEvent<E>(Handle, Ctc, Context, Payload);
  }
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  // Tested only with the flag set: finalisation clears the bits and then waits
  // only for threads whose flag it sees (Lifecycle.h). The fast bit also says
  // that the clock is the TSC.
  if (__builtin_expect(!Runtime::activation().isActiveFast(E), 0)) {
    if (Runtime::activation().isActive(E)) {
      T->InEvent.store(false, std::memory_order_relaxed);
      return slowEvent<E>(Handle, Ctc, Context, Payload);
    }
    // Inactive (monitoring off, or the group's level): decided while the flag
    // is held, so without a second handshake.
    T->Stack.dropHandOver();
    const bool General = inactiveNeedsGeneralPath<E, HandleArg, ContextArg>(T, Handle);
    T->InEvent.store(false, std::memory_order_release);
    return General ? slowEvent<E>(Handle, Ctc, Context, Payload) : POMP_SUCCESS;
  }
  POMP_Handle_t H;
  if (__builtin_expect(!fastHandle(Handle, H) || !canStoreContext(Context), 0)) {
    T->InEvent.store(false, std::memory_order_relaxed);
    return slowEvent<E>(Handle, Ctc, Context, Payload);
  }
  const NodeKey Key = makeKey(static_cast<RegionId>(H), canonicalOpener(E));
  if constexpr (R == Role::ENTER || R == Role::BEGIN) {
    Node *N;
    if constexpr (E == EventId::Parallel_begin_forked)
      if (!T->PendingJoins.empty() && Core::contextOf(T->current()) != Context)
        Runtime::core().closeStaleJoins(*T);
    if constexpr (ReceivesContext<ContextArg>) {
      Node *Parent = Context ? Core::cachedForkParent(*T, Context) : nullptr;
      N = Parent ? Core::cachedChild(*T, Parent, Key) : nullptr;
    } else {
      N = Core::cachedChild(*T, T->current(), Key);
    }
    if constexpr (visitsTracked(E)) {
      if (N != nullptr)
        N = enterAtStart<E>(*T, N,
                            [&](auto &&Now) { return Core::enterCachedTracked(*T, N, Now); });
    }
    if (__builtin_expect(N == nullptr, 0))
      return enterCachedOrSlow<E>(Handle, Ctc, Context, Payload, *T, Key);
    // A tracked opener's node was pushed by enterCachedTracked().
    if constexpr (E == EventId::Implicit_barrier_enter || !visitsTracked(E))
      pushCachedEnter<E>(*T, N);
    // A construct written first in the block starts at the begin's time.
    if constexpr (R == Role::BEGIN)
      T->Stack.markBegun();
    finishCachedEnter<E>(*T, N, Context);
  } else if constexpr (R == Role::EXIT || R == Role::END) {
    // The master's regions of a late join (core/Joins.h) close with its exit.
    if constexpr (E == EventId::Parallel_exit)
      if (!T->PendingJoins.empty())
        Runtime::core().closeOwnJoin(*T, Key, Clock::readTsc());
    if (__builtin_expect(!Core::innermostIs(*T, Key), 0)) {
      T->InEvent.store(false, std::memory_order_relaxed);
      return slowEvent<E>(Handle, Ctc, Context, Payload);
    }
    // A worksharing construct's exit (a team's end) follows its implicit
    // barrier's exit at once: one clock read serves both (FrameStack).
    const Tick Now = T->Stack.takeHandOver(Clock::readTsc);
    if constexpr (R == Role::EXIT && E != EventId::Implicit_barrier_exit) {
      // Any exit hands its time to a construct entered right after it: the
      // pop makes the hand-over in the store it makes anyway.
      const Frame F = T->Stack.back();
      T->Stack.popHandingOver(Now);
      Core::charge(F, T->Stack.back(), Now);
    } else {
      Core::popCached(*T, [Now] { return Now; });
    }
    if constexpr (E == EventId::Implicit_barrier_exit)
      T->Stack.handOver(Now);
    else if constexpr (E == EventId::Single_end || E == EventId::Section_end)
      T->Stack.handOverToBarrier(Now);
  } else {
    T->Stack.dropHandOver();
    Node *N = Core::cachedChild(*T, T->current(), Key);
    if (__builtin_expect(N == nullptr, 0)) {
      T->InEvent.store(false, std::memory_order_relaxed);
      return slowEvent<E>(Handle, Ctc, Context, Payload);
    }
    Core::eventCached(N);
  }
  T->InEvent.store(false, std::memory_order_release);
  return POMP_SUCCESS;
}

template <EventId E, typename HandleArg, typename CtcArg, typename ForkArg, typename TaskArg,
          typename LockArg, typename WasSetArg, typename ThreadsArg>
int32_t dispatch(HandleArg Handle, CtcArg Ctc, ForkArg Fork, TaskArg Task, LockArg Lock,
                 WasSetArg WasSet, ThreadsArg NumThreads) noexcept {
  static_assert(std::is_same_v<HandleArg, POMP_Handle_t *> == (info(E).Handle == HandleKind::FIRST),
                "FIRST events take POMP_Handle_t*, NEXT events POMP_Handle_t");
  auto Context = pickContext(Fork, Task);
  // The task body's last access: in a TSan build, the next task that libomp
  // gives this task's memory is ordered after it (adapters/TsanEdges.h).
  if constexpr (E == EventId::Task_end)
    tsan::releaseTasks();
  // A team's context carries the fork's join bits and sequence number, which
  // name no node.
  if constexpr (E == EventId::Parallel_begin_forked)
    Context = Core::forkNode(Context);
  return handleEvent<E>(Handle, ctcOf(Ctc), Context, payloadOf<E>(Lock, WasSet, NumThreads));
}

/// POMP_Join_barrier_needed() with a late-join context: the calling thread
/// remembers its team (Core::noteLateJoin), holding its InEvent flag as an
/// event does, since finalisation reads the same state.
__attribute__((noinline)) void noteLateJoin(POMP_Context_t Fork) noexcept {
  ThreadState *T = CurrentThread;
  // A thread without state has no region open to close later.
  if (!T)
    return;
  // A combined construct asks twice, once for its worksharing region: the
  // thread noted its team at the first question.
  if (!T->PendingJoins.empty() && T->PendingJoins.back().Sequence == Core::forkSequence(Fork) &&
      Core::contextOf(T->PendingJoins.back().Fork) == Core::forkNode(Fork))
    return;
  if (T->InEvent.load(std::memory_order_relaxed)) {
    reentrant();
    return;
  }
  T->InEvent.store(true, std::memory_order_relaxed);
  std::atomic_signal_fence(std::memory_order_seq_cst);
  if (Runtime::phase() == Phase::Running) {
    try {
      Core::noteLateJoin(*T, Fork);
    } catch (...) {
      // Only the list's growth beyond its reserve can throw: the regions stay
      // open and are closed at finalisation, counted there.
      failCode(POMP_ERROR_OUT_OF_RESOURCES);
    }
  }
  T->InEvent.store(false, std::memory_order_release);
}

/// Runs a control routine, turning any exception into an error code.
template <typename Fn> int32_t guarded(Fn &&F) noexcept {
  try {
    return F();
  } catch (...) {
    return failCode(POMP_ERROR_OUT_OF_RESOURCES);
  }
}

} // namespace
} // namespace pomp::rt

// The event routines are generated from the event list, which gives each
// routine's parameter list but not its arguments as a list. The bodies name
// the parameters every row spells the same way (handle, ctc, fork_context,
// task_context, and for traces lock_id, was_lock_set, num_threads); these
// placeholders stand in for the ones a routine lacks, and a routine's own
// parameter of the same name hides its placeholder.
namespace {
constexpr pomp::rt::NoArg ctc{};
constexpr pomp::rt::NoArg fork_context{};
constexpr pomp::rt::NoArg task_context{};
constexpr pomp::rt::NoArg lock_id{};
constexpr pomp::rt::NoArg was_lock_set{};
constexpr pomp::rt::NoArg num_threads{};
} // namespace

// The other run-time context arguments (thread ids, iteration bounds) are
// accepted but neither the profile nor a trace needs them: the library
// identifies threads itself.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  POMP_EXPORT POMP_NOTHROW int32_t POMP_##Name Params {                                            \
    return pomp::rt::dispatch<pomp::rt::EventId::Name>(handle, ctc, fork_context, task_context,    \
                                                       lock_id, was_lock_set, num_threads);        \
  }
#include "pomp_events.def"

// The forms without the thread id (POMP_API.md, "Routines without the thread
// id"), which ompinst calls unless --thread-ids: the same event, one argument
// fewer, which gcc's compile of every call site pays for (docs/PERFORMANCE.md,
// session 31). The second parameter of every row is the thread id but in
// Section_begin's (paper order: handle, section_num, thread_id), whose form
// takes (handle, section_num): the same types as the macro's list, and libpomp
// reads neither.
#define POMP_WITHOUT_THREAD_ID(First, ThreadId, ...) (First, ##__VA_ARGS__)
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  POMP_EXPORT POMP_NOTHROW int32_t POMP_##Name##_notid POMP_WITHOUT_THREAD_ID Params {             \
    return pomp::rt::dispatch<pomp::rt::EventId::Name>(handle, ctc, fork_context, task_context,    \
                                                       lock_id, was_lock_set, num_threads);        \
  }
#include "pomp_events.def"
#undef POMP_WITHOUT_THREAD_ID

// The forms that return the context (pomp_context_forms.h): the same event as
// the pointer routine, with the event's code inlined (no second call), storing
// into a local.
namespace pomp::rt {
namespace {
template <EventId E, typename ThreadsArg>
POMP_Context_t contextReturned(POMP_Handle_t *Handle, const char *Ctc, ThreadsArg NumThreads) {
  POMP_Context_t Context = 0;
  handleEvent<E>(Handle, Ctc, &Context, payloadOf<E>(NoArg{}, NoArg{}, NumThreads));
  return Context;
}
} // namespace
} // namespace pomp::rt

POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Parallel_fork_ctx(POMP_Handle_t *handle,
                                                               int32_t thread_id,
                                                               int32_t num_threads,
                                                               int32_t if_expr_result,
                                                               const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Parallel_fork>(handle, ctc, num_threads);
}

POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Teams_enter_ctx(POMP_Handle_t *handle,
                                                             int32_t thread_id, int32_t num_teams,
                                                             int32_t thread_limit,
                                                             const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Teams_enter>(handle, ctc, num_threads);
}

POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Task_create_enter_ctx(POMP_Handle_t *handle,
                                                                   int32_t thread_id,
                                                                   int32_t if_expr_result,
                                                                   const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Task_create_enter>(handle, ctc, num_threads);
}

// The same three without the thread id (not calls of the exported forms,
// which would go through the PLT).
POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Parallel_fork_ctx_notid(POMP_Handle_t *handle,
                                                                     int32_t num_threads,
                                                                     int32_t if_expr_result,
                                                                     const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Parallel_fork>(handle, ctc, num_threads);
}

POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Teams_enter_ctx_notid(POMP_Handle_t *handle,
                                                                   int32_t num_teams,
                                                                   int32_t thread_limit,
                                                                   const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Teams_enter>(handle, ctc, num_threads);
}

POMP_EXPORT POMP_NOTHROW POMP_Context_t POMP_Task_create_enter_ctx_notid(POMP_Handle_t *handle,
                                                                         int32_t if_expr_result,
                                                                         const char ctc[]) {
  return pomp::rt::contextReturned<pomp::rt::EventId::Task_create_enter>(handle, ctc, num_threads);
}
#pragma GCC diagnostic pop

using pomp::rt::guarded;
using pomp::rt::Runtime;

POMP_EXPORT const char *POMP_Error_string(int32_t error) {
  if (error < 0 || error > POMP_ERROR_OUT_OF_RESOURCES)
    return "unknown error code";
  return pomp::rt::ErrorStrings[error];
}

POMP_EXPORT int32_t POMP_Set_level(int32_t group, int32_t level) {
  return guarded([&] {
    if (const int32_t Error = Runtime::ensureRunning(); Error != POMP_SUCCESS)
      return pomp::rt::failCode(Error);
    if (!Runtime::activation().setLevel(static_cast<POMP_Group>(group),
                                        static_cast<POMP_Level>(level))) {
      pomp::rt::setLastError("unknown group, or a level the group does not accept");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

POMP_EXPORT int32_t POMP_Get_level(int32_t group, int32_t *level) {
  return guarded([&] {
    if (!level || group < 0 || group >= POMP_GROUP_COUNT) {
      pomp::rt::setLastError("the level pointer is NULL or the group unknown");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    if (const int32_t Error = Runtime::ensureRunning(); Error != POMP_SUCCESS)
      return pomp::rt::failCode(Error);
    *level = Runtime::activation().level(static_cast<POMP_Group>(group));
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_Init(void) {
  return guarded([] { return pomp::rt::failCode(Runtime::initialize()); });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_Finalize(void) {
  return guarded([] { return pomp::rt::failCode(Runtime::finalize()); });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_On(void) {
  return guarded([] {
    if (const int32_t Error = Runtime::ensureRunning(); Error != POMP_SUCCESS)
      return pomp::rt::failCode(Error);
    Runtime::activation().setOn(true);
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_Off(void) {
  return guarded([] {
    if (const int32_t Error = Runtime::ensureRunning(); Error != POMP_SUCCESS)
      return pomp::rt::failCode(Error);
    Runtime::activation().setOn(false);
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_Get_handle(POMP_Handle_t *handle, const char ctc[]) {
  return guarded([&] {
    if (!handle) {
      pomp::rt::setLastError("the handle pointer is NULL");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    if (Runtime::phase() >= pomp::rt::Phase::Finalizing)
      return pomp::rt::failCode(POMP_ERROR_FINALIZED);
    pomp::rt::RegionTable &Regions = Runtime::regions();
    const POMP_Handle_t Current = __atomic_load_n(handle, __ATOMIC_ACQUIRE);
    if (Current != 0) {
      if (Regions.isValid(Current))
        return static_cast<int32_t>(POMP_SUCCESS);
      pomp::rt::setLastError("the handle was not given out by this library");
      return static_cast<int32_t>(POMP_ERROR_INVALID_HANDLE);
    }
    if (!ctc) {
      pomp::rt::setLastError("the handle is 0 and the CTC string is NULL");
      return static_cast<int32_t>(POMP_ERROR_MISSING_CTC);
    }
    const std::size_t Length = strnlen(ctc, pomp::ctc::MaxCtcLength + 1);
    if (Length > pomp::ctc::MaxCtcLength) {
      pomp::rt::setLastError("malformed CTC string: longer than the reader accepts");
      return static_cast<int32_t>(POMP_ERROR_MALFORMED_CTC);
    }
    pomp::rt::RegisterResult R = Regions.registerCtc(std::string_view(ctc, Length));
    if (R.Error != POMP_SUCCESS) {
      pomp::rt::setLastError(R.Message);
      return R.Error;
    }
    Regions.bind(handle, R.Id);
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

POMP_EXPORT const char *POMP_Last_error_message(void) { return pomp::rt::lastError(); }

POMP_EXPORT int32_t POMP_Note_mpi_part(const char *directory, int32_t rank, int32_t size) {
  return guarded([&] {
    if (!directory || !*directory || rank < 0 || size <= 0 || rank >= size) {
      pomp::rt::setLastError("no directory, or a rank outside 0..size-1");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    // INVALID_ARGUMENT keeps the runtime's own message (the claimed directory).
    const int32_t Error = Runtime::noteMpiPart(directory, rank, size);
    return Error == POMP_ERROR_INVALID_ARGUMENT ? Error : pomp::rt::failCode(Error);
  });
}

POMP_EXPORT int32_t POMP_Otf2_trace_open(void) {
  return guarded([&] { return static_cast<int32_t>(Runtime::otf2TraceOpen() ? 1 : 0); });
}

POMP_EXPORT int32_t POMP_Finalize_mpi_job(const POMP_Mpi_job_trace *job) {
  return guarded([&] {
    if (!job || !job->directory || !*job->directory || !job->collectives || job->size <= 0 ||
        job->rank < 0 || job->rank >= job->size) {
      pomp::rt::setLastError("no job, directory or collectives, or a rank outside 0..size-1");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    pomp::rt::MpiJobTrace Job;
    Job.Directory = job->directory;
    Job.Rank = job->rank;
    Job.Size = job->size;
    Job.Collectives = job->collectives;
    Job.CollectiveData = job->collective_data;
    Job.CollectiveContext = job->collective_context;
    if (job->rank == 0 && job->clock_at_ns && job->clock_offset_ns && job->clock_error_ns) {
      const std::size_t N = 2 * static_cast<std::size_t>(job->size);
      Job.ClockAt.assign(job->clock_at_ns, job->clock_at_ns + N);
      Job.ClockOffset.assign(job->clock_offset_ns, job->clock_offset_ns + N);
      Job.ClockError.assign(job->clock_error_ns, job->clock_error_ns + N);
    }
    return pomp::rt::failCode(Runtime::finalizeMpiJob(Job));
  });
}

POMP_EXPORT POMP_NOTHROW int32_t POMP_Join_barrier_needed(POMP_Context_t fork_context) {
  // A function of the context every thread of the team received: all of them
  // take the same branch around the barrier.
  if ((fork_context & pomp::rt::Core::JoinBit) == 0)
    return 1;
  if (pomp::rt::Core::isLateJoin(fork_context))
    pomp::rt::noteLateJoin(fork_context);
  return 0;
}

POMP_EXPORT int32_t POMP_Note_uninstrumented(const char *file, const char *reason) {
  // Called from static constructors, before main: it records and never
  // initialises the library (that would read the options and start the
  // clock before the program runs).
  return guarded([&] {
    if (!file || !*file) {
      pomp::rt::setLastError("the file name is NULL or empty");
      return static_cast<int32_t>(POMP_ERROR_INVALID_ARGUMENT);
    }
    if (Runtime::phase() >= pomp::rt::Phase::Finalizing)
      return pomp::rt::failCode(POMP_ERROR_FINALIZED);
    if (!pomp::rt::noteUninstrumented(file, reason ? reason : ""))
      return pomp::rt::failCode(POMP_ERROR_OUT_OF_RESOURCES);
    return static_cast<int32_t>(POMP_SUCCESS);
  });
}

namespace pomp::rt {
namespace {

/// The regions of POMP_USER_REGION_BEGIN/END, by name: a name is one region,
/// wherever its macros stand (as Caliper's CALI_MARK_BEGIN), located at the
/// first BEGIN that registered it. Consulted once per macro site and thread
/// until the site's static handle is bound, so a mutex is cheap enough.
class NamedUserRegions {
public:
  /// The region of Name, registered from File and Line when new; 0 and a
  /// message when the CTC string cannot be registered.
  RegionId begin(const char *Name, const char *File, int32_t Line, int32_t &Error) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (const auto Found = ByName.find(Name); Found != ByName.end())
      return Found->second;
    pomp::ctc::RegionDescriptor D;
    D.Type = "userregion";
    D.Kind = pomp::ctc::regionKindFromSpelling(D.Type);
    D.Name = Name;
    D.File = File ? File : "";
    if (Line > 0)
      D.StartLines = D.EndLines =
          pomp::ctc::LineRange{static_cast<unsigned>(Line), static_cast<unsigned>(Line)};
    RegisterResult R = Runtime::regions().registerCtc(pomp::ctc::writeDescriptor(D));
    if (R.Error != POMP_SUCCESS) {
      Error = R.Error;
      setLastError(R.Message);
      return 0;
    }
    ByName.emplace(Name, R.Id);
    return R.Id;
  }
  /// The region a BEGIN of Name registered, or 0.
  RegionId find(const char *Name) {
    std::lock_guard<std::mutex> Lock(Mutex);
    const auto Found = ByName.find(Name);
    return Found == ByName.end() ? 0 : Found->second;
  }

private:
  std::mutex Mutex;
  std::unordered_map<std::string, RegionId> ByName;
};

/// Never destroyed: a thread may end a region while the program exits.
NamedUserRegions &namedUserRegions() {
  static NamedUserRegions *const Table = new NamedUserRegions();
  return *Table;
}

} // namespace
} // namespace pomp::rt

POMP_EXPORT int32_t POMP_User_region_begin_named(POMP_Handle_t *handle, const char *name,
                                                 const char *file, int32_t line) {
  if (!handle || !name || !*name) {
    pomp::rt::setLastError("POMP_USER_REGION_BEGIN needs a handle and a non-empty name");
    return POMP_ERROR_INVALID_ARGUMENT;
  }
  if (__atomic_load_n(handle, __ATOMIC_ACQUIRE) == 0) {
    if (Runtime::phase() >= pomp::rt::Phase::Finalizing)
      return pomp::rt::failCode(POMP_ERROR_FINALIZED);
    int32_t Error = POMP_SUCCESS;
    const pomp::rt::RegionId Region = pomp::rt::namedUserRegions().begin(name, file, line, Error);
    if (Region == 0)
      return Error;
    Runtime::regions().bind(handle, Region);
  }
  // The thread id is not used by libpomp (it knows its threads).
  return POMP_User_region_begin(handle, 0, nullptr);
}

POMP_EXPORT int32_t POMP_User_region_end_named(POMP_Handle_t *handle, const char *name) {
  if (!handle || !name || !*name) {
    pomp::rt::setLastError("POMP_USER_REGION_END needs a handle and a non-empty name");
    return POMP_ERROR_INVALID_ARGUMENT;
  }
  if (__atomic_load_n(handle, __ATOMIC_ACQUIRE) == 0) {
    const pomp::rt::RegionId Region = pomp::rt::namedUserRegions().find(name);
    if (Region == 0) {
      pomp::rt::setLastError(std::string("POMP_USER_REGION_END(\"") + name +
                             "\") without a POMP_USER_REGION_BEGIN of that name");
      return POMP_ERROR_UNBALANCED;
    }
    Runtime::regions().bind(handle, Region);
  }
  return POMP_User_region_end(__atomic_load_n(handle, __ATOMIC_ACQUIRE), 0);
}
