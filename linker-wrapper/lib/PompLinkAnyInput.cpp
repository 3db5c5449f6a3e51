//===- PompLinkAnyInput.cpp - pomp-link on every kind of input ------------===//
///
/// \file
/// The entry points of PompLink.h that read the inputs with
/// InitFunctionScanner (LLVM's Object library). They are apart from
/// PompLink.cpp so that ompcc, which runs the same pre-link on plain objects
/// with ElfObjectScanner, links neither the Object library nor libLLVM.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/InitFunctionScanner.h"
#include "pomp/link/PompLink.h"

#include <utility>

namespace pomp::link {

using llvm::Expected;

Expected<std::string> generateProgramInit(llvm::ArrayRef<std::string> Inputs, bool Verbose,
                                          llvm::raw_ostream &Diagnostics) {
  Options Opts;
  Opts.Inputs.assign(Inputs.begin(), Inputs.end());
  Opts.Verbose = Verbose;
  return generateInit(Opts, Diagnostics);
}

Expected<std::string> generateSharedLibraryInit(llvm::ArrayRef<std::string> Inputs, bool Verbose,
                                                llvm::raw_ostream &Diagnostics) {
  Options Opts;
  Opts.Inputs.assign(Inputs.begin(), Inputs.end());
  Opts.Verbose = Verbose;
  Opts.SharedLibrary = true;
  return generateInit(Opts, Diagnostics);
}

Expected<std::string> generateInit(const Options &Opts, llvm::raw_ostream &Diagnostics) {
  Expected<GeneratedInit> Generated = generateInitAndTable(Opts, Diagnostics);
  if (!Generated)
    return Generated.takeError();
  return std::move(Generated->Source);
}

Expected<GeneratedInit> generateInitAndTable(const Options &Opts, llvm::raw_ostream &Diagnostics) {
  InitFunctionScanner Scanner;
  return generateInitAndTable(Opts, Scanner, Diagnostics);
}

int runPompLink(const Options &Opts, llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  InitFunctionScanner Scanner;
  return runPompLink(Opts, Scanner, Out, Err);
}

} // namespace pomp::link
