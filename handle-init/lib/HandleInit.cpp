//===- HandleInit.cpp - Handle initialisation code ------------------------===//
///
/// \file
/// Generates the C/C++ text of paper Appendix B: per file, the handles, the
/// CTC string arrays and POMP_Init_<id>(); per program, POMP_Init_Handles().
/// The text must compile without warnings as C89 and as C++98..C++20 under
/// -pedantic -Wall -Wextra, so every literal is escaped conservatively
/// (octal escapes, no trigraphs) and nothing depends on the language standard
/// the user compiles with.
///
//===----------------------------------------------------------------------===//

#include "pomp/handle-init/HandleInit.h"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pomp::handleinit {
namespace {

/// FNV-1a, 64 bits: tiny, stable across compilers and platforms (unlike
/// std::hash), good enough to tell file paths apart.
constexpr std::uint64_t FnvOffsetBasis = 0xcbf29ce484222325ULL;
constexpr std::uint64_t FnvPrime = 0x100000001b3ULL;

constexpr char HexDigits[] = "0123456789abcdef";
constexpr unsigned HexDigitBits = 4;
constexpr unsigned LowNibble = 0xf;
/// A file id ends in '_' and the hash as this many lowercase hex digits.
constexpr std::size_t HashHexDigits = 64 / HexDigitBits;
constexpr char IdSeparator = '_';

/// The base-name part of a file id is cut to this length: it only makes the
/// symbol readable, the hash makes it unique, and linkers and debuggers show
/// shorter symbols more legibly.
constexpr std::size_t MaxBaseNameLength = 64;
/// Base-name part for a path without one ("", "/").
constexpr std::string_view UnnamedBase = "file";

/// C90 requires compilers to support string literals of 509 characters, and
/// `gcc -std=c89 -pedantic` warns above it (-Woverlength-strings), also after
/// concatenation of adjacent literals. Longer CTC strings are written as a
/// brace-enclosed list of character constants, which has no such limit.
constexpr std::size_t MaxPortableStringLiteral = 509;

constexpr unsigned char FirstPrintable = 0x20;
constexpr unsigned char LastPrintable = 0x7e;
constexpr unsigned OctalDigitBits = 3;
constexpr unsigned OctalEscapeDigits = 3;
constexpr unsigned LowOctalDigit = 07;

bool isIdentifierChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_';
}

bool isLowerHexDigit(char C) { return (C >= '0' && C <= '9') || (C >= 'a' && C <= 'f'); }

std::uint64_t fnv1a(std::uint64_t Hash, std::string_view Bytes) {
  for (char C : Bytes) {
    Hash ^= static_cast<unsigned char>(C);
    Hash *= FnvPrime;
  }
  return Hash;
}

/// True for ids makeFileId can produce: identifier characters ending in
/// "_<16 lowercase hex digits>". The suffix is what sets per-file init
/// functions apart from POMP API routines that share the "POMP_Init_" prefix
/// (POMP_Init_lock_event, POMP_Init_nest_lock_event, POMP_Init_Handles).
bool isFileId(std::string_view Id) {
  if (Id.size() < HashHexDigits + 1)
    return false;
  for (char C : Id)
    if (!isIdentifierChar(C))
      return false;
  const std::size_t HashStart = Id.size() - HashHexDigits;
  if (Id[HashStart - 1] != IdSeparator)
    return false;
  for (char C : Id.substr(HashStart))
    if (!isLowerHexDigit(C))
      return false;
  return true;
}

/// Appends byte C as it appears inside a C string literal or character
/// constant delimited by Quote. Non-printable bytes become three-digit octal
/// escapes (a following digit can never extend a three-digit escape); a '?'
/// after a '?' is escaped so that no trigraph forms (C89 and C++98 replace
/// them, and -Wall warns).
void appendEscaped(std::string &Out, unsigned char C, char Quote, bool AfterQuestionMark) {
  if (C == Quote || C == '\\' || (C == '?' && AfterQuestionMark)) {
    Out += '\\';
    Out += static_cast<char>(C);
    return;
  }
  if (C >= FirstPrintable && C <= LastPrintable) {
    Out += static_cast<char>(C);
    return;
  }
  Out += '\\';
  for (unsigned Digit = OctalEscapeDigits; Digit-- > 0;)
    Out += static_cast<char>('0' + ((C >> (Digit * OctalDigitBits)) & LowOctalDigit));
}

