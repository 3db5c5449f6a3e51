//===- ElfObjectScanner.cpp - Plain objects without libLLVM ---------------===//
///
/// \file
/// The few parts of a relocatable ELF object the pre-link needs: the section
/// headers and their names, the symbol table with its string table, and the
/// contents of the sections of uninstrumented marks. Fields are copied out of
/// the file (no alignment is assumed) and every offset is checked; whatever
/// does not look like what a compiler writes is refused, so that pomp-link,
/// with LLVM's Object library, reads it and says what is wrong.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/ElfObjectScanner.h"

#include "pomp/link/PompLink.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"

#include <cstring>
#include <string_view>
#include <vector>

namespace pomp::link {
namespace {

using llvm::Error;
using llvm::StringRef;
namespace elf = llvm::ELF;

/// The ELF structures of one class.
template <bool Is64> struct ElfClass;
template <> struct ElfClass<true> {
  using Ehdr = elf::Elf64_Ehdr;
  using Shdr = elf::Elf64_Shdr;
  using Sym = elf::Elf64_Sym;
};
template <> struct ElfClass<false> {
  using Ehdr = elf::Elf32_Ehdr;
  using Shdr = elf::Elf32_Shdr;
  using Sym = elf::Elf32_Sym;
};

/// Copies the structure at Offset of Data into Value; false when it does not
/// fit.
template <typename T> bool readAt(StringRef Data, std::uint64_t Offset, T &Value) {
  if (Offset > Data.size() || Data.size() - Offset < sizeof(T))
    return false;
  std::memcpy(&Value, Data.data() + Offset, sizeof(T));
  return true;
}

/// The bytes of a section; nothing when they lie outside the file.
std::optional<StringRef> sectionBytes(StringRef Data, std::uint64_t Offset, std::uint64_t Size) {
  if (Offset > Data.size() || Data.size() - Offset < Size)
    return std::nullopt;
  return Data.substr(Offset, Size);
}

/// The NUL-terminated string at Offset of a string table; nothing when
/// Offset lies outside it.
std::optional<StringRef> stringAt(StringRef Table, std::uint64_t Offset) {
  if (Offset >= Table.size())
    return std::nullopt;
  const StringRef Rest = Table.drop_front(Offset);
  return Rest.take_until([](char C) { return C == '\0'; });
}

/// Why the reader refuses an object ("is ...", "has ..."); "" when it was read.
template <bool Is64>
std::string readObject(StringRef Data, ScannedUnit &Unit, std::string &Marks,
                       std::vector<std::pair<StringRef, bool>> &Symbols,
                       GccLtoSymbolTables &Lto) {
  using Types = ElfClass<Is64>;
  typename Types::Ehdr Header;
  if (!readAt(Data, 0, Header))
    return "has a truncated ELF header";
  if (Header.e_type != elf::ET_REL)
    return Header.e_type == elf::ET_DYN ? "is a shared library" : "is not a relocatable object";
  Unit.TableTarget = elfInitTableTarget(Header.e_machine, Is64);
  if (!Unit.TableTarget)
    return "is for a machine ompcc does not pre-link itself (e_machine " +
           std::to_string(Header.e_machine) + ", " + (Is64 ? "64" : "32") + "-bit)";
  // e_shnum 0 and SHN_XINDEX mean extended numbering; the section of names
  // is required.
  if (Header.e_shentsize != sizeof(typename Types::Shdr) || Header.e_shnum == 0 ||
      Header.e_shstrndx == elf::SHN_UNDEF || Header.e_shstrndx >= Header.e_shnum)
    return "has unusual section headers";
  const std::optional<StringRef> SectionTable = sectionBytes(
      Data, Header.e_shoff, std::uint64_t{Header.e_shnum} * sizeof(typename Types::Shdr));
  if (!SectionTable)
    return "has section headers outside the file";
  std::vector<typename Types::Shdr> Sections(Header.e_shnum);
  for (std::size_t I = 0; I < Sections.size(); ++I)
    readAt(*SectionTable, I * sizeof(typename Types::Shdr), Sections[I]);
  auto StringTable = [&](std::size_t Index) -> std::optional<StringRef> {
    if (Index >= Sections.size() || Sections[Index].sh_type != elf::SHT_STRTAB)
      return std::nullopt;
    std::optional<StringRef> Bytes =
        sectionBytes(Data, Sections[Index].sh_offset, Sections[Index].sh_size);
    if (!Bytes || Bytes->empty() || Bytes->back() != '\0')
      return std::nullopt;
    return Bytes;
  };
  const std::optional<StringRef> SectionNames = StringTable(Header.e_shstrndx);
  if (!SectionNames)
    return "has a malformed table of section names";

  const StringRef MarkSection(handleinit::UninstrumentedSection.data(),
                              handleinit::UninstrumentedSection.size());
  const typename Types::Shdr *SymbolTable = nullptr;
  for (const typename Types::Shdr &Section : Sections) {
    const std::optional<StringRef> Name = stringAt(*SectionNames, Section.sh_name);
    if (!Name)
      return "has a section name outside its table";
    if (Section.sh_type == elf::SHT_SYMTAB) {
      if (SymbolTable)
        return "has two symbol tables";
      SymbolTable = &Section;
    }
    // Every mark of the unit, as LLVM's Object library gives the contents
    // of a section (none for SHT_NOBITS), and GCC's LTO symbol tables.
    const bool LtoTable = Name->starts_with(".gnu.lto_.");
    if ((*Name != MarkSection && !LtoTable) || Section.sh_type == elf::SHT_NOBITS)
      continue;
    std::optional<StringRef> Bytes = sectionBytes(Data, Section.sh_offset, Section.sh_size);
    if (!Bytes)
      return "has a section outside the file";
    if (LtoTable)
      Lto.addSection(*Name, *Bytes);
    else
      Marks += *Bytes;
  }
  if (!SymbolTable)
    return "";
  using Sym = typename Types::Sym;
  if (SymbolTable->sh_entsize != sizeof(Sym) || SymbolTable->sh_size % sizeof(Sym) != 0)
    return "has a malformed symbol table";
  const std::optional<StringRef> Names = StringTable(SymbolTable->sh_link);
  if (!Names)
    return "has a malformed string table of symbols";
  const std::optional<StringRef> SymbolBytes =
      sectionBytes(Data, SymbolTable->sh_offset, SymbolTable->sh_size);
  if (!SymbolBytes)
    return "has a symbol table outside the file";
  const std::uint64_t Count = SymbolTable->sh_size / sizeof(Sym);
  // Symbol 0 is the null symbol, which LLVM's Object library does not list.
  for (std::uint64_t I = 1; I < Count; ++I) {
    Sym Symbol;
    readAt(*SymbolBytes, I * sizeof(Sym), Symbol);
    const unsigned char Type = Symbol.getType();
    const unsigned char Binding = Symbol.getBinding();
    // A section symbol is named after its section; no section is a function.
    if (Type == elf::STT_SECTION)
      continue;
    const std::optional<StringRef> Name = stringAt(*Names, Symbol.st_name);
    if (!Name)
      return "has a symbol name outside its table";
    // What LLVM's Object library calls a defined global function: any
    // binding but local (weak and unique too), in any section, STT_FUNC.
    // (Its format-specific symbols, the mapping symbols "$x" and "$d", are
    // never named main or POMP_Init_*.)
    const bool DefinedGlobalFunction =
        Symbol.st_shndx != elf::SHN_UNDEF && Binding != elf::STB_LOCAL && Type == elf::STT_FUNC;
    Symbols.emplace_back(*Name, DefinedGlobalFunction);
  }
  return "";
}

} // namespace

Error ElfObjectScanner::refuse(const llvm::Twine &Reason) {
  Unsupported = Reason.str();
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Unsupported);
}

