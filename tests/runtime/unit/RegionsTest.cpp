//===- RegionsTest.cpp - Region table and handles -------------------------===//

#include "CoreTestSupport.h"

#include "core/Regions.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace pomp::rt {
namespace {

using test::ctcString;

TEST(RegionsTest, HandlesAreIndicesPlusOne) {
  RegionTable T;
  EXPECT_FALSE(T.isValid(0));
  EXPECT_FALSE(T.isValid(1));
  const RegisterResult A = T.registerCtc(ctcString("type=parallel*file=a.c*slines=3,4"));
  ASSERT_EQ(A.Error, POMP_SUCCESS);
  EXPECT_EQ(A.Id, 1u);
  EXPECT_TRUE(T.isValid(1));
  EXPECT_FALSE(T.isValid(2));
  EXPECT_FALSE(T.isValid(~POMP_Handle_t(0)));
  EXPECT_FALSE(T.isValid(reinterpret_cast<POMP_Handle_t>(&T)));
  EXPECT_EQ(T.get(1).Label, "parallel");
  EXPECT_EQ(T.get(1).Location, "a.c:3");
}

TEST(RegionsTest, EqualStringsAreOneRegion) {
  RegionTable T;
  const std::string Ctc = ctcString("type=for*file=a.c*slines=5,5");
  const RegionId First = T.registerCtc(Ctc).Id;
  EXPECT_EQ(T.registerCtc(Ctc).Id, First);
  EXPECT_EQ(T.size(), 1u);
  EXPECT_EQ(T.registerCtc(ctcString("type=for*file=a.c*slines=6,6")).Id, First + 1);
}

TEST(RegionsTest, MalformedStringsAreRejectedWithAPosition) {
  RegionTable T;
  const RegisterResult R = T.registerCtc("9*type=for");
  EXPECT_EQ(R.Error, POMP_ERROR_MALFORMED_CTC);
  EXPECT_EQ(R.Id, 0u);
  EXPECT_NE(R.Message.find("offset"), std::string::npos) << R.Message;
  EXPECT_EQ(T.size(), 0u);
}

TEST(RegionsTest, LabelsNameFunctionsAndCriticals) {
  RegionTable T;
  const RegionId F = T.registerCtc(ctcString("type=function*name=solve*group=Grid*file=g.cc")).Id;
  const RegionId C = T.registerCtc(ctcString("type=critical*name=io*file=g.cc*slines=9,9")).Id;
  EXPECT_EQ(T.get(F).Label, "function Grid::solve");
  EXPECT_EQ(T.get(F).Location, "g.cc");
  EXPECT_EQ(T.get(C).Label, "critical(io)");
}

TEST(RegionsTest, ManyRegionsSpanChunks) {
  RegionTable T;
  const std::size_t N = 3 * RegionTable::ChunkSize + 7;
  for (std::size_t I = 0; I < N; ++I)
    ASSERT_EQ(T.registerCtc(ctcString("type=userregion*name=r" + std::to_string(I))).Id, I + 1);
  for (std::size_t I = 0; I < N; ++I)
    EXPECT_EQ(T.get(static_cast<RegionId>(I + 1)).Descriptor.Name, "r" + std::to_string(I));
}

TEST(RegionsTest, RacingThreadsGetOneRegion) {
  RegionTable T;
  constexpr int Threads = 8;
  constexpr int Strings = 50;
  std::vector<std::vector<RegionId>> Seen(Threads);
  std::atomic<bool> Go{false};
  std::vector<std::thread> Pool;
  for (int I = 0; I < Threads; ++I)
    Pool.emplace_back([&, I] {
      while (!Go.load())
        std::this_thread::yield();
      for (int S = 0; S < Strings; ++S)
        Seen[I].push_back(T.registerCtc(ctcString("type=single*slines=" + std::to_string(S + 1) +
                                                  "," + std::to_string(S + 1)))
                              .Id);
    });
  Go = true;
  for (std::thread &Th : Pool)
    Th.join();
  EXPECT_EQ(T.size(), static_cast<std::uint32_t>(Strings));
  for (int I = 1; I < Threads; ++I)
    EXPECT_EQ(Seen[I], Seen[0]);
}

TEST(RegionsTest, BindStoresIntoAZeroHandleOnly) {
  RegionTable T;
  const RegionId A = T.registerCtc(ctcString("type=single*slines=1,1")).Id;
  const RegionId B = T.registerCtc(ctcString("type=single*slines=2,2")).Id;
  POMP_Handle_t Handle = 0;
  T.bind(&Handle, A);
  EXPECT_EQ(Handle, A);
  // A bound handle is another thread's binding, already read by the code that
  // passes it on: it is never written again.
  T.bind(&Handle, B);
  EXPECT_EQ(Handle, A);
}

} // namespace
} // namespace pomp::rt
