//===- gen-fortran-bindings.cpp - Fortran bindings from pomp_events.def ---===//
///
/// \file
/// A build-time generator: expands pomp_events.def, the one list of the POMP
/// event routines, into what Fortran needs, so that an event added to the list
/// gets its Fortran binding without anyone writing it (docs/FORTRAN.md):
///
///   gen-fortran-bindings <entries.inc> <pomp_lib.h> <pomp_lib.f90>
///
/// - entries.inc: C++ definitions of the Fortran entry points of libpomp,
///   `pomp_<name>_` in lower case with one trailing underscore (the default
///   external names of gfortran and flang), every argument by reference and
///   the CTC string as CHARACTER*(*) with its hidden length at the end;
/// - pomp_lib.h: the include file for Fortran code, fixed and free form: the
///   constants of pomplib.h and the types of the wrappers that return values;
/// - pomp_lib.f90: the `pomp_lib` module: the same constants and an explicit
///   interface for every routine.
///
/// The C parameter lists come from the preprocessor (stringised rows), so the
/// generator sees exactly what pomplib.h declares.
///
//===----------------------------------------------------------------------===//

#include "pomplib.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// One row of pomp_events.def: the routine's name (after POMP_) and its C
/// parameter list with the parentheses.
struct EventRow {
  const char *Name;
  const char *Params;
};

constexpr EventRow Events[] = {
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) {#Name, #Params},
#include "pomp_events.def"
};

/// One parameter of a C event routine and how Fortran passes it.
struct Param {
  std::string Name;
  /// The C type as pomplib.h spells it, without the name (`int32_t`,
  /// `POMP_Handle_t *`, `const char []`).
  std::string CType;
};

std::string trim(const std::string &S) {
  const auto First = S.find_first_not_of(" \t\n");
  if (First == std::string::npos)
    return "";
  const auto Last = S.find_last_not_of(" \t\n");
  return S.substr(First, Last - First + 1);
}

std::string lower(std::string S) {
  for (char &C : S)
    C = static_cast<char>(std::tolower(static_cast<unsigned char>(C)));
  return S;
}

/// Splits "(T1 a, T2 *b, const char c[])" into its parameters.
std::vector<Param> parseParams(const std::string &Text) {
  std::vector<Param> Result;
  std::string Inner = trim(Text);
  if (Inner.size() < 2 || Inner.front() != '(' || Inner.back() != ')')
    throw std::runtime_error("not a parameter list: " + Text);
  Inner = Inner.substr(1, Inner.size() - 2);
  std::stringstream Stream(Inner);
  std::string Item;
  while (std::getline(Stream, Item, ',')) {
    Item = trim(Item);
    bool Array = false;
    if (Item.size() > 2 && Item.compare(Item.size() - 2, 2, "[]") == 0) {
      Array = true;
      Item = trim(Item.substr(0, Item.size() - 2));
    }
    std::size_t Start = Item.size();
    while (Start > 0 &&
           (std::isalnum(static_cast<unsigned char>(Item[Start - 1])) || Item[Start - 1] == '_'))
      --Start;
    Param P;
    P.Name = Item.substr(Start);
    P.CType = trim(Item.substr(0, Start));
    if (Array)
      P.CType += " []";
    if (P.Name.empty() || P.CType.empty())
      throw std::runtime_error("cannot split parameter '" + Item + "' of " + Text);
    Result.push_back(P);
  }
  return Result;
}

/// How one C parameter type is passed from Fortran: the C++ parameter of the
/// entry point, the argument for the C routine, and the Fortran declaration.
struct Passing {
  std::string EntryType; ///< C++ type of the entry point's parameter.
  std::string CallArg;   ///< expression passing it on ("%" is the name).
  std::string FortranType;
};