Error ElfObjectScanner::scanFile(StringRef Path) {
  if (!Unsupported.empty())
    return refuse(Unsupported);
  // The same order as InitFunctionScanner: an unreadable file is an error
  // before it is counted as visited.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return refuse(Path + " cannot be read");
  const std::string Name = Path.str();
  if (!markVisited(Path, Name))
    return Error::success();
  const StringRef Data = (*Buffer)->getBuffer();
  if (Data.starts_with("!<arch>\n") || Data.starts_with("!<thin>\n"))
    return refuse(Path + " is an archive");
  if (Data.starts_with("BC\xC0\xDE") || Data.starts_with("\xDE\xC0\x17\x0B"))
    return refuse(Path + " is LLVM bitcode");
  if (!Data.starts_with(elf::ElfMagic) || Data.size() < elf::EI_NIDENT)
    return refuse(Path + " is not an ELF file");
  // The structures are read in the host's byte order.
  if (!llvm::sys::IsLittleEndianHost || Data[elf::EI_DATA] != elf::ELFDATA2LSB)
    return refuse(Path + " is not a little-endian ELF file");
  const unsigned char Class = Data[elf::EI_CLASS];
  if (Class != elf::ELFCLASS32 && Class != elf::ELFCLASS64)
    return refuse(Path + " has an unknown ELF class");

  ScannedUnit Unit;
  Unit.Name = Name;
  Unit.Kind = UnitKind::Object;
  Unit.Elf = true;
  Unit.AddressBytes = Class == elf::ELFCLASS64 ? 8 : 4;
  std::string Marks;
  std::vector<std::pair<StringRef, bool>> Symbols;
  GccLtoSymbolTables Lto;
  const std::string Problem = Class == elf::ELFCLASS64
                                  ? readObject<true>(Data, Unit, Marks, Symbols, Lto)
                                  : readObject<false>(Data, Unit, Marks, Symbols, Lto);
  if (!Problem.empty())
    return refuse(Path + " " + Problem);
  for (const auto &[SymbolName, DefinedGlobalFunction] : Symbols) {
    const bool IsFunction = DefinedGlobalFunction;
    if (Error E = considerSymbol(Unit, SymbolName.str(), [IsFunction] { return IsFunction; }))
      return E;
  }
  if (Error E = considerGccLtoSymbols(Unit, Lto))
    return E;
  addMarks(Unit, Marks);
  Units.push_back(std::move(Unit));
  return Error::success();
}

std::optional<int> runPompLinkOnObjects(llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Out,
                                        llvm::raw_ostream &Err, std::string &Reason) {
  const std::vector<std::string_view> Views(Args.begin(), Args.end());
  llvm::Expected<Options> Opts = parseArguments(Views);
  if (!Opts) {
    Reason = "pomp-link's arguments: " + llvm::toString(Opts.takeError());
    return std::nullopt;
  }
  if (Opts->Help || Opts->Version) {
    Reason = "not a pre-link";
    return std::nullopt;
  }
  // Nothing is written before every input was read, so a refused input
  // leaves no file; the messages wait for the same reason.
  ElfObjectScanner Scanner;
  std::string Output, Messages;
  llvm::raw_string_ostream OutBuffer(Output), ErrBuffer(Messages);
  const int Status = runPompLink(*Opts, Scanner, OutBuffer, ErrBuffer);
  if (!Scanner.unsupportedReason().empty()) {
    Reason = Scanner.unsupportedReason();
    return std::nullopt;
  }
  Out << Output;
  Err << Messages;
  return Status;
}

} // namespace pomp::link
