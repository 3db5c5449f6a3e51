//===- pomp/model/Events.h - The POMP events the instrumenters emit -*- C++ -*-===//
///
/// \file
/// The instrumenter's view of pomp_events.def: an enum of every event routine
/// with its group and level mask, so handlers ask "does this event fire at the
/// configured level?" and emit calls by enumerator, never by spelling.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_MODEL_EVENTS_H
#define POMP_MODEL_EVENTS_H

#include "pomplib.h"

#include <cstddef>
#include <string_view>

namespace pomp::inst {

enum class Event : unsigned {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) Name,
#include "pomp_events.def"
};

/// Static facts about one event routine.
struct EventInfo {
  std::string_view Routine; ///< "POMP_Parallel_enter"
  int Group;                ///< POMP_GROUP_*
  unsigned LevelMask;       ///< POMP_AT_LEVEL() bits under which it fires
};

inline constexpr EventInfo EventTable[] = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  {"POMP_" #Name, POMP_GROUP_##Group, (Levels)},
#include "pomp_events.def"
};

inline constexpr std::size_t EventCount = sizeof(EventTable) / sizeof(EventTable[0]);

inline const EventInfo &eventInfo(Event E) { return EventTable[static_cast<unsigned>(E)]; }

} // namespace pomp::inst

#endif // POMP_MODEL_EVENTS_H
