//===- core/Teams.h - Parallel regions the OpenMP runtime reports -*- C++ -*-===//
///
/// \file
/// What the core keeps about team executions that reach it from the OpenMP
/// runtime (OMPT) rather than from instrumented code.
///
/// LLVM's libomp delivers a worker's implicit-barrier end and implicit-task end
/// late: when the worker is woken for the next parallel region, or at shutdown
/// (seed 000 and the OMPT trap list in SPEC.md). Closing the worker's regions
/// at that moment would charge it with all the time between two regions. So
/// the master records when its team ended in a TeamInstance, each worker
/// remembers which instance its implicit task belongs to, and a late end is
/// charged no later than the team's end. Regions still open at finalisation
/// whose team has ended are closed at that end (Core::closeEndedTeams()).
///
/// Each master thread owns a ring of instances, reused round-robin: a
/// worker's late end names the previous region of the same master, never one
/// many regions back. An instance whose team still runs is never reused: the
/// ring grows instead, so any depth of nested teams is measured exactly.
///
/// The teams' ends go to the master's TeamEndLog, seven to a cache line, in
/// the order of the forks. A worker at the top of its stack (the common
/// case: a pool thread between two regions) does not read its team's end at
/// its late end; it takes its regions off the stack and charges them once the
/// log's line is complete (Core::deferLateEnd()). So a loop of parallel
/// regions moves one line of ends between the cores per seven regions, not
/// one each way per region (docs/PERFORMANCE.md, session 11).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_TEAMS_H
#define POMP_RUNTIME_CORE_TEAMS_H

#include "core/Clock.h"
#include "core/Regions.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace pomp::rt {

struct Node;

/// What a team's members read of its TeamInstance at their implicit tasks'
/// begin: the region, its fork node and code address, and how the team is
/// measured.
struct TeamIdentity {
  /// The node the team's implicit tasks hang under.
  Node *Fork = nullptr;
  /// The region of the parallel construct and its code address.
  RegionId Region = 0;
  const void *Code = nullptr;
  /// The depth of the master's stack with the fork's region open.
  std::uint32_t ForkDepth = 0;
  /// Instrumented code reports this region itself (POMP events): the runtime's
  /// events of the team are detail, not regions of their own.
  bool Instrumented = false;
  /// The master entered a region for the fork (as opposed to POMP doing it).
  bool ForkEntered = false;
  /// A league: the teams of a host teams region, whose members' initial tasks
  /// are the teams' bodies.
  bool League = false;
  /// An instrumented team that may skip the explicit barrier before its
  /// Parallel_end (Core::JoinBit): the regions its threads leave open then
  /// close at the end of their implicit tasks, no later than the team's end.
  bool RuntimeJoin = false;
  /// A team the OpenMP runtime forked for itself (libomp's hidden helper
  /// team): neither it nor its constructs are regions of the program.
  bool RuntimeOwn = false;

  bool operator==(const TeamIdentity &O) const {
    return Fork == O.Fork && Region == O.Region && Code == O.Code && ForkDepth == O.ForkDepth &&
           Instrumented == O.Instrumented && ForkEntered == O.ForkEntered && League == O.League &&
           RuntimeJoin == O.RuntimeJoin && RuntimeOwn == O.RuntimeOwn;
  }
};

/// The ends of the teams one master forked, by their fork's sequence number.
/// Seven ends share a cache line with the line's tag (which seven), so that
/// workers that read them once the line is complete move one line per seven
/// teams. The log holds the last Lines lines: an end older than that, or one
/// that would overwrite a later team's line (a team that outlived 56 nested
/// teams of its master), is not in it (TeamInstance keeps that one).
class TeamEndLog {
public:
  static constexpr std::uint32_t PerLine = 7;
  static constexpr std::uint32_t Lines = 8;
  /// Fork sequence numbers run modulo Period: a multiple of PerLine that fits
  /// the 16 bits a team's parallel data carries (OmptAdapter.cpp, TeamFacts).
  static constexpr std::uint32_t Period = PerLine * (0xffffu / PerLine);
  static constexpr std::uint32_t LinesPerPeriod = Period / PerLine;

