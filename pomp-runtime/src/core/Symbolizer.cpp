//===- core/Symbolizer.cpp - Code addresses to function, file and line ----===//

#include "core/Symbolizer.h"

#include "core/FortranNames.h"

#include <cxxabi.h>
#include <dlfcn.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

// A weak reference: a fully static program (`-static` with libpomp.a) then
// does not pull glibc's dlopen in, whose link warning would otherwise show in
// every such link; there dlopen is null and the symbolizer uses dladdr() alone.
#pragma weak dlopen

namespace pomp::rt {
namespace {

/// elfutils' libdw; its ABI has kept the soname since 2009.
constexpr const char *LibdwSoname = "libdw.so.1";

/// The prefix of Itanium C++ ABI mangled names; other names are C names, which
/// __cxa_demangle would misread as type names ("f" as "float").
constexpr const char *MangledPrefix = "_Z";

// The libdw functions the symbolizer calls, looked up with dlsym().
#define POMP_LIBDW_FUNCTIONS(X)                                                                    \
  X(dwfl_begin)                                                                                    \
  X(dwfl_end)                                                                                      \
  X(dwfl_report_begin)                                                                             \
  X(dwfl_report_end)                                                                               \
  X(dwfl_linux_proc_report)                                                                        \
  X(dwfl_linux_proc_find_elf)                                                                      \
  X(dwfl_build_id_find_debuginfo)                                                                  \
  X(dwfl_module_build_id)                                                                          \
  X(dwfl_addrmodule)                                                                               \
  X(dwfl_module_info)                                                                              \
  X(dwfl_module_addrname)                                                                          \
  X(dwfl_module_addrdie)                                                                           \
  X(dwfl_module_nextcu)                                                                            \
  X(dwarf_ranges)                                                                                  \
  X(dwarf_getsrc_die)                                                                              \
  X(dwarf_linesrc)                                                                                 \
  X(dwarf_lineno)                                                                                  \
  X(dwarf_child)                                                                                   \
  X(dwarf_siblingof)                                                                               \
  X(dwarf_haspc)                                                                                   \
  X(dwarf_tag)                                                                                     \
  X(dwarf_attr)                                                                                    \
  X(dwarf_attr_integrate)                                                                          \
  X(dwarf_formstring)

/// Pointers to the libdw functions, typed by their declarations in the header.
struct LibdwApi {
#define POMP_LIBDW_POINTER(Name) decltype(&::Name) Name = nullptr;
  POMP_LIBDW_FUNCTIONS(POMP_LIBDW_POINTER)
#undef POMP_LIBDW_POINTER

