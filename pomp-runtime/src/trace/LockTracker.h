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
/// always pair up. POMP's release events come before the lock is given back
/// (pomp_omp_wrappers.h), but the runtime reports one (OMPT mutex_released)
/// after it, when another thread may have acquired the lock already: so the
/// depth and the acquisition order of a holding are kept per holding thread.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_LOCKTRACKER_H
#define POMP_RUNTIME_TRACE_LOCKTRACKER_H

#include <cstddef>
#include <cstdint>
#include <functional>
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

  /// Thread Holder obtained Lock (once more, for a nested lock): the record
  /// to write when this is its outermost acquisition.
  std::optional<Record> acquire(std::uint64_t Lock, std::uint32_t Holder = 0) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto [It, New] = Locks.try_emplace(Lock, State{static_cast<std::uint32_t>(Locks.size())});
    State &S = It->second;
    Holding &H = Holdings[{Lock, Holder}];
    if (H.Depth++ != 0)
      return std::nullopt;
    H.Order = S.Acquisitions++;
    return Record{S.Id, H.Order};
  }

  /// Thread Holder gives Lock back (once, for a nested lock): the record to
  /// write when this ends its outermost acquisition. Nothing for a lock whose
  /// acquisition was not seen (it came while events were off).
  std::optional<Record> release(std::uint64_t Lock, std::uint32_t Holder = 0) {
    std::lock_guard<std::mutex> Guard(Mutex);
    auto It = Locks.find(Lock);
    auto Held = Holdings.find({Lock, Holder});
    if (It == Locks.end() || Held == Holdings.end() || Held->second.Depth == 0)
      return std::nullopt;
    if (--Held->second.Depth != 0)
      return std::nullopt;
    return Record{It->second.Id, Held->second.Order};
  }

  /// The number of distinct locks seen.
  std::size_t size() const {
    std::lock_guard<std::mutex> Guard(Mutex);
    return Locks.size();
  }

private:
  /// One lock: its id and how often it was acquired.
  struct State {
    std::uint32_t Id = 0;
    std::uint32_t Acquisitions = 0;
  };
  /// A thread's holding of a lock: how deeply, since which acquisition.
  struct Holding {
    std::uint32_t Depth = 0;
    std::uint32_t Order = 0;
  };
  /// A lock and a thread.
  struct HolderKey {
    std::uint64_t Lock;
    std::uint32_t Holder;
    bool operator==(const HolderKey &O) const { return Lock == O.Lock && Holder == O.Holder; }
  };
  /// Hash of a HolderKey.
  struct HolderHash {
    std::size_t operator()(const HolderKey &K) const {
      constexpr std::uint64_t Multiplier = 0x9e3779b97f4a7c15ull;
      return std::hash<std::uint64_t>()((K.Lock * Multiplier) ^ K.Holder);
    }
  };

  mutable std::mutex Mutex;
  std::unordered_map<std::uint64_t, State> Locks;
  std::unordered_map<HolderKey, Holding, HolderHash> Holdings;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_LOCKTRACKER_H