  /// The sequence number of the fork after Sequence's.
  static std::uint16_t next(std::uint16_t Sequence) {
    return static_cast<std::uint16_t>(Sequence + 1u == Period ? 0u : Sequence + 1u);
  }
  /// Which line of the period holds Sequence's end.
  static std::uint32_t lineOf(std::uint16_t Sequence) { return Sequence / PerLine; }

  /// The master: the team of fork Sequence ended at End (End != 0). False
  /// when the line holds later teams' ends already.
  bool ended(std::uint16_t Sequence, Tick End) {
    const std::uint32_t Want = lineOf(Sequence);
    Line &L = Log[Want % Lines];
    const std::uint32_t Tag = L.Tag.load(std::memory_order_relaxed);
    if (Tag != Want) {
      if (Tag != Empty && isLater(Tag, Want))
        return false;
      // A seqlock: a worker that reads while the line is cleared sees two
      // different tags (or Writing) and reads again.
      L.Tag.store(Writing, std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_release);
      for (std::atomic<Tick> &E : L.Ends)
        E.store(0, std::memory_order_relaxed);
      L.Tag.store(Want, std::memory_order_release);
    }
    L.Ends[Sequence % PerLine].store(End, std::memory_order_release);
    return true;
  }

  /// What the log says about fork Sequence's end.
  enum class Lookup {
    Ended,      ///< End holds the team's end
    NotYet,     ///< not recorded (yet): the team runs or did not record it
    Overwritten ///< the line holds later teams' ends
  };
  Lookup endOf(std::uint16_t Sequence, Tick &End) const {
    const std::uint32_t Want = lineOf(Sequence);
    const Line &L = Log[Want % Lines];
    constexpr int Attempts = 3;
    for (int Attempt = 0; Attempt < Attempts; ++Attempt) {
      const std::uint32_t Before = L.Tag.load(std::memory_order_acquire);
      End = L.Ends[Sequence % PerLine].load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (Before == Writing || L.Tag.load(std::memory_order_relaxed) != Before)
        continue;
      if (Before == Want)
        return End != 0 ? Lookup::Ended : Lookup::NotYet;
      return Before != Empty && isLater(Before, Want) ? Lookup::Overwritten : Lookup::NotYet;
    }
    return Lookup::NotYet;
  }

private:
  static constexpr std::uint32_t Empty = ~std::uint32_t{0};
  static constexpr std::uint32_t Writing = Empty - 1;

  /// Line numbers wrap: within half the period, a line ahead of Want is a
  /// later one.
  static bool isLater(std::uint32_t Tag, std::uint32_t Want) {
    const std::uint32_t Ahead = Tag >= Want ? Tag - Want : Tag + LinesPerPeriod - Want;
    return Ahead != 0 && Ahead < LinesPerPeriod / 2;
  }

  struct alignas(64) Line {
    std::atomic<std::uint32_t> Tag{Empty};
    std::atomic<Tick> Ends[PerLine] = {};
  };
  static_assert(sizeof(Line) == 64, "a line of the log is one cache line");
  Line Log[Lines];
};

/// One execution of a parallel region (a team), owned by its master thread.
/// Two cache lines, each written by the master at one moment only:
///  - the identity, which members read at their begin: written at a fork only
///    where it differs from the slot's previous team, so that a loop over one
///    construct writes nothing there and the members' copies stay valid;
///  - the master's own: the fork's sequence number, whether the team runs,
///    and the team's end where the log could not take it.
/// The team's end goes to the master's log (TeamEndLog). Every member read of
/// a line the master had just written was a cross-core transfer on the way to
/// the join (docs/PERFORMANCE.md).
struct alignas(64) TeamInstance {
  explicit TeamInstance(TeamEndLog &Ends) : Log(&Ends) {}

  TeamIdentity Id;
  /// The master's log of team ends; set once.
  TeamEndLog *const Log;

  /// The identity of the slot's new team.
  void setIdentity(const TeamIdentity &New) {
    if (!(Id == New))
      Id = New;
  }