Passing passingOf(const std::string &CType) {
  if (CType == "POMP_Handle_t *")
    return {"POMP_Handle_t *", "%", "integer(kind=8), intent(inout)"};
  // A handle the construct's first event may have bound in another thread
  // (the Fortran init routine runs only from POMP_Init_Handles()): read
  // atomically, as libpomp reads a handle passed by address.
  if (CType == "POMP_Handle_t")
    return {"const POMP_Handle_t *", "__atomic_load_n(%, __ATOMIC_ACQUIRE)",
            "integer(kind=8), intent(in)"};
  if (CType == "int32_t")
    return {"const int32_t *", "*%", "integer(kind=4), intent(in)"};
  if (CType == "int64_t")
    return {"const int64_t *", "*%", "integer(kind=8), intent(in)"};
  if (CType == "POMP_Context_t")
    return {"const POMP_Context_t *", "*%", "integer(kind=8), intent(in)"};
  if (CType == "POMP_Context_t *")
    return {"POMP_Context_t *", "%", "integer(kind=8), intent(out)"};
  // The lock itself, by reference: its address is the lock id, as in C.
  if (CType == "POMP_Lock_id_t")
    return {"const void *", "pomp::fortran::lockId(%)", ""};
  if (CType == "const char []")
    return {"const char *", "Ctc.get()", "character(len=*), intent(in)"};
  throw std::runtime_error("no Fortran passing for C type '" + CType + "'");
}

std::string replaceName(std::string Pattern, const std::string &Name) {
  const auto At = Pattern.find('%');
  if (At != std::string::npos)
    Pattern.replace(At, 1, Name);
  return Pattern;
}

void writeEntries(std::ostream &Out) {
  Out << "// Generated by gen-fortran-bindings from pomp_events.def: do not edit.\n"
         "// The Fortran entry points of the event routines (docs/FORTRAN.md).\n\n";
  for (const EventRow &E : Events) {
    const std::vector<Param> Params = parseParams(E.Params);
    std::string Decl, Args;
    bool HasCtc = false;
    for (const Param &P : Params) {
      const Passing Pass = passingOf(P.CType);
      Decl += (Decl.empty() ? "" : ", ") + Pass.EntryType + " " + P.Name;
      Args += (Args.empty() ? "" : ", ") + replaceName(Pass.CallArg, P.Name);
      HasCtc |= P.CType == "const char []";
    }
    if (HasCtc)
      Decl += ", pomp::fortran::Length ctc_len";
    Out << "POMP_FORTRAN_EXPORT int32_t pomp_" << lower(E.Name) << "_(" << Decl << ") {\n";
    if (HasCtc)
      Out << "  const pomp::fortran::CtcString Ctc(handle, ctc, ctc_len);\n";
    Out << "  return POMP_" << E.Name << "(" << Args << ");\n}\n";
  }
  Out << "\n/// The number of event entry points above.\n"
      << "constexpr int FortranEventEntryCount = " << std::size(Events) << ";\n";
}

/// A named constant of pomplib.h for Fortran.
struct Constant {
  const char *Name;
  long Value;
};

