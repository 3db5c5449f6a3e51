//===- PreambleEntryTest.cpp - The preamble cache's entries ----------------===//
///
/// \file
/// An entry's state line: a pending entry keeps its first compile's times
/// (the overlapped compile's choice at the second sight, docs/OMPCC.md), and
/// a reader of the first line only (stateOf) agrees with the whole parse.
///
//===----------------------------------------------------------------------===//
#include "PreambleEntry.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <gtest/gtest.h>

#include <fstream>
#include <optional>
#include <string>

namespace {

using namespace pomp::inst;

/// A directory of its own, removed at the end.
class PreambleEntryTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("pomp-preamble-entry-test", Directory));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Directory); }

  std::string path(llvm::StringRef Name) const {
    llvm::SmallString<256> Path(Directory);
    llvm::sys::path::append(Path, Name);
    return std::string(Path);
  }

  llvm::SmallString<256> Directory;
};

TEST_F(PreambleEntryTest, PendingEntryKeepsItsFirstCompilesTimes) {
  ASSERT_EQ(preamble::notePending(Directory, "timed.preamble", OverlapTimes{412, 1050}), "");
  std::optional<OverlapTimes> Times;
  EXPECT_EQ(preamble::stateOf(path("timed.preamble"), &Times), EntryState::Pending);
  ASSERT_TRUE(Times.has_value());
  EXPECT_EQ(Times->SpliceMs, 412u);
  EXPECT_EQ(Times->RestMs, 1050u);
  const preamble::LookedUp Whole = preamble::lookUp(path("timed.preamble"));
  ASSERT_TRUE(Whole.Found.has_value());
  EXPECT_TRUE(Whole.Found->Pending);
  ASSERT_TRUE(Whole.Found->Times.has_value());
  EXPECT_EQ(Whole.Found->Times->RestMs, 1050u);
}

TEST_F(PreambleEntryTest, PendingEntryWithoutTimesHasNone) {
  ASSERT_EQ(preamble::notePending(Directory, "plain.preamble"), "");
  std::optional<OverlapTimes> Times = OverlapTimes{1, 2};
  EXPECT_EQ(preamble::stateOf(path("plain.preamble"), &Times), EntryState::Pending);
  EXPECT_FALSE(Times.has_value());
}

TEST_F(PreambleEntryTest, StoredAndMissingEntries) {
  preamble::Entry Unusable;
  Unusable.WhyNot = "it expands __DATE__";
  std::string Problem;
  preamble::store(Unusable, Directory, "unusable.preamble", 1 << 20, Problem);
  ASSERT_EQ(Problem, "");
  EXPECT_EQ(preamble::stateOf(path("unusable.preamble")), EntryState::Stored);
  EXPECT_EQ(preamble::stateOf(path("none.preamble")), EntryState::Missing);
}

TEST_F(PreambleEntryTest, DamagedStateLinesAreBuiltAgain) {
  for (const char *State : {"pending 12", "pending x 3", "pendingusable", "gone"}) {
    SCOPED_TRACE(State);
    const std::string Text = preamble::render(preamble::Entry());
    const std::string Damaged = Text.substr(0, Text.find('\n') + 1) + State +
                                Text.substr(Text.find('\n', Text.find('\n') + 1));
    EXPECT_FALSE(preamble::parseEntry(Damaged).has_value());
    std::ofstream(path("damaged.preamble"), std::ios::binary) << Damaged;
    std::optional<OverlapTimes> Times;
    EXPECT_EQ(preamble::stateOf(path("damaged.preamble"), &Times), EntryState::Pending);
    EXPECT_FALSE(Times.has_value());
  }
}

} // namespace