/// The initialiser of a CTC string array: a string literal, or a list of
/// character constants when the string is too long for a portable literal.
std::string ctcInitializer(std::string_view Ctc) {
  if (Ctc.size() <= MaxPortableStringLiteral)
    return cStringLiteral(Ctc);
  std::string Out = "{";
  for (char C : Ctc)
    Out += cCharacterConstant(static_cast<unsigned char>(C)) + ", ";
  Out += "'\\0'}";
  return Out;
}

/// `extern "C" ` in C++, nothing in C: the init functions have C linkage in
/// both so that pomp-link's C file can call them.
std::string_view linkagePrefix(Language Lang) {
  return Lang == Language::CXX ? std::string_view("extern \"C\" ") : std::string_view();
}

/// FNV-1a of a path and a salt, a NUL between them so that ("ab", "c") and
/// ("a", "bc") differ: a NUL cannot occur in a path.
std::uint64_t pathHash(std::string_view AbsolutePath, std::string_view Salt) {
  std::uint64_t Hash = fnv1a(FnvOffsetBasis, AbsolutePath);
  Hash = fnv1a(Hash, std::string_view("\0", 1));
  return fnv1a(Hash, Salt);
}

void appendHex(std::string &Out, std::uint64_t Hash) {
  for (std::size_t Digit = HashHexDigits; Digit-- > 0;)
    Out += HexDigits[(Hash >> (Digit * HexDigitBits)) & LowNibble];
}

/// "" or "<Tag>_": what comes between a variable's kind and its index.
std::string tagPart(std::string_view Tag) { return Tag.empty() ? "" : std::string(Tag) + "_"; }

/// A routine generated code may call, with its parameter list as pomplib.h
/// declares it.
struct DeclarableRoutine {
  std::string_view Name;
  std::string_view Params;
};

/// The event routines from the one list of them, then the routines of
/// pomplib.h that ompinst's output calls (the main function, the `#pragma
/// pomp` control directives, the init function, the join barrier's
/// condition). tests/handle-init/declarations.test compiles them together
/// with pomplib.h, so a row that disagrees with it fails.
constexpr DeclarableRoutine DeclarableRoutines[] = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) {"POMP_" #Name, #Params},
#include "pomp_events.def"
    {"POMP_Init", "(void)"},
    {"POMP_Finalize", "(void)"},
    {"POMP_On", "(void)"},
    {"POMP_Off", "(void)"},
    {"POMP_Get_handle", "(POMP_Handle_t *handle, const char ctc[])"},
    {"POMP_Join_barrier_needed", "(POMP_Context_t fork_context)"},
};

/// The routine the init function calls for every handle.
constexpr std::string_view GetHandleRoutine = "POMP_Get_handle";

} // namespace

std::string cStringLiteral(std::string_view Text) {
  std::string Out = "\"";
  bool AfterQuestionMark = false;
  for (char C : Text) {
    appendEscaped(Out, static_cast<unsigned char>(C), '"', AfterQuestionMark);
    AfterQuestionMark = C == '?';
  }
  return Out + '"';
}

std::string cCharacterConstant(unsigned char C) {
  std::string Out = "'";
  appendEscaped(Out, C, '\'', false);
  return Out + "'";
}

std::string makeHeaderTag(std::string_view AbsolutePath, std::string_view Salt) {
  std::string Tag = "h";
  appendHex(Tag, pathHash(AbsolutePath, Salt));
  return Tag;
}

std::string makeFileId(std::string_view AbsolutePath, std::string_view Salt) {
  const std::size_t Slash = AbsolutePath.rfind('/');
  std::string_view Base =
      Slash == std::string_view::npos ? AbsolutePath : AbsolutePath.substr(Slash + 1);
  if (Base.empty())
    Base = UnnamedBase;
  Base = Base.substr(0, MaxBaseNameLength);

  std::string Id;
  Id.reserve(Base.size() + 1 + HashHexDigits);
  for (char C : Base)
    Id += isIdentifierChar(C) ? C : '_';
  Id += IdSeparator;

  appendHex(Id, pathHash(AbsolutePath, Salt));
  assert(isFileId(Id) && "makeFileId must produce what isFileInitFunction accepts");
  return Id;
}

