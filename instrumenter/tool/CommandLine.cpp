//===- CommandLine.cpp - ompinst's options, shared by its two programs ----===//
#include "CommandLine.h"

#include "pomp/fortran/FortranInstrumenter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace inst = pomp::inst;
namespace fortran = pomp::fortran;

namespace pomp::ompinst {

cl::OptionCategory Category("ompinst options");

cl::list<std::string> Sources(cl::Positional, cl::desc("<source files>"), cl::cat(Category));
cl::opt<std::string> Output("o", cl::desc("Write the instrumented file here (one input only)"),
                            cl::value_desc("file"), cl::cat(Category));
cl::opt<std::string> BuildPath("p",
                               cl::desc("Read compiler flags from compile_commands.json "
                                        "in this directory"),
                               cl::value_desc("build-dir"), cl::cat(Category));
cl::opt<std::string> Language("x",
                              cl::desc("Source language: c or c++ (default: from the "
                                       "file extension)"),
                              cl::value_desc("c|c++"), cl::cat(Category));
cl::list<std::string> LevelSettings(
    "level", cl::CommaSeparated,
    cl::desc("Instrumentation level of a group, e.g. --level=parallel=beginend,loop=none. "
             "Groups: parallel, loop, workshare, sync, task, target, user, runtime. "
             "Levels: none, event, enterexit, beginend, chunks, iterevent, iterbeginend "
             "(as far as the group has them)"),
    cl::value_desc("group=level"), cl::cat(Category));
cl::opt<bool> NoLineDirectives("no-line-directives",
                               cl::desc("Do not emit #line directives (diagnostics and debug "
                                        "info then point at the instrumented file)"),
                               cl::cat(Category));
cl::opt<bool> Functions("functions",
                        cl::desc("Instrument function bodies (Function_begin/end, or "
                                 "Function_event at --level=user=event)"),
                        cl::cat(Category));
cl::opt<std::string>
    FunctionFilter("function-filter",
                   cl::desc("Only functions whose qualified name matches this regular expression "
                            "(implies --functions)"),
                   cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string>
    FunctionExclude("function-exclude",
                    cl::desc("Leave out functions whose qualified name matches this regular "
                             "expression, also when --function-filter selects them (implies "
                             "--functions)"),
                    cl::value_desc("regex"), cl::cat(Category));
cl::opt<std::string> HeaderDir(
    "header-dir",
    cl::desc("Write the instrumented copies of the project's own headers below this directory "
             "(default: <output without extension>.pomp-headers)"),
    cl::value_desc("dir"), cl::cat(Category));
cl::opt<bool> HideMetadirectives(
    "hide-metadirectives",
    cl::desc("Parse as if the main file's metadirective lines were not there, as gcc before 15 "
             "compiles them (ompcc sets it when the real compiler ignores metadirectives); the "
             "output keeps them"),
    cl::cat(Category));
cl::opt<bool> CompilerIgnoresCAttributes(
    "compiler-ignores-c-attributes",
    cl::desc("The real compiler ignores OpenMP directives written as C attributes "
             "([[omp::directive(...)]]), as gcc does (ompcc sets it after asking the compiler): "
             "leave them as they are, with a warning, instead of rewriting them into #pragma "
             "lines"),
    cl::cat(Category));
cl::opt<bool> NoSkipBodies(
    "no-skip-bodies",
    cl::desc("Build every function body of the main file, also those without OpenMP (the same "
             "output, slower; for comparisons)"),
    cl::cat(Category));
cl::opt<bool> ThreadIds(
    "thread-ids",
    cl::desc("Pass omp_get_thread_num() as the events' thread_id where OpenMP allows runtime "
             "calls, as the POMP paper's examples do (default: C and C++ call the routines' "
             "forms without it, Fortran passes -1; libpomp identifies threads itself)"),
    cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print the summary line"), cl::cat(Category));
cl::opt<std::string> InputsList(
    "inputs-list",
    cl::desc("Write the files the parse read (with the hash of their contents), the "
             "directories it found or listed and the paths it looked for in vain to <file> (one "
             "input only; ompcc's cache of instrumented files checks them)"),
    cl::value_desc("file"), cl::cat(Category));
cl::opt<bool> Verbose("verbose",
                      cl::desc("Say what the cache of precompiled preambles did (C/C++; "
                               "OMPINST_PREAMBLE, docs/INSTRUMENTER.md)"),
                      cl::cat(Category));

namespace {

void printVersion(raw_ostream &OS) {
  OS << "ompinst (POMP toolkit) " << POMP_TOOLKIT_VERSION << ", POMP API " << POMP_API_VERSION
     << ", parsing with Clang 19\n";
}

std::string defaultLevelsText() {
  std::string Text;
  const inst::GroupLevels Defaults = inst::defaultGroupLevels();
  for (int G = 0; G < POMP_GROUP_COUNT; ++G) {
    if (!Text.empty())
      Text += ",";
    Text += std::string(inst::groupName(G)) + "=" + std::string(inst::levelName(Defaults[G]));
  }
  return Text;
}

/// Parses --level values into Levels; prints what is wrong and returns false.
bool parseLevels(inst::GroupLevels &Levels) {
  for (const std::string &Setting : LevelSettings) {
    const auto [GroupText, LevelText] = StringRef(Setting).split('=');
    const std::optional<int> Group = inst::groupFromName(GroupText);
    if (!Group) {
      errs() << "ompinst: error: unknown group '" << GroupText << "' in --level=" << Setting
             << " (groups: parallel, loop, workshare, sync, task, target, user, runtime)\n";
      return false;
    }
    const std::optional<int> Level = inst::levelFromName(LevelText);
    if (!Level || !inst::levelValidForGroup(*Group, *Level)) {
      errs() << "ompinst: error: '" << LevelText << "' is not a level of group '" << GroupText
             << "' in --level=" << Setting << "\n";
      return false;
    }
    Levels[*Group] = *Level;
  }
  return true;
}

} // namespace

bool writeAtomically(StringRef Path, StringRef Text) {
  SmallString<256> Model(Path);
  Model += ".tmp-%%%%%%%%";
  int FD = -1;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Model, FD, TempPath)) {
    errs() << "ompinst: error: cannot write '" << Path << "': " << EC.message() << "\n";
    return false;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Text;
    OS.close();
    if (OS.has_error()) {
      errs() << "ompinst: error: cannot write '" << Path << "': " << OS.error().message() << "\n";
      OS.clear_error();
      sys::fs::remove(TempPath);
      return false;
    }
  }
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    errs() << "ompinst: error: cannot write '" << Path << "': " << EC.message() << "\n";
    sys::fs::remove(TempPath);
    return false;
  }
  return true;
}

