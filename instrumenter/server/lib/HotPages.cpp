//===- HotPages.cpp - The code pages the server's children use ------------===//

#include "HotPages.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 // Linux 5.14
#endif

namespace pomp::server {
namespace {

/// The first requests learn, then one in LearnEvery: the set stops growing
/// after a few, but a later kind of file (C++ after C) may touch new code.
constexpr std::uint64_t LearnFirst = 8;
constexpr std::uint64_t LearnEvery = 32;
/// A pagemap entry's "present" bit (Documentation/admin-guide/mm/pagemap.rst).
constexpr std::uint64_t PresentBit = std::uint64_t(1) << 63;
constexpr std::size_t BitsPerWord = 64;
/// Pagemap entries read at a time.
constexpr std::size_t EntriesPerRead = 4096;

} // namespace

HotPages::HotPages() {
  const long Size = sysconf(_SC_PAGESIZE);
  std::FILE *Maps = std::fopen("/proc/self/maps", "re");
  if (Size <= 0 || !Maps) {
    if (Maps)
      std::fclose(Maps);
    return;
  }
  PageSize = static_cast<std::size_t>(Size);
  char *Line = nullptr;
  std::size_t Capacity = 0;
  while (getline(&Line, &Capacity, Maps) > 0) {
    unsigned long Start = 0, End = 0, Inode = 0;
    char Perms[5] = {};
    int PathAt = 0;
    if (std::sscanf(Line, "%lx-%lx %4s %*s %*s %lu %n", &Start, &End, Perms, &Inode, &PathAt) < 4)
      continue;
    // Code and constants of a file: readable, never written.
    if (Inode == 0 || Line[PathAt] != '/' || Perms[0] != 'r' || Perms[1] == 'w' || End <= Start)
      continue;
    Ranges.push_back({Start, End, Pages});
    Pages += (End - Start) / PageSize;
  }
  std::free(Line);
  std::fclose(Maps);
  const std::size_t Words = (Pages + BitsPerWord - 1) / BitsPerWord;
  SharedSize = (1 + Words) * sizeof(std::uint64_t);
  void *Memory =
      mmap(nullptr, SharedSize, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (Pages == 0 || Memory == MAP_FAILED) {
    Ranges.clear();
    Pages = 0;
    return;
  }
  // Fresh anonymous memory is zero: no request, no page.
  Shared = Memory;
}

HotPages::~HotPages() {
  if (Shared)
    munmap(Shared, SharedSize);
}

std::atomic<std::uint64_t> &HotPages::requests() const {
  return *static_cast<std::atomic<std::uint64_t> *>(Shared);
}

std::atomic<std::uint64_t> *HotPages::words() const {
  return static_cast<std::atomic<std::uint64_t> *>(Shared) + 1;
}

void HotPages::learn() {
  if (!Shared)
    return;
  const std::uint64_t Request = requests().fetch_add(1, std::memory_order_relaxed);
  if (Request >= LearnFirst && Request % LearnEvery != 0)
    return;
  const int Map = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
  if (Map < 0)
    return;
  std::vector<std::uint64_t> Entries(EntriesPerRead);
  for (const Range &R : Ranges) {
    const std::size_t First = R.Start / PageSize, Count = (R.End - R.Start) / PageSize;
    for (std::size_t Done = 0; Done < Count;) {
      const std::size_t Want = std::min(EntriesPerRead, Count - Done);
      const ssize_t Got = pread(Map, Entries.data(), Want * sizeof(std::uint64_t),
                                static_cast<off_t>((First + Done) * sizeof(std::uint64_t)));
      if (Got <= 0)
        break;
      const std::size_t Read = static_cast<std::size_t>(Got) / sizeof(std::uint64_t);
      for (std::size_t I = 0; I < Read; ++I)
        if (Entries[I] & PresentBit) {
          const std::size_t Bit = R.FirstPage + Done + I;
          words()[Bit / BitsPerWord].fetch_or(std::uint64_t(1) << (Bit % BitsPerWord),
                                              std::memory_order_relaxed);
        }
      Done += Read;
    }
  }
  close(Map);
}

std::vector<HotPages::Run> HotPages::runs() const {
  std::vector<Run> Runs;
  if (!Shared)
    return Runs;
  const auto IsHot = [this](std::size_t Bit) {
    return (words()[Bit / BitsPerWord].load(std::memory_order_relaxed) >> (Bit % BitsPerWord)) & 1;
  };
  for (const Range &R : Ranges) {
    const std::size_t Count = (R.End - R.Start) / PageSize;
    for (std::size_t Page = 0; Page < Count;) {
      if (!IsHot(R.FirstPage + Page)) {
        ++Page;
        continue;
      }
      std::size_t Last = Page;
      while (Last < Count && IsHot(R.FirstPage + Last))
        ++Last;
      Runs.push_back({R.Start + Page * PageSize, (Last - Page) * PageSize});
      Page = Last;
    }
  }
  return Runs;
}

void HotPages::populate() const {
  for (const Run &R : runs())
    // A kernel without MADV_POPULATE_READ (EINVAL) maps nothing ahead.
    if (madvise(reinterpret_cast<void *>(R.Start), R.Size, MADV_POPULATE_READ) != 0 &&
        errno == EINVAL)
      return;
}

std::size_t HotPages::count() const {
  std::size_t Bytes = 0;
  for (const Run &R : runs())
    Bytes += R.Size;
  return PageSize ? Bytes / PageSize : 0;
}

} // namespace pomp::server
