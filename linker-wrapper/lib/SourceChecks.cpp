//===- SourceChecks.cpp - What needs instrumenting ------------------------===//
#include "pomp/ompcc/SourceChecks.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace pomp::ompcc {
namespace {

using llvm::StringRef;

bool isIdentifierStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentifierChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Whether a path component marks a directory where a build system runs its
/// probes.
bool isProbeComponent(StringRef Component) {
  return Component == "CMakeScratch" || Component == "CMakeTmp" ||
         Component.starts_with("CompilerId") || Component.starts_with("cmTC_") ||
         Component == "meson-private";
}

bool isProbePath(StringRef Path) {
  if (llvm::sys::path::stem(Path) == "conftest")
    return true;
  for (auto It = llvm::sys::path::begin(Path), End = llvm::sys::path::end(Path); It != End; ++It) {
    if (!isProbeComponent(*It))
      continue;
    // CMake's own directories sit below CMakeFiles; cmTC_ and
    // meson-private names are specific enough on their own.
    if (It->starts_with("cmTC_") || *It == "meson-private" || Path.contains("CMakeFiles"))
      return true;
  }
  return false;
}

} // namespace

bool mayNeedInstrumentation(StringRef Text) {
  for (std::size_t I = 0; I < Text.size();) {
    if (!isIdentifierStart(Text[I]) || (I > 0 && isIdentifierChar(Text[I - 1]))) {
      ++I;
      continue;
    }
    std::size_t End = I + 1;
    while (End < Text.size() && isIdentifierChar(Text[End]))
      ++End;
    const StringRef Identifier = Text.slice(I, End);
    if (Identifier == "omp" || Identifier == "pomp" || Identifier == "_Pragma" ||
        Identifier == "main" || Identifier.starts_with("omp_"))
      return true;
    I = End;
  }
  return false;
}

bool isBuildSystemProbe(llvm::ArrayRef<std::string> Paths, StringRef WorkingDirectory) {
  if (isProbePath(WorkingDirectory))
    return true;
  for (const std::string &Path : Paths)
    if (isProbePath(Path))
      return true;
  return false;
}

} // namespace pomp::ompcc
