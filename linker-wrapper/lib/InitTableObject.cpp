//===- InitTableObject.cpp - POMP_Init_Handles() as data ------------------===//
///
/// \file
/// A minimal relocatable ELF writer for the table of init functions: one data
/// section, its relocations, a symbol table and the string tables. Written by
/// hand rather than through MC, because data needs none of a target's code
/// generation and pomp-link then depends on no target library.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/InitTableObject.h"

#include "pomp/handle-init/HandleInit.h"

#include "llvm/BinaryFormat/ELF.h"

#include <cassert>

namespace pomp::link {
namespace {

namespace elf = llvm::ELF;

/// Section indices of the object, in the order of its section headers.
enum SectionIndex : unsigned {
  NullSection,
  DataSection,
  RelocationSection,
  NoteSection,
  SymbolSection,
  StringSection,
  SectionNameSection,
  SectionCount
};

/// The output section of the table: read-only after relocation (RELRO), so
/// that the dynamic linker may relocate it in a position-independent program
/// without text relocations. GNU ld and lld put .data.rel.ro.* into
/// .data.rel.ro.
constexpr llvm::StringRef DataSectionName = ".data.rel.ro.pomp_init_handles";
/// An empty section of this name says that the object needs no executable
/// stack; without it GNU ld warns and makes the stack executable.
constexpr llvm::StringRef NoteSectionName = ".note.GNU-stack";

/// Little-endian fields of a byte string (every supported machine is).
class ByteWriter {
public:
  void put(std::uint64_t Value, unsigned Bytes) {
    for (unsigned I = 0; I < Bytes; ++I)
      Data.push_back(static_cast<char>((Value >> (8 * I)) & 0xff));
  }
  void put8(std::uint64_t Value) { put(Value, 1); }
  void put16(std::uint64_t Value) { put(Value, 2); }
  void put32(std::uint64_t Value) { put(Value, 4); }
  /// A field of ELF's word size: 8 bytes in ELFCLASS64, 4 in ELFCLASS32.
  void putWord(std::uint64_t Value, bool Is64Bit) { put(Value, Is64Bit ? 8 : 4); }
  void append(llvm::StringRef Text) { Data.append(Text.data(), Text.size()); }
  void alignTo(std::size_t Alignment) {
    while (Data.size() % Alignment != 0)
      Data.push_back('\0');
  }
  std::size_t size() const { return Data.size(); }
  std::string take() { return std::move(Data); }

private:
  std::string Data;
};

/// A string table: NUL-separated names, starting with the empty one.
class StringTable {
public:
  StringTable() : Text(1, '\0') {}
  std::uint32_t add(llvm::StringRef Name) {
    const auto Offset = static_cast<std::uint32_t>(Text.size());
    Text.append(Name.data(), Name.size());
    Text.push_back('\0');
    return Offset;
  }
  llvm::StringRef text() const { return Text; }

private:
  std::string Text;
};

/// One section header's fields that differ between the sections.
struct SectionHeader {
  std::uint32_t Name = 0;
  std::uint32_t Type = elf::SHT_NULL;
  std::uint64_t Flags = 0;
  std::uint64_t Offset = 0;
  std::uint64_t Size = 0;
  std::uint32_t Link = 0;
  std::uint32_t Info = 0;
  std::uint64_t Alignment = 0;
  std::uint64_t EntrySize = 0;
};

} // namespace

std::optional<InitTableTarget> elfInitTableTarget(std::uint16_t Machine, bool Is64Bit) {
  switch (Machine) {
  case elf::EM_X86_64:
    if (!Is64Bit)
      return std::nullopt;
    return InitTableTarget{"x86_64", elf::EM_X86_64, true, elf::R_X86_64_64, true};
  case elf::EM_386:
    if (Is64Bit)
      return std::nullopt;
    return InitTableTarget{"i386", elf::EM_386, false, elf::R_386_32, false};
  case elf::EM_AARCH64:
    if (!Is64Bit)
      return std::nullopt;
    return InitTableTarget{"aarch64", elf::EM_AARCH64, true, elf::R_AARCH64_ABS64, true};
  default:
    return std::nullopt;
  }
}

std::string initTableObject(const InitTableTarget &Target,
                            const std::vector<std::string> &InitFunctions) {
  const bool Is64 = Target.Is64Bit;
  const unsigned Word = Is64 ? 8 : 4;
  const unsigned HeaderSize = Is64 ? sizeof(elf::Elf64_Ehdr) : sizeof(elf::Elf32_Ehdr);
  const unsigned SymbolSize = Is64 ? sizeof(elf::Elf64_Sym) : sizeof(elf::Elf32_Sym);
  const unsigned SectionHeaderSize = Is64 ? sizeof(elf::Elf64_Shdr) : sizeof(elf::Elf32_Shdr);
  unsigned RelocationSize = 0;
  if (Is64)
    RelocationSize = Target.ExplicitAddends ? sizeof(elf::Elf64_Rela) : sizeof(elf::Elf64_Rel);
  else
    RelocationSize = Target.ExplicitAddends ? sizeof(elf::Elf32_Rela) : sizeof(elf::Elf32_Rel);

  // Symbols: 0 the null symbol, 1 the table (the only one defined, so no
  // local symbol follows the null one), 2.. the init functions.
  constexpr unsigned TableSymbol = 1;
  constexpr unsigned FirstFunctionSymbol = 2;
  StringTable Names;
  const std::uint32_t TableName = Names.add(
      llvm::StringRef(handleinit::ProgramInitTable.data(), handleinit::ProgramInitTable.size()));
  std::vector<std::uint32_t> FunctionNames;
  for (const std::string &Function : InitFunctions)
    FunctionNames.push_back(Names.add(Function));

  StringTable SectionNames;
  std::vector<SectionHeader> Sections(SectionCount);
  Sections[DataSection].Name = SectionNames.add(DataSectionName);
  Sections[RelocationSection].Name =
      SectionNames.add((Target.ExplicitAddends ? ".rela" : ".rel") + DataSectionName.str());
  Sections[NoteSection].Name = SectionNames.add(NoteSectionName);
  Sections[SymbolSection].Name = SectionNames.add(".symtab");
  Sections[StringSection].Name = SectionNames.add(".strtab");
  Sections[SectionNameSection].Name = SectionNames.add(".shstrtab");

  ByteWriter Out;
  Out.append(llvm::StringRef(std::string(HeaderSize, '\0'))); // written last

  // The table: the count, then one address per init function, all zero
  // until relocated (.rel takes the addend, zero, from here).
  Out.alignTo(Word);
  const std::uint64_t TableSize = Word * (1 + InitFunctions.size());
  Sections[DataSection] = {Sections[DataSection].Name,
                           elf::SHT_PROGBITS,
                           elf::SHF_ALLOC | elf::SHF_WRITE,
                           Out.size(),
                           TableSize,
                           0,
                           0,
                           Word,
                           0};
  Out.putWord(InitFunctions.size(), Is64);
  for (std::size_t I = 0; I < InitFunctions.size(); ++I)
    Out.putWord(0, Is64);

  Out.alignTo(Word);
  Sections[RelocationSection] = {Sections[RelocationSection].Name,
                                 Target.ExplicitAddends ? elf::SHT_RELA : elf::SHT_REL,
                                 elf::SHF_INFO_LINK,
                                 Out.size(),
                                 RelocationSize * InitFunctions.size(),
                                 SymbolSection,
                                 DataSection,
                                 Word,
                                 RelocationSize};
  for (std::size_t I = 0; I < InitFunctions.size(); ++I) {
    const std::uint64_t Offset = Word * (1 + I);
    const std::uint64_t Symbol = FirstFunctionSymbol + I;
    if (Is64) {
      Out.put(Offset, 8);
      Out.put((Symbol << 32) | Target.AbsoluteRelocation, 8);
      if (Target.ExplicitAddends)
        Out.put(0, 8);
    } else {
      Out.put32(Offset);
      Out.put32((Symbol << 8) | (Target.AbsoluteRelocation & 0xff));
      if (Target.ExplicitAddends)
        Out.put32(0);
    }
  }

  Sections[NoteSection] = {
      Sections[NoteSection].Name, elf::SHT_PROGBITS, 0, Out.size(), 0, 0, 0, 1, 0};

  Out.alignTo(Word);
  Sections[SymbolSection] = {Sections[SymbolSection].Name,
                             elf::SHT_SYMTAB,
                             0,
                             Out.size(),
                             SymbolSize * (FirstFunctionSymbol + InitFunctions.size()),
                             StringSection,
                             TableSymbol,
                             Word,
                             SymbolSize};
  auto PutSymbol = [&](std::uint32_t Name, unsigned char Info, std::uint16_t Section,
                       std::uint64_t Size) {
    if (Is64) {
      Out.put32(Name);
      Out.put8(Info);
      Out.put8(elf::STV_DEFAULT);
      Out.put16(Section);
      Out.put(0, 8); // value: the table starts its section
      Out.put(Size, 8);
    } else {
      Out.put32(Name);
      Out.put32(0);
      Out.put32(static_cast<std::uint32_t>(Size));
      Out.put8(Info);
      Out.put8(elf::STV_DEFAULT);
      Out.put16(Section);
    }
  };
  PutSymbol(0, 0, elf::SHN_UNDEF, 0);
  PutSymbol(TableName, (elf::STB_GLOBAL << 4) | elf::STT_OBJECT, DataSection, TableSize);
  for (const std::uint32_t Name : FunctionNames)
    PutSymbol(Name, (elf::STB_WEAK << 4) | elf::STT_NOTYPE, elf::SHN_UNDEF, 0);

  Sections[StringSection] = {Sections[StringSection].Name,
                             elf::SHT_STRTAB,
                             0,
                             Out.size(),
                             Names.text().size(),
                             0,
                             0,
                             1,
                             0};
  Out.append(Names.text());
  Sections[SectionNameSection] = {Sections[SectionNameSection].Name,
                                  elf::SHT_STRTAB,
                                  0,
                                  Out.size(),
                                  SectionNames.text().size(),
                                  0,
                                  0,
                                  1,
                                  0};
  Out.append(SectionNames.text());

  Out.alignTo(Word);
  const std::uint64_t SectionHeaders = Out.size();
  for (const SectionHeader &Section : Sections) {
    Out.put32(Section.Name);
    Out.put32(Section.Type);
    Out.putWord(Section.Flags, Is64);
    Out.putWord(0, Is64); // address: none in a relocatable object
    Out.putWord(Section.Offset, Is64);
    Out.putWord(Section.Size, Is64);
    Out.put32(Section.Link);
    Out.put32(Section.Info);
    Out.putWord(Section.Alignment, Is64);
    Out.putWord(Section.EntrySize, Is64);
  }

  ByteWriter Header;
  Header.append(llvm::StringRef(elf::ElfMagic, 4));
  Header.put8(Is64 ? elf::ELFCLASS64 : elf::ELFCLASS32);
  Header.put8(elf::ELFDATA2LSB);
  Header.put8(elf::EV_CURRENT);
  Header.put8(elf::ELFOSABI_NONE);
  Header.put(0, 8); // ABI version and padding of e_ident
  Header.put16(elf::ET_REL);
  Header.put16(Target.Machine);
  Header.put32(elf::EV_CURRENT);
  Header.putWord(0, Is64); // entry
  Header.putWord(0, Is64); // program headers: none
  Header.putWord(SectionHeaders, Is64);
  Header.put32(0); // flags
  Header.put16(HeaderSize);
  Header.put16(0); // program header size and count
  Header.put16(0);
  Header.put16(SectionHeaderSize);
  Header.put16(SectionCount);
  Header.put16(SectionNameSection);
  std::string Bytes = Out.take();
  const std::string HeaderBytes = Header.take();
  assert(HeaderBytes.size() == HeaderSize && "the ELF header has its fixed size");
  Bytes.replace(0, HeaderSize, HeaderBytes);
  return Bytes;
}

} // namespace pomp::link
