//===- core/Events.h - The event list as compile-time tables ----*- C++ -*-===//
///
/// \file
/// Expands pomp_events.def into the runtime's event enum and its tables: name,
/// group, role, handle kind and level mask of every event, plus what the core
/// derives from them (which opener a closing event closes, which constructs
/// are waiting time). Every table is indexed by EventId and sized by the list,
/// so adding a row to pomp_events.def is the only edit an event needs.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_EVENTS_H
#define POMP_RUNTIME_CORE_EVENTS_H

#include "pomplib.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace pomp::rt {

/// One enumerator per row of pomp_events.def, in the file's order.
enum class EventId : std::uint8_t {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) Name,
#include "pomp_events.def"
};

inline constexpr std::size_t EventCount = 0
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) +1
#include "pomp_events.def"
    ;

/// Node keys and frames store an event in 8 bits.
static_assert(EventCount <= 256, "EventId must fit in a byte");

/// Where an event sits in its construct (paper section 3.1).
enum class Role : std::uint8_t { ENTER, EXIT, BEGIN, END, EVENT };

/// FIRST events take POMP_Handle_t* and the CTC string; NEXT events the handle.
enum class HandleKind : std::uint8_t { FIRST, NEXT };

/// The static facts of one event, straight from its row.
struct EventInfo {
  std::string_view Name; ///< without the POMP_ prefix
  POMP_Group Group;
  Role EventRole;
  HandleKind Handle;
  unsigned LevelMask; ///< POMP_AT_LEVEL() bits of the levels it fires under
};

inline constexpr std::array<EventInfo, EventCount> Events = {{
#define POMP_EVENT(Name, Group, EventRole, EventHandle, Levels, Params)                            \
  {#Name, POMP_GROUP_##Group, Role::EventRole, HandleKind::EventHandle, (Levels)},
#include "pomp_events.def"
}};

constexpr std::size_t index(EventId E) { return static_cast<std::size_t>(E); }
constexpr const EventInfo &info(EventId E) { return Events[index(E)]; }

constexpr bool isOpener(Role R) { return R == Role::ENTER || R == Role::BEGIN; }
constexpr bool isCloser(Role R) { return R == Role::EXIT || R == Role::END; }

namespace detail {

constexpr bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() && S.substr(S.size() - Suffix.size()) == Suffix;
}

/// The routine-name suffixes of each role. Parallel_fork and
/// Parallel_begin_forked are the context-passing spellings of enter and begin.
struct RoleSuffix {
  Role R;
  std::string_view Suffix;
};
inline constexpr RoleSuffix RoleSuffixes[] = {
    {Role::ENTER, "_enter"}, {Role::ENTER, "_fork"},         {Role::EXIT, "_exit"},
    {Role::BEGIN, "_begin"}, {Role::BEGIN, "_begin_forked"}, {Role::END, "_end"},
    {Role::EVENT, "_event"},
};

/// The construct part of an event name: "Parallel" for Parallel_fork,
/// "Task_create" for Task_create_exit, "Loop_chunk" for Loop_chunk_end.
/// Empty when the name does not end in a suffix of its role.
constexpr std::string_view stem(const EventInfo &Info) {
  std::string_view Best;
  for (const RoleSuffix &S : RoleSuffixes)
    if (S.R == Info.EventRole && endsWith(Info.Name, S.Suffix)) {
      std::string_view Candidate = Info.Name.substr(0, Info.Name.size() - S.Suffix.size());
      if (Best.empty() || Candidate.size() < Best.size())
        Best = Candidate;
    }
  return Best;
}

constexpr Role openerRoleOf(Role R) {
  return R == Role::EXIT ? Role::ENTER : R == Role::END ? Role::BEGIN : R;
}

/// The first event of the list with the same stem as E and the opening role
/// that E's role pairs with. Openers map to the first opener of their kind
/// (Parallel_fork to Parallel_enter), so both spellings share one node.
/// EventCount when there is none.
constexpr std::size_t canonicalOpener(std::size_t E) {
  const Role Wanted = openerRoleOf(Events[E].EventRole);
  const std::string_view Stem = stem(Events[E]);
  for (std::size_t I = 0; I < EventCount; ++I)
    if (Events[I].EventRole == Wanted && stem(Events[I]) == Stem)
      return I;
  return EventCount;
}

constexpr std::array<std::uint8_t, EventCount> makeOpenerTable() {
  std::array<std::uint8_t, EventCount> Table{};
  for (std::size_t E = 0; E < EventCount; ++E)
    Table[E] = static_cast<std::uint8_t>(canonicalOpener(E));
  return Table;
}

constexpr bool everyEventPairs() {
  for (std::size_t E = 0; E < EventCount; ++E)
    if (stem(Events[E]).empty() || canonicalOpener(E) == EventCount)
      return false;
  return true;
}

} // namespace detail

static_assert(detail::everyEventPairs(),
              "every event name must end in its role's suffix and every exit/end must have an "
              "enter/begin of the same construct in pomp_events.def");