std::string defaultOutput(StringRef Source) {
  SmallString<256> Out(sys::path::parent_path(Source));
  sys::path::append(Out, sys::path::stem(Source) + ".inst" + sys::path::extension(Source));
  return std::string(Out);
}

std::string outputOf(StringRef Source) {
  return Output.empty() ? defaultOutput(Source) : std::string(Output);
}

bool outputIsInput(StringRef Source, StringRef Target) {
  bool Same = false;
  if (sys::fs::equivalent(Source, Target, Same) || !Same)
    return false;
  errs() << "ompinst: error: the output '" << Target << "' is the input '" << Source
         << "': refusing to overwrite the source\n";
  return true;
}

bool isFortranInput(StringRef Source) {
  return Language.empty() && fortran::isFortranSource(std::string(Source));
}

bool instrumentFortran(const std::string &Source, const std::string &Target,
                       const CommonOptions &Common, const std::vector<std::string> &CompilerFlags) {
  if (outputIsInput(Source, Target))
    return false;
  fortran::Options FOpts;
  FOpts.Levels = Common.Levels;
  FOpts.LineDirectives = Common.LineDirectives;
  FOpts.CompilerFlags = CompilerFlags;
  FOpts.InstrumentFunctions = Common.InstrumentFunctions;
  FOpts.FunctionFilter = Common.FunctionFilter;
  FOpts.FunctionExclude = Common.FunctionExclude;
  FOpts.ThreadIds = Common.ThreadIds;
  fortran::Result Result;
  std::string Errors;
  if (!fortran::instrumentFile(Source, FOpts, Result, Errors)) {
    errs() << Errors;
    errs() << "ompinst: error: " << Source << ": not instrumented (see the errors above)\n";
    return false;
  }
  // What was not instrumented is said whatever --quiet says (it only drops
  // the C summary line): ompcc and ompfc pass --quiet, and a construct left
  // out must never be silent.
  errs() << Result.HiddenWarnings << Result.Warnings;
  return writeAtomically(Target, Result.Output);
}

