//===- SymbolizerLibrary.h - Callers in the symbolizer's test libraries ---===//

#ifndef POMP_TESTS_RUNTIME_UNIT_SYMBOLIZERLIBRARY_H
#define POMP_TESTS_RUNTIME_UNIT_SYMBOLIZERLIBRARY_H

#include <cstdint>

/// A return address in a test library and the source line of its call.
struct LibraryCallSite {
  std::uintptr_t Address;
  unsigned Line;
};

/// Each calls Record and returns the address its call returns to.
extern "C" {
LibraryCallSite splitDebugCaller(std::uintptr_t (*Record)());
LibraryCallSite staleDebugCaller(std::uintptr_t (*Record)());
LibraryCallSite noDebugCaller(std::uintptr_t (*Record)());
}

#endif