std::string initFunctionName(std::string_view FileId) {
  std::string Name(InitFunctionPrefix);
  Name += FileId;
  return Name;
}

bool isFileInitFunction(std::string_view Symbol) {
  if (Symbol.substr(0, InitFunctionPrefix.size()) != InitFunctionPrefix ||
      Symbol == ProgramInitFunction)
    return false;
  return isFileId(Symbol.substr(InitFunctionPrefix.size()));
}

std::string handleVariable(unsigned Index, std::string_view Tag) {
  assert(Index >= 1 && "handles are numbered from 1");
  return "pomp_handle_" + tagPart(Tag) + std::to_string(Index);
}

std::string ctcVariable(unsigned Index, std::string_view Tag) {
  assert(Index >= 1 && "handles are numbered from 1");
  return "pomp_ctc_" + tagPart(Tag) + std::to_string(Index);
}

std::string headerPrologue(const HeaderHandles &Handles, Language Lang) {
  const std::string Guard = "POMP_HEADER_" + Handles.Tag;
  std::string Out = "#ifndef " + Guard + "\n#define " + Guard + "\n#include <omp.h>\n";
  Out += "#include \"pomplib.h\"\n";
  // A const object has internal linkage in C++ unless declared extern; in C
  // an extern with an initialiser draws a warning.
  const std::string_view ConstLinkage = Lang == Language::CXX ? "extern " : "";
  for (std::size_t I = 0; I < Handles.CtcStrings.size(); ++I) {
    const unsigned Index = static_cast<unsigned>(I + 1);
    Out += "__attribute__((weak)) POMP_Handle_t " + handleVariable(Index, Handles.Tag) + " = 0;\n";
    Out += std::string(ConstLinkage) + "__attribute__((weak)) const char " +
           ctcVariable(Index, Handles.Tag) + "[] = " + ctcInitializer(Handles.CtcStrings[I]) +
           ";\n";
  }
  return Out + "#endif\n";
}

namespace {
/// The routines of pomp_context_forms.h, with their parameter lists.
constexpr DeclarableRoutine ContextForms[] = {
    {"POMP_Parallel_fork_ctx", "(POMP_Handle_t *handle, int32_t thread_id, int32_t num_threads, "
                               "int32_t if_expr_result, const char ctc[])"},
    {"POMP_Teams_enter_ctx", "(POMP_Handle_t *handle, int32_t thread_id, int32_t num_teams, "
                             "int32_t thread_limit, const char ctc[])"},
    {"POMP_Task_create_enter_ctx",
     "(POMP_Handle_t *handle, int32_t thread_id, int32_t if_expr_result, const char ctc[])"}};

bool isContextForm(std::string_view Name) {
  for (const DeclarableRoutine &Form : ContextForms)
    if (Form.Name == Name)
      return true;
  return false;
}

bool isEventRoutine(std::string_view Name) {
  for (const DeclarableRoutine &R : DeclarableRoutines)
    if (R.Name == Name && R.Params.find("thread_id") != std::string_view::npos)
      return true;
  return false;
}

/// The routine whose form without the thread id Name is ("" if none).
std::string_view withThreadId(std::string_view Name) {
  if (Name.size() <= NoThreadIdSuffix.size() ||
      Name.substr(Name.size() - NoThreadIdSuffix.size()) != NoThreadIdSuffix)
    return {};
  const std::string_view Base = Name.substr(0, Name.size() - NoThreadIdSuffix.size());
  return isEventRoutine(Base) || isContextForm(Base) ? Base : std::string_view();
}

bool isNoThreadIdForm(std::string_view Name) { return !withThreadId(Name).empty(); }

bool isCalled(const std::vector<std::string> &Routines, std::string_view Name) {
  return std::find(Routines.begin(), Routines.end(), Name) != Routines.end();
}

/// Splits "(T a, U *b, const char c[])" into its parameters.
std::vector<std::string_view> parameters(std::string_view Params) {
  std::vector<std::string_view> Out;
  Params = Params.substr(1, Params.size() - 2);
  while (!Params.empty()) {
    const std::size_t Comma = Params.find(',');
    std::string_view One = Params.substr(0, Comma);
    while (!One.empty() && One.front() == ' ')
      One.remove_prefix(1);
    Out.push_back(One);
    if (Comma == std::string_view::npos)
      break;
    Params.remove_prefix(Comma + 1);
  }
  return Out;
}

/// The name a parameter declares ("const char ctc[]": "ctc").
std::string_view parameterName(std::string_view Param) {
  if (Param.size() > 2 && Param.substr(Param.size() - 2) == "[]")
    Param.remove_suffix(2);
  const std::size_t Space = Param.find_last_of(" *");
  return Space == std::string_view::npos ? Param : Param.substr(Space + 1);
}

} // namespace

