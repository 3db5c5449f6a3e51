//===- CoreTestSupport.h - Helpers for tests of the core --------*- C++ -*-===//
///
/// \file
/// A core with its own region table, fed with synthetic timestamps (one tick
/// is one nanosecond), and lookups of merged nodes by call path.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_TESTS_RUNTIME_CORETESTSUPPORT_H
#define POMP_TESTS_RUNTIME_CORETESTSUPPORT_H

#include "core/Core.h"
#include "core/Profile.h"
#include "core/Regions.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace pomp::rt::test {

/// A CTC string with the inclusive length prefix for the given fields
/// ("type=parallel*file=a.c*slines=3,3").
inline std::string ctcString(const std::string &Fields) {
  const std::string Body = "*" + Fields + "**";
  return std::to_string(Body.size()) + Body;
}

/// A core, its regions and helpers to name regions and find merged nodes.
class CoreFixture : public ::testing::Test {
protected:
  CoreFixture() : C(Regions) {}

  RegionId region(const std::string &Fields) {
    RegisterResult R = Regions.registerCtc(ctcString(Fields));
    EXPECT_EQ(R.Error, POMP_SUCCESS) << R.Message;
    return R.Id;
  }

  /// One step of a call path: the region and the canonical opener.
  using Step = std::pair<RegionId, EventId>;

  /// The merged node at this path below the program root, or nullptr.
  static const ProfileNode *find(const Profile &P, std::initializer_list<Step> Path) {
    std::uint32_t Current = 0;
    for (const Step &S : Path) {
      bool Found = false;
      for (std::uint32_t Child : P.Nodes[Current].Children)
        if (P.Nodes[Child].Region == S.first && P.Nodes[Child].Opener == S.second) {
          Current = Child;
          Found = true;
          break;
        }
      if (!Found)
        return nullptr;
    }
    return &P.Nodes[Current];
  }

  /// The metrics of one thread at a node (all zero when it did not visit).
  static ThreadMetrics of(const ProfileNode &N, std::uint32_t Thread) {
    for (const ThreadMetrics &M : N.PerThread)
      if (M.Thread == Thread)
        return M;
    return {};
  }

  static constexpr double OneNsPerTick = 1.0;

  RegionTable Regions;
  Core C;
};

} // namespace pomp::rt::test

#endif // POMP_TESTS_RUNTIME_CORETESTSUPPORT_H
