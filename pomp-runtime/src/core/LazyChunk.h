//===- core/LazyChunk.h - Chunks whose objects are built on first use -*- C++ -*-===//
///
/// \file
/// Raw storage for a chunk of objects that are constructed one at a time, as
/// they are handed out. Constructing a whole chunk up front writes every one
/// of its pages: a program's first region chunk (256 regions, 128 KiB) and
/// each thread's first node chunk (38 KiB) cost 32 and 10 page faults at
/// start-up, most of them for objects it never uses (PERFORMANCE.md, session
/// 28). Untouched pages of the storage stay unmapped.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_LAZYCHUNK_H
#define POMP_RUNTIME_CORE_LAZYCHUNK_H

#include <cstddef>
#include <memory>
#include <new>

namespace pomp::rt {

/// Storage for Count objects of T, none of them constructed yet.
template <typename T> T *allocateLazyChunk(std::size_t Count) {
  return static_cast<T *>(::operator new (sizeof(T) * Count, std::align_val_t{alignof(T)}));
}

/// Destroys the first Constructed objects of a chunk from allocateLazyChunk()
/// and frees it.
template <typename T> void freeLazyChunk(T *Chunk, std::size_t Constructed) {
  if (!Chunk)
    return;
  std::destroy_n(Chunk, Constructed);
  ::operator delete (static_cast<void *>(Chunk), std::align_val_t{alignof(T)});
}

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_LAZYCHUNK_H