std::string noThreadIdForms(const std::vector<std::string> &Routines, Language Lang) {
  std::string Declarations;
  std::string Macros;
  auto Add = [&](const DeclarableRoutine &R, std::string_view Result) {
    const std::string Name = std::string(R.Name) + std::string(NoThreadIdSuffix);
    if (!isCalled(Routines, Name))
      return;
    std::string Params;
    std::string Names;
    std::string Args;
    for (std::string_view P : parameters(R.Params)) {
      const std::string_view ParamName = parameterName(P);
      const bool ThreadId = ParamName == "thread_id";
      Args += (Args.empty() ? "" : ", ") + std::string(ThreadId ? UnknownThreadId : ParamName);
      if (ThreadId)
        continue;
      Params += (Params.empty() ? "" : ", ") + std::string(P);
      Names += (Names.empty() ? "" : ", ") + std::string(ParamName);
    }
    Declarations += std::string(linkagePrefix(Lang)) + std::string(Result) + " " + Name + "(" +
                    Params + ") POMP_NOTHROW;\n";
    Macros += "#define " + Name + "(" + Names + ") " + std::string(R.Name) + "(" + Args + ")\n";
  };
  for (const DeclarableRoutine &R : DeclarableRoutines)
    Add(R, "int32_t");
  for (const DeclarableRoutine &R : ContextForms)
    Add(R, "POMP_Context_t");
  if (Declarations.empty())
    return "";
  return "#if defined(POMP_NO_NOTID_FORMS) || defined(POMP_CONTEXT_BY_POINTER)\n" + Macros +
         "#else\n" + Declarations + "#endif\n";
}

bool isDeclarableRoutine(std::string_view Name) {
  if (isContextForm(Name) || isNoThreadIdForm(Name))
    return true;
  for (const DeclarableRoutine &R : DeclarableRoutines)
    if (R.Name == Name)
      return true;
  return false;
}

std::vector<std::string> declarableRoutines() {
  std::vector<std::string> Names;
  for (const DeclarableRoutine &R : DeclarableRoutines)
    Names.emplace_back(R.Name);
  for (const DeclarableRoutine &Form : ContextForms)
    Names.emplace_back(Form.Name);
  for (const DeclarableRoutine &R : DeclarableRoutines)
    if (isEventRoutine(R.Name))
      Names.emplace_back(std::string(R.Name) + std::string(NoThreadIdSuffix));
  for (const DeclarableRoutine &Form : ContextForms)
    Names.emplace_back(std::string(Form.Name) + std::string(NoThreadIdSuffix));
  return Names;
}

std::string routineDeclarations(const std::vector<std::string> &Routines, Language Lang) {
  // pomplib.h declares them all already; its guard tells.
  std::string Out = "#ifndef POMPLIB_H\n";
  // The context forms' own header, also for their forms without the thread
  // id, whose macros call them.
  if (std::any_of(Routines.begin(), Routines.end(), [](const std::string &Name) {
        return isContextForm(Name) || isContextForm(withThreadId(Name));
      }))
    Out += "#include \"pomp_context_forms.h\"\n";
  for (const DeclarableRoutine &R : DeclarableRoutines) {
    // A form without the thread id needs its routine for the macro.
    bool Called = false;
    for (const std::string &Name : Routines)
      Called = Called || Name == R.Name || withThreadId(Name) == R.Name;
    if (!Called)
      continue;
    Out += std::string(linkagePrefix(Lang)) + "int32_t " + std::string(R.Name) +
           std::string(R.Params) + " POMP_NOTHROW;\n";
  }
  return Out + "#endif\n" + noThreadIdForms(Routines, Lang);
}

