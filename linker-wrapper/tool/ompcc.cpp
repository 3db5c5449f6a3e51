//===- ompcc.cpp - The POMP compiler drivers ompcc and ompc++ -------------===//
///
/// \file
/// `ompcc` and `ompc++` (a link to the same file: the name chooses C or C++)
/// stand in for the compiler of a build: `CC=ompcc CXX=ompc++ cmake ..`.
/// `ompcc --ompcc-help` and docs/OMPCC.md say how; the work is in the
/// pomp_ompcc library.
///
//===----------------------------------------------------------------------===//
#include "pomp/ompcc/Driver.h"
#include "pomp/ompcc/LineStream.h"

#include "llvm/Support/FileSystem.h"

#include <string>
#include <unistd.h>
#include <vector>

int main(int Argc, char **Argv) {
  const std::vector<std::string> Args(Argv + 1, Argv + Argc);
  // The executable itself, links resolved: the toolkit is found next to it.
  const std::string Executable =
      llvm::sys::fs::getMainExecutable(Argv[0], reinterpret_cast<void *>(&main));
  // Whole lines: the ompcc processes of a parallel build share the terminal.
  pomp::ompcc::LineStream Diagnostics(STDERR_FILENO);
  return pomp::ompcc::runDriver(Argv[0], Executable, Args, Diagnostics);
}