  /// Looks every function up; false when one is missing (a libdw too old).
  bool load(void *Library) {
    bool Complete = true;
#define POMP_LIBDW_LOOKUP(Name)                                                                    \
  Name = reinterpret_cast<decltype(Name)>(dlsym(Library, #Name));                                  \
  Complete = Complete && Name != nullptr;
    POMP_LIBDW_FUNCTIONS(POMP_LIBDW_LOOKUP)
#undef POMP_LIBDW_LOOKUP
    return Complete;
  }
};

//--- Separate debug information, looked for on this machine only ----------//
// libdw's dwfl_standard_find_debuginfo() ends, when the build ID and the
// .gnu_debuglink name found nothing on disk, by loading libdebuginfod (and with
// it libcurl, GnuTLS, Kerberos and LDAP: some 35 libraries, 10 ms) and asking
// the servers DEBUGINFOD_URLS names, which many distributions set for every
// login shell. A program's exit would then wait on the network, up to
// DEBUGINFOD_TIMEOUT (90 s) per module, or download a library's debug
// information. The search below is its local part only.

/// The build-ID search of the session being opened (libdw's callbacks get no
/// pointer of ours); every session uses the same libdw.
decltype(&::dwfl_build_id_find_debuginfo) FindByBuildId = nullptr;

/// The root of separate debug files, as libdw's default search path has it.
constexpr const char *DebugRoot = "/usr/lib/debug";

/// The CRC-32 of .gnu_debuglink (zlib's crc32(): IEEE 802.3, reflected).
class DebugLinkCrc {
public:
  DebugLinkCrc() {
    for (std::uint32_t I = 0; I < 256; ++I) {
      std::uint32_t C = I;
      for (int Bit = 0; Bit < 8; ++Bit)
        C = (C & 1) ? 0xEDB88320u ^ (C >> 1) : C >> 1;
      Table[I] = C;
    }
  }
  /// The file's CRC; false when it cannot be read to its end.
  bool ofFile(int Fd, std::uint32_t &Crc) const {
    std::uint32_t C = 0xFFFFFFFFu;
    // On the heap: finalisation may run on a thread with a small stack.
    std::vector<unsigned char> Buffer(std::size_t{1} << 16);
    for (;;) {
      const ssize_t Got = ::read(Fd, Buffer.data(), Buffer.size());
      if (Got < 0)
        return false;
      if (Got == 0)
        break;
      for (ssize_t I = 0; I < Got; ++I)
        C = Table[(C ^ Buffer[I]) & 0xFFu] ^ (C >> 8);
    }
    Crc = C ^ 0xFFFFFFFFu;
    return ::lseek(Fd, 0, SEEK_SET) == 0;
  }

private:
  std::uint32_t Table[256];
};

/// Opens Path when it is the debug file a debuglink names: its CRC matches,
/// or the link has none (a dwz alternate file, named by its absolute path).
int openDebugLinkTarget(const std::string &Path, GElf_Word Crc, char **FoundName) {
  const int Fd = ::open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return -1;
  std::uint32_t Actual = 0;
  if (Crc != 0 && (!DebugLinkCrc().ofFile(Fd, Actual) || Actual != Crc)) {
    ::close(Fd);
    return -1;
  }
  *FoundName = ::strdup(Path.c_str());
  return Fd;
}

/// Dwfl_Callbacks::find_debuginfo without the network: libdw's default search
/// (by build ID under /usr/lib/debug/.build-id; by the .gnu_debuglink name
/// next to the file, in its .debug directory and under /usr/lib/debug, for
/// the file's name and for its real path) without its debuginfod step.
int findLocalDebugInfo(Dwfl_Module *Module, void **UserData, const char *ModuleName,
                       Dwarf_Addr Base, const char *FileName, const char *DebugLink, GElf_Word Crc,
                       char **FoundName) {
  if (FindByBuildId) {
    const int Fd =
        FindByBuildId(Module, UserData, ModuleName, Base, FileName, DebugLink, Crc, FoundName);
    if (Fd >= 0)
      return Fd;
  }
  if (!DebugLink || !*DebugLink)
    return -1;
  if (DebugLink[0] == '/')
    return openDebugLinkTarget(DebugLink, Crc, FoundName);
  if (!FileName)
    return -1;
  std::vector<std::string> Files{FileName};
  if (char *Real = ::realpath(FileName, nullptr)) {
    if (Files.front() != Real)
      Files.emplace_back(Real);
    std::free(Real);
  }
  for (const std::string &File : Files) {
    const std::size_t Slash = File.rfind('/');
    const std::string Directory = Slash == std::string::npos ? "." : File.substr(0, Slash);
    for (const std::string &Candidate :
         {Directory + "/" + DebugLink, Directory + "/.debug/" + DebugLink,
          DebugRoot + Directory + "/" + DebugLink}) {
      if (Candidate == File)
        continue;
      const int Fd = openDebugLinkTarget(Candidate, Crc, FoundName);
      if (Fd >= 0)
        return Fd;
    }
  }
  return -1;
}

/// The executable of the process, links resolved, as the kernel maps it.
std::string programPath() {
  char Path[PATH_MAX];
  const ssize_t Size = ::readlink("/proc/self/exe", Path, sizeof Path);
  return Size > 0 && static_cast<std::size_t>(Size) < sizeof Path
             ? std::string(Path, static_cast<std::size_t>(Size))
             : std::string();
}

std::string demangle(const char *Name) {
  if (!Name)
    return {};
  if (std::strncmp(Name, MangledPrefix, std::strlen(MangledPrefix)) != 0) {
    // flang's and gfortran's names read as Fortran (FortranNames.h).
    std::string Fortran = demangleFortran(Name);
    return Fortran.empty() ? std::string(Name) : Fortran;
  }
  int Status = 0;
  char *Demangled = abi::__cxa_demangle(Name, nullptr, nullptr, &Status);
  if (Status != 0 || !Demangled)
    return Name;
  std::string Result(Demangled);
  std::free(Demangled);
  return Result;
}

/// The module whose executable segments hold Address: "" when none does (the
/// address is not code). dladdr() alone would also answer for data and for
/// addresses in no object at all.
std::string moduleOfCode(std::uintptr_t Address) {
  struct Search {
    std::uintptr_t Address;
    std::string Module;
    bool Found = false;
  } S{Address, {}};
  dl_iterate_phdr(
      [](dl_phdr_info *Info, std::size_t, void *Data) {
        auto &S = *static_cast<Search *>(Data);
        for (ElfW(Half) I = 0; I < Info->dlpi_phnum; ++I) {
          const ElfW(Phdr) &Segment = Info->dlpi_phdr[I];
          const std::uintptr_t Begin = Info->dlpi_addr + Segment.p_vaddr;
          if (Segment.p_type == PT_LOAD && (Segment.p_flags & PF_X) && S.Address >= Begin &&
              S.Address - Begin < Segment.p_memsz) {
            S.Found = true;
            S.Module = Info->dlpi_name ? Info->dlpi_name : "";
            return 1;
          }
        }
        return 0;
      },
      &S);
  if (S.Found && S.Module.empty()) // the main program has no name here
    S.Module = programPath();
  return S.Module;
}

/// Exported functions only, and no file or line: what the dynamic loader knows.
void resolveWithDladdr(std::uintptr_t Address, CodeLocation &Location) {
  Location.Module = moduleOfCode(Address);
  Dl_info Info{};
  if (dladdr(reinterpret_cast<void *>(Address), &Info) != 0 && Info.dli_sname)
    Location.Function = demangle(Info.dli_sname);
}

} // namespace

/// A libdw session over the modules of this process.
class Symbolizer::DebugInfo {
  /// A DIE's address range, in DWARF addresses.
  struct AddressRange {
    Dwarf_Addr Begin, End;
    Dwarf_Die Die;
    std::size_t Index = 0; ///< of a unit: its place in ModuleUnits::Dies
  };
  /// A module's compilation units; libdw keeps the DIEs as long as Session.
  struct ModuleUnits {
    Dwarf_Addr Bias = 0;
    std::vector<Dwarf_Die *> Dies;
    std::vector<AddressRange> Ranges;
  };

