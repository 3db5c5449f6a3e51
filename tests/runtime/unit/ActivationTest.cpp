//===- ActivationTest.cpp - Options, levels, on/off -----------------------===//

#include "core/Activation.h"
#include "core/Config.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace pomp::rt {
namespace {

using E = EventId;

Activation &running(Activation &A, const OptionSource &Options) {
  A.configure(Options);
  A.setRunning(true);
  return A;
}

TEST(ActivationTest, DefaultLevels) {
  Activation A;
  running(A, OptionSource(std::vector<std::string>{}));
  EXPECT_EQ(A.level(POMP_GROUP_PARALLEL), POMP_LEVEL_BEGINEND);
  EXPECT_EQ(A.level(POMP_GROUP_LOOP), POMP_LEVEL_ENTEREXIT);
  EXPECT_EQ(A.level(POMP_GROUP_WORKSHARE), POMP_LEVEL_BEGINEND);
  EXPECT_EQ(A.level(POMP_GROUP_SYNC), POMP_LEVEL_BEGINEND);
  EXPECT_EQ(A.level(POMP_GROUP_TASK), POMP_LEVEL_BEGINEND);
  EXPECT_EQ(A.level(POMP_GROUP_TARGET), POMP_LEVEL_ENTEREXIT);
  EXPECT_EQ(A.level(POMP_GROUP_USER), POMP_LEVEL_BEGINEND);
  EXPECT_EQ(A.level(POMP_GROUP_RUNTIME), POMP_LEVEL_ENTEREXIT);
  EXPECT_TRUE(A.isActive(E::Parallel_begin));
  EXPECT_TRUE(A.isActive(E::Loop_enter));
  EXPECT_FALSE(A.isActive(E::Loop_chunk_begin));
  EXPECT_TRUE(A.isActive(E::User_region_begin));
  EXPECT_FALSE(A.isActive(E::Function_enter)) << "User beginend excludes call-site events";
  EXPECT_TRUE(A.isActive(E::Set_lock_enter));
  EXPECT_FALSE(A.isActive(E::Set_num_threads_event));
}

TEST(ActivationTest, NothingIsActiveBeforeRunning) {
  Activation A;
  A.configure(OptionSource(std::vector<std::string>{}));
  for (std::size_t I = 0; I < EventCount; ++I)
    EXPECT_FALSE(A.isActive(static_cast<EventId>(I)));
}

TEST(ActivationTest, LevelsFromTheEnvironmentCaseInsensitive) {
  Activation A;
  const OptionSource Options({"POMP_LOOP=Chunks", "POMP_SYNC= event ", "POMP_PARALLEL=none"});
  running(A, Options);
  EXPECT_TRUE(Options.messages().empty());
  EXPECT_EQ(A.level(POMP_GROUP_LOOP), POMP_LEVEL_CHUNKS);
  EXPECT_TRUE(A.isActive(E::Loop_enter));
  EXPECT_TRUE(A.isActive(E::Loop_chunk_begin));
  EXPECT_FALSE(A.isActive(E::Loop_iter_begin)) << "chunks and iterations are alternatives";
  EXPECT_TRUE(A.isActive(E::Atomic_event));
  EXPECT_FALSE(A.isActive(E::Barrier_enter));
  EXPECT_FALSE(A.isActive(E::Parallel_enter));
}

TEST(ActivationTest, InvalidLevelGivesOneMessageAndTheDefault) {
  Activation A;
  const OptionSource Options({"POMP_LOOP=beginend", "POMP_USER=loud"});
  running(A, Options);
  ASSERT_EQ(Options.messages().size(), 2u);
  EXPECT_EQ(Options.messages()[0],
            "POMP_LOOP=\"beginend\" is not valid (accepted: none, enterexit, chunks, iterevent, "
            "iterbeginend); using enterexit");
  EXPECT_EQ(Options.messages()[1],
            "POMP_USER=\"loud\" is not valid (accepted: none, event, enterexit, beginend); using "
            "beginend");
  EXPECT_EQ(A.level(POMP_GROUP_LOOP), POMP_LEVEL_ENTEREXIT);
  EXPECT_EQ(A.level(POMP_GROUP_USER), POMP_LEVEL_BEGINEND);
}

TEST(ActivationTest, SetLevelAcceptsOnlyLevelsOfTheGroup) {
  Activation A;
  running(A, OptionSource(std::vector<std::string>{}));
  EXPECT_EQ(A.generation(), 0u);
  EXPECT_FALSE(A.setLevel(POMP_GROUP_PARALLEL, POMP_LEVEL_CHUNKS));
  EXPECT_FALSE(A.setLevel(POMP_GROUP_COUNT, POMP_LEVEL_NONE));
  EXPECT_FALSE(A.setLevel(POMP_GROUP_LOOP, POMP_LEVEL_COUNT));
  EXPECT_EQ(A.generation(), 0u);
  EXPECT_TRUE(A.setLevel(POMP_GROUP_LOOP, POMP_LEVEL_ITERBEGINEND));
  EXPECT_TRUE(A.isActive(E::Loop_iter_begin));
  EXPECT_TRUE(A.isActive(E::Loop_enter));
  EXPECT_EQ(A.generation(), 1u);
}

TEST(ActivationTest, OffSwitchesEverythingOffAndOnRestores) {
  Activation A;
  running(A, OptionSource(std::vector<std::string>{}));
  A.setOn(false);
  for (std::size_t I = 0; I < EventCount; ++I)
    EXPECT_FALSE(A.isActive(static_cast<EventId>(I)));
  EXPECT_FALSE(A.isOn());
  A.setOn(true);
  EXPECT_TRUE(A.isActive(E::Parallel_enter));
  EXPECT_EQ(A.generation(), 2u);
  A.setOn(true);
  EXPECT_EQ(A.generation(), 2u) << "POMP_On while on changes nothing";
}

TEST(ConfigTest, BoolsAndPaths) {
  constexpr OptionSpec Flag = {"T_FLAG", OptionType::Bool, "0", "0, 1", "test"};
  constexpr OptionSpec Dir = {"T_DIR", OptionType::Path, "", "a path", "test"};
  const OptionSource Options({"T_FLAG=Yes", "T_DIR=/tmp/x"});
  EXPECT_TRUE(Options.readBool(Flag));
  EXPECT_EQ(Options.readPath(Dir), "/tmp/x");
  const OptionSource Bad({"T_FLAG=maybe"});
  EXPECT_FALSE(Bad.readBool(Flag));
  ASSERT_EQ(Bad.messages().size(), 1u);
  EXPECT_EQ(Bad.messages()[0], "T_FLAG=\"maybe\" is not valid (accepted: 0, 1); using 0");
  EXPECT_EQ(Bad.readPath(Dir), "");
}

// Issue 13, item 10: every variable treats white space the same way: ignored around the value, and
// a value of white space only is an unset variable.
TEST(ConfigTest, WhiteSpaceIsTheSameForEveryType) {
  constexpr OptionSpec Flag = {"T_FLAG", OptionType::Bool, "0", "0, 1", "test"};
  constexpr OptionSpec Dir = {"T_DIR", OptionType::Path, "", "a path", "test"};
  constexpr OptionSpec Word = {"T_WORD", OptionType::Choice, "a", "a, b", "test"};
  constexpr OptionSpec Size = {"T_SIZE", OptionType::Size, "1K", "a size", "test"};
  const OptionSource Padded({"T_FLAG= on\t", "T_DIR=  /tmp/x \n", "T_WORD= B ", "T_SIZE= 2k "});
  EXPECT_TRUE(Padded.readBool(Flag));
  EXPECT_EQ(Padded.readPath(Dir), "/tmp/x");
  EXPECT_EQ(Padded.readChoice(Word), 1u);
  EXPECT_EQ(Padded.readSize(Size), 2048u);
  EXPECT_TRUE(Padded.messages().empty());
  const OptionSource Blank({"T_FLAG= ", "T_DIR=  ", "T_WORD=\t", "T_SIZE= "});
  EXPECT_FALSE(Blank.readBool(Flag));
  EXPECT_EQ(Blank.readPath(Dir), "");
  EXPECT_EQ(Blank.readChoice(Word), 0u);
  EXPECT_EQ(Blank.readSize(Size), 1024u);
  EXPECT_TRUE(Blank.messages().empty()) << Blank.messages()[0];
}

// Issue 13, item 10: a POMP_* variable libpomp does not know is named once, with the closest
// known one when it is near enough to be a typo.
TEST(ConfigTest, UnknownVariablesAreNamedWithTheClosestKnownOne) {
  const OptionSource Options({"POMP_TRCE=1", "POMP_EXPERIMENTDIR=x", "POMP_WHATEVER_ELSE=1",
                              "POMP_TRACE=1", "POMP_CLANG_RESOURCE_DIR=/x", "OMP_TRCE=1"});
  Options.checkUnknown();
  ASSERT_EQ(Options.messages().size(), 3u);
  EXPECT_EQ(Options.messages()[0],
            "POMP_TRCE is not a libpomp variable and is ignored; did you mean POMP_TRACE?");
  EXPECT_EQ(Options.messages()[1], "POMP_EXPERIMENTDIR is not a libpomp variable and is ignored; "
                                   "did you mean POMP_EXPERIMENT_DIR?");
  EXPECT_EQ(Options.messages()[2], "POMP_WHATEVER_ELSE is not a libpomp variable and is ignored "
                                   "(POMP_HELP=1 lists the variables)");
}

TEST(ConfigTest, EveryOptionIsListedOnceAndDocumented) {
  std::set<std::string_view> Names;
  for (const OptionTable &Table : allOptions())
    for (std::size_t I = 0; I < Table.Size; ++I) {
      const OptionSpec &Spec = Table.Begin[I];
      EXPECT_TRUE(Names.insert(Spec.Name).second) << Spec.Name;
      EXPECT_FALSE(Spec.Description.empty()) << Spec.Name;
      if (Spec.Type == OptionType::Choice) {
        const std::vector<std::string_view> Words = choiceWords(Spec);
        EXPECT_NE(std::find(Words.begin(), Words.end(), Spec.Default), Words.end()) << Spec.Name;
      }
    }
  EXPECT_EQ(Names.count("POMP_TASK"), 1u);
  EXPECT_EQ(Names.count("POMP_EXPERIMENT_DIR"), 1u);
  EXPECT_NE(optionMarkdownTable().find("| `POMP_QUIET` | 0 | 0, 1 |"), std::string::npos);
}

} // namespace
} // namespace pomp::rt
