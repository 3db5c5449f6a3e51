//===- CommandLine.h - ompinst's options, shared by its two programs -*- C++ -*-===//
///
/// \file
/// ompinst is two programs with one command line: `ompinst`, which starts
/// without Clang and instruments Fortran files itself, and `ompinst-clang`,
/// which it runs for C/C++ files (docs/INSTRUMENTER.md, "Two programs").
/// Both parse the same options, with the same checks and messages; this is
/// that command line and what both do with it.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPINST_COMMANDLINE_H
#define POMP_OMPINST_COMMANDLINE_H

#include "pomp/model/Levels.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace pomp::ompinst {

constexpr int ExitSuccess = 0;
constexpr int ExitFailure = 1;
constexpr int ExitUsage = 2;

extern llvm::cl::list<std::string> Sources;
extern llvm::cl::opt<std::string> Output;
extern llvm::cl::opt<std::string> BuildPath;
extern llvm::cl::opt<std::string> Language;
extern llvm::cl::opt<bool> NoLineDirectives;
extern llvm::cl::opt<std::string> HeaderDir;
extern llvm::cl::opt<bool> HideMetadirectives;
extern llvm::cl::opt<bool> CompilerIgnoresCAttributes;
extern llvm::cl::opt<bool> NoSkipBodies;
extern llvm::cl::opt<bool> Quiet;
extern llvm::cl::opt<std::string> InputsList;
extern llvm::cl::opt<bool> Verbose;

/// What the options ask of every file, in either language.
struct CommonOptions {
  inst::GroupLevels Levels = inst::defaultGroupLevels();
  bool LineDirectives = true;
  bool InstrumentFunctions = false;
  std::string FunctionFilter;
  std::string FunctionExclude;
  /// --thread-ids: the events' thread_id is the thread's number, not -1.
  bool ThreadIds = false;
};

/// Hides LLVM's own options from --help, once per process: it writes to
/// each of thousands of options, so the ompinst server does it before it
/// forks its children (OmpinstServer.h).
void hideUnrelatedOptions();

/// Parses the command line (ours before "--", the compiler's after it into
/// CompilerFlags) and checks it; the exit status when the program must stop
/// (usage errors, --help, --version), nullopt to go on.
std::optional<int> parseCommandLine(int Argc, const char **Argv,
                                    std::vector<std::string> &CompilerFlags, CommonOptions &Common);

/// True when Source goes to the Fortran front end: a Fortran suffix and no -x.
bool isFortranInput(llvm::StringRef Source);

/// <dir>/<stem>.inst<ext>: where the instrumented file goes without -o.
std::string defaultOutput(llvm::StringRef Source);

/// The output of Source: -o, or defaultOutput.
std::string outputOf(llvm::StringRef Source);

/// True when Target is Source itself or another name for it (a link), after
/// saying so: the output would replace the user's source.
bool outputIsInput(llvm::StringRef Source, llvm::StringRef Target);

/// Writes Text to Path through a temporary file in the same directory and a
/// rename, so Path is never half-written and stays untouched on failure.
bool writeAtomically(llvm::StringRef Path, llvm::StringRef Text);

/// Instruments a Fortran file with the Fortran front end (the same levels
/// and line-number option as C; the compiler flags give -D, -I and the form).
bool instrumentFortran(const std::string &Source, const std::string &Target,
                       const CommonOptions &Common, const std::vector<std::string> &CompilerFlags);

} // namespace pomp::ompinst

#endif // POMP_OMPINST_COMMANDLINE_H