  static void sortByBegin(std::vector<AddressRange> &Ranges) {
    std::sort(Ranges.begin(), Ranges.end(),
              [](const AddressRange &A, const AddressRange &B) { return A.Begin < B.Begin; });
  }

  /// The range holding Address in sorted, non-overlapping Ranges, or null.
  static const AddressRange *find(const std::vector<AddressRange> &Ranges, Dwarf_Addr Address) {
    auto After = std::upper_bound(
        Ranges.begin(), Ranges.end(), Address,
        [](Dwarf_Addr Value, const AddressRange &Range) { return Value < Range.Begin; });
    if (After == Ranges.begin())
      return nullptr;
    const AddressRange &Range = *std::prev(After);
    return Address < Range.End ? &Range : nullptr;
  }

public:
  /// Null when libdw is absent or cannot report the process's modules.
  static std::unique_ptr<DebugInfo> open() {
    if (!dlopen)
      return nullptr;
    void *Library = dlopen(LibdwSoname, RTLD_LAZY | RTLD_LOCAL);
    if (!Library)
      return nullptr;
    std::unique_ptr<DebugInfo> Debug(new DebugInfo(Library));
    if (!Debug->start())
      return nullptr;
    return Debug;
  }

  ~DebugInfo() {
    if (Session)
      Api.dwfl_end(Session);
    dlclose(Library);
  }

  DebugInfo(const DebugInfo &) = delete;
  DebugInfo &operator=(const DebugInfo &) = delete;

  /// What the module's debug information and symbol table say about Address.
  void resolve(std::uintptr_t Address, CodeLocation &Location) {
    Dwfl_Module *Module = Api.dwfl_addrmodule(Session, Address);
    if (!Module)
      return;
    if (const char *Name = Api.dwfl_module_info(Module, nullptr, nullptr, nullptr, nullptr, nullptr,
                                                nullptr, nullptr))
      Location.Module = Name;
    Dwarf_Addr Bias = 0;
    if (Dwarf_Die *Unit = compilationUnit(Module, Address, Bias)) {
      Location.Function = functionAt(Unit, Address - Bias, Location.InlinedInto);
      lineAt(Unit, Address - Bias, Location);
    }
    if (Location.Function.empty())
      Location.Function = demangle(Api.dwfl_module_addrname(Module, Address));
  }

private:
  explicit DebugInfo(void *Library) : Library(Library) {}

  bool start() {
    if (!Api.load(Library))
      return false;
    Callbacks.find_elf = Api.dwfl_linux_proc_find_elf;
    FindByBuildId = Api.dwfl_build_id_find_debuginfo;
    Callbacks.find_debuginfo = findLocalDebugInfo;
    Callbacks.debuginfo_path = &DebugInfoPath;
    Session = Api.dwfl_begin(&Callbacks);
    if (!Session)
      return false;
    Api.dwfl_report_begin(Session);
    return Api.dwfl_linux_proc_report(Session, getpid()) == 0 &&
           Api.dwfl_report_end(Session, nullptr, nullptr) == 0;
  }

