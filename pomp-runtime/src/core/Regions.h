//===- core/Regions.h - Region descriptors and handles ----------*- C++ -*-===//
///
/// \file
/// The table of source regions (constructs, functions, user regions) the
/// library knows. A handle is a region's index plus one, so a handle is valid
/// exactly when 1 <= handle <= size(): a garbage handle is caught by one bounds
/// check and nothing is dereferenced on its behalf.
///
/// The table is append-only and chunked: a region, once published, never moves
/// and never changes, so events read it without locks. Adding a region takes a
/// mutex; that happens once per construct (POMP_Get_handle, or the first event
/// of a construct whose handle is still zero).
///
/// The table is usable in every phase of the library, also before
/// initialisation (POMP_Get_handle may come first) and is never destroyed.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_REGIONS_H
#define POMP_RUNTIME_CORE_REGIONS_H

#include "pomp/ctc/Ctc.h"
#include "pomplib.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace pomp::rt {

/// Index of a region in the table plus one: the value of a bound handle.
using RegionId = std::uint32_t;

/// Cache-line size, to keep a region's written fields away from its read ones.
inline constexpr std::size_t CacheLine = 64;

/// Which event source registered a region.
enum class RegionOrigin : std::uint8_t {
  Pomp, ///< a CTC string of instrumented code
  Ompt, ///< a construct the OpenMP runtime reported through OMPT
};

/// One source region, immutable after publication except LastFork (and, for
/// OMPT regions, Label and Location, which finalisation fills in from the
/// code address once every thread has stopped).
struct Region {
  RegionId Id = 0;
  /// The string the region was registered under (its CTC string).
  std::string Key;
  pomp::ctc::RegionDescriptor Descriptor;
  /// For people: "parallel", "critical(name)", "function foo".
  std::string Label;
  /// "file:line" of the directive, or "" when the CTC string has no file.
  std::string Location;
  RegionOrigin Origin = RegionOrigin::Pomp;
  /// For OMPT regions: the return address the runtime reported (codeptr_ra),
  /// which finalisation resolves to a function and source line.
  std::uintptr_t CodeAddress = 0;
  /// For OMPT regions: the functions the construct's function was inlined
  /// into at CodeAddress (the DWARF inline chain), innermost first; empty when
  /// it was not inlined there. Copies of one construct share Location (and
  /// are one row of a flat table); this tells them apart in a call path.
  std::vector<std::string> InlinedInto;
  /// The context of the most recent plain POMP_Parallel_enter of this region:
  /// the best guess of the parent for a POMP_Parallel_begin without context.
  alignas(CacheLine) std::atomic<std::uintptr_t> LastFork{0};
};

/// Result of registering a region.
struct RegisterResult {
  RegionId Id = 0; ///< 0 on failure
  int32_t Error = POMP_SUCCESS;
  std::string Message; ///< for POMP_Last_error_message()
};

/// The append-only table of regions.
class RegionTable {
public:
  constexpr RegionTable() = default;
  RegionTable(const RegionTable &) = delete;
  RegionTable &operator=(const RegionTable &) = delete;
  ~RegionTable();

  /// Regions per chunk and chunks: together the most regions a program can have.
  static constexpr unsigned ChunkBits = 8;
  static constexpr std::size_t ChunkSize = std::size_t(1) << ChunkBits;
  static constexpr std::size_t MaxChunks = 4096;
  static constexpr std::size_t MaxRegions = ChunkSize * MaxChunks;

  /// True when Handle names a published region.
  bool isValid(POMP_Handle_t Handle) const {
    return Handle - 1 < Count.load(std::memory_order_acquire);
  }

  /// False for a handle beyond the table's capacity; true does not mean that
  /// a region has it (0 passes too). Enough for a fast path that then finds a
  /// call-path node with the handle in its key: nodes exist only for
  /// published regions, and no node has region 0's keys (CallPath.h, NoKey).
  static constexpr bool withinCapacity(POMP_Handle_t Handle) { return Handle <= MaxRegions; }

