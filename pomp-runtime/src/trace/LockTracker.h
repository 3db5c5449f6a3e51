//===- trace/LockTracker.h - Lock ids and acquisition orders ----*- C++ -*-===//
///
/// \file
/// A trace identifies a lock by a small number and pairs each release with its
/// acquisition by an acquisition order that counts up per lock (OTF2's
/// ThreadAcquireLock/ThreadReleaseLock). POMP lock events carry the lock's
/// address; this table numbers addresses in the order they are first seen and
/// counts their acquisitions.
///
/// A nested lock is acquired once by its outermost set and released by its
/// last unset: only those two are recorded, so acquisitions and releases
/// always pair up. Acquire events come after the lock was obtained and release
/// events before it is given back (pomp_omp_wrappers.h), so a lock's entry is
/// only ever changed by the thread that holds the lock.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_LOCKTRACKER_H
#define POMP_RUNTIME_TRACE_LOCKTRACKER_H

#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace pomp::rt {

/// Lock ids and acquisition orders for the trace; safe from any thread.
class LockTracker {
public:
  /// What an acquisition or release record carries.
  struct Record {
    std::uint32_t Id;
    std::uint32_t Order;
    bool operator==(const Record &O) const { return Id == O.Id && Order == O.Order; }
  };

  /// The calling thread obtained Lock (once more, for a nested lock): the
  /// record to write when this is its outermost acquisition.
  std::optional<Record> acquire(std::uint64_t Lock) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto [It, New] = Locks.try_emplace(Lock, State{static_cast<std::uint32_t>(Locks.size())});
    State &S = It->second;
    if (S.Depth++ != 0)
      return std::nullopt;
    return Record{S.Id, S.Acquisitions++};
  }

  /// The calling thread gives Lock back (once, for a nested lock): the record
  /// to write when this ends its outermost acquisition. Nothing for a lock
  /// whose acquisition was not seen (it came while events were off).
  std::optional<Record> release(std::uint64_t Lock) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto It = Locks.find(Lock);
    if (It == Locks.end() || It->second.Depth == 0)
      return std::nullopt;
    State &S = It->second;
    if (--S.Depth != 0)
      return std::nullopt;
    return Record{S.Id, S.Acquisitions - 1};
  }

  /// The number of distinct locks seen.
  std::size_t size() const {
    std::lock_guard<std::mutex> Guard(Mutex);
    return Locks.size();
  }

private:
  /// One lock: its id, how often it was acquired, how deeply it is held.
  struct State {
    std::uint32_t Id = 0;
    std::uint32_t Acquisitions = 0;
    std::uint32_t Depth = 0;
  };

  mutable std::mutex Mutex;
  std::unordered_map<std::uint64_t, State> Locks;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_LOCKTRACKER_H
