//===- ompinst_clang.cpp - ompinst for C/C++ files (ompinst-clang) --------===//
///
/// \file
///   ompinst-clang <file> -o <output> [options] [-- <compiler flags>]
///   ompinst-clang -p <build-dir> <file>... [options]
///
/// ompinst's program for C/C++ files: `ompinst` runs it with its own
/// arguments when a file is not Fortran (CommandLine.h); it instruments
/// Fortran files too, as ompinst does. Exit status: 0 success, 1 a file did
/// not compile (Clang's diagnostics were printed) or could not be written,
/// 2 usage error.
///
//===----------------------------------------------------------------------===//
#include "CommandLine.h"
#include "pomp/instrumenter/HiddenDirectives.h"
#include "pomp/instrumenter/Instrumenter.h"
#include "pomp/instrumenter/PreambleCache.h"
#include "pomp/instrumenter/RecordingFileSystem.h"
#include "pomp/server/OmpinstServer.h"

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
using namespace pomp::ompinst;
namespace inst = pomp::inst;
using inst::PreambleActionFactory;
using inst::PreambleSettings;
using inst::readPreambleSettings;
using inst::RecordingFileSystem;

namespace {

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
                 IntrusiveRefCntPtr<RecordingFileSystem> Recording,
                 const PreambleSettings &Preamble, const std::string &Executable) {
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
  // The files that stand in for pasted headers (FileResult::StandIns).
  std::vector<inst::HeaderCopy> StandIns;
  while (true) {
    llvm::IntrusiveRefCntPtr<clang::FileManager> Files(
        new clang::FileManager(clang::FileSystemOptions(), FileSystem));
    Sink = inst::ResultSink();
    // The first parse of the file as it is on the disk may load its
    // preamble precompiled (PreambleCache.h); the rare parse of rewritten
    // texts parses in full.
    std::unique_ptr<clang::tooling::FrontendActionFactory> Factory;
    if (Preamble.Enabled && !Hidden && PassOpts.RewriteDirectiveForms)
      Factory = std::make_unique<PreambleActionFactory>(Preamble, PassOpts, Sink, FileSystem,
                                                        Recording, Executable);
    else
      Factory = inst::newInstrumentActionFactory(PassOpts, Sink);
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
    const std::vector<inst::HeaderCopy> &More = Sink.results().begin()->second.StandIns;
    StandIns.insert(StandIns.end(), More.begin(), More.end());
    llvm::IntrusiveRefCntPtr<vfs::InMemoryFileSystem> Memory(new vfs::InMemoryFileSystem());
    for (const auto &[Name, Text] : Rewritten)
      Memory->addFile(Name, 0, MemoryBuffer::getMemBufferCopy(Text, Name));
    FileSystem->pushOverlay(Memory);
    if (std::error_code EC = FileSystem->setCurrentWorkingDirectory(Command.Directory)) {
      errs() << "ompinst: error: " << Source << ": " << EC.message() << "\n";
      return std::nullopt;
    }
    inst::nextRewritingParse(PassOpts);
  }
  inst::FileResult Result = Sink.results().begin()->second;
  Result.Headers.insert(Result.Headers.end(), StandIns.begin(), StandIns.end());
  if (Hidden)
    inst::restoreHiddenDirectives(Result.Output);
  return Result;
}

/// ompinst-clang's command: main's work, also what a child of the start-up
/// server runs for a request.
int runOmpinst(int Argc, const char **Argv) {
  std::vector<std::string> CompilerFlags;
  CommonOptions Common;
  if (const std::optional<int> Exit = parseCommandLine(Argc, Argv, CompilerFlags, Common))
    return *Exit;
  PreambleSettings Preamble;
  std::string SettingsError;
  if (!readPreambleSettings(Preamble, SettingsError)) {
    errs() << "ompinst: error: " << SettingsError << "\n";
    return ExitUsage;
  }
  Preamble.Verbose = Verbose;
  inst::Options Opts;
  Opts.Levels = Common.Levels;
  Opts.LineDirectives = Common.LineDirectives;
  Opts.SkipPlainBodies = !NoSkipBodies;
  Opts.InstrumentFunctions = Common.InstrumentFunctions;
  Opts.FunctionFilter = Common.FunctionFilter;
  Opts.FunctionExclude = Common.FunctionExclude;
  Opts.ThreadIds = Common.ThreadIds;
  Opts.CompilerIgnoresCAttributes = CompilerIgnoresCAttributes;

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

  const std::string Executable = sys::fs::getMainExecutable(Argv[0], (void *)&runOmpinst);
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
    const std::string Target = outputOf(Source);
    if (isFortranInput(Source)) {
      if (!instrumentFortran(Source, Target, Common, CompilerFlags))
        Status = ExitFailure;
      continue;
    }
    // Writing the output over the input would replace the user's source:
    // the same path, or another name for the same file (a link).
    if (outputIsInput(Source, Target)) {
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
        instrumentSource(*Database, Source, Adjust, FileOpts, Recording, Preamble, Executable);
    // The headers first: the output includes them.
    if (!Result || !writeHeaders(FileOpts.HeaderDirectory, Result->Headers) ||
        !writeAtomically(Target, Result->Output)) {
      Status = ExitFailure;
      continue;
    }
    if (!Quiet)
      errs() << leftAloneSummary(Source, *Result);
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

} // namespace

int main(int Argc, const char **Argv) {
  // As a start-up server (OmpinstServer.h), each child runs the command it
  // is sent; its output must be out before it reports its status.
  if (const std::optional<int> Served = pomp::server::serveIfAsked(
          Argc, Argv,
          [](int ChildArgc, const char **ChildArgv) {
            const int Status = runOmpinst(ChildArgc, ChildArgv);
            outs().flush();
            errs().flush();
            return Status;
          },
          hideUnrelatedOptions))
    return *Served;
  return runOmpinst(Argc, Argv);
}
