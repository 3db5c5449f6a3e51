//===- LinkUnits.cpp - What the inputs of a link hold ---------------------===//
///
/// \file
/// The decisions pomp-link makes on the units of a link, shared by its two
/// readers (InitFunctionScanner, ElfObjectScanner) so that pomp-link and
/// ompcc's own pre-link cannot differ.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/LinkUnits.h"

#include "pomp/handle-init/HandleInit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"

#include <algorithm>
#include <utility>

namespace pomp::link {
namespace {

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

/// Marks an object compiled by gcc with -flto (and without
/// -ffat-lto-objects): its symbol table holds only this symbol, the real ones
/// live in GCC's own LTO sections, which LLVM cannot read.
constexpr StringRef GccSlimLtoMarker = "__gnu_lto_slim";
/// The entry point whose file calls POMP_Init() when it is instrumented.
constexpr StringRef MainFunction = "main";
/// The sections of GccLtoSymbolTables, followed by the LTO module's id.
constexpr StringRef GccLtoSymtabPrefix = ".gnu.lto_.symtab.";
constexpr StringRef GccLtoExtSymtabPrefix = ".gnu.lto_.ext_symtab.";
/// gcc's ld_plugin_symbol_kind values in a GCC LTO symbol table: a definition,
/// a weak one (the others are references and common symbols, at most 4).
constexpr unsigned char GccLtoDef = 0;
constexpr unsigned char GccLtoWeakDef = 1;
constexpr unsigned char GccLtoMaxKind = 4;
/// The extension's symbol type of a function, and its version.
constexpr unsigned char GccLtoFunction = 1;
constexpr unsigned char GccLtoExtVersion = 1;

/// One entry of a GCC LTO symbol table.
struct GccLtoSymbol {
  StringRef Name;
  unsigned char Kind = 0;
};

/// Reads the entries of Table; false when it is malformed.
bool readGccLtoSymbols(StringRef Table, std::vector<GccLtoSymbol> &Symbols) {
  // The kind, the visibility, the size and the slot after the two names.
  constexpr std::size_t FixedBytes = 1 + 1 + 8 + 4;
  while (!Table.empty()) {
    const std::size_t NameEnd = Table.find('\0');
    if (NameEnd == StringRef::npos)
      return false;
    const std::size_t ComdatEnd = Table.find('\0', NameEnd + 1);
    if (ComdatEnd == StringRef::npos || Table.size() - ComdatEnd - 1 < FixedBytes)
      return false;
    GccLtoSymbol Symbol;
    Symbol.Name = Table.take_front(NameEnd);
    Symbol.Kind = static_cast<unsigned char>(Table[ComdatEnd + 1]);
    if (Symbol.Kind > GccLtoMaxKind)
      return false;
    Symbols.push_back(Symbol);
    Table = Table.drop_front(ComdatEnd + 1 + FixedBytes);
  }
  return true;
}

} // namespace

UnitScanner::~UnitScanner() = default;

bool UnitScanner::markVisited(StringRef Path, const std::string &Name) {
  llvm::sys::fs::UniqueID ID;
  // A file without an identity (unlikely after it was opened) is read: at
  // worst a duplicate is reported, never an init function lost.
  if (llvm::sys::fs::getUniqueID(Path, ID) || Visited.insert(ID).second)
    return true;
  ScannedUnit Unit;
  Unit.Name = Name;
  Unit.Kind = UnitKind::Skipped;
  Unit.Note = "already read (the same file was given before)";
  Units.push_back(std::move(Unit));
  return false;
}

Error UnitScanner::considerSymbol(ScannedUnit &Unit, std::string Name,
                                  llvm::function_ref<Expected<bool>()> IsDefinedGlobalFunction) {
  if (Name == GccSlimLtoMarker) {
    Unit.GccSlimLto = true;
    Unit.Note = "GCC LTO object without native code (-flto without -ffat-lto-objects) whose LTO "
                "symbol table cannot be read, so its POMP init functions are not called and its "
                "handles are initialised on first use";
    Unit.NoteIsWarning = true;
    return Error::success();
  }
  const bool IsMain = Name == MainFunction;
  if (!IsMain && !handleinit::isFileInitFunction(Name))
    return Error::success();
  Expected<bool> IsFunction = IsDefinedGlobalFunction();
  if (!IsFunction)
    return IsFunction.takeError();
  if (*IsFunction && IsMain)
    Unit.DefinesMain = true;
  else if (*IsFunction)
    Unit.InitFunctions.push_back(std::move(Name));
  return Error::success();
}

void GccLtoSymbolTables::addSection(StringRef Name, StringRef Contents) {
  if (Name.consume_front(GccLtoSymtabPrefix))
    ById[Name.str()].first = Contents;
  else if (Name.consume_front(GccLtoExtSymtabPrefix))
    ById[Name.str()].second = Contents;
}

Error UnitScanner::considerGccLtoSymbols(ScannedUnit &Unit, const GccLtoSymbolTables &Tables) {
  if (!Unit.GccSlimLto || Tables.ById.empty())
    return Error::success();
  std::vector<std::pair<GccLtoSymbol, bool>> Read;
  for (const auto &[Id, Sections] : Tables.ById) {
    const auto &[Table, Extension] = Sections;
    std::vector<GccLtoSymbol> Symbols;
    if (Table.empty() || !readGccLtoSymbols(Table, Symbols))
      return Error::success();
    // Without a usable extension (an older gcc) a definition is taken for a
    // function: only main and POMP_Init_<file>_<hash> names matter.
    const bool Typed = Extension.size() == 1 + 2 * Symbols.size() &&
                       static_cast<unsigned char>(Extension[0]) == GccLtoExtVersion;
    for (std::size_t I = 0; I < Symbols.size(); ++I)
      Read.emplace_back(Symbols[I], !Typed || static_cast<unsigned char>(Extension[1 + 2 * I]) ==
                                                  GccLtoFunction);
  }
  Unit.Note = "GCC LTO object without native code: its symbols read from its LTO symbol table";
  Unit.NoteIsWarning = false;
  for (const auto &[Symbol, IsFunction] : Read) {
    const bool Defined = Symbol.Kind == GccLtoDef || Symbol.Kind == GccLtoWeakDef;
    if (Error E = considerSymbol(Unit, Symbol.Name.str(),
                                 [&, IsFunction = IsFunction] { return Defined && IsFunction; }))
      return E;
  }
  return Error::success();
}

void UnitScanner::addMarks(ScannedUnit &Unit, StringRef Contents) {
  if (Contents.empty())
    return;
  bool Malformed = false;
  Unit.Uninstrumented = handleinit::parseUninstrumentedRecords(
      std::string_view(Contents.data(), Contents.size()), Malformed);
  if (Malformed) {
    // Never a reason to fail the link; but the count may be short.
    Unit.Note = "malformed " + std::string(handleinit::UninstrumentedSection) +
                " section: uninstrumented sources may be missing from the summary";
    Unit.NoteIsWarning = true;
  }
}

Expected<std::vector<std::string>> selectInitFunctions(llvm::ArrayRef<ScannedUnit> Units) {
  // Init function -> the units that define it, in input order.
  llvm::StringMap<std::vector<StringRef>> Definitions;
  std::vector<std::string> Selected;
  for (const ScannedUnit &Unit : Units) {
    if (Unit.Kind != UnitKind::Object && Unit.Kind != UnitKind::Bitcode)
      continue;
    for (const std::string &Function : Unit.InitFunctions) {
      std::vector<StringRef> &Sites = Definitions[Function];
      if (Sites.empty())
        Selected.push_back(Function);
      Sites.push_back(Unit.Name);
    }
  }
  std::sort(Selected.begin(), Selected.end());

  Error Duplicates = Error::success();
  for (const std::string &Function : Selected) {
    const std::vector<StringRef> &Sites = Definitions[Function];
    if (Sites.size() < 2)
      continue;
    // The linker would either reject the program or silently drop one unit's
    // handles; both definitions may come from one file compiled twice.
    Duplicates =
        llvm::joinErrors(std::move(Duplicates),
                         llvm::createStringError(llvm::inconvertibleErrorCode(),
                                                 Function + " is defined in more than one input: " +
                                                     llvm::join(Sites, ", ")));
  }
  if (Duplicates)
    return Duplicates;
  return Selected;
}

SourceSummary summarizeSources(llvm::ArrayRef<ScannedUnit> Units) {
  SourceSummary Summary;
  std::set<std::string> InitFunctions;
  for (const ScannedUnit &Unit : Units) {
    if (Unit.Kind != UnitKind::Object && Unit.Kind != UnitKind::Bitcode)
      continue;
    InitFunctions.insert(Unit.InitFunctions.begin(), Unit.InitFunctions.end());
    llvm::append_range(Summary.Uninstrumented, Unit.Uninstrumented);
    if (Unit.DefinesMain && !Unit.InitFunctions.empty())
      Summary.InstrumentedMain = true;
  }
  Summary.Instrumented = InitFunctions.size();
  return Summary;
}

StringRef unitKindName(UnitKind Kind) {
  switch (Kind) {
  case UnitKind::Object:
    return "object";
  case UnitKind::Bitcode:
    return "bitcode";
  case UnitKind::SharedLibrary:
    return "shared library";
  case UnitKind::Skipped:
    return "skipped";
  }
  llvm_unreachable("all unit kinds are handled");
}

} // namespace pomp::link
