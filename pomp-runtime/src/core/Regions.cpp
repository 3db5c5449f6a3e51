//===- core/Regions.cpp - Region descriptors and handles ------------------===//

#include "core/Regions.h"

#include "core/LazyChunk.h"
#include "core/Symbolizer.h"

#include <algorithm>
#include <cerrno>
#include <dlfcn.h>
#include <filesystem>

#include <cinttypes>
#include <cstdio>
#include <new>

namespace pomp::rt {

using pomp::ctc::RegionDescriptor;
using pomp::ctc::RegionKind;

RegionTable::~RegionTable() {
  const std::size_t Regions = Count.load(std::memory_order_relaxed);
  for (std::size_t C = 0; C < MaxChunks; ++C) {
    const std::size_t First = C * ChunkSize;
    freeLazyChunk(Chunks[C].load(std::memory_order_relaxed),
                  Regions > First ? std::min(Regions - First, ChunkSize) : 0);
  }
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
    Chunk = allocateLazyChunk<Region>(ChunkSize);
    Chunks[Index >> ChunkBits].store(Chunk, std::memory_order_release);
  }
  Region &R = *new (&Chunk[Index & (ChunkSize - 1)]) Region;
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
  // An MPI call that libpomp-mpi measures is named as the user wrote it.
  if (Descriptor.Type == MpiRegionType)
    return Descriptor.Name;
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
  std::string Location = Descriptor.File;
  if (Descriptor.StartLines)
    Location += ":" + std::to_string(Descriptor.StartLines->First);
  // The enclosing function, as the OMPT adapter's regions name theirs, so
  // that a row says which function's construct it is (CTC `function`).
  if (!Descriptor.Function.empty())
    Location += " (" + Descriptor.Function + ")";
  return Location;
}

std::string inlinedLocation(const Region &R) {
  if (R.InlinedInto.empty() || R.Descriptor.Function.empty())
    return R.Location;
  const std::string Plain = " (" + R.Descriptor.Function + ")";
  if (R.Location.size() < Plain.size() ||
      R.Location.compare(R.Location.size() - Plain.size(), Plain.size(), Plain) != 0)
    return R.Location;
  std::string Chain = R.Descriptor.Function;
  for (const std::string &Caller : R.InlinedInto)
    Chain += " \u2190 " + Caller;
  return R.Location.substr(0, R.Location.size() - Plain.size()) + " (" + Chain + ")";
}

namespace {
/// The function a person wrote, by its name: clang names the outlined body of
/// a construct in f "f.omp_outlined" (C) or "f(int) [clone .omp_outlined]"
/// (C++, demangled), and a C++ name's parameter list only lengthens a
/// location ("Grid::solve(double*, int)" is shown as "Grid::solve").
std::string sourceFunction(std::string Function) {
  for (const char *Suffix : {" [clone .omp_outlined", ".omp_outlined"}) {
    const std::size_t Outlined = Function.find(Suffix);
    if (Outlined != std::string::npos && Outlined != 0) {
      Function.erase(Outlined);
      break;
    }
  }
  // A member function's qualifiers, then the parameter list: the
  // parenthesised group that ends the name.
  for (bool Stripped = true; Stripped;) {
    Stripped = false;
    for (std::string_view Qualifier : {" const", " volatile", " &&", " &"})
      if (Function.size() > Qualifier.size() &&
          std::string_view(Function).substr(Function.size() - Qualifier.size()) == Qualifier) {
        Function.resize(Function.size() - Qualifier.size());
        Stripped = true;
      }
  }
  if (!Function.empty() && Function.back() == ')') {
    int Depth = 0;
    for (std::size_t I = Function.size(); I-- > 0;) {
      if (Function[I] == ')')
        ++Depth;
      else if (Function[I] == '(' && --Depth == 0) {
        if (I != 0)
          Function.erase(I);
        break;
      }
    }
  }
  return Function;
}

/// "/a/b/../c/./d.c" as "/a/c/d.c": the line table keeps the compiler's
/// spelling, and one file must have one name.
std::string normalPath(const std::string &Path) {
  return std::filesystem::path(Path).lexically_normal().string();
}

/// "imb+0x1234": the code address as an offset in its module (the file name
/// of the executable or library), the same in every run whatever address
/// space layout the process got; "" when no module holds it.
std::string moduleOffset(std::uintptr_t Address) {
  Dl_info Info{};
  if (dladdr(reinterpret_cast<void *>(Address), &Info) == 0 || !Info.dli_fbase)
    return {};
  std::string Module = Info.dli_fname ? Info.dli_fname : "";
  if (Module.empty() || Module.find('/') == std::string::npos)
    Module = program_invocation_name;
  const std::size_t Slash = Module.rfind('/');
  if (Slash != std::string::npos)
    Module.erase(0, Slash + 1);
  char Buffer[2 + 2 * sizeof(std::uintptr_t) + 1];
  std::snprintf(Buffer, sizeof Buffer, "0x%" PRIxPTR,
                Address - reinterpret_cast<std::uintptr_t>(Info.dli_fbase));
  return Module + "+" + Buffer;
}

std::string hexAddress(std::uintptr_t Address) {
  char Buffer[2 + 2 * sizeof(std::uintptr_t) + 1];
  std::snprintf(Buffer, sizeof Buffer, "0x%" PRIxPTR, Address);
  return Buffer;
}
} // namespace

void resolveCodeAddresses(RegionTable &Regions) {
  std::unique_ptr<Symbolizer> Symbols;
  for (RegionId Id = 1; Id <= Regions.size(); ++Id) {
    Region &R = Regions.get(Id);
    if (R.Origin != RegionOrigin::Ompt || R.CodeAddress == 0)
      continue;
    // Made on first need: a program without OMPT regions loads no libdw.
    if (!Symbols)
      Symbols = std::make_unique<Symbolizer>();
    const CodeLocation &L = Symbols->resolveReturnAddress(R.CodeAddress);
    if (!L.Function.empty())
      R.Descriptor.Function = sourceFunction(L.Function);
    // The callers as a person names them: an outlined body's wrappers
    // ("f.omp_outlined_debug__" inlined into "f.omp_outlined") are f itself.
    std::string Previous = R.Descriptor.Function;
    for (const std::string &Caller : L.InlinedInto) {
      std::string Name = sourceFunction(Caller);
      if (Name.empty() || Name == Previous)
        continue;
      R.InlinedInto.push_back(Name);
      Previous = std::move(Name);
    }
    if (!L.File.empty()) {
      R.Descriptor.File = normalPath(L.File);
      if (L.Line != 0)
        R.Descriptor.StartLines = pomp::ctc::LineRange{L.Line, L.Line};
      R.Location = regionLocation(R.Descriptor);
    } else {
      std::string Where = moduleOffset(R.CodeAddress);
      if (Where.empty())
        Where = hexAddress(R.CodeAddress);
      R.Location = L.Function.empty() ? Where : sourceFunction(L.Function) + " (" + Where + ")";
    }
  }
}

} // namespace pomp::rt
