//===- CompareTest.cpp - Two runs compared --------------------------------===//

#include "pomp/report/Compare.h"
#include "pomp/report/Loader.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace pomp::report {
namespace {

/// A run with a parallel region (its handle is FirstId) and a loop (SecondId)
/// inside, the loop taking LoopNs exclusive time on one thread.
std::string run(int FirstId, int SecondId, int LoopNs) {
  const std::string P = std::to_string(FirstId), L = std::to_string(SecondId);
  return R"({"schema": "pomp-profile", "version": 1, "program": "t", "pid": 1,
"start_time": "x", "duration_ns": 1000, "threads": [{"index": 0, "events": 4}],
"regions": [
 {"id": )" +
         P + R"(, "type": "parallel", "label": "parallel", "name": "", "location": "t.c:1"},
 {"id": )" +
         L + R"(, "type": "for", "label": "for", "name": "", "location": "t.c:3"}],
"nodes": [
 {"id": 0, "parent": null, "region": null, "event": null, "construct": "program", "kind": "root",
  "visits": 0, "inclusive_ns": 0, "exclusive_ns": 0, "per_thread": []},
 {"id": 1, "parent": 0, "region": )" +
         P + R"(, "event": "Parallel_begin", "construct": "parallel body",
  "kind": "work", "visits": 1, "inclusive_ns": 500, "exclusive_ns": 100,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 500, "exclusive_ns": 100}]},
 {"id": 2, "parent": 1, "region": )" +
         L + R"(, "event": "For_enter", "construct": "for",
  "kind": "work", "visits": 1, "inclusive_ns": )" +
         std::to_string(LoopNs) + R"(, "exclusive_ns": )" + std::to_string(LoopNs) + R"(,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": )" +
         std::to_string(LoopNs) + R"(, "exclusive_ns": )" + std::to_string(LoopNs) + R"(}]}],
"anomalies": {}})";
}

Profile load(const std::string &Text) {
  Profile P;
  std::string Error;
  EXPECT_TRUE(parseProfile(Text, "run.json", P, Error)) << Error;
  return P;
}

TEST(CompareTest, MatchesRegionsByIdentityNotByHandleNumber) {
  const Profile A = load(run(1, 2, 400));
  const Profile B = load(run(7, 3, 100)); // another link order: other handles
  EXPECT_EQ(regionIdentity(A, A.Nodes[2]), regionIdentity(B, B.Nodes[2]));
  EXPECT_NE(regionIdentity(A, A.Nodes[1]), regionIdentity(A, A.Nodes[2]));
  for (bool Tree : {false, true}) {
    const std::vector<CompareRow> Rows = selectCompared(
        compareProfiles(A, B, Tree, ThreadMetric::Exclusive), std::nullopt, CompareSort::Diff, 0);
    ASSERT_EQ(Rows.size(), 2u) << Tree;
    EXPECT_EQ(Rows[0].In, Presence::Both);
    EXPECT_EQ(Rows[0].Title, Tree ? "parallel body @t.c:1 > for @t.c:3" : "for @t.c:3");
    EXPECT_EQ(Rows[0].ANs, 400u);
    EXPECT_EQ(Rows[0].BNs, 100u);
    EXPECT_EQ(Rows[0].diffNs(), -300);
    EXPECT_DOUBLE_EQ(*Rows[0].ratio(), 0.25);
  }
}

TEST(CompareTest, RegionsOfOneRunAreShownAsSuchAndRankedLastAndFirstByRatio) {
  const Profile A = load(run(1, 2, 400));
  Profile B = load(run(1, 2, 400));
  B.Regions[2].Location = "t.c:30"; // the loop moved: another region
  const std::vector<CompareRow> Rows = selectCompared(
      compareProfiles(A, B, false, ThreadMetric::Exclusive), std::nullopt, CompareSort::Ratio, 0);
  ASSERT_EQ(Rows.size(), 3u);
  EXPECT_EQ(Rows[0].In, Presence::OnlyB);
  EXPECT_EQ(Rows[1].In, Presence::Both);
  EXPECT_EQ(Rows[2].In, Presence::OnlyA);
  Comparison C;
  C.A = &A;
  C.B = &B;
  C.Rows = Rows;
  std::ostringstream Json;
  writeCompareJson(Json, C);
  EXPECT_NE(Json.str().find("\"in\": \"b\""), std::string::npos);
  EXPECT_NE(Json.str().find("\"ratio\": null"), std::string::npos);
  EXPECT_NE(Json.str().find("\"ratio\": 1.0"), std::string::npos);
}

} // namespace
} // namespace pomp::report
