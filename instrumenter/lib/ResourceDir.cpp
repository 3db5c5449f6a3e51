//===- ResourceDir.cpp - Where Clang's builtin headers and omp.h live ------===//
#include "pomp/instrumenter/Instrumenter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

#ifndef POMP_DEFAULT_CLANG_RESOURCE_DIR
#error "the build defines POMP_DEFAULT_CLANG_RESOURCE_DIR (Clang 19's resource directory)"
#endif

namespace pomp::inst {

std::string clangResourceDir(std::string_view ExecutablePath) {
  if (const char *FromEnvironment = std::getenv("POMP_CLANG_RESOURCE_DIR"))
    if (*FromEnvironment)
      return FromEnvironment;
  // An installed toolkit carries the resource headers: <prefix>/lib/pomp/clang.
  if (!ExecutablePath.empty()) {
    llvm::SmallString<256> Installed(llvm::sys::path::parent_path(ExecutablePath));
    llvm::sys::path::append(Installed, "..", "lib", "pomp", "clang");
    llvm::SmallString<256> OmpHeader(Installed);
    llvm::sys::path::append(OmpHeader, "include", "omp.h");
    if (llvm::sys::fs::exists(OmpHeader)) {
      llvm::sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
      return std::string(Installed);
    }
  }
  return POMP_DEFAULT_CLANG_RESOURCE_DIR;
}

std::vector<std::string> parseArguments(std::string_view ExecutablePath) {
  // -w: the user's code gets its warnings when the real compiler compiles
  // the output; printing them here too would show each twice.
  return {"-fopenmp", "-w", "-D_POMP=" + std::to_string(POMP_API_VERSION),
          "-resource-dir=" + clangResourceDir(ExecutablePath)};
}

} // namespace pomp::inst
