//===- pomp-link.cpp - The POMP pre-linker --------------------------------===//
///
/// \file
/// `pomp-link [options] <input>...` generates POMP_Init_Handles() for the
/// inputs of a link (paper Appendix B); `pomp-link --help` says how. All the
/// work is in the pomp_link library; ompcc runs this tool in its link step.
///
//===----------------------------------------------------------------------===//
#include "pomp/link/PompLink.h"

#include "llvm/Support/raw_ostream.h"

#include <string_view>
#include <vector>

int main(int Argc, char **Argv) {
  const std::vector<std::string_view> Args(Argv + 1, Argv + Argc);
  llvm::Expected<pomp::link::Options> Opts = pomp::link::parseArguments(Args);
  if (!Opts) {
    llvm::errs() << "pomp-link: error: " << llvm::toString(Opts.takeError())
                 << "\nusage: pomp-link [options] <input>... (pomp-link --help explains)\n";
    return pomp::link::ExitUsage;
  }
  return pomp::link::runPompLink(*Opts, llvm::outs(), llvm::errs());
}
