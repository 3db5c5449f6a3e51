//===- core/Regions.cpp - Region descriptors and handles ------------------===//

#include "core/Regions.h"

#include <new>

namespace pomp::rt {

using pomp::ctc::RegionDescriptor;
using pomp::ctc::RegionKind;

RegionTable::~RegionTable() {
  for (std::atomic<Region *> &Chunk : Chunks)
    delete[] Chunk.load(std::memory_order_relaxed);
  delete ByKey;
}

RegisterResult RegionTable::registerCtc(std::string_view Ctc) {
  {
    std::lock_guard<std::mutex> Lock(Adding);
    if (ByKey) {
      auto Found = ByKey->find(std::string(Ctc));
      if (Found != ByKey->end())
        return {Found->second, POMP_SUCCESS, {}};
    }
  }
  // Parse outside the lock: other threads keep registering meanwhile, and a
  // second thread parsing the same string only costs time (addLocked keeps the
  // first).
  pomp::ctc::Expected<RegionDescriptor> Parsed = pomp::ctc::parseDescriptor(Ctc);
  if (!Parsed)
    return {0, POMP_ERROR_MALFORMED_CTC, "malformed CTC string: " + Parsed.error().message()};
  std::lock_guard<std::mutex> Lock(Adding);
  return addLocked(Ctc, *Parsed, RegionOrigin::Pomp, 0);
}

RegisterResult RegionTable::registerDescriptor(std::string_view Key,
                                               const RegionDescriptor &Descriptor,
                                               RegionOrigin Origin, std::uintptr_t CodeAddress) {
  std::lock_guard<std::mutex> Lock(Adding);
  return addLocked(Key, Descriptor, Origin, CodeAddress);
}

RegisterResult RegionTable::addLocked(std::string_view Key, const RegionDescriptor &Descriptor,
                                      RegionOrigin Origin, std::uintptr_t CodeAddress) {
  if (!ByKey)
    ByKey = new std::unordered_map<std::string, RegionId>();
  auto Found = ByKey->find(std::string(Key));
  if (Found != ByKey->end())
    return {Found->second, POMP_SUCCESS, {}};
  const std::uint32_t Index = Count.load(std::memory_order_relaxed);
  if (Index >= MaxRegions)
    return {0, POMP_ERROR_OUT_OF_RESOURCES, "too many regions"};
  Region *Chunk = Chunks[Index >> ChunkBits].load(std::memory_order_relaxed);
  if (!Chunk) {
    Chunk = new Region[ChunkSize];
    Chunks[Index >> ChunkBits].store(Chunk, std::memory_order_release);
  }
  Region &R = Chunk[Index & (ChunkSize - 1)];
  R.Id = Index + 1;
  R.Key = std::string(Key);
  R.Descriptor = Descriptor;
  R.Label = regionLabel(Descriptor);
  R.Location = regionLocation(Descriptor);
  R.Origin = Origin;
  R.CodeAddress = CodeAddress;
  if (Origin == RegionOrigin::Pomp)
    PompRegions.store(true, std::memory_order_relaxed);
  ByKey->emplace(R.Key, R.Id);
  // Publishing the count makes the region visible to isValid()/get().
  Count.store(Index + 1, std::memory_order_release);
  return {R.Id, POMP_SUCCESS, {}};
}

std::string regionLabel(const RegionDescriptor &Descriptor) {
  std::string Label = Descriptor.Type.empty() ? std::string("region") : Descriptor.Type;
  if (Descriptor.Name.empty())
    return Label;
  if (Descriptor.Kind == RegionKind::Function || Descriptor.Kind == RegionKind::UserRegion) {
    Label += ' ';
    if (!Descriptor.Group.empty())
      Label += Descriptor.Group + "::";
    Label += Descriptor.Name;
    return Label;
  }
  return Label + "(" + Descriptor.Name + ")";
}

std::string regionLocation(const RegionDescriptor &Descriptor) {
  if (Descriptor.File.empty())
    return {};
  if (!Descriptor.StartLines)
    return Descriptor.File;
  return Descriptor.File + ":" + std::to_string(Descriptor.StartLines->First);
}

} // namespace pomp::rt
