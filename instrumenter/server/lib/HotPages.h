//===- HotPages.h - The code pages the server's children use ----*- C++ -*-===//
///
/// \file
/// A forked child does not inherit the page-table entries of its parent's
/// read-only file mappings (the libraries' code and constants: the kernel
/// maps them again on the child's first touch), so each served request
/// faulted in the same few thousand pages of libclang-cpp and libLLVM, one
/// fault per 16 pages, some 2 ms of its time (docs/PERFORMANCE.md, "Issue
/// 15: session 19"). HotPages learns which pages requests touch (from
/// /proc/self/pagemap, after a request has answered) and the spare child maps
/// them while it waits for its connection (MADV_POPULATE_READ).
///
/// The set lives in memory shared by the server and its children, created
/// before the first fork: the addresses are the server's, the same in every
/// child. Where the kernel offers neither interface nothing is learned or
/// mapped, and requests fault as before.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_SERVER_HOTPAGES_H
#define POMP_SERVER_HOTPAGES_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pomp::server {

/// The pages of the server's read-only file mappings that requests touched.
class HotPages {
public:
  /// In the server, before its first fork: the read-only file mappings of
  /// this process and an empty set in shared memory. Empty (learn and map
  /// nothing) when /proc/self/maps cannot be read or the memory not shared.
  HotPages();
  HotPages(const HotPages &) = delete;
  HotPages &operator=(const HotPages &) = delete;
  ~HotPages();

  /// In a child that served a request, after its answer: adds the pages it
  /// has mapped. Only some requests learn (the first ones, then one in
  /// LearnEvery), since the set soon stops growing.
  void learn();

  /// In a spare child, before it waits for its connection: maps every page
  /// learned so far.
  void populate() const;

  /// Consecutive learned pages: the address of the first and the bytes.
  struct Run {
    std::uintptr_t Start;
    std::size_t Size;
  };
  std::vector<Run> runs() const;

  /// How many pages are learned.
  std::size_t count() const;

private:
  /// A mapping, and where its pages start in the set.
  struct Range {
    std::uintptr_t Start;
    std::uintptr_t End;
    std::size_t FirstPage;
  };

  std::vector<Range> Ranges;
  std::size_t PageSize = 0;
  std::size_t Pages = 0;
  /// The shared memory: a request counter, then one bit per page.
  void *Shared = nullptr;
  std::size_t SharedSize = 0;

  std::atomic<std::uint64_t> &requests() const;
  std::atomic<std::uint64_t> *words() const;
};

} // namespace pomp::server

#endif // POMP_SERVER_HOTPAGES_H