  /// The compilation unit whose code holds Address, and the module's bias
  /// (DWARF addresses are Address - Bias). libdw finds it through
  /// .debug_aranges, which gcc writes and Clang does not; libdw 0.188 has no
  /// other way, so without them the units' own address ranges are searched.
  Dwarf_Die *compilationUnit(Dwfl_Module *Module, Dwarf_Addr Address, Dwarf_Addr &Bias) {
    if (Dwarf_Die *Unit = Api.dwfl_module_addrdie(Module, Address, &Bias))
      return Unit;
    const ModuleUnits &Units = unitRanges(Module);
    Bias = Units.Bias;
    const AddressRange *Unit = find(Units.Ranges, Address - Bias);
    return Unit ? Units.Dies[Unit->Index] : nullptr;
  }

  /// The address ranges of the module's compilation units, sorted; made once
  /// per module.
  const ModuleUnits &unitRanges(Dwfl_Module *Module) {
    auto [Entry, Inserted] = UnitsByModule.try_emplace(Module);
    ModuleUnits &Units = Entry->second;
    if (!Inserted)
      return Units;
    Dwarf_Die *Unit = nullptr;
    while ((Unit = Api.dwfl_module_nextcu(Module, Unit, &Units.Bias))) {
      Dwarf_Addr Base = 0, Begin = 0, End = 0;
      std::ptrdiff_t Offset = 0;
      while ((Offset = Api.dwarf_ranges(Unit, Offset, &Base, &Begin, &End)) > 0)
        if (Begin < End)
          Units.Ranges.push_back({Begin, End, {}, Units.Dies.size()});
      Units.Dies.push_back(Unit);
    }
    sortByBegin(Units.Ranges);
    return Units;
  }

  /// The innermost function, inlined or not, whose code holds Address: the
  /// one the line table's file and line belong to. The symbol table would
  /// name the function it was inlined into. Callers gets the functions it
  /// was inlined into, innermost first, the one whose code it is last; empty
  /// when nothing was inlined there.
  std::string functionAt(Dwarf_Die *Unit, Dwarf_Addr Address, std::vector<std::string> &Callers) {
    const std::vector<AddressRange> &Functions = functionRanges(Unit);
    const AddressRange *Outer = find(Functions, Address);
    if (!Outer)
      return {};
    Dwarf_Die Function = Outer->Die;
    std::vector<Dwarf_Die> Chain = {Function};
    inlineChain(Function, Address, Chain);
    for (std::size_t I = Chain.size() - 1; I-- > 0;)
      Callers.push_back(functionName(Chain[I]));
    return functionName(Chain.back());
  }

  /// The address ranges of the unit's functions, sorted; made once per unit.
  /// libdw's dwarf_getscopes() would search the unit for every address, and in
  /// version 0.188 it does not look inside namespaces, where most C++
  /// functions are.
  const std::vector<AddressRange> &functionRanges(Dwarf_Die *Unit) {
    auto [Entry, Inserted] = FunctionsByUnit.try_emplace(Unit);
    if (Inserted) {
      collectFunctions(*Unit, Entry->second);
      sortByBegin(Entry->second);
    }
    return Entry->second;
  }

  /// Functions with code among Parent's children and in its namespaces.
  /// Classes are not searched: compilers put the definitions of member
  /// functions at namespace level.
  void collectFunctions(Dwarf_Die &Parent, std::vector<AddressRange> &Functions) const {
    Dwarf_Die Child;
    if (Api.dwarf_child(&Parent, &Child) != 0)
      return;
    do {
      const int Tag = Api.dwarf_tag(&Child);
      if (Tag == DW_TAG_namespace) {
        collectFunctions(Child, Functions);
      } else if (Tag == DW_TAG_subprogram) {
        Dwarf_Addr Base = 0, Begin = 0, End = 0;
        std::ptrdiff_t Offset = 0;
        while ((Offset = Api.dwarf_ranges(&Child, Offset, &Base, &Begin, &End)) > 0)
          if (Begin < End)
            Functions.push_back({Begin, End, Child});
      }
    } while (Api.dwarf_siblingof(&Child, &Child) == 0);
  }

