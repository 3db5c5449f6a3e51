//===- ompinst.cpp - The POMP source instrumenter's command line -----------===//
///
/// \file
///   ompinst <file> -o <output> [options] [-- <compiler flags>]
///   ompinst -p <build-dir> <file>... [options]
///
/// Exit status: 0 success, 1 a file did not compile (Clang's diagnostics were
/// printed) or could not be written, 2 usage error.
///
//===----------------------------------------------------------------------===//
#include "RecordingFileSystem.h"
#include "pomp/fortran/FortranInstrumenter.h"
#include "pomp/instrumenter/HiddenDirectives.h"
#include "pomp/instrumenter/Instrumenter.h"

#include "clang/Basic/FileManager.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using pomp::ompinst::RecordingFileSystem;
namespace inst = pomp::inst;
namespace fortran = pomp::fortran;

namespace {

constexpr int ExitSuccess = 0;
constexpr int ExitFailure = 1;
constexpr int ExitUsage = 2;

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
cl::list<std::string>
    Levels("level", cl::CommaSeparated,
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
cl::opt<bool> NoSkipBodies(
    "no-skip-bodies",
    cl::desc("Build every function body of the main file, also those without OpenMP (the same "
             "output, slower; for comparisons)"),
    cl::cat(Category));
cl::opt<bool> Quiet("quiet", cl::desc("Do not print the summary line"), cl::cat(Category));
cl::opt<std::string> InputsList(
    "inputs-list",
    cl::desc("Write the files the parse read (with the hash of their contents), the "
             "directories it found or listed and the paths it looked for in vain to <file> (one "
             "input only; ompcc's cache of instrumented files checks them)"),
    cl::value_desc("file"), cl::cat(Category));

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

/// Parses --level values into Opts; prints what is wrong and returns false.
bool parseLevels(inst::Options &Opts) {
  for (const std::string &Setting : Levels) {
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
    Opts.Levels[*Group] = *Level;
  }
  return true;
}

/// Writes Text to Path through a temporary file in the same directory and a
/// rename, so Path is never half-written and stays untouched on failure.
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

/// Where the copies of headers go without --header-dir: next to the output,
/// <output without extension>.pomp-headers.
std::string defaultHeaderDirectory(StringRef Output) {
  SmallString<256> Directory(Output);
  sys::path::replace_extension(Directory, ".pomp-headers");
  sys::fs::make_absolute(Directory);
  return std::string(Directory);
}

/// Writes the copies of the headers, each atomically, and the map from
/// copies to originals (pomp-headers.map: "<copy>\t<original>" per line),
/// which ompcc reads to name the originals in dependency files.
bool writeHeaders(StringRef Directory, const std::vector<inst::HeaderCopy> &Headers) {
  if (Headers.empty())
    return true;
  std::string Map;
  for (const inst::HeaderCopy &Header : Headers) {
    if (std::error_code EC = sys::fs::create_directories(sys::path::parent_path(Header.Path))) {
      errs() << "ompinst: error: cannot create '" << sys::path::parent_path(Header.Path)
             << "': " << EC.message() << "\n";
      return false;
    }
    if (!writeAtomically(Header.Path, Header.Text))
      return false;
    Map += Header.Path + "\t" + Header.Original + "\n";
  }
  SmallString<256> MapPath(Directory);
  sys::path::append(MapPath, "pomp-headers.map");
  return writeAtomically(MapPath, Map);
}

/// <dir>/<stem>.inst<ext>: where the instrumented file goes without -o.
std::string defaultOutput(StringRef Source) {
  SmallString<256> Out(sys::path::parent_path(Source));
  sys::path::append(Out, sys::path::stem(Source) + ".inst" + sys::path::extension(Source));
  return std::string(Out);
}

/// Parses and instruments one source with the command the database gives
/// for it; nullopt (after saying why) when it cannot be instrumented.
///
/// This is ClangTool::run for one file, without ClangTool: ClangTool turns
/// every '\\' of a path into '/' (llvm::sys::path::native), so a file whose
/// name holds a backslash could not even be opened. The path is made
/// absolute and otherwise kept exactly as given ("a/../m.c" too).
std::optional<inst::FileResult>
instrumentSource(const clang::tooling::CompilationDatabase &Database, StringRef Source,
                 const clang::tooling::ArgumentsAdjuster &Adjust, const inst::Options &Opts,
                 IntrusiveRefCntPtr<RecordingFileSystem> Recording) {
  SmallString<256> Absolute(Source);
  if (std::error_code EC = sys::fs::make_absolute(Absolute)) {
    errs() << "ompinst: error: " << Source << ": " << EC.message() << "\n";
    return std::nullopt;
  }
  std::vector<clang::tooling::CompileCommand> Commands = Database.getCompileCommands(Absolute);
  if (Commands.empty()) {
    errs() << "ompinst: error: " << Source << ": no compile command for it in '" << BuildPath
           << "/compile_commands.json'\n";
    return std::nullopt;
  }
  // A file compiled several ways is instrumented as its first command says.
  const clang::tooling::CompileCommand &Command = Commands.front();
  // Directives that are not #pragma lines are rewritten into such lines by
  // a first parse; a second parse of the rewritten texts instruments them.
  // The parse's own copies (the rewritten texts, the hidden metadirectives)
  // lie above the recording: only what came from the disk is recorded.
  llvm::IntrusiveRefCntPtr<vfs::OverlayFileSystem> FileSystem(
      new vfs::OverlayFileSystem(Recording ? IntrusiveRefCntPtr<vfs::FileSystem>(Recording)
                                           : vfs::createPhysicalFileSystem()));
  if (std::error_code EC = FileSystem->setCurrentWorkingDirectory(Command.Directory)) {
    errs() << "ompinst: error: " << Source << ": cannot enter the compile's directory '"
           << Command.Directory << "': " << EC.message() << "\n";
    return std::nullopt;
  }
  std::vector<std::string> CommandLine = Adjust(Command.CommandLine, Command.Filename);
  bool Hidden = false;
  if (HideMetadirectives) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Text = FileSystem->getBufferForFile(Absolute);
    if (!Text) {
      errs() << "ompinst: error: " << Source << ": " << Text.getError().message() << "\n";
      return std::nullopt;
    }
    const inst::HiddenDirectives Parsed = inst::hideMetadirectives((*Text)->getBuffer());
    for (const unsigned Line : Parsed.Lines)
      errs() << Source << ":" << Line
             << ": warning: metadirective hidden from the parse: the real compiler ignores it, "
                "so it is left as it is and only the constructs in its statement are "
                "instrumented\n";
    if (!Parsed.Lines.empty()) {
      Hidden = true;
      llvm::IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
      Memory->addFile(Absolute, 0, MemoryBuffer::getMemBufferCopy(Parsed.Text, Absolute));
      FileSystem->pushOverlay(Memory);
      if (std::error_code EC = FileSystem->setCurrentWorkingDirectory(Command.Directory)) {
        errs() << "ompinst: error: " << Source << ": " << EC.message() << "\n";
        return std::nullopt;
      }
      // The hidden lines are pragmas of an unknown namespace now.
      CommandLine.push_back("-Wno-unknown-pragmas");
    }
  }
  inst::Options PassOpts = Opts;
  inst::ResultSink Sink;
  while (true) {
    llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
        new clang::FileManager(clang::FileSystemOptions(), FileSystem));
    Sink = inst::ResultSink();
    std::unique_ptr<clang::tooling::FrontendActionFactory> Factory =
        inst::newInstrumentActionFactory(PassOpts, Sink);
    clang::tooling::ToolInvocation Invocation(CommandLine, Factory.get(), Files.get(),
                                              std::make_shared<clang::PCHContainerOperations>());
    const bool Parsed = Invocation.run();
    // One parse gives at most one result: the main file's.
    if (!Parsed || Sink.results().size() != 1) {
      if (Parsed)
        errs() << "ompinst: error: " << Source << ": not instrumented: the parse gave "
               << Sink.results().size() << " results\n";
      else
        errs() << "ompinst: error: " << Source << ": not instrumented (see the errors above)\n";
      return std::nullopt;
    }
    const std::map<std::string, std::string> &Rewritten = Sink.results().begin()->second.Rewritten;
    if (Rewritten.empty())
      break;
    llvm::IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
    for (const auto &[Name, Text] : Rewritten)
      Memory->addFile(Name, 0, MemoryBuffer::getMemBufferCopy(Text, Name));
    FileSystem->pushOverlay(Memory);
    if (std::error_code EC = FileSystem->setCurrentWorkingDirectory(Command.Directory)) {
      errs() << "ompinst: error: " << Source << ": " << EC.message() << "\n";
      return std::nullopt;
    }
    PassOpts.RewriteDirectiveForms = false;
  }
  inst::FileResult Result = Sink.results().begin()->second;
  if (Hidden)
    inst::restoreHiddenDirectives(Result.Output);
  return Result;
}