/// For every event, the opener that identifies its node: a closer's matching
/// opener, an opener's canonical spelling, a single event itself.
inline constexpr std::array<std::uint8_t, EventCount> CanonicalOpener = detail::makeOpenerTable();

constexpr EventId canonicalOpener(EventId E) {
  return static_cast<EventId>(CanonicalOpener[index(E)]);
}

namespace detail {
constexpr std::size_t enterOf(std::size_t E) {
  for (std::size_t I = 0; I < EventCount; ++I)
    if (Events[I].EventRole == Role::ENTER && stem(Events[I]) == stem(Events[E]))
      return I;
  return EventCount;
}
} // namespace detail

namespace detail {
/// The first closing event whose canonical opener is E; E itself for a single
/// event or an opener nothing closes.
constexpr std::size_t closerOf(std::size_t E) {
  for (std::size_t I = 0; I < EventCount; ++I)
    if (isCloser(Events[I].EventRole) && CanonicalOpener[I] == E)
      return I;
  return E;
}
constexpr std::array<std::uint8_t, EventCount> makeCloserTable() {
  std::array<std::uint8_t, EventCount> Table{};
  for (std::size_t E = 0; E < EventCount; ++E)
    Table[E] = static_cast<std::uint8_t>(closerOf(E));
  return Table;
}
} // namespace detail

/// For every canonical opener, the event that closes it (Parallel_exit for
/// Parallel_enter): what a region closed by its enclosing one, or by an
/// adapter that found it itself, ends with.
inline constexpr std::array<std::uint8_t, EventCount> Closers = detail::makeCloserTable();
constexpr EventId closerOf(EventId Opener) { return static_cast<EventId>(Closers[index(Opener)]); }

/// True when the construct of a begin event also has an enter event
/// (Parallel_begin: Parallel_enter; not Section_begin or Task_begin).
constexpr bool hasEnter(EventId E) { return detail::enterOf(index(E)) != EventCount; }
/// The enter event of the construct of E (requires hasEnter(E)).
constexpr EventId enterOf(EventId E) { return static_cast<EventId>(detail::enterOf(index(E))); }

/// The construct part of an event's name ("Loop_chunk" for Loop_chunk_begin).
constexpr std::string_view eventStem(EventId E) { return detail::stem(info(E)); }

namespace detail {
/// Constructs whose exclusive time is time spent waiting for other threads or
/// for a lock, not work: the profile keeps it apart (issue: "barrier and lock
/// waiting kept apart from work"). A critical or ordered construct's own time
/// is the wait before its block begins; a taskgroup's is the wait for its tasks
/// after its block ended.
inline constexpr std::string_view WaitingStems[] = {"Barrier",  "Implicit_barrier", "Critical",
                                                    "Ordered",  "Taskwait",         "Taskgroup",
                                                    "Set_lock", "Set_nest_lock"};

constexpr bool stemExists(std::string_view Stem) {
  for (const EventInfo &Info : Events)
    if (stem(Info) == Stem)
      return true;
  return false;
}
constexpr bool allWaitingStemsExist() {
  for (std::string_view Stem : WaitingStems)
    if (!stemExists(Stem))
      return false;
  return true;
}
static_assert(allWaitingStemsExist(), "a waiting construct names no event of pomp_events.def");

constexpr bool isWaiting(std::size_t E) {
  if (Events[E].EventRole != Role::ENTER)
    return false;
  for (std::string_view Stem : WaitingStems)
    if (stem(Events[E]) == Stem)
      return true;
  return false;
}
} // namespace detail

namespace detail {
constexpr std::array<bool, EventCount> makeWaitingTable() {
  std::array<bool, EventCount> Table{};
  for (std::size_t E = 0; E < EventCount; ++E)
    Table[E] = isWaiting(E);
  return Table;
}
} // namespace detail

/// For every event, whether it is a canonical opener whose node's exclusive
/// time is waiting: a table, since the OMPT adapter asks at run time.
inline constexpr std::array<bool, EventCount> WaitingOpeners = detail::makeWaitingTable();

/// True for the canonical openers whose node's exclusive time is waiting.
constexpr bool isWaitingOpener(EventId E) { return WaitingOpeners[index(E)]; }

/// Bits per word of a per-event bit set, and the words it needs.
inline constexpr std::size_t EventMaskBits = 64;
inline constexpr std::size_t EventMaskWords = (EventCount + EventMaskBits - 1) / EventMaskBits;

/// True when the group has an event that fires at the level: the levels a
/// group accepts (POMP_LEVEL_NONE is always accepted).
constexpr bool levelMakesSense(POMP_Group Group, POMP_Level Level) {
  if (Level == POMP_LEVEL_NONE)
    return true;
  for (const EventInfo &Info : Events)
    if (Info.Group == Group && (Info.LevelMask & (1u << Level)))
      return true;
  return false;
}

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_EVENTS_H