  /// The region of a valid handle.
  const Region &get(RegionId Id) const {
    const std::size_t Index = Id - 1;
    return Chunks[Index >> ChunkBits].load(std::memory_order_acquire)[Index & (ChunkSize - 1)];
  }
  Region &get(RegionId Id) {
    const std::size_t Index = Id - 1;
    return Chunks[Index >> ChunkBits].load(std::memory_order_acquire)[Index & (ChunkSize - 1)];
  }

  /// The number of published regions.
  std::uint32_t size() const { return Count.load(std::memory_order_acquire); }

  /// The region registered under this CTC string, parsing and adding it when it
  /// is new. Equal strings give the same region, so a construct whose handle
  /// is a local variable (paper Appendix A) is one region however often its
  /// handle starts at zero.
  RegisterResult registerCtc(std::string_view Ctc);

  /// The region registered under Key, adding one with this descriptor when
  /// Key is new (for adapters whose regions have no CTC string).
  RegisterResult registerDescriptor(std::string_view Key,
                                    const pomp::ctc::RegionDescriptor &Descriptor,
                                    RegionOrigin Origin = RegionOrigin::Pomp,
                                    std::uintptr_t CodeAddress = 0);

  /// Stores Region into a zero handle of the program's, under the table's
  /// lock: of the threads that race to bind one handle (its construct's first
  /// events, without load-time binding) only the first writes it, and every
  /// later one reads it under the same lock. So no binder's access races with
  /// the plain reads of instrumented code, which passes the handle by value
  /// to its construct's next events once its own first event returned; a
  /// compare-exchange would not do for TSan, which takes a failed one for a
  /// write (tests/runtime/tasks.c, docs/RELIABILITY.md).
  void bind(POMP_Handle_t *Handle, RegionId Region) {
    std::lock_guard<std::mutex> Lock(Adding);
    if (__atomic_load_n(Handle, __ATOMIC_RELAXED) == 0)
      __atomic_store_n(Handle, static_cast<POMP_Handle_t>(Region), __ATOMIC_RELEASE);
  }

  /// True once a region of instrumented code (a CTC string) was registered:
  /// the program reports through POMP, and the OMPT adapter leaves the events
  /// that POMP reports without an open region (flush, atomic, lock release)
  /// to it.
  bool hasPompRegions() const { return PompRegions.load(std::memory_order_relaxed); }

  /// Held across fork() (pthread_atfork), so that the child's copy of the
  /// table is consistent and its lock free.
  void lockForFork() { Adding.lock(); }
  void unlockAfterFork() { Adding.unlock(); }

private:
  RegisterResult addLocked(std::string_view Key, const pomp::ctc::RegionDescriptor &Descriptor,
                           RegionOrigin Origin, std::uintptr_t CodeAddress);

  std::array<std::atomic<Region *>, MaxChunks> Chunks{};
  std::atomic<std::uint32_t> Count{0};
  std::atomic<bool> PompRegions{false};
  std::mutex Adding;
  /// Registered keys; allocated on first use so that the table itself can be
  /// constant-initialised.
  std::unordered_map<std::string, RegionId> *ByKey = nullptr;
};

/// Gives the regions the OpenMP runtime reported (OMPT) a source location from
/// their code address: "file:line (function)" with debug information,
/// "function (0x...)" with a symbol only, "0x..." without either; the file
/// and line also go into the descriptor. Finalisation calls it once, when no
/// thread raises events any more.
void resolveCodeAddresses(RegionTable &Regions);

/// The label and location of a descriptor, as the profile shows them.
std::string regionLabel(const pomp::ctc::RegionDescriptor &Descriptor);

/// The CTC `type` of the MPI calls libpomp-mpi reports (docs/MPI.md): such a
/// region is labelled with its name alone (`MPI_Allreduce`).
inline constexpr std::string_view MpiRegionType = "mpi";
std::string regionLocation(const pomp::ctc::RegionDescriptor &Descriptor);

/// The location with the DWARF inline chain where there is one:
/// `lulesh.cc:2022 (CalcPressureForElems ← ApplyMaterialPropertiesForElems)`;
/// the plain location otherwise.
std::string inlinedLocation(const Region &R);

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_REGIONS_H
