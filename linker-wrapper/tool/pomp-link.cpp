//===- pomp-link.cpp - The POMP pre-linker --------------------------------===//
///
/// \file
/// `pomp-link [options] <input>...` generates POMP_Init_Handles() for the
/// inputs of a link (paper Appendix B); `pomp-link --help` says how. All the
/// work is in the pomp_link library; ompcc runs this tool in its link step.
///
//===----------------------------------------------------------------------===//
#include "pomp/link/PompLink.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string_view>
#include <vector>

int main(int Argc, char **Argv) {
  // ompcc hands a long link line (thousands of objects) over in a response
  // file, as it does to the compiler: "@file", read as gcc reads it.
  llvm::BumpPtrAllocator Allocator;
  llvm::SmallVector<const char *, 64> Expanded(Argv + 1, Argv + Argc);
  llvm::cl::ExpansionContext Expansion(Allocator, llvm::cl::TokenizeGNUCommandLine);
  if (llvm::Error E = Expansion.expandResponseFiles(Expanded)) {
    llvm::errs() << "pomp-link: error: " << llvm::toString(std::move(E)) << "\n";
    return pomp::link::ExitUsage;
  }
  const std::vector<std::string_view> Args(Expanded.begin(), Expanded.end());
  llvm::Expected<pomp::link::Options> Opts = pomp::link::parseArguments(Args);
  if (!Opts) {
    llvm::errs() << "pomp-link: error: " << llvm::toString(Opts.takeError())
                 << "\nusage: pomp-link [options] <input>... (pomp-link --help explains)\n";
    return pomp::link::ExitUsage;
  }
  return pomp::link::runPompLink(*Opts, llvm::outs(), llvm::errs());
}
