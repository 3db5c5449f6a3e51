//===- InitFunctionScanner.cpp - POMP init functions of a link ------------===//
///
/// \file
/// Symbol tables through LLVM's Object library: one code path for ELF (and
/// other native) objects, bitcode (IRObjectFile, which needs an LLVMContext)
/// and archives of either; the dynamic symbol table for shared libraries.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/InitFunctionScanner.h"

#include "pomp/handle-init/HandleInit.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/IRObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Object/SymbolicFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>

namespace pomp::link {
namespace {

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::object::BasicSymbolRef;

/// An error message that starts with the input it concerns ("a.o: ...",
/// "lib.a(x.o): ..."), as compilers and linkers write them.
Error inputError(const std::string &Name, const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Name + ": " + Message);
}

Error inputError(const std::string &Name, Error Cause) {
  return inputError(Name, llvm::toString(std::move(Cause)));
}

constexpr StringRef NotALinkInput =
    "not an object file, archive, shared library or LLVM bitcode file";

bool isSharedLibrary(const llvm::object::SymbolicFile &File) {
  const auto *Elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(&File);
  return Elf && Elf->getEType() == llvm::ELF::ET_DYN;
}

/// Whether Sym is a defined, global function of File: undefined references,
/// static functions and data never are init functions.
Expected<bool> isDefinedGlobalFunction(const BasicSymbolRef &Sym,
                                       const llvm::object::SymbolicFile &File) {
  Expected<uint32_t> Flags = Sym.getFlags();
  if (!Flags)
    return Flags.takeError();
  if ((*Flags & BasicSymbolRef::SF_Undefined) || !(*Flags & BasicSymbolRef::SF_Global) ||
      (*Flags & BasicSymbolRef::SF_FormatSpecific))
    return false;
  // Bitcode symbols have no type; the module symbol table marks functions as
  // executable instead.
  if (!llvm::isa<llvm::object::ObjectFile>(&File))
    return (*Flags & BasicSymbolRef::SF_Executable) != 0;
  Expected<llvm::object::SymbolRef::Type> Type = llvm::object::SymbolRef(Sym).getType();
  if (!Type)
    return Type.takeError();
  return *Type == llvm::object::SymbolRef::ST_Function;
}

} // namespace

InitFunctionScanner::InitFunctionScanner() : Context(std::make_unique<llvm::LLVMContext>()) {}

InitFunctionScanner::~InitFunctionScanner() = default;

Error InitFunctionScanner::scanFile(StringRef Path) {
  const std::string Name = Path.str();
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Name, Buffer.getError().message());
  if (!markVisited(Path, Name))
    return Error::success();
  if (llvm::identify_magic((*Buffer)->getBuffer()) == llvm::file_magic::unknown)
    return inputError(Name, NotALinkInput);
  Expected<std::unique_ptr<llvm::object::Binary>> Bin =
      llvm::object::createBinary((*Buffer)->getMemBufferRef(), Context.get());
  if (!Bin)
    return inputError(Name, Bin.takeError());
  return scanBinary(**Bin, Name);
}

Error InitFunctionScanner::scanBinary(llvm::object::Binary &Bin, const std::string &Name) {
  if (auto *Ar = llvm::dyn_cast<llvm::object::Archive>(&Bin))
    return scanArchive(*Ar, Name);
  if (auto *File = llvm::dyn_cast<llvm::object::SymbolicFile>(&Bin))
    return scanSymbolicFile(*File, Name);
  return inputError(Name, "unsupported file format (" + NotALinkInput + ")");
}

Error InitFunctionScanner::scanArchive(llvm::object::Archive &Ar, const std::string &Name) {
  auto ScanMember = [&](const llvm::object::Archive::Child &Member) -> Error {
    Expected<StringRef> MemberName = Member.getName();
    if (!MemberName)
      return inputError(Name, MemberName.takeError());
    const std::string FullName = Name + "(" + MemberName->str() + ")";
    // A thin archive only names its members; the same object may also be
    // given on its own or through another thin archive.
    if (Ar.isThin()) {
      Expected<std::string> Path = Member.getFullName();
      if (!Path)
        return inputError(FullName, Path.takeError());
      if (!markVisited(*Path, FullName))
        return Error::success();
    }
    Expected<llvm::MemoryBufferRef> Buffer = Member.getMemoryBufferRef();
    if (!Buffer)
      return inputError(FullName, Buffer.takeError());
    // Archives may hold other files (documentation, Fortran module files);
    // linkers never extract them, so neither may they stop the pre-link.
    if (llvm::identify_magic(Buffer->getBuffer()) == llvm::file_magic::unknown) {
      ScannedUnit Unit;
      Unit.Name = FullName;
      Unit.Kind = UnitKind::Skipped;
      Unit.Note = NotALinkInput.str() + "; skipped";
      Unit.NoteIsWarning = true;
      Units.push_back(std::move(Unit));
      return Error::success();
    }
    Expected<std::unique_ptr<llvm::object::Binary>> Bin = Member.getAsBinary(Context.get());
    if (!Bin)
      return inputError(FullName, Bin.takeError());
    return scanBinary(**Bin, FullName);
  };

  Error Err = Error::success();
  for (const llvm::object::Archive::Child &Member : Ar.children(Err))
    if (Error MemberErr = ScanMember(Member))
      return llvm::joinErrors(std::move(MemberErr), std::move(Err));
  if (Err)
    return inputError(Name, std::move(Err));
  return Error::success();
}

