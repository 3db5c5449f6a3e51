//===- pomp/model/Levels.h - Groups and levels by name ----------*- C++ -*-===//
///
/// \file
/// The names of the groups and levels of paper section 3.8, as the command
/// line and the POMP directives of both front ends (`#pragma pomp inst
/// <group> <level>`, `!$pomp inst <group> <level>`) spell them.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_MODEL_LEVELS_H
#define POMP_MODEL_LEVELS_H

#include "pomplib.h"

#include <array>
#include <optional>
#include <string_view>

namespace pomp::inst {

/// Compile-time instrumentation level of each group (POMP_GROUP_* ->
/// POMP_LEVEL_*), as the paper's section 3.8 table names them.
using GroupLevels = std::array<int, POMP_GROUP_COUNT>;

/// The levels ompinst uses unless told otherwise, in both languages:
/// everything the paper calls cheap enough by default (docs/INSTRUMENTER.md).
GroupLevels defaultGroupLevels();

/// Name of a group ("parallel", "loop", ...).
std::string_view groupName(int Group);
/// Name of a level ("none", "enterexit", ...).
std::string_view levelName(int Level);
/// Group from its name, in any case; nullopt when unknown.
std::optional<int> groupFromName(std::string_view Name);
/// Level from its name, in any case; nullopt when unknown.
std::optional<int> levelFromName(std::string_view Name);
/// True when some event of Group fires at Level (so the level makes sense
/// for the group).
bool levelValidForGroup(int Group, int Level);

} // namespace pomp::inst

#endif // POMP_MODEL_LEVELS_H
