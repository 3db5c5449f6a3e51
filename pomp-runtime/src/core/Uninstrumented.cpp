//===- core/Uninstrumented.cpp - Source files not instrumented ------------===//

#include "core/Uninstrumented.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

namespace pomp::rt {
namespace {

/// A noted file. Nodes live until the process ends: notes are few (one per
/// uninstrumented file) and a reader may walk the list at any time.
struct Note {
  char *File;
  char *Reason;
  Note *Next;
};

/// Pushed with compare-and-swap, never popped. Constant-initialised, so it
/// is valid before any static constructor of this library ran.
std::atomic<Note *> Notes{nullptr};

char *copyString(const char *Text) {
  const std::size_t Size = std::strlen(Text) + 1;
  char *Copy = static_cast<char *>(std::malloc(Size));
  if (Copy)
    std::memcpy(Copy, Text, Size);
  return Copy;
}

} // namespace

bool noteUninstrumented(const char *File, const char *Reason) {
  // malloc, not new: no exception may leave a constructor of the user's
  // program, and a failure is only a missing line in the profile.
  Note *N = static_cast<Note *>(std::malloc(sizeof(Note)));
  if (!N)
    return false;
  N->File = copyString(File);
  N->Reason = copyString(Reason);
  if (!N->File || !N->Reason) {
    std::free(N->File);
    std::free(N->Reason);
    std::free(N);
    return false;
  }
  N->Next = Notes.load(std::memory_order_relaxed);
  while (!Notes.compare_exchange_weak(N->Next, N, std::memory_order_release,
                                      std::memory_order_relaxed)) {
  }
  return true;
}

std::vector<UninstrumentedFile> uninstrumentedFiles() {
  std::vector<UninstrumentedFile> Files;
  for (const Note *N = Notes.load(std::memory_order_acquire); N; N = N->Next)
    Files.push_back({N->File, N->Reason});
  std::sort(Files.begin(), Files.end());
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

} // namespace pomp::rt