Error InitFunctionScanner::scanSymbolicFile(llvm::object::SymbolicFile &File,
                                            const std::string &Name) {
  ScannedUnit Unit;
  Unit.Name = Name;
  Unit.Kind = llvm::isa<llvm::object::IRObjectFile>(&File) ? UnitKind::Bitcode : UnitKind::Object;
  if (auto *IR = llvm::dyn_cast<llvm::object::IRObjectFile>(&File)) {
    for (const llvm::Module &M : IR->modules())
      Unit.Target = llvm::Triple(M.getTargetTriple());
  } else if (auto *Obj = llvm::dyn_cast<llvm::object::ObjectFile>(&File)) {
    Unit.Target = Obj->makeTriple();
    Unit.Elf = Obj->isELF();
    Unit.AddressBytes = Obj->getBytesInAddress();
  }
  Unit.TableTarget = initTableTarget(Unit.Target);
  // x32 (ELFCLASS32 x86-64) and AArch64's ILP32 have the machine of a
  // 64-bit target and 4-byte addresses: no object is written for them.
  const unsigned TableAddressBytes = Unit.TableTarget && Unit.TableTarget->Is64Bit ? 8 : 4;
  if (Unit.TableTarget && Unit.Elf && Unit.AddressBytes != TableAddressBytes)
    Unit.TableTarget.reset();
  auto Consider = [&](const BasicSymbolRef &Sym) -> Error {
    std::string SymbolName;
    llvm::raw_string_ostream OS(SymbolName);
    if (Error E = Sym.printName(OS))
      return E;
    OS.flush();
    return considerSymbol(Unit, std::move(SymbolName),
                          [&] { return isDefinedGlobalFunction(Sym, File); });
  };

  if (isSharedLibrary(File)) {
    // What a shared library exports is its dynamic symbol table; .symtab may
    // be stripped or list hidden functions.
    Unit.Kind = UnitKind::SharedLibrary;
    for (const llvm::object::ELFSymbolRef &Sym :
         llvm::cast<llvm::object::ELFObjectFileBase>(File).getDynamicSymbolIterators())
      if (Error E = Consider(Sym))
        return inputError(Name, std::move(E));
  } else {
    for (const BasicSymbolRef &Sym : File.symbols())
      if (Error E = Consider(Sym))
        return inputError(Name, std::move(E));
  }
  if (auto *Obj = llvm::dyn_cast<llvm::object::ObjectFile>(&File); Obj && Unit.GccSlimLto) {
    GccLtoSymbolTables Lto;
    for (const llvm::object::SectionRef &Section : Obj->sections()) {
      Expected<StringRef> SectionName = Section.getName();
      if (!SectionName)
        return inputError(Name, SectionName.takeError());
      if (!SectionName->starts_with(".gnu.lto_."))
        continue;
      Expected<StringRef> Data = Section.getContents();
      if (!Data)
        return inputError(Name, Data.takeError());
      Lto.addSection(*SectionName, *Data);
    }
    if (Error E = considerGccLtoSymbols(Unit, Lto))
      return inputError(Name, std::move(E));
  }
  if (Error E = readMarks(File, Unit))
    return inputError(Name, std::move(E));
  Units.push_back(std::move(Unit));
  return Error::success();
}

Error InitFunctionScanner::readMarks(llvm::object::SymbolicFile &File, ScannedUnit &Unit) {
  const StringRef MarkSection(handleinit::UninstrumentedSection.data(),
                              handleinit::UninstrumentedSection.size());
  // Every mark of the unit: an object has one section, a partial link or a
  // shared library the concatenation of its inputs' sections.
  std::string Contents;
  if (auto *IR = llvm::dyn_cast<llvm::object::IRObjectFile>(&File)) {
    for (const llvm::Module &M : IR->modules())
      for (const llvm::GlobalVariable &GV : M.globals()) {
        if (GV.getSection() != MarkSection || !GV.hasInitializer())
          continue;
        if (const auto *Data = llvm::dyn_cast<llvm::ConstantDataSequential>(GV.getInitializer()))
          Contents += Data->getRawDataValues();
      }
  } else if (auto *Obj = llvm::dyn_cast<llvm::object::ObjectFile>(&File)) {
    for (const llvm::object::SectionRef &Section : Obj->sections()) {
      Expected<StringRef> SectionName = Section.getName();
      if (!SectionName)
        return SectionName.takeError();
      if (*SectionName != MarkSection)
        continue;
      Expected<StringRef> Data = Section.getContents();
      if (!Data)
        return Data.takeError();
      Contents += *Data;
    }
  }
  addMarks(Unit, Contents);
  return Error::success();
}

std::optional<InitTableTarget> initTableTarget(const llvm::Triple &Triple) {
  if (!Triple.isLittleEndian())
    return std::nullopt;
  switch (Triple.getArch()) {
  case llvm::Triple::x86_64:
    if (Triple.isX32())
      return std::nullopt;
    return elfInitTableTarget(llvm::ELF::EM_X86_64, /*Is64Bit=*/true);
  case llvm::Triple::x86:
    return elfInitTableTarget(llvm::ELF::EM_386, /*Is64Bit=*/false);
  case llvm::Triple::aarch64:
    if (Triple.isArch32Bit())
      return std::nullopt;
    return elfInitTableTarget(llvm::ELF::EM_AARCH64, /*Is64Bit=*/true);
  default:
    return std::nullopt;
  }
}

} // namespace pomp::link