/// Instruments a Fortran file with the Fortran front end (the same levels
/// and line-number option as C; the compiler flags give -D, -I and the form).
bool instrumentFortran(const std::string &Source, const std::string &Target,
                       const inst::Options &Opts, const std::vector<std::string> &CompilerFlags) {
  bool Same = false;
  if (!sys::fs::equivalent(Source, Target, Same) && Same) {
    errs() << "ompinst: error: the output '" << Target << "' is the input '" << Source
           << "': refusing to overwrite the source\n";
    return false;
  }
  fortran::Options FOpts;
  FOpts.Levels = Opts.Levels;
  FOpts.LineDirectives = Opts.LineDirectives;
  FOpts.CompilerFlags = CompilerFlags;
  FOpts.InstrumentFunctions = Opts.InstrumentFunctions;
  FOpts.FunctionFilter = Opts.FunctionFilter;
  FOpts.FunctionExclude = Opts.FunctionExclude;
  fortran::Result Result;
  std::string Errors;
  if (!fortran::instrumentFile(Source, FOpts, Result, Errors)) {
    errs() << Errors;
    errs() << "ompinst: error: " << Source << ": not instrumented (see the errors above)\n";
    return false;
  }
  errs() << Result.HiddenWarnings;
  if (!Quiet)
    errs() << Result.Warnings;
  return writeAtomically(Target, Result.Output);
}

} // namespace

