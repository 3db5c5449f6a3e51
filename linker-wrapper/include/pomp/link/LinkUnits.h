//===- pomp/link/LinkUnits.h - What the inputs of a link hold --*- C++ -*-===//
///
/// \file
/// The units of a link as pomp-link sees them (their init functions, the
/// marks of uninstrumented sources, main, the machine) and what is decided
/// from them, independent of how the files are read. Two readers fill them:
/// InitFunctionScanner (LLVM's Object library: every kind of link input) in
/// pomp-link, and ElfObjectScanner (plain ELF relocatable objects only) in
/// ompcc, which so pre-links the common case in its own process
/// (docs/OMPCC.md). This part depends on LLVM's Support library only.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_LINKUNITS_H
#define POMP_LINK_LINKUNITS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem/UniqueID.h"
#include "llvm/TargetParser/Triple.h"

#include "pomp/handle-init/Uninstrumented.h"
#include "pomp/link/InitTableObject.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pomp::link {

/// What a scanned unit is; it decides whether its init functions are called.
enum class UnitKind {
  /// A relocatable object file (also an archive member).
  Object,
  /// An LLVM bitcode module (also an archive member).
  Bitcode,
  /// A shared library: its dynamic symbol table was read. Its init functions
  /// are listed but not called from POMP_Init_Handles(); a shared library
  /// initialises its own handles.
  SharedLibrary,
  /// Not read: a file already read under another name, or an archive member
  /// that is neither an object nor bitcode. Note says which.
  Skipped,
};

/// One object, bitcode module or shared library of the link.
struct ScannedUnit {
  /// The input path, or "archive(member)" for an archive member.
  std::string Name;
  UnitKind Kind = UnitKind::Object;
  /// The defined global functions accepted by isFileInitFunction, in symbol
  /// table order.
  std::vector<std::string> InitFunctions;
  /// The sources of this unit that ompcc compiled uninstrumented (one for a
  /// plain object; more in a partial link or a shared library).
  std::vector<handleinit::UninstrumentedRecord> Uninstrumented;
  /// Whether the unit defines the global function main.
  bool DefinesMain = false;
  /// The machine the unit is for: from an object's header or a bitcode
  /// module's target triple, for messages (InitFunctionScanner only).
  llvm::Triple Target;
  /// The machine pomp-link --object writes its object for when the unit is
  /// in the link; nothing when it writes none for the unit's machine.
  std::optional<InitTableTarget> TableTarget;
  /// Whether the unit is an ELF file (not bitcode, COFF or Mach-O).
  bool Elf = false;
  /// The size of an address in bytes: an ELF file's class (4 or 8; x32's
  /// objects are ELFCLASS32 x86-64), 0 for bitcode.
  unsigned AddressBytes = 0;
  /// Why the unit was skipped, or why its list may be incomplete; else empty.
  std::string Note;
  /// Whether Note is worth a warning even without -v (true when init
  /// functions may be missed).
  bool NoteIsWarning = false;
  /// An object gcc compiled with -flto and without -ffat-lto-objects: its ELF
  /// symbol table holds only a marker, its symbols are in GccLtoSymbolTables.
  bool GccSlimLto = false;
};

/// The LTO symbol tables of an object gcc compiled with -flto: a
/// `.gnu.lto_.symtab.<id>` section per LTO module (each entry: the name, the
/// comdat group, both NUL-terminated, the kind, the visibility, an 8-byte
/// size and a 4-byte slot) and its `.gnu.lto_.ext_symtab.<id>` (a version
/// byte, then the type and section kind of each entry). gcc's linker plugin
/// reads the same; LLVM's Object library does not know them.
struct GccLtoSymbolTables {
  /// Keeps Contents when Name is one of these sections.
  void addSection(llvm::StringRef Name, llvm::StringRef Contents);

  /// The symbol table and its extension (empty when missing) by module id.
  std::map<std::string, std::pair<llvm::StringRef, llvm::StringRef>, std::less<>> ById;
};

/// Reads link inputs one by one into units; the readers differ in the files
/// they understand.
class UnitScanner {
public:
  virtual ~UnitScanner();

  /// Reads one input. A file already read (the same file under any name, as
  /// when a link line repeats an archive) is recorded as Skipped. Errors name
  /// the file or archive member.
  virtual llvm::Error scanFile(llvm::StringRef Path) = 0;

  /// The units read so far, in input order (archive members in archive order).
  const std::vector<ScannedUnit> &units() const { return Units; }

protected:
  /// False (and a Skipped unit) when the file at Path was read before.
  bool markVisited(llvm::StringRef Path, const std::string &Name);
  /// Adds what the symbol Name of Unit means (an init function, main, the
  /// marker of a GCC LTO object). IsDefinedGlobalFunction is asked only for
  /// the names that matter.
  static llvm::Error
  considerSymbol(ScannedUnit &Unit, std::string Name,
                 llvm::function_ref<llvm::Expected<bool>()> IsDefinedGlobalFunction);
  /// Adds the marks of uninstrumented sources in Contents (the unit's
  /// handleinit::UninstrumentedSection sections, concatenated) to Unit.
  static void addMarks(ScannedUnit &Unit, llvm::StringRef Contents);
  /// For a GCC slim LTO object: considers each symbol of its LTO symbol
  /// tables as considerSymbol() does, a defined function as such. The unit
  /// keeps its warning when the tables are missing or malformed.
  static llvm::Error considerGccLtoSymbols(ScannedUnit &Unit, const GccLtoSymbolTables &Tables);

  std::vector<ScannedUnit> Units;

private:
  std::set<llvm::sys::fs::UniqueID> Visited;
};

/// The init functions POMP_Init_Handles() calls: those of objects and bitcode
/// (not of shared libraries), sorted by name so the output is deterministic.
/// A function defined in two units is an error naming all of them.
llvm::Expected<std::vector<std::string>> selectInitFunctions(llvm::ArrayRef<ScannedUnit> Units);

/// The sources of a link's objects and bitcode (not of its shared
/// libraries, which their own links report): Instrumented counts the
/// distinct init functions (one per instrumented source), Uninstrumented
/// lists the marks of the sources compiled uninstrumented.
struct SourceSummary {
  std::size_t Instrumented = 0;
  std::vector<handleinit::UninstrumentedRecord> Uninstrumented;
  /// Whether an object or bitcode unit with an init function defines main:
  /// then the program's own main calls POMP_Init().
  bool InstrumentedMain = false;
};
SourceSummary summarizeSources(llvm::ArrayRef<ScannedUnit> Units);

/// "object", "bitcode", "shared library" or "skipped", for messages.
llvm::StringRef unitKindName(UnitKind Kind);

} // namespace pomp::link

#endif // POMP_LINK_LINKUNITS_H
