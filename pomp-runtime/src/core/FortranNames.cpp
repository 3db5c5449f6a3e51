//===- core/FortranNames.cpp - Fortran symbol names for people ------------===//
///
/// \file
/// FortranNames.h says which names and why. The reader is strict: anything
/// it does not understand to the end leaves the symbol as it is, so that a C
/// function that happens to start with `_Q` is never renamed.
///
//===----------------------------------------------------------------------===//

#include "core/FortranNames.h"

#include <cctype>
#include <vector>

namespace pomp::rt {
namespace {

/// The suffixes OpenMP gives a region it outlines into a function of its
/// own: flang (LLVM's OpenMPIRBuilder) `..omp_par` with an optional `.<n>`,
/// gfortran `._omp_fn.<n>`.
constexpr std::string_view FlangOutlined = "..omp_par";
constexpr std::string_view GfortranOutlined = "._omp_fn.";

constexpr std::string_view FlangPrefix = "_Q";
constexpr std::string_view FlangMain = "main";
constexpr std::string_view GfortranMain = "MAIN__";
constexpr std::string_view GfortranModulePrefix = "__";
constexpr std::string_view GfortranModuleSeparator = "_MOD_";
constexpr std::string_view Scope = "::";

bool isNameChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= '0' && C <= '9') || C == '_' || C == '$';
}
bool isDigit(char C) { return C >= '0' && C <= '9'; }

bool allDigits(std::string_view Text) {
  if (Text.empty())
    return false;
  for (const char C : Text)
    if (!isDigit(C))
      return false;
  return true;
}

/// Symbol without the suffix of an outlined OpenMP region.
std::string_view withoutOutlinedSuffix(std::string_view Symbol) {
  if (const auto At = Symbol.find(FlangOutlined); At != std::string_view::npos) {
    const std::string_view Rest = Symbol.substr(At + FlangOutlined.size());
    if (Rest.empty() || (Rest.front() == '.' && allDigits(Rest.substr(1))))
      return Symbol.substr(0, At);
  }
  if (const auto At = Symbol.find(GfortranOutlined); At != std::string_view::npos)
    if (allDigits(Symbol.substr(At + GfortranOutlined.size())))
      return Symbol.substr(0, At);
  return Symbol;
}

/// Reads a run of name characters at Text[Pos]; empty when there is none.
std::string_view readName(std::string_view Text, std::size_t &Pos) {
  const std::size_t Start = Pos;
  while (Pos < Text.size() && isNameChar(Text[Pos]))
    ++Pos;
  return Text.substr(Start, Pos - Start);
}

/// Reads a run of digits at Text[Pos]; empty when there is none.
std::string_view readNumber(std::string_view Text, std::size_t &Pos) {
  const std::size_t Start = Pos;
  while (Pos < Text.size() && isDigit(Text[Pos]))
    ++Pos;
  return Text.substr(Start, Pos - Start);
}

/// A flang uniqued name (after `_Q`), or "".
std::string deconstructFlang(std::string_view Text) {
  if (!Text.empty() && Text.front() == 'Q')
    return Text.substr(1) == FlangMain ? std::string(MainProgramName) : std::string();
  std::vector<std::string_view> Scopes;
  std::string_view Entity;
  std::string Kinds;
  std::size_t Pos = 0;
  while (Pos < Text.size()) {
    const char Code = Text[Pos++];
    const char Next = Pos < Text.size() ? Text[Pos] : '\0';
    switch (Code) {
    case 'M': // module
    case 'S': // submodule
    case 'F': // host procedure
      if (!Entity.empty())
        return {};
      Scopes.push_back(readName(Text, Pos));
      if (Scopes.back().empty())
        return {};
      break;
    case 'B': // block construct: a scope without a name
      if (readNumber(Text, Pos).empty())
        return {};
      break;
    case 'K': { // kind parameter of a derived type
      const bool Negative = Next == 'N';
      Pos += Negative ? 1 : 0;
      const std::string_view Kind = readNumber(Text, Pos);
      if (Kind.empty() || Entity.empty())
        return {};
      Kinds += (Kinds.empty() ? "(" : ",") + std::string(Negative ? "-" : "") + std::string(Kind);
      break;
    }
    case 'E': // variable, EC constant
    case 'D': // DT dispatch table
    case 'Y': // Y type descriptor, YI intrinsic type descriptor
      if ((Code == 'E' && Next == 'C') || (Code == 'D' && Next == 'T') ||
          (Code == 'Y' && Next == 'I'))
        ++Pos;
      else if (Code == 'D')
        return {};
      [[fallthrough]];
    case 'P': // procedure
    case 'C': // common block
    case 'N': // namelist group
    case 'T': // derived type
      if (!Entity.empty())
        return {};
      Entity = readName(Text, Pos);
      if (Entity.empty())
        return {};
      break;
    default:
      return {};
    }
  }
  if (Entity.empty())
    return {};
  std::string Result;
  for (const std::string_view Name : Scopes)
    Result.append(Name).append(Scope);
  Result.append(Entity);
  if (!Kinds.empty())
    Result += Kinds + ")";
  return Result;
}

/// gfortran's `__<module>_MOD_<name>`, or "".
std::string gfortranModuleName(std::string_view Symbol) {
  if (Symbol.substr(0, GfortranModulePrefix.size()) != GfortranModulePrefix)
    return {};
  const std::string_view Rest = Symbol.substr(GfortranModulePrefix.size());
  const auto At = Rest.find(GfortranModuleSeparator);
  if (At == std::string_view::npos || At == 0)
    return {};
  const std::string_view Module = Rest.substr(0, At);
  const std::string_view Name = Rest.substr(At + GfortranModuleSeparator.size());
  std::size_t Pos = 0;
  if (Name.empty() || readName(Name, Pos).size() != Name.size())
    return {};
  Pos = 0;
  if (readName(Module, Pos).size() != Module.size())
    return {};
  return std::string(Module) + std::string(Scope) + std::string(Name);
}

} // namespace

std::string demangleFortran(std::string_view Symbol) {
  const std::string_view Base = withoutOutlinedSuffix(Symbol);
  if (Base.substr(0, FlangPrefix.size()) == FlangPrefix)
    return deconstructFlang(Base.substr(FlangPrefix.size()));
  if (Base == GfortranMain)
    return std::string(MainProgramName);
  if (std::string Name = gfortranModuleName(Base); !Name.empty())
    return Name;
  // Another routine's outlined region: the routine's own name.
  if (Base.size() != Symbol.size() && !Base.empty())
    return std::string(Base);
  return {};
}

} // namespace pomp::rt
