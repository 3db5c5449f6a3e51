//===- HotPagesTest.cpp - The ompinst server's learned code pages ---------===//
///
/// \file
/// HotPages (instrumenter/server/lib/HotPages.h) as the server uses it: made
/// before a fork, learned from in one child, mapped ahead in another.
///
//===----------------------------------------------------------------------===//

#include "HotPages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace pomp::server {
namespace {

/// How many pages of Run this process has mapped (/proc/self/pagemap).
std::size_t mappedPages(const HotPages::Run &Run) {
  const std::size_t PageSize = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const int Map = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  std::size_t Mapped = 0;
  for (std::uintptr_t Page = Run.Start; Map >= 0 && Page < Run.Start + Run.Size; Page += PageSize) {
    std::uint64_t Entry = 0;
    if (pread(Map, &Entry, sizeof Entry, static_cast<off_t>(Page / PageSize * sizeof Entry)) ==
            static_cast<ssize_t>(sizeof Entry) &&
        (Entry >> 63) != 0)
      ++Mapped;
  }
  if (Map >= 0)
    close(Map);
  return Mapped;
}

/// A megabyte of constants, in a read-only mapping of the test's file, that
/// only the learning child reads.
constexpr std::size_t ColdSize = std::size_t(1) << 20;
const unsigned char ColdConstants[ColdSize] = {1};
const HotPages::Run Cold{reinterpret_cast<std::uintptr_t>(ColdConstants), ColdSize};

/// Runs Body in a forked child; its exit status (Body's result).
int inChild(int (*Body)(HotPages &), HotPages &Pages) {
  const pid_t Child = fork();
  if (Child == 0)
    _exit(Body(Pages));
  int Status = -1;
  waitpid(Child, &Status, 0);
  return WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
}

TEST(HotPages, AChildLearnsForTheOthersAndASpareMapsWhatWasLearned) {
  const std::size_t PageSize = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  HotPages Pages;
  EXPECT_EQ(Pages.count(), 0u);
  // A served request reads the constants, then learns its pages.
  ASSERT_EQ(inChild(
                [](HotPages &P) {
                  unsigned Sum = 0;
                  for (std::size_t I = 0; I < ColdSize; I += 512)
                    Sum += *static_cast<volatile const unsigned char *>(&ColdConstants[I]);
                  P.learn();
                  return Sum == 1 ? 0 : 1;
                },
                Pages),
            0);
  // Learned in the shared memory: the parent sees it.
  ASSERT_GE(Pages.count(), ColdSize / PageSize);
  // A fresh child has at most half of them (the kernel maps some pages
  // around the ones a process touches): a fork does not copy the mappings of
  // file pages, the reason HotPages exists. One that populates has them all.
  EXPECT_EQ(inChild([](HotPages &) { return mappedPages(Cold) < ColdSize / 8192 ? 0 : 1; }, Pages),
            0);
  EXPECT_EQ(inChild(
                [](HotPages &P) {
                  P.populate();
                  return mappedPages(Cold) ==
                                 ColdSize / static_cast<std::size_t>(sysconf(_SC_PAGESIZE))
                             ? 0
                             : 1;
                },
                Pages),
            0);
}

} // namespace
} // namespace pomp::server