  /// Appends the inlined functions inside Parent (a function or a block)
  /// holding Address to Chain, outermost first: the DWARF inline chain.
  void inlineChain(Dwarf_Die &Parent, Dwarf_Addr Address, std::vector<Dwarf_Die> &Chain) const {
    Dwarf_Die Child;
    if (Api.dwarf_child(&Parent, &Child) != 0)
      return;
    do {
      switch (Api.dwarf_tag(&Child)) {
      case DW_TAG_inlined_subroutine:
        if (Api.dwarf_haspc(&Child, Address) > 0) {
          Chain.push_back(Child);
          inlineChain(Child, Address, Chain);
          return;
        }
        break;
      case DW_TAG_lexical_block:
      case DW_TAG_try_block:
      case DW_TAG_catch_block:
        if (Api.dwarf_haspc(&Child, Address) > 0) {
          inlineChain(Child, Address, Chain);
          return;
        }
        break;
      default:
        break;
      }
    } while (Api.dwarf_siblingof(&Child, &Child) == 0);
  }

  /// File and line from the unit's line table; a relative file name is made
  /// absolute with the unit's compilation directory.
  void lineAt(Dwarf_Die *Unit, Dwarf_Addr Address, CodeLocation &Location) const {
    Dwarf_Line *Line = Api.dwarf_getsrc_die(Unit, Address);
    if (!Line)
      return;
    const char *File = Api.dwarf_linesrc(Line, nullptr, nullptr);
    if (!File)
      return;
    Location.File = File;
    Dwarf_Attribute Attribute;
    const char *CompilationDir =
        Api.dwarf_formstring(Api.dwarf_attr(Unit, DW_AT_comp_dir, &Attribute));
    if (File[0] != '/' && CompilationDir && CompilationDir[0] != '\0')
      Location.File = std::string(CompilationDir) + "/" + File;
    int LineNumber = 0;
    if (Api.dwarf_lineno(Line, &LineNumber) == 0 && LineNumber > 0)
      Location.Line = static_cast<unsigned>(LineNumber);
  }

  /// The demangled linkage name (qualified, with parameters) when there is
  /// one, else the plain name (C functions, main).
  std::string functionName(Dwarf_Die &Function) const {
    Dwarf_Attribute Attribute;
    for (const int Code : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name}) {
      // "integrate" follows abstract origins (inlined copies) and
      // specifications (member functions defined outside their class).
      if (!Api.dwarf_attr_integrate(&Function, Code, &Attribute))
        continue;
      if (const char *Name = Api.dwarf_formstring(&Attribute))
        return demangle(Name);
    }
    return {};
  }

  void *Library;
  LibdwApi Api;
  /// libdw keeps a pointer to the callbacks and to the search path (null: the
  /// default, /usr/lib/debug and next to the file) for the session's life.
  Dwfl_Callbacks Callbacks{};
  char *DebugInfoPath = nullptr;
  Dwfl *Session = nullptr;
  std::unordered_map<Dwfl_Module *, ModuleUnits> UnitsByModule;
  std::unordered_map<Dwarf_Die *, std::vector<AddressRange>> FunctionsByUnit;
};

Symbolizer::Symbolizer(Mode M) {
  if (M == Mode::PreferLibdw)
    Debug = DebugInfo::open();
}

Symbolizer::~Symbolizer() = default;

bool Symbolizer::usesDebugInfo() const { return Debug != nullptr; }

const CodeLocation &Symbolizer::resolveReturnAddress(std::uintptr_t ReturnAddress) {
  auto [Entry, Inserted] = Cache.try_emplace(ReturnAddress);
  // 0 is OMPT's "no address"; it has no instruction before it.
  if (!Inserted || ReturnAddress == 0)
    return Entry->second;
  const std::uintptr_t CallAddress = ReturnAddress - 1;
  // libdw, given an address in no module (the stack, past the last library),
  // may answer with the nearest module.
  if (moduleOfCode(CallAddress).empty())
    return Entry->second;
  if (Debug)
    Debug->resolve(CallAddress, Entry->second);
  else
    resolveWithDladdr(CallAddress, Entry->second);
  return Entry->second;
}

std::vector<CodeLocation> symbolize(const std::vector<std::uintptr_t> &ReturnAddresses) {
  std::vector<CodeLocation> Locations;
  if (ReturnAddresses.empty())
    return Locations;
  Locations.reserve(ReturnAddresses.size());
  Symbolizer Resolver;
  for (const std::uintptr_t Address : ReturnAddresses)
    Locations.push_back(Resolver.resolveReturnAddress(Address));
  return Locations;
}

} // namespace pomp::rt
