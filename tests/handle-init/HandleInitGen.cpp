//===- HandleInitGen.cpp - Generated code for the lit tests ---------------===//
///
/// \file
/// Test-only (not installed): prints what the handle-init library generates,
/// so that the lit tests of this folder can compile and run it.
///
///   handle-init-gen file-id <path> <salt>
///   handle-init-gen file <c|c++> <file-id> <ctc-file> <body-file>
///       the instrumented file as ompinst lays it out: prologue, body, init
///       function; <ctc-file> holds one CTC string per line
///   handle-init-gen program <init-function>...
///   handle-init-gen uninstrumented <path> <reason>
///       the header ompcc includes into a file it compiles uninstrumented
///   handle-init-gen declarations <c|c++> [<routine>...]
///       the declarations an instrumented file gets instead of pomplib.h, of
///       the routines named or of every routine that can be declared
///
//===----------------------------------------------------------------------===//
#include "pomp/handle-init/HandleInit.h"
#include "pomp/handle-init/Uninstrumented.h"

#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace hi = pomp::handleinit;

constexpr int ExitUsage = 2;
constexpr int ExitFailure = 1;

int usage() {
  std::cerr << "usage: handle-init-gen file-id <path> <salt>\n"
               "       handle-init-gen file <c|c++> <file-id> <ctc-file> <body-file>\n"
               "       handle-init-gen program <init-function>...\n"
               "       handle-init-gen uninstrumented <path> <reason>\n"
               "       handle-init-gen declarations <c|c++> [<routine>...]\n";
  return ExitUsage;
}

bool readFile(const char *Path, std::string &Contents) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  Contents.assign(std::istreambuf_iterator<char>(In), std::istreambuf_iterator<char>());
  return true;
}

int printFile(char **Args) {
  const std::string LangName = Args[0];
  if (LangName != "c" && LangName != "c++")
    return usage();
  const hi::Language Lang = LangName == "c" ? hi::Language::C : hi::Language::CXX;
  hi::FileHandles Handles{Args[1], {}, {}, {}};
  std::string Ctcs;
  std::string Body;
  if (!readFile(Args[2], Ctcs) || !readFile(Args[3], Body)) {
    std::cerr << "handle-init-gen: cannot read " << Args[2] << " or " << Args[3] << "\n";
    return ExitFailure;
  }
  for (std::size_t Start = 0; Start < Ctcs.size();) {
    std::size_t End = Ctcs.find('\n', Start);
    if (End == std::string::npos)
      End = Ctcs.size();
    Handles.CtcStrings.push_back(Ctcs.substr(Start, End - Start));
    Start = End + 1;
  }
  std::cout << hi::filePrologue(Handles, Lang) << Body << hi::fileInitFunction(Handles, Lang);
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc == 4 && std::strcmp(Argv[1], "file-id") == 0) {
    std::cout << hi::makeFileId(Argv[2], Argv[3]) << "\n";
    return 0;
  }
  if (Argc == 6 && std::strcmp(Argv[1], "file") == 0)
    return printFile(Argv + 2);
  if (Argc >= 2 && std::strcmp(Argv[1], "program") == 0) {
    std::cout << hi::programInitHandles(std::vector<std::string>(Argv + 2, Argv + Argc));
    return 0;
  }
  if (Argc >= 3 && std::strcmp(Argv[1], "declarations") == 0) {
    const std::string LangName = Argv[2];
    if (LangName != "c" && LangName != "c++")
      return usage();
    std::vector<std::string> Routines(Argv + 3, Argv + Argc);
    if (Routines.empty())
      Routines = hi::declarableRoutines();
    for (const std::string &Name : Routines)
      if (!hi::isDeclarableRoutine(Name)) {
        std::cerr << "handle-init-gen: '" << Name << "' is no routine that can be declared\n";
        return ExitFailure;
      }
    std::cout << "#include \"pomp_types.h\"\n"
              << hi::routineDeclarations(Routines,
                                         LangName == "c" ? hi::Language::C : hi::Language::CXX);
    return 0;
  }
  if (Argc == 4 && std::strcmp(Argv[1], "uninstrumented") == 0) {
    std::cout << hi::uninstrumentedHeader(Argv[2], Argv[3]);
    return 0;
  }
  return usage();
}