std::string filePrologue(const FileHandles &Handles, Language Lang) {
  assert(isFileId(Handles.FileId) && "file ids come from makeFileId");
  std::string Out;
  if (Handles.CalledRoutines) {
    std::vector<std::string> Routines = *Handles.CalledRoutines;
    bool Binds = !Handles.CtcStrings.empty();
    for (const HeaderHandles &Header : Handles.Headers)
      Binds = Binds || !Header.CtcStrings.empty();
    if (Binds)
      Routines.emplace_back(GetHandleRoutine);
    Out = "#include \"pomp_types.h\"\n" + routineDeclarations(Routines, Lang);
  } else {
    Out = "#include \"pomplib.h\"\n";
  }
  for (std::size_t I = 0; I < Handles.CtcStrings.size(); ++I) {
    const unsigned Index = static_cast<unsigned>(I + 1);
    Out += "static POMP_Handle_t " + handleVariable(Index) + " = 0;\n";
    Out += "static const char " + ctcVariable(Index) +
           "[] = " + ctcInitializer(Handles.CtcStrings[I]) + ";\n";
  }
  Out += linkagePrefix(Lang);
  Out += "void " + initFunctionName(Handles.FileId) + "(void);\n";
  return Out;
}

std::string fileInitFunction(const FileHandles &Handles, Language Lang) {
  assert(isFileId(Handles.FileId) && "file ids come from makeFileId");
  std::vector<std::pair<std::string, std::string>> Bindings;
  for (std::size_t I = 0; I < Handles.CtcStrings.size(); ++I) {
    const unsigned Index = static_cast<unsigned>(I + 1);
    Bindings.emplace_back(handleVariable(Index), ctcVariable(Index));
  }
  // A header's handles are shared with other files: the first binding wins,
  // the later ones find the handle bound.
  for (const HeaderHandles &Header : Handles.Headers)
    for (std::size_t I = 0; I < Header.CtcStrings.size(); ++I) {
      const unsigned Index = static_cast<unsigned>(I + 1);
      Bindings.emplace_back(handleVariable(Index, Header.Tag), ctcVariable(Index, Header.Tag));
    }
  // The leading newline ends a last line that lacks one (a `// comment` or
  // an `#endif` would otherwise swallow the definition).
  std::string Out = "\n/* Binds the POMP handles of this file; POMP_Init_Handles() calls it, and "
                    "so does\n * the file's load. */\n";
  const std::string_view Linkage = linkagePrefix(Lang);
  if (!Linkage.empty())
    Out += std::string(Linkage.substr(0, Linkage.size() - 1)) + "\n";
  // Bound when the file is loaded too: without POMP_Init_Handles() (no
  // pomp-link) a construct's first event would bind its handle while the
  // code of another thread reads it plainly, a data race in the C/C++ sense.
  // Binding twice is harmless (POMP_Get_handle stores into a zero handle
  // only). The init function is the constructor itself: a second function
  // that only calls it cost the compile as much as a handful of statements.
  Out += "#if defined(__GNUC__) && !defined(POMP_NO_LOAD_TIME_BINDING)\n"
         "__attribute__((constructor))\n"
         "#endif\n";
  Out += "void " + initFunctionName(Handles.FileId) + "(void) {\n";
  if (!Bindings.empty()) {
    // One call in a loop over two tables instead of a call per handle: each
    // call statement costs an optimising compile (gcc -O2) some 1.4 M
    // instructions, a loop over tables a few. Same calls, same order.
    std::string HandleList, CtcList;
    for (const auto &[Handle, Ctc] : Bindings) {
      HandleList += (HandleList.empty() ? "&" : ", &") + Handle;
      CtcList += (CtcList.empty() ? "" : ", ") + Ctc;
    }
    Out += "  static POMP_Handle_t *const pomp_handles[] = {" + HandleList + "};\n";
    Out += "  static const char *const pomp_ctcs[] = {" + CtcList + "};\n";
    Out += "  unsigned pomp_i;\n";
    Out += "  for (pomp_i = 0; pomp_i < sizeof pomp_handles / sizeof pomp_handles[0]; ++pomp_i)\n";
    Out += "    POMP_Get_handle(pomp_handles[pomp_i], pomp_ctcs[pomp_i]);\n";
  }
  Out += "}\n";
  return Out;
}