#define POMP_CONSTANT(Name)                                                                        \
  { #Name, static_cast < long>(Name) }
constexpr Constant Constants[] = {
    POMP_CONSTANT(POMP_API_VERSION),
    POMP_CONSTANT(POMP_SUCCESS),
    POMP_CONSTANT(POMP_ERROR_INVALID_HANDLE),
    POMP_CONSTANT(POMP_ERROR_MISSING_CTC),
    POMP_CONSTANT(POMP_ERROR_MALFORMED_CTC),
    POMP_CONSTANT(POMP_ERROR_INVALID_ARGUMENT),
    POMP_CONSTANT(POMP_ERROR_UNBALANCED),
    POMP_CONSTANT(POMP_ERROR_FINALIZED),
    POMP_CONSTANT(POMP_ERROR_NOT_INITIALIZED),
    POMP_CONSTANT(POMP_ERROR_REENTRANT),
    POMP_CONSTANT(POMP_ERROR_OUT_OF_RESOURCES),
    POMP_CONSTANT(POMP_GROUP_PARALLEL),
    POMP_CONSTANT(POMP_GROUP_LOOP),
    POMP_CONSTANT(POMP_GROUP_WORKSHARE),
    POMP_CONSTANT(POMP_GROUP_SYNC),
    POMP_CONSTANT(POMP_GROUP_TASK),
    POMP_CONSTANT(POMP_GROUP_TARGET),
    POMP_CONSTANT(POMP_GROUP_USER),
    POMP_CONSTANT(POMP_GROUP_RUNTIME),
    POMP_CONSTANT(POMP_LEVEL_NONE),
    POMP_CONSTANT(POMP_LEVEL_EVENT),
    POMP_CONSTANT(POMP_LEVEL_ENTEREXIT),
    POMP_CONSTANT(POMP_LEVEL_BEGINEND),
    POMP_CONSTANT(POMP_LEVEL_CHUNKS),
    POMP_CONSTANT(POMP_LEVEL_ITEREVENT),
    POMP_CONSTANT(POMP_LEVEL_ITERBEGINEND),
};
#undef POMP_CONSTANT

/// The OpenMP wrappers that return a value (libpomp's FortranBindings.cpp
/// defines them), with their Fortran result type.
struct ValueWrapper {
  const char *Name;
  const char *Type;
};
constexpr ValueWrapper ValueWrappers[] = {
    {"POMP_Wrap_omp_test_lock", "logical"},          {"POMP_Wrap_omp_test_nest_lock", "integer"},
    {"POMP_Wrap_omp_get_num_threads", "integer"},    {"POMP_Wrap_omp_get_max_threads", "integer"},
    {"POMP_Wrap_omp_get_thread_num", "integer"},     {"POMP_Wrap_omp_get_num_procs", "integer"},
    {"POMP_Wrap_omp_in_parallel", "logical"},        {"POMP_Wrap_omp_get_dynamic", "logical"},
    {"POMP_Wrap_omp_get_nested", "logical"},         {"POMP_Wrap_omp_pause_resource", "integer"},
    {"POMP_Wrap_omp_pause_resource_all", "integer"},
};

/// Fixed form reads columns 7-72; free form any column. Lines that start in
/// column 7, fit in 72 columns and never continue are both.
constexpr std::size_t FixedFormLastColumn = 72;

void emitFixed(std::ostream &Out, const std::string &Statement) {
  const std::string Line = "      " + Statement;
  if (Line.size() > FixedFormLastColumn)
    throw std::runtime_error("line longer than fixed form allows: " + Line);
  Out << Line << "\n";
}

void writeInclude(std::ostream &Out) {
  Out << "! pomp_lib.h: the POMP API for Fortran, fixed and free form (POMP toolkit).\n"
         "! Generated by gen-fortran-bindings from pomplib.h: do not edit.\n"
         "! Declares the API's constants and the result types of the OpenMP\n"
         "! wrappers that return a value. The routines are subroutines with\n"
         "! implicit interfaces: call POMP_Init(), call POMP_User_region_begin(\n"
         "! handle, thread_id, ctc), ... (docs/FORTRAN.md).\n";
  for (const Constant &C : Constants) {
    emitFixed(Out, std::string("integer(kind=4) ") + C.Name);
    emitFixed(Out, std::string("parameter (") + C.Name + " = " + std::to_string(C.Value) + ")");
  }
  for (const ValueWrapper &W : ValueWrappers) {
    emitFixed(Out, std::string(W.Type) + " " + W.Name);
    emitFixed(Out, std::string("external ") + W.Name);
  }
}

/// Writes a Fortran declaration line of the module (free form, continued with
/// `&` where long).
void writeInterface(std::ostream &Out, const std::string &Name,
                    const std::vector<std::pair<std::string, std::string>> &Dummies) {
  std::string Header = "    subroutine " + Name + "(";
  std::string Line = Header;
  for (std::size_t I = 0; I < Dummies.size(); ++I) {
    const std::string Piece = Dummies[I].first + (I + 1 < Dummies.size() ? ", " : "");
    if (Line.size() + Piece.size() > FixedFormLastColumn) {
      Out << Line << "&\n";
      Line = "        ";
    }
    Line += Piece;
  }
  Out << Line << ")\n";
  for (const auto &[Dummy, Type] : Dummies)
    Out << "      " << Type << " :: " << Dummy << "\n";
  Out << "    end subroutine " << Name << "\n";
}

void writeModule(std::ostream &Out) {
  Out << "! pomp_lib.f90: the POMP API for Fortran as a module (POMP toolkit).\n"
         "! Generated by gen-fortran-bindings from pomplib.h and pomp_events.def: do\n"
         "! not edit. Compile it with the compiler of the program (gfortran and flang\n"
         "! write different .mod files); docs/FORTRAN.md.\n"
         "module pomp_lib\n"
         "  implicit none\n"
         "  public\n";
  for (const Constant &C : Constants)
    Out << "  integer(kind=4), parameter :: " << C.Name << " = " << C.Value << "\n";
  Out << "  interface\n";
  const std::vector<std::pair<std::string, std::string>> None;
  for (const char *Name : {"POMP_Init", "POMP_Finalize", "POMP_On", "POMP_Off"})
    writeInterface(Out, Name, None);
  writeInterface(
      Out, "POMP_Set_level",
      {{"group", "integer(kind=4), intent(in)"}, {"level", "integer(kind=4), intent(in)"}});
  writeInterface(
      Out, "POMP_Get_level",
      {{"group", "integer(kind=4), intent(in)"}, {"level", "integer(kind=4), intent(out)"}});
  writeInterface(
      Out, "POMP_Get_handle",
      {{"handle", "integer(kind=8), intent(inout)"}, {"ctc", "character(len=*), intent(in)"}});
  writeInterface(Out, "POMP_Last_error_message", {{"message", "character(len=*), intent(out)"}});
  writeInterface(
      Out, "POMP_Error_string",
      {{"error", "integer(kind=4), intent(in)"}, {"message", "character(len=*), intent(out)"}});
  for (const EventRow &E : Events) {
    std::vector<std::pair<std::string, std::string>> Dummies;
    bool Lock = false;
    for (const Param &P : parseParams(E.Params)) {
      const Passing Pass = passingOf(P.CType);
      Lock |= Pass.FortranType.empty();
      Dummies.push_back({P.Name, Pass.FortranType});
    }
    // A lock event takes the lock variable, whose type is the runtime's
    // (omp_lock_kind): only the OpenMP wrappers call them.
    if (!Lock)
      writeInterface(Out, std::string("POMP_") + E.Name, Dummies);
  }
  Out << "  end interface\n"
         "end module pomp_lib\n";
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 4) {
    std::fprintf(stderr, "usage: gen-fortran-bindings <entries.inc> <pomp_lib.h> <pomp_lib.f90>\n");
    return 2;
  }
  try {
    const std::pair<void (*)(std::ostream &), const char *> Outputs[] = {
        {writeEntries, Argv[1]}, {writeInclude, Argv[2]}, {writeModule, Argv[3]}};
    for (const auto &[Write, Path] : Outputs) {
      // Written under a temporary name and renamed: never a half-written output.
      std::ostringstream Text;
      Write(Text);
      const std::string Temporary = std::string(Path) + ".tmp";
      std::ofstream File(Temporary, std::ios::binary);
      File << Text.str();
      File.close();
      if (!File || std::rename(Temporary.c_str(), Path) != 0) {
        std::fprintf(stderr, "gen-fortran-bindings: cannot write %s\n", Path);
        std::remove(Temporary.c_str());
        return 1;
      }
    }
  } catch (const std::exception &Error) {
    std::fprintf(stderr, "gen-fortran-bindings: %s\n", Error.what());
    return 1;
  }
  return 0;
}
