//===- SmallAllocator.cpp - ompinst's global operator new/delete -----------===//
///
/// \file
/// Replaces the global operator new and delete of the ompinst executable
/// (and so of the Clang, LLVM and Flang code it runs) with per-thread free
/// lists of small blocks carved from larger chunks. Flang's parser allocates
/// and frees a message for every grammar context it enters, millions per
/// file: glibc's malloc and free were 12% of ompinst's instructions on a
/// Fortran file (docs/PERFORMANCE.md). ompinst is a short-lived process, so
/// memory freed here is kept for reuse and never returned to the system.
///
/// Under a sanitizer the standard allocator stays (the sanitizers intercept
/// it to find memory errors).
///
//===----------------------------------------------------------------------===//
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                         \
    __has_feature(memory_sanitizer)
#define POMP_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define POMP_SANITIZED 1
#endif

#ifndef POMP_SANITIZED

namespace {

/// Blocks are multiples of the alignment operator new guarantees, behind a
/// header of the same size that holds the size class (0: a large block
/// from malloc).
constexpr std::size_t Alignment = __STDCPP_DEFAULT_NEW_ALIGNMENT__;
constexpr std::size_t Header = Alignment;
/// Blocks up to this size come from the free lists.
constexpr std::size_t MaxSmall = 512;
constexpr std::size_t Classes = MaxSmall / Alignment + 1;
/// Small blocks are carved from chunks of this size.
constexpr std::size_t ChunkSize = 256 * 1024;

struct FreeBlock {
  FreeBlock *Next;
};

/// One thread's free lists and the rest of its current chunk. Trivially
/// destructible: a thread's blocks stay valid after it ends (another thread
/// may free them, into its own lists).
struct ThreadCache {
  FreeBlock *Free[Classes];
  char *Chunk;
  std::size_t Left;
};
thread_local ThreadCache Cache;

void *allocate(std::size_t Size) {
  if (Size == 0)
    Size = 1;
  if (Size > MaxSmall) {
    auto *Block = static_cast<char *>(std::malloc(Size + Header));
    if (!Block)
      return nullptr;
    *reinterpret_cast<std::size_t *>(Block) = 0;
    return Block + Header;
  }
  const std::size_t Class = (Size + Alignment - 1) / Alignment;
  ThreadCache &C = Cache;
  if (FreeBlock *B = C.Free[Class]) {
    C.Free[Class] = B->Next;
    return B;
  }
  const std::size_t Bytes = Header + Class * Alignment;
  if (C.Left < Bytes) {
    // The rest of the old chunk is left unused (at most MaxSmall bytes).
    C.Chunk = static_cast<char *>(std::malloc(ChunkSize));
    if (!C.Chunk) {
      C.Left = 0;
      return nullptr;
    }
    C.Left = ChunkSize;
  }
  char *Block = C.Chunk;
  C.Chunk += Bytes;
  C.Left -= Bytes;
  *reinterpret_cast<std::size_t *>(Block) = Class;
  return Block + Header;
}

void deallocate(void *P) {
  if (!P)
    return;
  char *Block = static_cast<char *>(P) - Header;
  const std::size_t Class = *reinterpret_cast<std::size_t *>(Block);
  if (Class == 0) {
    std::free(Block);
    return;
  }
  auto *B = static_cast<FreeBlock *>(P);
  ThreadCache &C = Cache;
  B->Next = C.Free[Class];
  C.Free[Class] = B;
}

void *allocateOrThrow(std::size_t Size) {
  void *P = allocate(Size);
  if (!P)
    throw std::bad_alloc();
  return P;
}

} // namespace

void *operator new(std::size_t Size) { return allocateOrThrow(Size); }
void *operator new[](std::size_t Size) { return allocateOrThrow(Size); }
void *operator new(std::size_t Size, const std::nothrow_t &) noexcept { return allocate(Size); }
void *operator new[](std::size_t Size, const std::nothrow_t &) noexcept { return allocate(Size); }
void operator delete(void *P) noexcept { deallocate(P); }
void operator delete[](void *P) noexcept { deallocate(P); }
void operator delete(void *P, std::size_t) noexcept { deallocate(P); }
void operator delete[](void *P, std::size_t) noexcept { deallocate(P); }
void operator delete(void *P, const std::nothrow_t &) noexcept { deallocate(P); }
void operator delete[](void *P, const std::nothrow_t &) noexcept { deallocate(P); }

#endif // POMP_SANITIZED
