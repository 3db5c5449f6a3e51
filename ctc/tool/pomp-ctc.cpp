//===- pomp-ctc.cpp - Check and explain CTC strings -----------------------===//
///
/// \file
/// `pomp-ctc '<ctc string>'...` reads each CTC string with the ctc library and
/// prints its fields, or the byte offset and reason of the first problem with
/// a caret under it. `pomp-ctc -` reads one string per line from stdin.
/// Exit status: 0 all strings are valid, 1 some are not, 2 usage error.
///
//===----------------------------------------------------------------------===//
#include "pomp/ctc/Ctc.h"

#include <cstring>
#include <iostream>
#include <string>
#include <string_view>

namespace {

constexpr int ExitValid = 0;
constexpr int ExitInvalid = 1;
constexpr int ExitUsage = 2;

void printUsage(std::ostream &OS) {
  OS << "usage: pomp-ctc <ctc-string>...   check CTC strings and print their fields\n"
        "       pomp-ctc -                 read one CTC string per line from stdin\n";
}

void printLines(const char *Key, const std::optional<pomp::ctc::LineRange> &Lines) {
  if (Lines)
    std::cout << "  " << Key << " = " << Lines->First << "," << Lines->Last << "\n";
}

void printDescriptor(const pomp::ctc::RegionDescriptor &D) {
  using pomp::ctc::RegionKind;
  auto PrintText = [](const char *Key, const std::string &Value) {
    if (!Value.empty())
      std::cout << "  " << Key << " = " << Value << "\n";
  };
  if (!D.Type.empty()) {
    std::cout << "  type = " << D.Type;
    if (D.Kind == RegionKind::Unknown)
      std::cout << " (not a type this version knows; kept as written)";
    else if (pomp::ctc::regionKindSpelling(D.Kind) != D.Type)
      std::cout << " (read as " << pomp::ctc::regionKindSpelling(D.Kind) << ")";
    std::cout << "\n";
  }
  PrintText("name", D.Name);
  PrintText("group", D.Group);
  PrintText("file", D.File);
  printLines("slines", D.StartLines);
  printLines("elines", D.EndLines);
  PrintText("schedule", D.Schedule);
  const std::pair<const char *, bool> Flags[] = {{"hasFirstprivate", D.HasFirstprivate},
                                                 {"hasLastprivate", D.HasLastprivate},
                                                 {"hasReduction", D.HasReduction},
                                                 {"hasNowait", D.HasNowait},
                                                 {"hasCopyin", D.HasCopyin},
                                                 {"hasCopyprivate", D.HasCopyprivate},
                                                 {"hasOrdered", D.HasOrdered},
                                                 {"hasIf", D.HasIf},
                                                 {"hasNumThreads", D.HasNumThreads},
                                                 {"hasUntied", D.HasUntied},
                                                 {"hasCollapse", D.HasCollapse},
                                                 {"hasDepend", D.HasDepend},
                                                 {"directiveFree", D.DirectiveFree},
                                                 {"afterConstruct", D.AfterConstruct}};
  for (const auto &[Key, Set] : Flags)
    if (Set)
      std::cout << "  " << Key << " = 1\n";
  PrintText("function", D.Function);
  for (const pomp::ctc::Field &F : D.ExtraFields)
    std::cout << "  " << F.Key << " = " << F.Value << " (unknown key, kept)\n";
  std::cout << "  written back: " << pomp::ctc::writeDescriptor(D) << "\n";
}

/// Checks one string; prints the result. Returns true when it is valid.
bool check(std::string_view Ctc) {
  pomp::ctc::Expected<pomp::ctc::RegionDescriptor> D = pomp::ctc::parseDescriptor(Ctc);
  if (D) {
    std::cout << "valid CTC string: " << Ctc << "\n";
    printDescriptor(*D);
    return true;
  }
  const pomp::ctc::ParseError &E = D.error();
  std::cerr << "pomp-ctc: error: " << E.message() << "\n";
  // Show the input with a caret under the offending byte, unless it is too
  // long to be readable on one line.
  constexpr std::size_t MaxShownLength = 200;
  if (Ctc.size() <= MaxShownLength && Ctc.find('\n') == std::string_view::npos &&
      Ctc.find('\0') == std::string_view::npos)
    std::cerr << "  " << Ctc << "\n  " << std::string(E.Offset, ' ') << "^\n";
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 2) {
    printUsage(std::cerr);
    return ExitUsage;
  }
  if (std::strcmp(Argv[1], "-h") == 0 || std::strcmp(Argv[1], "--help") == 0) {
    printUsage(std::cout);
    return ExitValid;
  }
  bool AllValid = true;
  if (Argc == 2 && std::strcmp(Argv[1], "-") == 0) {
    std::string Line;
    while (std::getline(std::cin, Line))
      AllValid = check(Line) && AllValid;
  } else {
    for (int I = 1; I < Argc; ++I)
      AllValid = check(Argv[I]) && AllValid;
  }
  return AllValid ? ExitValid : ExitInvalid;
}
