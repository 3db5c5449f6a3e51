//===- SymbolizerLibrary.cpp - A caller in a shared library ---------------===//
//
// Built three times as a shared library (tests/runtime/unit/CMakeLists.txt),
// the function's name given by POMP_SYMBOLIZER_CALLER: with its debug
// information in a separate file that .gnu_debuglink names, with a debug file
// of that name whose CRC does not match, and without debug information.
//
//===----------------------------------------------------------------------===//

#include "SymbolizerLibrary.h"

extern "C" LibraryCallSite POMP_SYMBOLIZER_CALLER(std::uintptr_t (*Record)()) {
  LibraryCallSite Site;
  Site.Line = __LINE__ + 1;
  Site.Address = Record();
  // Not a tail call: the return address stays in this function.
  asm volatile("" : : "r"(Site.Address) : "memory");
  return Site;
}
