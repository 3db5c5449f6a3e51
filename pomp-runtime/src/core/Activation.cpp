//===- core/Activation.cpp - Run-time activation of events ----------------===//

#include "core/Activation.h"

#include <string>

namespace pomp::rt {
namespace {

constexpr std::string_view LevelNames[] = {"none",   "event",     "enterexit",   "beginend",
                                           "chunks", "iterevent", "iterbeginend"};
static_assert(std::size(LevelNames) == POMP_LEVEL_COUNT);

constexpr std::string_view GroupNames[] = {"PARALLEL", "LOOP",   "WORKSHARE", "SYNC",
                                           "TASK",     "TARGET", "USER",      "RUNTIME"};
static_assert(std::size(GroupNames) == POMP_GROUP_COUNT);

/// The strings the group options point to, built once from the event list.
struct GroupOptionStorage {
  std::string Names[POMP_GROUP_COUNT];
  std::string Accepted[POMP_GROUP_COUNT];
  OptionSpec Specs[POMP_GROUP_COUNT];

  GroupOptionStorage() {
    for (int G = 0; G < POMP_GROUP_COUNT; ++G) {
      const auto Group = static_cast<POMP_Group>(G);
      Names[G] = "POMP_" + std::string(groupName(Group));
      for (int L = 0; L < POMP_LEVEL_COUNT; ++L)
        if (levelMakesSense(Group, static_cast<POMP_Level>(L))) {
          if (!Accepted[G].empty())
            Accepted[G] += ", ";
          Accepted[G] += levelName(static_cast<POMP_Level>(L));
        }
      Specs[G] = {Names[G], OptionType::Choice, levelName(GroupDefaults[G].Level), Accepted[G],
                  GroupDefaults[G].Description};
    }
  }
};

const GroupOptionStorage &groupOptionStorage() {
  static const GroupOptionStorage Storage;
  return Storage;
}

constexpr bool defaultsAreInGroupOrder() {
  for (int G = 0; G < POMP_GROUP_COUNT; ++G)
    if (GroupDefaults[G].Group != G ||
        !levelMakesSense(GroupDefaults[G].Group, GroupDefaults[G].Level))
      return false;
  return true;
}
static_assert(defaultsAreInGroupOrder(),
              "GroupDefaults is indexed by POMP_Group and holds levels the groups accept");

} // namespace

std::string_view levelName(POMP_Level Level) { return LevelNames[Level]; }
std::string_view groupName(POMP_Group Group) { return GroupNames[Group]; }

const OptionSpec &groupLevelOption(POMP_Group Group) { return groupOptionStorage().Specs[Group]; }
const OptionSpec *groupLevelOptions() { return groupOptionStorage().Specs; }

void Activation::configure(const OptionSource &Options) {
  for (int G = 0; G < POMP_GROUP_COUNT; ++G) {
    const auto Group = static_cast<POMP_Group>(G);
    const OptionSpec &Spec = groupLevelOption(Group);
    // readChoice returns an index into the accepted words, not a level.
    std::string_view Word = choiceWords(Spec)[Options.readChoice(Spec)];
    for (int L = 0; L < POMP_LEVEL_COUNT; ++L)
      if (LevelNames[L] == Word)
        Levels[G].store(static_cast<std::uint8_t>(L), std::memory_order_relaxed);
  }
  std::lock_guard<std::mutex> Lock(Update);
  recompute();
}

bool Activation::setLevel(POMP_Group Group, POMP_Level Level) {
  if (Group < 0 || Group >= POMP_GROUP_COUNT || Level < 0 || Level >= POMP_LEVEL_COUNT ||
      !levelMakesSense(Group, Level))
    return false;
  std::lock_guard<std::mutex> Lock(Update);
  Levels[Group].store(static_cast<std::uint8_t>(Level), std::memory_order_relaxed);
  Generation.fetch_add(1, std::memory_order_relaxed);
  recompute();
  return true;
}

POMP_Level Activation::level(POMP_Group Group) const {
  return static_cast<POMP_Level>(Levels[Group].load(std::memory_order_relaxed));
}

void Activation::setOn(bool NewOn) {
  std::lock_guard<std::mutex> Lock(Update);
  if (On.load(std::memory_order_relaxed) != NewOn)
    Generation.fetch_add(1, std::memory_order_relaxed);
  On.store(NewOn, std::memory_order_relaxed);
  recompute();
}

bool Activation::isOn() const { return On.load(std::memory_order_relaxed); }

void Activation::setRunning(bool NewRunning) {
  std::lock_guard<std::mutex> Lock(Update);
  Running.store(NewRunning, std::memory_order_relaxed);
  recompute();
}

void Activation::recompute() {
  std::array<std::uint64_t, EventMaskWords> Words{};
  if (On.load(std::memory_order_relaxed) && Running.load(std::memory_order_relaxed))
    for (std::size_t E = 0; E < EventCount; ++E) {
      const EventInfo &Info = Events[E];
      const unsigned GroupLevel = Levels[Info.Group].load(std::memory_order_relaxed);
      if (Info.LevelMask & (1u << GroupLevel))
        Words[E / EventMaskBits] |= std::uint64_t(1) << (E % EventMaskBits);
    }
  const bool Fast = FastPath.load(std::memory_order_relaxed);
  for (std::size_t W = 0; W < EventMaskWords; ++W) {
    Mask[W].store(Words[W], std::memory_order_seq_cst);
    FastMask[W].store(Fast ? Words[W] : 0, std::memory_order_seq_cst);
  }
}

void Activation::setFastPath(bool Allowed) {
  std::lock_guard<std::mutex> Lock(Update);
  FastPath.store(Allowed, std::memory_order_relaxed);
  recompute();
}

} // namespace pomp::rt