int main(int Argc, const char **Argv) {
  // Flags after "--" are the compiler's; ours come before.
  int OwnArgc = Argc;
  std::vector<std::string> CompilerFlags;
  for (int I = 1; I < Argc; ++I)
    if (StringRef(Argv[I]) == "--") {
      OwnArgc = I;
      CompilerFlags.assign(Argv + I + 1, Argv + Argc);
      break;
    }
  cl::HideUnrelatedOptions(Category);
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
  inst::Options Opts;
  Opts.LineDirectives = !NoLineDirectives;
  Opts.SkipPlainBodies = !NoSkipBodies;
  Opts.InstrumentFunctions = Functions || !FunctionFilter.empty() || !FunctionExclude.empty();
  Opts.FunctionFilter = FunctionFilter;
  Opts.FunctionExclude = FunctionExclude;
  if (!parseLevels(Opts))
    return ExitUsage;
  for (const std::string &Source : Sources)
    if (!sys::fs::exists(Source)) {
      errs() << "ompinst: error: no such file: '" << Source << "'\n";
      return ExitUsage;
    }

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!BuildPath.empty()) {
    std::string Error;
    Database = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath, Error);
    if (!Database) {
      errs() << "ompinst: error: " << Error << "\n";
      return ExitUsage;
    }
  } else {
    Database = std::make_unique<clang::tooling::FixedCompilationDatabase>(".", CompilerFlags);
  }

  const std::string Executable = sys::fs::getMainExecutable(Argv[0], (void *)&main);
  clang::tooling::ArgumentsAdjuster Adjust = clang::tooling::combineAdjusters(
      // Output and dependency files are the compiler's business, not the parse's.
      clang::tooling::getClangStripOutputAdjuster(),
      clang::tooling::getClangStripDependencyFileAdjuster());
  Adjust = clang::tooling::combineAdjusters(
      Adjust, clang::tooling::getInsertArgumentAdjuster(
                  inst::parseArguments(Executable), clang::tooling::ArgumentInsertPosition::END));
  Adjust = clang::tooling::combineAdjusters(
      Adjust, clang::tooling::getInsertArgumentAdjuster(
                  "-fsyntax-only", clang::tooling::ArgumentInsertPosition::END));
  if (!Language.empty())
    Adjust = clang::tooling::combineAdjusters(
        Adjust, clang::tooling::getInsertArgumentAdjuster(
                    {"-x", Language}, clang::tooling::ArgumentInsertPosition::BEGIN));

  IntrusiveRefCntPtr<RecordingFileSystem> Recording;
  if (!InputsList.empty())
    Recording = new RecordingFileSystem(vfs::createPhysicalFileSystem());
  int Status = ExitSuccess;
  for (const std::string &Source : Sources) {
    const std::string Target = Output.empty() ? defaultOutput(Source) : std::string(Output);
    if (fortran::isFortranSource(Source) && Language.empty()) {
      if (!instrumentFortran(Source, Target, Opts, CompilerFlags))
        Status = ExitFailure;
      continue;
    }
    // Writing the output over the input would replace the user's source:
    // the same path, or another name for the same file (a link).
    bool Same = false;
    if (!sys::fs::equivalent(Source, Target, Same) && Same) {
      errs() << "ompinst: error: the output '" << Target << "' is the input '" << Source
             << "': refusing to overwrite the source\n";
      Status = ExitUsage;
      continue;
    }
    inst::Options FileOpts = Opts;
    FileOpts.HeaderDirectory =
        HeaderDir.empty() ? defaultHeaderDirectory(Target) : std::string(HeaderDir);
    if (!HeaderDir.empty()) {
      SmallString<256> Absolute(FileOpts.HeaderDirectory);
      sys::fs::make_absolute(Absolute);
      FileOpts.HeaderDirectory = std::string(Absolute);
    }
    const std::optional<inst::FileResult> Result =
        instrumentSource(*Database, Source, Adjust, FileOpts, Recording);
    // The headers first: the output includes them.
    if (!Result || !writeHeaders(FileOpts.HeaderDirectory, Result->Headers) ||
        !writeAtomically(Target, Result->Output)) {
      Status = ExitFailure;
      continue;
    }
    if (!Quiet && (Result->ConstructsLeftInHeaders > 0 || Result->ConstructsFromMacros > 0 ||
                   Result->ConstructsNotPragmaLines > 0))
      errs() << "ompinst: " << Source << ": " << Result->ConstructsInstrumented
             << " OpenMP constructs instrumented (" << Result->ConstructsInHeaders
             << " in headers); not instrumented: " << Result->ConstructsLeftInHeaders
             << " in headers that cannot be rewritten, " << Result->ConstructsFromMacros
             << " produced by macros, " << Result->ConstructsNotPragmaLines
             << " not written as #pragma lines\n";
    // Only a complete list may key a cache: none after a failure, or for a
    // Fortran file (whose front end reads the disk itself).
    if (Recording) {
      std::string List;
      raw_string_ostream OS(List);
      if (Recording->write(OS) && !writeAtomically(InputsList, List))
        Status = ExitFailure;
    }
  }
  return Status;
}
