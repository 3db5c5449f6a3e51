//===- EventsTest.cpp - The tables derived from pomp_events.def -----------===//

#include "core/Events.h"
#include "core/Profile.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace pomp::rt {
namespace {

using E = EventId;

TEST(EventsTest, EveryRowIsAnEvent) {
  EXPECT_EQ(EventCount, 105u);
  EXPECT_EQ(info(E::Parallel_enter).Name, "Parallel_enter");
  EXPECT_EQ(info(E::Error_event).Name, "Error_event");
  std::set<std::string_view> Names;
  for (const EventInfo &I : Events)
    EXPECT_TRUE(Names.insert(I.Name).second) << I.Name;
}

TEST(EventsTest, ClosersMapToTheOpenerOfTheirConstruct) {
  EXPECT_EQ(canonicalOpener(E::Parallel_exit), E::Parallel_enter);
  EXPECT_EQ(canonicalOpener(E::Parallel_fork), E::Parallel_enter);
  EXPECT_EQ(canonicalOpener(E::Parallel_end), E::Parallel_begin);
  EXPECT_EQ(canonicalOpener(E::Parallel_begin_forked), E::Parallel_begin);
  EXPECT_EQ(canonicalOpener(E::Loop_chunk_end), E::Loop_chunk_begin);
  EXPECT_EQ(canonicalOpener(E::Loop_iter_end), E::Loop_iter_begin);
  EXPECT_EQ(canonicalOpener(E::Loop_exit), E::Loop_enter);
  EXPECT_EQ(canonicalOpener(E::Section_end), E::Section_begin);
  EXPECT_EQ(canonicalOpener(E::Sections_exit), E::Sections_enter);
  EXPECT_EQ(canonicalOpener(E::Task_create_exit), E::Task_create_enter);
  EXPECT_EQ(canonicalOpener(E::Task_end), E::Task_begin);
  EXPECT_EQ(canonicalOpener(E::Set_nest_lock_exit), E::Set_nest_lock_enter);
  EXPECT_EQ(canonicalOpener(E::Function_end), E::Function_begin);
  EXPECT_EQ(canonicalOpener(E::Function_exit), E::Function_enter);
  EXPECT_EQ(canonicalOpener(E::Atomic_event), E::Atomic_event);
}

TEST(EventsTest, EveryCloserHasAnOpenerOfTheMatchingRole) {
  for (std::size_t I = 0; I < EventCount; ++I) {
    const auto Ev = static_cast<EventId>(I);
    const Role R = info(Ev).EventRole;
    const Role OpenerRole = info(canonicalOpener(Ev)).EventRole;
    if (R == Role::EXIT)
      EXPECT_EQ(OpenerRole, Role::ENTER) << info(Ev).Name;
    else if (R == Role::END)
      EXPECT_EQ(OpenerRole, Role::BEGIN) << info(Ev).Name;
    else
      EXPECT_EQ(OpenerRole, R) << info(Ev).Name;
  }
}

TEST(EventsTest, AcceptedLevelsMatchTheDocumentedTable) {
  // docs/POMP_API.md, "Groups and levels".
  auto Accepted = [](POMP_Group G) {
    std::string S;
    for (int L = 0; L < POMP_LEVEL_COUNT; ++L)
      if (levelMakesSense(G, static_cast<POMP_Level>(L)))
        S += std::to_string(L);
    return S;
  };
  EXPECT_EQ(Accepted(POMP_GROUP_PARALLEL), "023");
  EXPECT_EQ(Accepted(POMP_GROUP_LOOP), "02456");
  EXPECT_EQ(Accepted(POMP_GROUP_WORKSHARE), "023");
  EXPECT_EQ(Accepted(POMP_GROUP_SYNC), "0123");
  EXPECT_EQ(Accepted(POMP_GROUP_TASK), "023");
  EXPECT_EQ(Accepted(POMP_GROUP_TARGET), "0123");
  EXPECT_EQ(Accepted(POMP_GROUP_USER), "0123");
  EXPECT_EQ(Accepted(POMP_GROUP_RUNTIME), "012");
}

TEST(EventsTest, WaitingConstructs) {
  EXPECT_TRUE(isWaitingOpener(E::Barrier_enter));
  EXPECT_TRUE(isWaitingOpener(E::Implicit_barrier_enter));
  EXPECT_TRUE(isWaitingOpener(E::Set_lock_enter));
  EXPECT_TRUE(isWaitingOpener(E::Critical_enter));
  EXPECT_FALSE(isWaitingOpener(E::Critical_begin));
  EXPECT_FALSE(isWaitingOpener(E::Parallel_enter));
  EXPECT_FALSE(isWaitingOpener(E::Set_lock_event));
}

TEST(EventsTest, ConstructNames) {
  EXPECT_EQ(constructName(E::Parallel_enter), "parallel");
  EXPECT_EQ(constructName(E::Parallel_begin), "parallel body");
  EXPECT_EQ(constructName(E::Loop_chunk_begin), "loop chunk");
  EXPECT_EQ(constructName(E::Section_begin), "section");
  EXPECT_EQ(constructName(E::Task_create_enter), "task create");
  EXPECT_EQ(constructName(E::Task_begin), "task");
  EXPECT_EQ(constructName(E::Implicit_barrier_enter), "implicit barrier");
  EXPECT_EQ(constructName(E::User_region_begin), "user region");
  EXPECT_EQ(constructName(E::Function_begin), "function body");
  EXPECT_EQ(constructName(E::Atomic_event), "atomic event");
}

} // namespace
} // namespace pomp::rt
