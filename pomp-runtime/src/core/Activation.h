//===- core/Activation.h - Run-time activation of events --------*- C++ -*-===//
///
/// \file
/// Which events are recorded (paper section 3.8): each group has one level,
/// monitoring is on or off (POMP_On/POMP_Off), and the library is running or
/// not (before initialisation, after finalisation). The three are folded into
/// one bit per event whenever one of them changes, so an event site tests one
/// bit of a word that only changes on those rare calls.
///
/// A group's level comes from POMP_<GROUP> at initialisation and from
/// POMP_Set_level later. The levels a group accepts are those under which one
/// of its events fires (Events.h: levelMakesSense), plus none.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_ACTIVATION_H
#define POMP_RUNTIME_CORE_ACTIVATION_H

#include "core/Config.h"
#include "core/Events.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace pomp::rt {

/// The name of a level as the environment spells it ("enterexit").
std::string_view levelName(POMP_Level Level);
/// The name of a group as its variable spells it after POMP_ ("PARALLEL").
std::string_view groupName(POMP_Group Group);

/// POMP_PARALLEL ... POMP_RUNTIME with their default levels. The accepted
/// words of each are computed from the event list by groupLevelOption().
struct GroupDefault {
  POMP_Group Group;
  POMP_Level Level;
  std::string_view Description;
};
inline constexpr GroupDefault GroupDefaults[POMP_GROUP_COUNT] = {
    {POMP_GROUP_PARALLEL, POMP_LEVEL_BEGINEND, "Parallel group: parallel and teams regions."},
    {POMP_GROUP_LOOP, POMP_LEVEL_ENTEREXIT, "Loop group: for, simd, loop, distribute."},
    {POMP_GROUP_WORKSHARE, POMP_LEVEL_BEGINEND,
     "Workshare group: sections, section, single, workshare, scope."},
    {POMP_GROUP_SYNC, POMP_LEVEL_BEGINEND,
     "Sync group: critical, ordered, barriers, master, masked, atomic, flush, cancel."},
    {POMP_GROUP_TASK, POMP_LEVEL_BEGINEND,
     "Task group: task, taskwait, taskgroup, taskyield, taskloop."},
    {POMP_GROUP_TARGET, POMP_LEVEL_ENTEREXIT, "Target group: the host side of target constructs."},
    {POMP_GROUP_USER, POMP_LEVEL_BEGINEND, "User group: functions and user regions."},
    {POMP_GROUP_RUNTIME, POMP_LEVEL_ENTEREXIT, "Runtime group: OpenMP run-time library routines."},
};
static_assert(sizeof(GroupDefaults) / sizeof(GroupDefaults[0]) == POMP_GROUP_COUNT);

/// The option spec of POMP_<GROUP>; its strings live as long as the program.
const OptionSpec &groupLevelOption(POMP_Group Group);
/// All eight group options, for the option list.
const OptionSpec *groupLevelOptions();

/// The per-event activation bits and what they are computed from.
class Activation {
public:
  constexpr Activation() = default;

  /// True when the event is to be recorded now. One relaxed load and a test.
  bool isActive(EventId E) const { return test(Mask, E); }

  /// True when the event is active and may take an adapter's fast path,
  /// which reads the clock with rdtsc: the same as isActive() while the clock
  /// is the TSC (setFastPath(true)), never otherwise. Saves the fast path a
  /// second test.
  bool isActiveFast(EventId E) const { return test(FastMask, E); }

  /// Whether active events may take the fast path (the clock is the TSC).
  void setFastPath(bool Allowed);

  /// Sets every group to its POMP_<GROUP> value (or default); invalid values
  /// are reported through the source's messages.
  void configure(const OptionSource &Options);

  /// False for an unknown group or a level the group does not accept.
  bool setLevel(POMP_Group Group, POMP_Level Level);
  POMP_Level level(POMP_Group Group) const;

  /// POMP_On / POMP_Off.
  void setOn(bool On);
  bool isOn() const;

  /// Only a running library records: set at the end of initialisation and
  /// cleared at the start of finalisation.
  void setRunning(bool Running);

  /// Counts the changes of levels and of on/off since the library started. A
  /// closing event whose opening event was not recorded is expected after such
  /// a change, and only then.
  std::uint64_t generation() const { return Generation.load(std::memory_order_relaxed); }

private:
  using Bits = std::array<std::atomic<std::uint64_t>, EventMaskWords>;

  static bool test(const Bits &Set, EventId E) {
    constexpr std::uint64_t One = 1;
    return (Set[index(E) / EventMaskBits].load(std::memory_order_relaxed) >>
            (index(E) % EventMaskBits)) &
           One;
  }

  void recompute();

  Bits Mask{};
  Bits FastMask{};
  std::atomic<bool> FastPath{false};
  std::array<std::atomic<std::uint8_t>, POMP_GROUP_COUNT> Levels{};
  std::atomic<bool> On{true};
  std::atomic<bool> Running{false};
  std::atomic<std::uint64_t> Generation{0};
  mutable std::mutex Update;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_ACTIVATION_H