std::string weakInitCaller(std::string_view Comment, const std::vector<std::string> &InitFunctions,
                           std::string_view Declaration, std::string_view DefinitionHead) {
  std::string Out(Comment);
  Out += "#ifdef __cplusplus\n"
         "extern \"C\" {\n"
         "#endif\n";
  for (const std::string &Name : InitFunctions) {
    assert(isFileInitFunction(Name) && "only per-file init functions are called");
    Out += "void " + Name + "(void);\n";
    Out += "#pragma weak " + Name + "\n";
  }
  Out += std::string(Declaration) + ";\n";
  Out += std::string(DefinitionHead) + " {\n";
  for (const std::string &Name : InitFunctions)
    Out += "  if (" + Name + ")\n    " + Name + "();\n";
  Out += "}\n"
         "#ifdef __cplusplus\n"
         "}\n"
         "#endif\n";
  return Out;
}

std::string programInitHandles(const std::vector<std::string> &InitFunctions) {
  const std::string Function = "void " + std::string(ProgramInitFunction) + "(void)";
  return weakInitCaller("/* Generated by pomp-link (POMP paper, Appendix B): POMP_Init() calls\n"
                        " * POMP_Init_Handles(), which binds the handles of every instrumented\n"
                        " * compilation unit linked into the program. The references are weak: an\n"
                        " * archive member is linked only when the program needs it, as without\n"
                        " * pomp-link, and then its init function is called. */\n",
                        InitFunctions, Function, Function);
}

std::string programStartInit() {
  const std::string Function = std::string(ProgramStartFunction);
  return "\n/* No instrumented compilation unit defines main (its file was compiled\n"
         " * uninstrumented, or main is not C/C++), so nothing calls POMP_Init() at the\n"
         " * start: this constructor does. Weak, as above: without libpomp it does\n"
         " * nothing. */\n"
         "#ifdef __cplusplus\n"
         "extern \"C\" {\n"
         "#endif\n"
         "int POMP_Init(void);\n"
         "#pragma weak POMP_Init\n"
         "static void " +
         Function + "(void) __attribute__((constructor));\n" + "static void " + Function +
         "(void) {\n"
         "  if (POMP_Init)\n"
         "    (void)POMP_Init();\n"
         "}\n"
         "#ifdef __cplusplus\n"
         "}\n"
         "#endif\n";
}

namespace {
/// The hash part of a file id (its last HashHexDigits characters).
std::string_view fileIdHash(std::string_view FileId) {
  return FileId.size() > HashHexDigits ? FileId.substr(FileId.size() - HashHexDigits) : FileId;
}
} // namespace

std::string fortranCommonBlock(std::string_view FileId) {
  return "pomp_cb_" + std::string(fileIdHash(FileId));
}

std::string fortranHandle(unsigned Index) {
  return std::string(FortranHandleArray) + "(" + std::to_string(Index) + ")";
}

std::vector<std::string> fortranHandleDeclarations(std::string_view FileId, unsigned Count) {
  // An empty array would make an empty common block; one element is unused.
  const unsigned Size = Count == 0 ? 1 : Count;
  return {"integer(kind=8) " + std::string(FortranHandleArray) + "(" + std::to_string(Size) + ")",
          "common /" + fortranCommonBlock(FileId) + "/ " + std::string(FortranHandleArray)};
}

std::string fortranStringLiteral(std::string_view Text) {
  std::string Literal = "'";
  for (char C : Text) {
    Literal += C;
    if (C == '\'')
      Literal += C;
  }
  return Literal + "'";
}

std::vector<std::string> fortranFileInit(const FileHandles &Handles) {
  std::vector<std::string> Lines;
  Lines.push_back("subroutine pomp_init_" + std::string(fileIdHash(Handles.FileId)) +
                  "() bind(C, name=\"" + initFunctionName(Handles.FileId) + "\")");
  for (std::string &Declaration :
       fortranHandleDeclarations(Handles.FileId, static_cast<unsigned>(Handles.CtcStrings.size())))
    Lines.push_back(std::move(Declaration));
  for (std::size_t I = 0; I < Handles.CtcStrings.size(); ++I)
    Lines.push_back("call POMP_Get_handle(" + fortranHandle(static_cast<unsigned>(I + 1)) + ", " +
                    fortranStringLiteral(Handles.CtcStrings[I]) + ")");
  Lines.push_back("end subroutine");
  return Lines;
}

} // namespace pomp::handleinit
