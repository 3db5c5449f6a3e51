//===- Levels.cpp - Groups and levels of paper section 3.8 by name ---------===//
#include "pomp/model/Levels.h"

#include "pomp/model/Events.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace pomp::inst {

namespace {
constexpr std::string_view GroupNames[POMP_GROUP_COUNT] = {
    "parallel", "loop", "workshare", "sync", "task", "target", "user", "runtime"};
constexpr std::string_view LevelNames[POMP_LEVEL_COUNT] = {
    "none", "event", "enterexit", "beginend", "chunks", "iterevent", "iterbeginend"};

std::string lowercase(std::string_view Text) {
  std::string Lower(Text);
  std::transform(Lower.begin(), Lower.end(), Lower.begin(),
                 [](unsigned char C) { return static_cast<char>(std::tolower(C)); });
  return Lower;
}

template <std::size_t N>
std::optional<int> indexOf(const std::string_view (&Names)[N], std::string_view Name) {
  const std::string Lower = lowercase(Name);
  for (std::size_t I = 0; I < N; ++I)
    if (Names[I] == Lower)
      return static_cast<int>(I);
  return std::nullopt;
}
} // namespace

std::string_view groupName(int Group) {
  return Group >= 0 && Group < POMP_GROUP_COUNT ? GroupNames[Group] : std::string_view("?");
}

std::string_view levelName(int Level) {
  return Level >= 0 && Level < POMP_LEVEL_COUNT ? LevelNames[Level] : std::string_view("?");
}

std::optional<int> groupFromName(std::string_view Name) { return indexOf(GroupNames, Name); }

std::optional<int> levelFromName(std::string_view Name) { return indexOf(LevelNames, Name); }

bool levelValidForGroup(int Group, int Level) {
  if (Level == POMP_LEVEL_NONE)
    return true;
  return std::any_of(std::begin(EventTable), std::end(EventTable), [&](const EventInfo &E) {
    return E.Group == Group && (E.LevelMask & (1u << Level)) != 0;
  });
}

GroupLevels defaultGroupLevels() {
  GroupLevels Levels{};
  Levels[POMP_GROUP_PARALLEL] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_LOOP] = POMP_LEVEL_ENTEREXIT;
  Levels[POMP_GROUP_WORKSHARE] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_SYNC] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_TASK] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_TARGET] = POMP_LEVEL_ENTEREXIT;
  Levels[POMP_GROUP_USER] = POMP_LEVEL_BEGINEND;
  Levels[POMP_GROUP_RUNTIME] = POMP_LEVEL_ENTEREXIT;
  return Levels;
}

} // namespace pomp::inst