  /// The master's time at the end of the team of this generation.
  void ended(Tick Now) {
    const std::uint32_t Current = Generation.load(std::memory_order_relaxed);
    if (Log->ended(static_cast<std::uint16_t>(Current), Now))
      return;
    // A seqlock: a member that reads while the end is written sees two
    // different generations and takes the end as unknown.
    EndGeneration.store(Writing, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
    End.store(Now, std::memory_order_relaxed);
    EndGeneration.store(Current, std::memory_order_release);
  }

  /// What is known of the end of the team whose generation had these low
  /// bits: Ended with its time in Result, NotYet while it runs, Overwritten
  /// once it is too far back.
  TeamEndLog::Lookup lookupEnd(std::uint16_t LowGeneration, Tick &Result) const {
    const TeamEndLog::Lookup InLog = Log->endOf(LowGeneration, Result);
    if (InLog != TeamEndLog::Lookup::Overwritten)
      return InLog;
    // The log's line was taken by later teams: the end is here if the log
    // could not take it.
    const std::uint32_t Before = EndGeneration.load(std::memory_order_acquire);
    if (Before == Writing || static_cast<std::uint16_t>(Before) != LowGeneration)
      return TeamEndLog::Lookup::Overwritten;
    Result = End.load(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    return EndGeneration.load(std::memory_order_relaxed) == Before
               ? TeamEndLog::Lookup::Ended
               : TeamEndLog::Lookup::Overwritten;
  }

  /// The end of the team whose generation had these low bits, 0 while it
  /// runs or once it is too far back.
  Tick endOf(std::uint16_t LowGeneration) const {
    Tick Result = 0;
    return lookupEnd(LowGeneration, Result) == TeamEndLog::Lookup::Ended ? Result : 0;
  }

  /// The sequence number of the slot's fork (TeamEndLog): read by members
  /// only where the team's parallel data cannot carry it.
  alignas(64) std::atomic<std::uint32_t> Generation{0};
  /// Between the region's begin and end; only the master reads and writes it.
  bool Running = false;
  /// The generation whose end End holds, where the log could not take it.
  std::atomic<std::uint32_t> EndGeneration{Writing};
  std::atomic<Tick> End{0};

private:
  static constexpr std::uint32_t Writing = ~std::uint32_t{0};
};

/// The implicit task a thread executes for a team.
struct ImplicitTask {
  TeamInstance *Team = nullptr;
  /// The low bits of the instance's generation when the task began (what the
  /// team's parallel data carries: OmptAdapter.cpp, TeamFacts).
  std::uint16_t Generation = 0;
  bool Instrumented = false;
  /// The initial task of a team of a league (host teams region).
  bool Initial = false;
  /// A worker's task, or a league's team's initial task: its end may come
  /// late, after the team's end (a master's comes in the join, before it).
  bool MayEndLate = false;
  /// Stack depth with the implicit task's region open; 0 when no region was
  /// entered for it.
  std::uint32_t Depth = 0;

  /// The team's end when it has ended and the slot was not reused since; 0
  /// otherwise.
  Tick teamEnd() const { return Team ? Team->endOf(Generation) : 0; }
};

/// A thread's teams: the instances it masters and the implicit tasks it runs.
/// Neither has a fixed size: a thread that forks 100 nested (serialized)
/// regions masters 100 running teams at once, and runs 100 implicit tasks.
struct ThreadTeams {
  /// Instances a master cycles through before it needs more; the ring grows
  /// when the next instance is still running (nested teams).
  static constexpr std::size_t RingSize = 16;
  /// Nesting depth of implicit tasks kept without allocating.
  static constexpr std::size_t ReservedNesting = 32;

  ThreadTeams() {
    Ring.reserve(RingSize);
    for (std::size_t I = 0; I < RingSize; ++I)
      Ring.push_back(std::make_unique<TeamInstance>(*Ends));
    Tasks.reserve(ReservedNesting);
    Forked.reserve(ReservedNesting);
  }

  /// The ends of the teams this thread masters, at a fixed address.
  std::unique_ptr<TeamEndLog> Ends = std::make_unique<TeamEndLog>();

  /// The instances, each at a fixed address (workers and the runtime's
  /// ompt_data_t point to them) for the life of the thread.
  std::vector<std::unique_ptr<TeamInstance>> Ring;
  std::size_t NextInstance = 0;
  /// The sequence number of this thread's next fork.
  std::uint16_t NextSequence = 0;

  /// The implicit tasks the thread runs, innermost last.
  std::vector<ImplicitTask> Tasks;
  /// The instances of the teams this thread forked and that have not ended,
  /// innermost last: a thread's teams end in the reverse order of their forks.
  std::vector<TeamInstance *> Forked;

  /// A fresh instance for a region this thread forks: the next one of the
  /// ring, or a new one inserted before it when that one's team still runs
  /// (its master is inside a nested region), so that a running team is never
  /// reused.
  TeamInstance &nextInstance() {
    if (Ring[NextInstance]->Running)
      Ring.insert(Ring.begin() + static_cast<std::ptrdiff_t>(NextInstance),
                  std::make_unique<TeamInstance>(*Ends));
    TeamInstance &I = *Ring[NextInstance];
    NextInstance = (NextInstance + 1) % Ring.size();
    // Only the master writes an instance. The identity is left for
    // setIdentity(), and the log keeps the previous teams' ends (their
    // sequence numbers tell them apart).
    I.Generation.store(NextSequence, std::memory_order_relaxed);
    NextSequence = TeamEndLog::next(NextSequence);
    I.Running = true;
    Forked.push_back(&I);
    return I;
  }

  /// The instance of the team whose end the runtime reports on this thread,
  /// named Named by the end's parallel data: the innermost team the thread
  /// forked. libomp 19 can hand a master the data of a team it already gave
  /// back to its pool, which another thread's fork has taken meanwhile
  /// (nested teams): Named is then another thread's instance, Foreign is set,
  /// and the thread's own innermost team is the one that ends.
  TeamInstance *endForked(TeamInstance *Named, bool &Foreign) {
    Foreign = false;
    if (Forked.empty())
      return Named;
    TeamInstance *Own = Forked.back();
    Forked.pop_back();
    Foreign = Own != Named;
    return Own;
  }

  /// The innermost implicit task, or nullptr outside every team.
  ImplicitTask *innermost() { return Tasks.empty() ? nullptr : &Tasks.back(); }
};

/// The locks a thread holds because omp_test_lock() set them, as the runtime
/// reported them (OMPT): a trace records no acquisition for a test, so their
/// release is not recorded either and acquisitions and releases pair. There
/// is no limit: a thread may hold any number of tested locks (it grows, a
/// warm-up allocation, beyond the ones reserved).
struct TestedLocks {
  /// Tested locks a thread holds at once without allocating.
  static constexpr std::size_t Reserved = 16;

  TestedLocks() { Locks.reserve(Reserved); }

  /// Remembers a lock a test set.
  void add(std::uint64_t Lock) { Locks.push_back(Lock); }
  /// Forgets Lock; true when a test had set it.
  bool remove(std::uint64_t Lock) {
    for (std::size_t I = 0; I < Locks.size(); ++I)
      if (Locks[I] == Lock) {
        Locks[I] = Locks.back();
        Locks.pop_back();
        return true;
      }
    return false;
  }
  std::size_t size() const { return Locks.size(); }

private:
  std::vector<std::uint64_t> Locks;
};

/// Remembers which region the runtime's code addresses were registered as, so
/// that a construct seen before is found without the region table's lock.
struct CodeRegionCache {
  static constexpr std::size_t Entries = 128;
  /// A code address with its construct kind, and the region they name.
  struct Entry {
    std::uintptr_t Key = 0;
    RegionId Region = 0;
  };
  Entry Slots[Entries];

  static std::size_t slot(std::uintptr_t Key) {
    // Return addresses of neighbouring constructs differ in the low bits.
    constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
    constexpr unsigned Shift = 57;
    return static_cast<std::size_t>((Key * Multiplier) >> Shift) & (Entries - 1);
  }
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_TEAMS_H
