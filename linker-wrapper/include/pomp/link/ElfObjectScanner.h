//===- pomp/link/ElfObjectScanner.h - Plain objects without libLLVM -*- C++ -*-===//
///
/// \file
/// ompcc's own pre-link (issue 15): most links are of relocatable ELF objects
/// only (those ompcc just compiled and the .o files of the command line), and
/// starting pomp-link for them cost 24 ms per link, 19 ms of it loading
/// libLLVM.so. ElfObjectScanner reads such objects with the ELF structures
/// of llvm/BinaryFormat/ELF.h (headers only: ompcc links LLVM's Support
/// library alone) and fills the same units as InitFunctionScanner, from
/// which pomp-link's own code (PompLink.h, LinkUnits.h) writes the same
/// object and the same messages. Everything else (archives, bitcode, shared
/// libraries, other machines, anything unusual) it refuses, and ompcc runs
/// pomp-link.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_ELFOBJECTSCANNER_H
#define POMP_LINK_ELFOBJECTSCANNER_H

#include "pomp/link/LinkUnits.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace pomp::link {

/// Reads relocatable ELF objects (ET_REL, little-endian) of the machines
/// pomp-link writes objects for (x86_64, i386, aarch64).
class ElfObjectScanner : public UnitScanner {
public:
  /// An input that is not such an object, or that is unusual in any way
  /// (extended section numbering, a malformed table), is an error, and
  /// unsupportedReason() says why; every later input is refused at once.
  llvm::Error scanFile(llvm::StringRef Path) override;

  /// Why an input was refused ("libx.a is an archive"), or empty when every
  /// input was read.
  const std::string &unsupportedReason() const { return Unsupported; }

private:
  llvm::Error refuse(const llvm::Twine &Reason);

  std::string Unsupported;
};

/// Runs `pomp-link Args...` (Args without the program name) in this process
/// when every input is an object ElfObjectScanner reads: returns pomp-link's
/// exit status, with its output and messages written to Out and Err as the
/// tool writes them. Returns nothing, having written and printed nothing,
/// when pomp-link itself must run: Reason then says why (an input, or
/// arguments that are not a pre-link).
std::optional<int> runPompLinkOnObjects(llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Out,
                                        llvm::raw_ostream &Err, std::string &Reason);

} // namespace pomp::link

#endif // POMP_LINK_ELFOBJECTSCANNER_H
