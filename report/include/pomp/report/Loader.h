//===- pomp/report/Loader.h - Reading profile.json --------------*- C++ -*-===//
///
/// \file
/// Loads profile.json into a Profile and checks what the report relies on: the
/// schema name and version, the type of every field it reads, and that the
/// tree is a tree (ids are indices, parents come before their children, regions
/// exist). Anything wrong is one message naming the file and the JSON pointer
/// of the field (`/nodes/3/visits`), so a broken or foreign file is explained,
/// never half shown.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_LOADER_H
#define POMP_REPORT_LOADER_H

#include "pomp/report/Profile.h"

#include <string>
#include <string_view>

namespace pomp::report {

/// The schema and the newest version of it this reader understands; a newer
/// version may have changed what the fields mean (PROFILE_FORMAT.md).
inline constexpr std::string_view ProfileSchema = "pomp-profile";
inline constexpr std::int64_t ProfileVersion = 2;

/// The profile file of an experiment directory.
inline constexpr std::string_view ProfileFileName = "profile.json";

/// Parses the text of a profile; Source names it in messages. On failure
/// returns false and sets Error to "<Source>: <pointer>: <problem>".
bool parseProfile(std::string_view Text, const std::string &Source, Profile &Out,
                  std::string &Error);

/// Loads <Path>/profile.json, or Path itself when it is a file.
bool loadProfile(const std::string &Path, Profile &Out, std::string &Error);

} // namespace pomp::report

#endif // POMP_REPORT_LOADER_H
