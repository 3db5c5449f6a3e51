//===- pomp/link/InitTableObject.h - POMP_Init_Handles() as data -*- C++ -*-===//
///
/// \file
/// The program's handle initialisation as a relocatable ELF object that
/// pomp-link writes itself, without running a compiler (issue 15: the compile
/// of the generated C source was a whole compiler start per link). The object
/// holds data only: the table handleinit::ProgramInitTable, whose entries are
/// weak references to the per-file init functions, and libpomp's
/// POMP_Init_Handles() walks it (docs/HANDLE_INIT.md). Data needs no code
/// generation; what depends on the machine is the ELF class, byte order and
/// the one relocation type of an absolute address, taken from the link's own
/// inputs.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_INITTABLEOBJECT_H
#define POMP_LINK_INITTABLEOBJECT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pomp::link {

/// What an ELF object for one machine needs: the header's fields and how an
/// absolute, pointer-sized address is relocated.
struct InitTableTarget {
  /// The machine's name in messages ("x86_64").
  llvm::StringRef Name;
  /// e_machine.
  std::uint16_t Machine = 0;
  /// ELFCLASS64 (true) or ELFCLASS32.
  bool Is64Bit = true;
  /// The relocation type of a pointer-sized absolute address.
  std::uint32_t AbsoluteRelocation = 0;
  /// Whether the machine's relocations carry explicit addends (.rela) or
  /// take them from the section's contents (.rel: i386).
  bool ExplicitAddends = true;
};

/// The target of a little-endian ELF object of machine Machine (e_machine)
/// and class Is64Bit, when pomp-link writes objects for it: x86-64 and
/// AArch64 in ELFCLASS64, i386 in ELFCLASS32. Else nothing (also for x32 and
/// AArch64's ILP32, whose objects are ELFCLASS32). InitFunctionScanner.h
/// has the same from a target triple.
std::optional<InitTableTarget> elfInitTableTarget(std::uint16_t Machine, bool Is64Bit);

/// The bytes of a relocatable ELF object for Target that defines the global
/// data symbol handleinit::ProgramInitTable: a pointer-sized count, then one
/// pointer per init function, in the given order, each a weak reference
/// (zero when the function is not linked). Also an empty .note.GNU-stack, so
/// that the object asks for no executable stack. Deterministic: the same
/// functions give the same bytes.
std::string initTableObject(const InitTableTarget &Target,
                            const std::vector<std::string> &InitFunctions);

} // namespace pomp::link

#endif // POMP_LINK_INITTABLEOBJECT_H
