//===- ompinst.cpp - The POMP source instrumenter's command line -----------===//
///
/// \file
///   ompinst <file> -o <output> [options] [-- <compiler flags>]
///   ompinst -p <build-dir> <file>... [options]
///
/// Instruments Fortran files itself, on Flang's parser, and runs
/// `ompinst-clang` (next to it) with the same arguments for anything else.
/// Why two programs: this one does not load Clang. Loading and relocating the
/// shared libclang-cpp took a third of ompinst's time on a typical Fortran
/// file, which has no use for it (docs/INSTRUMENTER.md, "Two programs").
///
/// Exit status: 0 success, 1 a file did not compile or could not be written,
/// 2 usage error.
///
//===----------------------------------------------------------------------===//
#include "CommandLine.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;
using namespace pomp::ompinst;

namespace {

/// The name of the C/C++ program, in the directory of this one.
constexpr StringRef ClangProgramName = "ompinst-clang";

/// Replaces this process by ompinst-clang with the same arguments; returns
/// only when that fails, with the exit status.
int runClangProgram(int Argc, const char **Argv) {
  static int Anchor;
  SmallString<256> Program(sys::path::parent_path(sys::fs::getMainExecutable(Argv[0], &Anchor)));
  sys::path::append(Program, ClangProgramName);
  std::vector<char *> Arguments;
  Arguments.push_back(Program.data());
  for (int I = 1; I < Argc; ++I)
    Arguments.push_back(const_cast<char *>(Argv[I]));
  Arguments.push_back(nullptr);
  errs().flush();
  ::execv(Program.c_str(), Arguments.data());
  errs() << "ompinst: error: cannot run '" << Program
         << "' for the C/C++ files: " << std::strerror(errno) << "\n";
  return ExitFailure;
}

} // namespace

int main(int Argc, const char **Argv) {
  std::vector<std::string> CompilerFlags;
  CommonOptions Common;
  if (const std::optional<int> Exit = parseCommandLine(Argc, Argv, CompilerFlags, Common))
    return *Exit;
  if (!llvm::all_of(Sources, [](const std::string &Source) { return isFortranInput(Source); }))
    return runClangProgram(Argc, Argv);
  int Status = ExitSuccess;
  for (const std::string &Source : Sources)
    if (!instrumentFortran(Source, outputOf(Source), Common, CompilerFlags))
      Status = ExitFailure;
  return Status;
}
