//===- SymbolizerNoDebug.cpp - A caller without debug information ---------===//
//
// Built with -g0 (tests/runtime/unit/CMakeLists.txt): the symbolizer finds this
// function in the symbol table only.
//
//===----------------------------------------------------------------------===//

#include <cstdint>

namespace pomp::rt::test {

std::uintptr_t recordReturnAddress();

__attribute__((noinline)) std::uintptr_t callerWithoutDebugInfo() {
  const std::uintptr_t Address = recordReturnAddress();
  // Not a tail call: the return address stays in this function.
  asm volatile("" : : "r"(Address) : "memory");
  return Address;
}

} // namespace pomp::rt::test