void hideUnrelatedOptions() {
  static bool Hidden = false;
  if (!Hidden)
    cl::HideUnrelatedOptions(Category);
  Hidden = true;
}

std::optional<int> parseCommandLine(int Argc, const char **Argv,
                                    std::vector<std::string> &CompilerFlags,
                                    CommonOptions &Common) {
  // Flags after "--" are the compiler's; ours come before.
  int OwnArgc = Argc;
  for (int I = 1; I < Argc; ++I)
    if (StringRef(Argv[I]) == "--") {
      OwnArgc = I;
      CompilerFlags.assign(Argv + I + 1, Argv + Argc);
      break;
    }
  hideUnrelatedOptions();
  cl::SetVersionPrinter(printVersion);
  // cl::extrahelp keeps a pointer to its text: it must outlive the parsing.
  static const std::string DefaultsText = "\nDefault levels: " + defaultLevelsText() + "\n";
  cl::extrahelp Defaults(DefaultsText.c_str());
  std::string ParseErrors;
  raw_string_ostream ErrorStream(ParseErrors);
  if (!cl::ParseCommandLineOptions(OwnArgc, Argv,
                                   "POMP source instrumenter: rewrites the OpenMP constructs of "
                                   "C/C++ and Fortran files into POMP API calls\n\n"
                                   "  ompinst <file> -o <output> [options] [-- <compiler flags>]\n"
                                   "  ompinst -p <build-dir> <file>... [options]\n",
                                   &ErrorStream)) {
    errs() << ErrorStream.str();
    return ExitUsage;
  }
  if (Sources.empty()) {
    errs() << "ompinst: error: no input file (try --help)\n";
    return ExitUsage;
  }
  if (!Output.empty() && Sources.size() > 1) {
    errs() << "ompinst: error: -o names one output but " << Sources.size() << " files were given\n";
    return ExitUsage;
  }
  if (!InputsList.empty() && Sources.size() > 1) {
    errs() << "ompinst: error: --inputs-list names one list but " << Sources.size()
           << " files were given\n";
    return ExitUsage;
  }
  if (!Language.empty() && Language != "c" && Language != "c++") {
    errs() << "ompinst: error: -x takes 'c' or 'c++', not '" << Language << "'\n";
    return ExitUsage;
  }
  Common.LineDirectives = !NoLineDirectives;
  Common.InstrumentFunctions = Functions || !FunctionFilter.empty() || !FunctionExclude.empty();
  Common.FunctionFilter = FunctionFilter;
  Common.FunctionExclude = FunctionExclude;
  Common.ThreadIds = ThreadIds;
  if (!parseLevels(Common.Levels))
    return ExitUsage;
  for (const std::string &Source : Sources)
    if (!sys::fs::exists(Source)) {
      errs() << "ompinst: error: no such file: '" << Source << "'\n";
      return ExitUsage;
    }
  return std::nullopt;
}

} // namespace pomp::ompinst
