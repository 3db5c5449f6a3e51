//===- TraceTest.cpp - The trace's pure logic: roles, locks, options ------===//

#include "trace/Trace.h"
#include "core/Config.h"
#include "trace/LockTracker.h"
#include "trace/RegionRoles.h"

#include <gtest/gtest.h>

namespace pomp::rt {
namespace {

using E = EventId;

TEST(TraceTest, RegionRolesFollowTheConstruct) {
  // The master's fork..join is plain code, the team's body the parallel region.
  EXPECT_EQ(traceRegionKind(E::Parallel_enter).Role, OTF2_REGION_ROLE_CODE);
  EXPECT_EQ(traceRegionKind(E::Parallel_begin).Role, OTF2_REGION_ROLE_PARALLEL);
  EXPECT_EQ(traceRegionKind(E::Loop_enter).Role, OTF2_REGION_ROLE_LOOP);
  EXPECT_EQ(traceRegionKind(E::Sections_enter).Role, OTF2_REGION_ROLE_SECTIONS);
  EXPECT_EQ(traceRegionKind(E::Section_begin).Role, OTF2_REGION_ROLE_SECTION);
  EXPECT_EQ(traceRegionKind(E::Single_enter).Role, OTF2_REGION_ROLE_SINGLE);
  EXPECT_EQ(traceRegionKind(E::Single_begin).Role, OTF2_REGION_ROLE_SINGLE_SBLOCK);
  EXPECT_EQ(traceRegionKind(E::Master_begin).Role, OTF2_REGION_ROLE_MASTER);
  EXPECT_EQ(traceRegionKind(E::Critical_enter).Role, OTF2_REGION_ROLE_CRITICAL);
  EXPECT_EQ(traceRegionKind(E::Critical_begin).Role, OTF2_REGION_ROLE_CRITICAL_SBLOCK);
  EXPECT_EQ(traceRegionKind(E::Atomic_event).Role, OTF2_REGION_ROLE_ATOMIC);
  EXPECT_EQ(traceRegionKind(E::Barrier_enter).Role, OTF2_REGION_ROLE_BARRIER);
  EXPECT_EQ(traceRegionKind(E::Implicit_barrier_enter).Role, OTF2_REGION_ROLE_IMPLICIT_BARRIER);
  EXPECT_EQ(traceRegionKind(E::Flush_event).Role, OTF2_REGION_ROLE_FLUSH);
  EXPECT_EQ(traceRegionKind(E::Ordered_enter).Role, OTF2_REGION_ROLE_ORDERED);
  EXPECT_EQ(traceRegionKind(E::Ordered_begin).Role, OTF2_REGION_ROLE_ORDERED_SBLOCK);
  EXPECT_EQ(traceRegionKind(E::Task_begin).Role, OTF2_REGION_ROLE_TASK);
  EXPECT_EQ(traceRegionKind(E::Task_create_enter).Role, OTF2_REGION_ROLE_TASK_CREATE);
  EXPECT_EQ(traceRegionKind(E::Taskwait_enter).Role, OTF2_REGION_ROLE_TASK_WAIT);
  EXPECT_EQ(traceRegionKind(E::Function_enter).Role, OTF2_REGION_ROLE_FUNCTION);
  EXPECT_EQ(traceRegionKind(E::Set_lock_enter).Role, OTF2_REGION_ROLE_WRAPPER);
  EXPECT_EQ(traceRegionKind(E::Get_num_threads_event).Role, OTF2_REGION_ROLE_WRAPPER);
}

TEST(TraceTest, ClosersAndAlternativeOpenersShareTheRegionOfTheirOpener) {
  EXPECT_EQ(traceRegionKind(E::Parallel_fork).Role, traceRegionKind(E::Parallel_enter).Role);
  EXPECT_EQ(traceRegionKind(E::Parallel_begin_forked).Role,
            traceRegionKind(E::Parallel_begin).Role);
  EXPECT_EQ(traceRegionKind(E::Critical_exit).Role, traceRegionKind(E::Critical_enter).Role);
}

TEST(TraceTest, UserGroupIsUserParadigmEverythingElseOpenMp) {
  EXPECT_EQ(traceRegionKind(E::User_region_begin).Paradigm, OTF2_PARADIGM_USER);
  EXPECT_EQ(traceRegionKind(E::Function_begin).Paradigm, OTF2_PARADIGM_USER);
  EXPECT_EQ(traceRegionKind(E::Barrier_enter).Paradigm, OTF2_PARADIGM_OPENMP);
  EXPECT_EQ(traceRegionKind(E::Unset_lock_event).Paradigm, OTF2_PARADIGM_OPENMP);
  for (std::size_t I = 0; I < EventCount; ++I)
    EXPECT_NE(traceRegionKind(static_cast<EventId>(I)).Role, OTF2_REGION_ROLE_UNKNOWN)
        << info(static_cast<EventId>(I)).Name;
}

TEST(TraceTest, LocksAreNumberedAndTheirAcquisitionsCounted) {
  LockTracker Locks;
  constexpr std::uint64_t A = 0x1000, B = 0x2000;
  EXPECT_EQ(Locks.acquire(A), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.release(A), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.acquire(B), (LockTracker::Record{1, 0}));
  EXPECT_EQ(Locks.acquire(A), (LockTracker::Record{0, 1}));
  EXPECT_EQ(Locks.release(A), (LockTracker::Record{0, 1}));
  EXPECT_EQ(Locks.release(B), (LockTracker::Record{1, 0}));
  EXPECT_EQ(Locks.size(), 2u);
}

TEST(TraceTest, NestedLocksAreAcquiredByTheOutermostSetAndReleasedByTheLastUnset) {
  LockTracker Locks;
  constexpr std::uint64_t Nested = 0x3000;
  EXPECT_EQ(Locks.acquire(Nested), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.acquire(Nested), std::nullopt);
  EXPECT_EQ(Locks.release(Nested), std::nullopt);
  EXPECT_EQ(Locks.release(Nested), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.acquire(Nested), (LockTracker::Record{0, 1}));
}

TEST(TraceTest, ReleaseOfALockNotSeenAcquiredRecordsNothing) {
  LockTracker Locks;
  EXPECT_EQ(Locks.release(0x4000), std::nullopt);
  EXPECT_EQ(Locks.acquire(0x4000), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.release(0x4000), (LockTracker::Record{0, 0}));
  EXPECT_EQ(Locks.release(0x4000), std::nullopt);
}

TEST(TraceTest, SettingsReadTheOptions) {
  const TraceSettings Off = readTraceSettings(OptionSource(std::vector<std::string>{}));
  EXPECT_FALSE(Off.Enabled);
  EXPECT_EQ(Off.Format, TraceFormat::Otf2);
  EXPECT_EQ(Off.BufferBytes, std::uint64_t(8) << 20);

  const OptionSource Given({"POMP_TRACE=yes", "POMP_TRACE_FORMAT=Both", "POMP_TRACE_BUFFER=512k"});
  const TraceSettings On = readTraceSettings(Given);
  EXPECT_TRUE(On.Enabled);
  EXPECT_EQ(On.Format, TraceFormat::Both);
  EXPECT_EQ(On.BufferBytes, std::uint64_t(512) << 10);
  EXPECT_TRUE(Given.messages().empty());
}

TEST(TraceTest, BufferSizesAreCheckedAndAtLeastTheSmallestChunk) {
  // Out of range: the nearest limit, and one message that names it (issue 13, item 10).
  const OptionSource Tiny({"POMP_TRACE_BUFFER=10"});
  EXPECT_EQ(readTraceSettings(Tiny).BufferBytes, MinTraceBufferBytes);
  ASSERT_EQ(Tiny.messages().size(), 1u);
  EXPECT_EQ(Tiny.messages()[0],
            "POMP_TRACE_BUFFER=\"10\" is below the smallest size accepted; using 256K");
  const OptionSource Huge({"POMP_TRACE_BUFFER=64G"});
  EXPECT_EQ(readTraceSettings(Huge).BufferBytes, MaxTraceBufferBytes);
  ASSERT_EQ(Huge.messages().size(), 1u);
  EXPECT_EQ(Huge.messages()[0],
            "POMP_TRACE_BUFFER=\"64G\" is above the largest size accepted; using 16G");
  const OptionSource Gig({"POMP_TRACE_BUFFER=1G"});
  EXPECT_EQ(readTraceSettings(Gig).BufferBytes, std::uint64_t(1) << 30);
  EXPECT_TRUE(Gig.messages().empty());
  EXPECT_EQ(readTraceSettings(OptionSource({"POMP_TRACE_BUFFER=2G"})).BufferBytes, std::uint64_t(2)
                                                                                       << 30);
  EXPECT_EQ(readTraceSettings(OptionSource({"POMP_TRACE_BUFFER=300000"})).BufferBytes, 300000u);
  for (const char *Bad : {"POMP_TRACE_BUFFER=lots", "POMP_TRACE_BUFFER=12T",
                          "POMP_TRACE_BUFFER=99999999999999999999", "POMP_TRACE_BUFFER=K"}) {
    const OptionSource Source({Bad});
    EXPECT_EQ(readTraceSettings(Source).BufferBytes, std::uint64_t(8) << 20) << Bad;
    ASSERT_EQ(Source.messages().size(), 1u) << Bad;
    EXPECT_NE(Source.messages()[0].find("POMP_TRACE_BUFFER"), std::string::npos);
  }
}

} // namespace
} // namespace pomp::rt
