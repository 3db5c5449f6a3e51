//===- SourceRootTest.cpp - The directory of a set of sources -------------===//
#include "pomp/ctc/SourceRoot.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

namespace {

std::string rootOf(std::initializer_list<const char *> Locations) {
  pomp::ctc::SourceRoot Root;
  for (const char *Location : Locations)
    Root.add(Location);
  return Root.root();
}

TEST(SourceRootTest, OneFileGivesItsDirectory) {
  EXPECT_EQ(rootOf({"/home/u/app/src/main.c:12"}), "/home/u/app/src/");
}

TEST(SourceRootTest, SeveralFilesGiveTheirCommonDirectory) {
  EXPECT_EQ(rootOf({"/home/u/app/src/main.c:12", "/home/u/app/lib/util.c:3",
                    "/home/u/app/src/kernel.c:40"}),
            "/home/u/app/");
}

TEST(SourceRootTest, ADirectoryNamePrefixIsNotADirectory) {
  // "/home/u/app" and "/home/u/apple" share "/home/u/app" as text, "/home/u/" as a directory.
  EXPECT_EQ(rootOf({"/home/u/app/a.c:1", "/home/u/apple/b.c:2"}), "/home/u/");
}

TEST(SourceRootTest, RelativeAndEmptyLocationsAreLeftOut) {
  EXPECT_EQ(rootOf({"", "main.c:3", "/srv/x/a.f90:7"}), "/srv/x/");
  EXPECT_EQ(rootOf({"main.c:3"}), "");
  EXPECT_EQ(rootOf({}), "");
}

TEST(SourceRootTest, OnlyTheRootInCommonGivesNothing) {
  EXPECT_EQ(rootOf({"/a/x.c:1", "/b/y.c:1"}), "");
}

} // namespace
