//===- pomp/link/InitFunctionScanner.h - POMP init functions of a link -*- C++ -*-===//
///
/// \file
/// Reads the inputs of a link with LLVM's Object library (never by running
/// nm) and finds the per-file POMP init functions defined in them, the first
/// half of paper Appendix B's pre-linker. Inputs are relocatable objects,
/// static archives (also thin and nested ones), shared libraries and LLVM
/// bitcode (from -flto), also inside archives. It also reads the marks of
/// the sources ompcc compiled uninstrumented (pomp/handle-init/
/// Uninstrumented.h) and whether a unit defines main. What is decided from
/// the units is in LinkUnits.h, shared with ompcc's own reader of plain
/// objects (ElfObjectScanner.h).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_INITFUNCTIONSCANNER_H
#define POMP_LINK_INITFUNCTIONSCANNER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include "pomp/link/LinkUnits.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class LLVMContext;
namespace object {
class Archive;
class Binary;
class SymbolicFile;
} // namespace object
} // namespace llvm

namespace pomp::link {

/// Reads link inputs of every kind with LLVM's Object library and collects
/// their init functions.
class InitFunctionScanner : public UnitScanner {
public:
  InitFunctionScanner();
  ~InitFunctionScanner() override;
  InitFunctionScanner(const InitFunctionScanner &) = delete;
  InitFunctionScanner &operator=(const InitFunctionScanner &) = delete;

  /// Errors name the file or archive member: unreadable, not an object,
  /// archive, shared library or bitcode file, malformed.
  llvm::Error scanFile(llvm::StringRef Path) override;

private:
  llvm::Error scanBinary(llvm::object::Binary &Bin, const std::string &Name);
  llvm::Error scanArchive(llvm::object::Archive &Ar, const std::string &Name);
  llvm::Error scanSymbolicFile(llvm::object::SymbolicFile &File, const std::string &Name);
  /// Reads the uninstrumented marks of File into Unit.
  llvm::Error readMarks(llvm::object::SymbolicFile &File, ScannedUnit &Unit);

  /// Owns the modules of bitcode inputs while they are read.
  std::unique_ptr<llvm::LLVMContext> Context;
};

/// The target of a link whose inputs have Triple (from an ELF object's
/// header or a bitcode module), when pomp-link writes objects for it:
/// little-endian x86-64 (not x32), i386 and AArch64 on ELF. Else nothing.
std::optional<InitTableTarget> initTableTarget(const llvm::Triple &Triple);

} // namespace pomp::link

#endif // POMP_LINK_INITFUNCTIONSCANNER_H
