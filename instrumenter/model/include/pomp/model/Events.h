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
  std::string_view Routine;  ///< "POMP_Parallel_enter"
  int Group;                 ///< POMP_GROUP_*
  unsigned LevelMask;        ///< POMP_AT_LEVEL() bits under which it fires
  unsigned ThreadIdArgument; ///< the position of its thread_id parameter
  bool Enter;                ///< the event opens its region (role ENTER: _enter, _fork)
  bool Begin;                ///< the event opens its region's block (role BEGIN)
  bool Exit;                 ///< the event closes its region (role EXIT)
};

/// The position of the parameter named thread_id in a routine's parameter
/// list as pomp_events.def spells it ("(POMP_Handle_t handle, int32_t
/// thread_id)": 1): the second everywhere but in Section_begin.
constexpr unsigned threadIdPosition(std::string_view Params) {
  constexpr std::string_view Name = "thread_id";
  const std::size_t At = Params.find(Name);
  unsigned Position = 0;
  for (std::size_t I = 0; I < At && I < Params.size(); ++I)
    Position += Params[I] == ',' ? 1 : 0;
  return Position;
}

inline constexpr EventInfo EventTable[] = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params)                                      \
  {"POMP_" #Name,                                                                                  \
   POMP_GROUP_##Group,                                                                             \
   (Levels),                                                                                       \
   threadIdPosition(#Params),                                                                      \
   std::string_view(#Role) == "ENTER",                                                             \
   std::string_view(#Role) == "BEGIN",                                                             \
   std::string_view(#Role) == "EXIT"},
#include "pomp_events.def"
};

inline constexpr std::size_t EventCount = sizeof(EventTable) / sizeof(EventTable[0]);

inline const EventInfo &eventInfo(Event E) { return EventTable[static_cast<unsigned>(E)]; }

} // namespace pomp::inst

#endif // POMP_MODEL_EVENTS_H
