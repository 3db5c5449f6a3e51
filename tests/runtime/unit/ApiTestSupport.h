//===- ApiTestSupport.h - Whole-program scenarios of libpomp's API -*- C++ -*-===//
///
/// \file
/// What the scenarios of ApiTest.cpp and FortranBindingsTest.cpp share: each
/// runs in a process of its own (a gtest death test, EXPECT_SCENARIO), since
/// the library initialises and finalises once per process, and returns "" on
/// success or what went wrong.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_TESTS_RUNTIME_UNIT_APITESTSUPPORT_H
#define POMP_TESTS_RUNTIME_UNIT_APITESTSUPPORT_H

#include "core/Lifecycle.h"
#include "core/Profile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <sstream>
#include <string>
#include <string_view>
#include <unistd.h>
#include <utility>
#include <vector>

namespace pomp::rt::test {

/// Collects the failed checks of a scenario.
class Failures {
public:
  template <typename T, typename U>
  void equal(const T &Actual, const U &Expected, const std::string &What) {
    if (!(Actual == Expected)) {
      std::ostringstream S;
      S << What << ": got " << Actual << ", expected " << Expected << "\n";
      Text += S.str();
    }
  }
  void check(bool Ok, const std::string &What) {
    if (!Ok)
      Text += What + "\n";
  }
  const std::string &text() const { return Text; }

private:
  std::string Text;
};

/// A directory for this process's experiment, and the library told to be quiet.
inline std::string quietExperiment(const std::string &Name) {
  const char *Base = std::getenv("TMPDIR");
  const std::string Dir = std::string(Base && *Base ? Base : "/tmp") + "/pomp-api-test-" + Name +
                          "-" + std::to_string(::getpid());
  ::setenv("POMP_EXPERIMENT_DIR", Dir.c_str(), 1);
  ::setenv("POMP_QUIET", "1", 1);
  return Dir;
}

/// Removes an experiment directory the library wrote (files only): tests leave
/// nothing in the temporary directory.
inline void removeExperiment(const std::string &Dir) {
  if (DIR *D = ::opendir(Dir.c_str())) {
    while (const dirent *E = ::readdir(D))
      if (std::string_view(E->d_name) != "." && std::string_view(E->d_name) != "..")
        ::unlink((Dir + "/" + E->d_name).c_str());
    ::closedir(D);
  }
  ::rmdir(Dir.c_str());
}

/// The child of the path of (region name or type, construct) steps below the root.
inline const ProfileNode *findPath(const Profile &P,
                                   const std::vector<std::pair<std::string, EventId>> &Path) {
  std::uint32_t Current = 0;
  for (const auto &[Name, Opener] : Path) {
    bool Found = false;
    for (std::uint32_t Child : P.Nodes[Current].Children) {
      const ProfileNode &N = P.Nodes[Child];
      const Region &R = Runtime::regions().get(N.Region);
      if (N.Opener == Opener && (R.Descriptor.Name == Name || R.Descriptor.File == Name)) {
        Current = Child;
        Found = true;
        break;
      }
    }
    if (!Found)
      return nullptr;
  }
  return &P.Nodes[Current];
}

/// Death tests re-execute the binary instead of forking a process that may
/// have threads (OpenMP's pool, the scenarios' own).
class ApiTest : public ::testing::Test {
protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

#define EXPECT_SCENARIO(Scenario)                                                                  \
  EXPECT_EXIT(                                                                                     \
      {                                                                                            \
        const std::string Failed = Scenario();                                                     \
        if (const char *Dir = std::getenv("POMP_EXPERIMENT_DIR"))                                  \
          removeExperiment(Dir);                                                                   \
        std::fputs(Failed.c_str(), stderr);                                                        \
        std::fflush(stderr);                                                                       \
        std::_Exit(Failed.empty() ? 0 : 1);                                                        \
      },                                                                                           \
      ::testing::ExitedWithCode(0), "")

} // namespace pomp::rt::test

#endif // POMP_TESTS_RUNTIME_UNIT_APITESTSUPPORT_H
