//===- PompLink.cpp - The pomp-link pre-linker ----------------------------===//
///
/// \file
/// Command line, reporting and output of pomp-link. Nothing is written until
/// every input was read and the init functions are known to be unique, and
/// then atomically, so a failed pre-link never leaves a half-written or stale
/// file behind for the link to pick up.
///
//===----------------------------------------------------------------------===//

#include "pomp/link/PompLink.h"

#include "pomp/handle-init/HandleInit.h"
#include "pomp/link/InitTableObject.h"
#include "pomp/link/LinkUnits.h"
#include "pomp/link/SharedLibraryInit.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>
#include <utility>

namespace pomp::link {

char NotInstrumentedError::ID = 0;

namespace {

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

constexpr StringRef ToolName = "pomp-link";
constexpr StringRef CompilerOption = "--cc=";
constexpr StringRef CompilerArgOption = "--cc-arg=";
constexpr StringRef ReportAsOption = "--report-as=";
constexpr StringRef ElseSourceOption = "--else-source=";

Error makeError(const llvm::Twine &Message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), Message);
}

/// Prints every error of a (possibly joined) Error as one diagnostic line.
void reportErrors(Error E, llvm::raw_ostream &Err) {
  llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
    Err << ToolName << ": error: " << Info.message() << "\n";
  });
}

/// Writes Contents to the open file descriptor FD (not closed); Path names
/// it in the error. raw_fd_ostream would abort on an unchecked write error,
/// so the error is taken out of the stream.
Error writeToDescriptor(int FD, StringRef Path, StringRef Contents) {
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/false);
  OS << Contents;
  OS.flush();
  if (!OS.has_error())
    return Error::success();
  const std::error_code EC = OS.error();
  OS.clear_error();
  return makeError("cannot write " + Path + ": " + EC.message());
}

/// With -v: one line per unit (kind and count), one per init function.
/// Notes that mean init functions may be missed are warnings, always shown.
void reportUnit(const ScannedUnit &Unit, bool Verbose, llvm::raw_ostream &Diagnostics) {
  if (Unit.NoteIsWarning)
    Diagnostics << ToolName << ": warning: " << Unit.Name << ": " << Unit.Note << "\n";
  if (!Verbose)
    return;
  if (Unit.Kind == UnitKind::Skipped) {
    if (!Unit.NoteIsWarning)
      Diagnostics << ToolName << ": " << Unit.Name << ": skipped: " << Unit.Note << "\n";
    return;
  }
  const std::size_t Count = Unit.InitFunctions.size();
  Diagnostics << ToolName << ": " << Unit.Name << ": " << unitKindName(Unit.Kind) << ", " << Count
              << (Count == 1 ? " init function" : " init functions");
  if (Unit.Kind == UnitKind::SharedLibrary && Count != 0)
    Diagnostics << " (not called: a shared library initialises its own handles)";
  Diagnostics << "\n";
  for (const std::string &Function : Unit.InitFunctions)
    Diagnostics << ToolName << ":   " << Function << "\n";
  for (const handleinit::UninstrumentedRecord &Record : Unit.Uninstrumented)
    Diagnostics << ToolName << ":   not instrumented: " << Record.File << "\n";
  if (Unit.DefinesMain)
    Diagnostics << ToolName << ":   main\n";
}

/// What the inputs of a link hold.
struct LinkContents {
  /// The init functions to call, sorted by name.
  std::vector<std::string> InitFunctions;
  SourceSummary Sources;
  /// The machine of the inputs, for --object; or why there is none
  /// (NoTargetReason).
  std::optional<InitTableTarget> Target;
  std::string NoTargetReason;
};

/// The machine that every read unit is for, when pomp-link writes objects for
/// it; else the reason, naming the unit.
std::string chooseTableTarget(llvm::ArrayRef<ScannedUnit> Units,
                              std::optional<InitTableTarget> &Chosen) {
  const ScannedUnit *ChosenBy = nullptr;
  for (const ScannedUnit &Unit : Units) {
    if (Unit.Kind == UnitKind::Skipped)
      continue;
    if (Unit.Kind != UnitKind::Bitcode && !Unit.Elf)
      return Unit.Name + " is not an ELF file";
    const std::optional<InitTableTarget> &Target = Unit.TableTarget;
    if (!Target) {
      std::string Machine = Unit.Target.str();
      if (Unit.Elf)
        Machine += " (ELF, " + std::to_string(Unit.AddressBytes * 8) + "-bit)";
      return Unit.Name + " is for " + Machine +
             ", which pomp-link writes no objects for (it does for x86_64, i386 and aarch64 ELF)";
    }
    if (Chosen && Chosen->Machine != Target->Machine)
      return "the inputs are for different machines: " + ChosenBy->Name + " for " +
             Chosen->Name.str() + ", " + Unit.Name + " for " + Target->Name.str();
    Chosen = Target;
    ChosenBy = &Unit;
  }
  if (!Chosen)
    return "no input says which machine the link is for";
  return "";
}

/// Reads the inputs (reporting each unit with -v) and chooses the init
/// functions to call, sorted by name. Every unreadable input is reported,
/// not only the first.
Expected<LinkContents> findInitFunctions(llvm::ArrayRef<std::string> Inputs, UnitScanner &Scanner,
                                         bool Verbose, llvm::raw_ostream &Diagnostics) {
  Error InputErrors = Error::success();
  for (const std::string &Input : Inputs) {
    if (Verbose)
      Diagnostics << ToolName << ": reading " << Input << "\n";
    const std::size_t FirstUnit = Scanner.units().size();
    if (Error E = Scanner.scanFile(Input)) {
      InputErrors = llvm::joinErrors(std::move(InputErrors), std::move(E));
      continue;
    }
    for (const ScannedUnit &Unit : llvm::ArrayRef(Scanner.units()).drop_front(FirstUnit))
      reportUnit(Unit, Verbose, Diagnostics);
  }
  if (InputErrors)
    return InputErrors;
  Expected<std::vector<std::string>> Selected = selectInitFunctions(Scanner.units());
  if (!Selected)
    return Selected.takeError();
  LinkContents Contents{std::move(*Selected), summarizeSources(Scanner.units()), std::nullopt, ""};
  Contents.NoTargetReason = chooseTableTarget(Scanner.units(), Contents.Target);
  return Contents;
}

/// A source's name for the summary: relative to the current directory when
/// it is below it (as the build names it), else absolute.
std::string displayName(StringRef File) {
  llvm::SmallString<256> Directory;
  if (!llvm::sys::fs::current_path(Directory)) {
    Directory += '/';
    if (File.starts_with(Directory) && File.size() > Directory.size())
      return File.drop_front(Directory.size()).str();
  }
  return File.str();
}

/// The one line that names the uninstrumented sources of the link, on
/// Diagnostics; an error in strict mode. False when strict mode fails the
/// link.
bool reportUninstrumented(const SourceSummary &Sources, const Options &Opts,
                          llvm::raw_ostream &Diagnostics) {
  std::vector<std::string> Names;
  for (const handleinit::UninstrumentedRecord &Record : Sources.Uninstrumented)
    if (!llvm::is_contained(Names, Record.File))
      Names.push_back(Record.File);
  if (Names.empty())
    return true;
  for (std::string &Name : Names)
    Name = displayName(Name);
  Diagnostics << Opts.ReportAs << (Opts.Strict ? ": error: " : ": warning: ") << Names.size()
              << " of " << Sources.Instrumented + Names.size()
              << " sources not instrumented: " << llvm::join(Names, ", ") << "\n";
  return !Opts.Strict;
}

} // namespace

void printUsage(llvm::raw_ostream &OS) {
  OS << "usage: pomp-link [options] <input>...\n"
        "\n"
        "Finds the POMP_Init_<id>() functions of the instrumented compilation units in the\n"
        "inputs of a link and generates POMP_Init_Handles(), which POMP_Init() calls to bind\n"
        "every handle of the program at start-up (POMP paper, Appendix B).\n"
        "\n"
        "Inputs, in link order: object files, static archives (also thin), shared libraries and\n"
        "LLVM bitcode (-flto), also in archives. The init functions of shared libraries are\n"
        "listed (-v) but not called: a shared library initialises its own handles. The\n"
        "generated references are weak, so no archive member is linked because of them.\n"
        "\n"
        "Options:\n"
        "  -o <file>         write the generated C source to <file> (with --compile: the object)\n"
        "  --print-source    write the generated C source to stdout\n"
        "  --compile         compile the generated source into the object file given with -o\n"
        "  --object          write the object file given with -o without a compiler: a table of\n"
        "                    the init functions, which libpomp's POMP_Init_Handles() calls\n"
        "                    (ELF for x86_64, i386 and aarch64; not for --shared-library or a\n"
        "                    program whose main is not instrumented: those need code)\n"
        "  --else-source=<file>  with --object: where it cannot, write the C source to <file>\n"
        "                    instead (exit status 4), for the caller to compile\n"
        "  --shared-library  the inputs make a shared library: generate the constructor that\n"
        "                    binds their handles when the library is loaded, not\n"
        "                    POMP_Init_Handles()\n"
        "  --strict          a source compiled uninstrumented (ompcc's mark) is an error:\n"
        "                    nothing is written, exit status 3\n"
        "  --report-as=<name>  the program named in the summary line (ompcc passes its own\n"
        "                    name; default: pomp-link)\n"
        "  --cc=<compiler>   compiler for --compile (default: "
     << DefaultCompiler
     << ")\n"
        "  --cc-arg=<arg>    extra argument for that compiler, repeatable (--cc-arg=-m32)\n"
        "  -v, --verbose     list each input and the init functions found in it (stderr)\n"
        "  --version         print the toolkit's version\n"
        "  -h, --help        print this help\n"
        "  --                every later argument is an input\n"
        "\n"
        "Output files are replaced atomically and left untouched on failure. Sorting the init\n"
        "functions by name makes the output the same for the same inputs.\n"
        "\n"
        "Sources that ompcc compiled uninstrumented carry a mark; one line names them:\n"
        "  <name>: warning: N of M sources not instrumented: a.c, b.c\n"
        "where M counts the instrumented sources (init functions) and the marked ones of the\n"
        "objects and archives (shared libraries are reported by their own link). When no\n"
        "instrumented object defines main, the generated file of a program also starts the\n"
        "measurement with a constructor that calls POMP_Init().\n"
        "\n"
        "Exit status: 0 success (also when no init function is found: a warning, and an empty\n"
        "POMP_Init_Handles() is generated so that the link works), 1 an input cannot be read or\n"
        "is not a link input, an init function is defined twice, the output cannot be written\n"
        "or the compiler failed (or --object cannot write the link's object), 2 usage error,\n"
        "3 --strict and a source is not instrumented, 4 --else-source was written instead of\n"
        "the object.\n"
        "Documentation: man pomp-link, <prefix>/share/doc/pomp/HANDLE_INIT.md (installed),\n"
        "docs/HANDLE_INIT.md.\n";
}

Expected<Options> parseArguments(llvm::ArrayRef<std::string_view> Args) {
  Options Opts;
  bool OutputGiven = false;
  bool CompilerGiven = false;
  bool OnlyInputs = false;
  for (std::size_t I = 0; I < Args.size(); ++I) {
    const StringRef Arg(Args[I].data(), Args[I].size());
    if (OnlyInputs || !Arg.starts_with("-")) {
      Opts.Inputs.push_back(Arg.str());
    } else if (Arg == "--") {
      OnlyInputs = true;
    } else if (Arg == "-h" || Arg == "--help") {
      Opts.Help = true;
    } else if (Arg == "--version") {
      Opts.Version = true;
    } else if (Arg == "-v" || Arg == "--verbose") {
      Opts.Verbose = true;
    } else if (Arg == "--print-source") {
      Opts.PrintSource = true;
    } else if (Arg == "--compile") {
      Opts.Compile = true;
    } else if (Arg == "--object") {
      Opts.Object = true;
    } else if (Arg.starts_with(ElseSourceOption)) {
      Opts.ElseSource = Arg.drop_front(ElseSourceOption.size()).str();
      if (Opts.ElseSource.empty())
        return makeError("--else-source= needs a file name");
    } else if (Arg == "--shared-library") {
      Opts.SharedLibrary = true;
    } else if (Arg == "--strict") {
      Opts.Strict = true;
    } else if (Arg.starts_with(ReportAsOption)) {
      Opts.ReportAs = Arg.drop_front(ReportAsOption.size()).str();
    } else if (Arg.starts_with("-o")) {
      if (OutputGiven)
        return makeError("-o given twice");
      OutputGiven = true;
      if (Arg.size() > 2) {
        Opts.Output = Arg.drop_front(2).str();
      } else {
        if (I + 1 == Args.size())
          return makeError("-o needs a file name");
        Opts.Output = std::string(Args[++I]);
      }
      if (Opts.Output.empty())
        return makeError("-o needs a file name");
      if (Opts.Output == "-")
        return makeError("-o - is not supported; use --print-source to write to stdout");
    } else if (Arg.starts_with(CompilerOption)) {
      Opts.Compiler = Arg.drop_front(CompilerOption.size()).str();
      CompilerGiven = true;
      if (Opts.Compiler.empty())
        return makeError("--cc= needs a compiler");
    } else if (Arg.starts_with(CompilerArgOption)) {
      Opts.CompilerArgs.push_back(Arg.drop_front(CompilerArgOption.size()).str());
    } else {
      return makeError("unknown option '" + Arg + "'");
    }
  }
  if (Opts.Help || Opts.Version)
    return Opts;
  if (Opts.ReportAs.empty())
    return makeError("--report-as= needs a name");
  if (Opts.Inputs.empty())
    return makeError("no input files");
  if (Opts.Object && Opts.Output.empty())
    return makeError("--object needs -o <object file>");
  if (Opts.Output.empty() && !Opts.PrintSource)
    return makeError("nothing to write: give -o <file> or --print-source");
  if (Opts.Compile && Opts.Output.empty())
    return makeError("--compile needs -o <object file>");
  if (Opts.Object && Opts.Compile)
    return makeError("--object and --compile exclude each other: --object writes the object "
                     "without a compiler");
  if (!Opts.ElseSource.empty() && !Opts.Object)
    return makeError("--else-source= only applies with --object");
  if (!Opts.Compile && (CompilerGiven || !Opts.CompilerArgs.empty()))
    return makeError("--cc and --cc-arg only apply with --compile");
  return Opts;
}

Expected<GeneratedInit> generateInitAndTable(const Options &Opts, UnitScanner &Scanner,
                                             llvm::raw_ostream &Diagnostics) {
  Expected<LinkContents> Contents =
      findInitFunctions(Opts.Inputs, Scanner, Opts.Verbose, Diagnostics);
  if (!Contents)
    return Contents.takeError();
  if (!reportUninstrumented(Contents->Sources, Opts, Diagnostics))
    return llvm::make_error<NotInstrumentedError>();
  const std::vector<std::string> *Selected = &Contents->InitFunctions;
  const bool Verbose = Opts.Verbose;
  if (Opts.SharedLibrary) {
    if (Verbose)
      Diagnostics << ToolName << ": the shared library's constructor calls " << Selected->size()
                  << (Selected->size() == 1 ? " init function\n" : " init functions\n");
    return GeneratedInit{sharedLibraryInit(*Selected), *Selected,
                         "a shared library's handles are bound by its constructor, which is code",
                         ""};
  }
  if (Selected->empty() && Contents->Sources.Uninstrumented.empty())
    Diagnostics << ToolName
                << ": warning: no POMP init function found in the inputs; the generated "
                   "POMP_Init_Handles() calls none\n";
  else if (Verbose)
    Diagnostics << ToolName << ": POMP_Init_Handles() calls " << Selected->size()
                << (Selected->size() == 1 ? " init function\n" : " init functions\n");
  GeneratedInit Generated{handleinit::programInitHandles(*Selected), *Selected,
                          Contents->NoTargetReason, ""};
  // The file with main calls POMP_Init() when it is instrumented; when it
  // is not (it fell back, or main is not C/C++), measurement must still
  // start, and libpomp's exit hook then writes the profile.
  const SourceSummary &Sources = Contents->Sources;
  if (!Sources.InstrumentedMain && Sources.Instrumented + Sources.Uninstrumented.size() != 0) {
    if (Verbose)
      Diagnostics << ToolName
                  << ": no instrumented unit defines main: a constructor calls POMP_Init()\n";
    Generated.Source += handleinit::programStartInit();
    Generated.NoObjectReason = "no instrumented unit defines main, so a constructor must start the "
                               "measurement, which is code";
  }
  if (Generated.NoObjectReason.empty())
    Generated.ObjectBytes = initTableObject(*Contents->Target, *Selected);
  return Generated;
}

Error writeFileAtomically(StringRef Path, StringRef Contents) {
  // The temporary file is in Path's directory so that the rename cannot
  // cross file systems and therefore is atomic. (sys::fs::TempFile::keep
  // falls back to copying, which is not, so it is not used.)
  llvm::SmallString<128> TempPath;
  int FD = -1;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, TempPath))
    return makeError("cannot write " + Path + ": " + EC.message());
  llvm::FileRemover RemoveTemp(TempPath);
  Error Written = writeToDescriptor(FD, Path, Contents);
  if (std::error_code EC = llvm::sys::Process::SafelyCloseFileDescriptor(FD); EC && !Written)
    Written = makeError("cannot write " + Path + ": " + EC.message());
  if (Written)
    return Written;
  if (std::error_code EC = llvm::sys::fs::rename(TempPath, Path))
    return makeError("cannot write " + Path + ": " + EC.message());
  RemoveTemp.releaseFile();
  return Error::success();
}

Error compileToObject(StringRef Source, StringRef Compiler,
                      llvm::ArrayRef<std::string> CompilerArgs, StringRef Output) {
  llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName(Compiler);
  if (!Program)
    return makeError("cannot find the compiler '" + Compiler +
                     "': " + Program.getError().message());

  llvm::SmallString<128> SourcePath;
  int SourceFD = -1;
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("pomp-init-handles", "c", SourceFD, SourcePath))
    return makeError("cannot create a temporary file: " + EC.message());
  llvm::FileRemover RemoveSource(SourcePath);
  Error Written = writeToDescriptor(SourceFD, SourcePath, Source);
  llvm::sys::Process::SafelyCloseFileDescriptor(SourceFD);
  if (Written)
    return Written;

  // The compiler writes a temporary object next to Output, renamed over it
  // only when the compilation succeeded.
  llvm::SmallString<128> ObjectPath;
  if (std::error_code EC = llvm::sys::fs::createUniqueFile(Output + ".tmp-%%%%%%%%.o", ObjectPath))
    return makeError("cannot write " + Output + ": " + EC.message());
  llvm::FileRemover RemoveObject(ObjectPath);

  std::vector<StringRef> Argv = {*Program};
  for (const std::string &Arg : CompilerArgs)
    Argv.push_back(Arg);
  Argv.insert(Argv.end(), {"-c", SourcePath, "-o", ObjectPath});
  std::string ExecError;
  const int Status = llvm::sys::ExecuteAndWait(*Program, Argv, /*Env=*/std::nullopt,
                                               /*Redirects=*/{}, /*SecondsToWait=*/0,
                                               /*MemoryLimit=*/0, &ExecError);
  if (Status < 0)
    return makeError("cannot run the compiler '" + Compiler + "': " + ExecError);
  if (Status > 0)
    return makeError("the compiler '" + Compiler + "' failed (exit status " + llvm::Twine(Status) +
                     ") on the generated POMP_Init_Handles() source");
  if (std::error_code EC = llvm::sys::fs::rename(ObjectPath, Output))
    return makeError("cannot write " + Output + ": " + EC.message());
  RemoveObject.releaseFile();
  return Error::success();
}

int runPompLink(const Options &Opts, UnitScanner &Scanner, llvm::raw_ostream &Out,
                llvm::raw_ostream &Err) {
  if (Opts.Help) {
    printUsage(Out);
    return ExitSuccess;
  }
  if (Opts.Version) {
    Out << "pomp-link (POMP toolkit) " << POMP_TOOLKIT_VERSION << "\n";
    return ExitSuccess;
  }
  Expected<GeneratedInit> Generated = generateInitAndTable(Opts, Scanner, Err);
  if (!Generated) {
    // Strict mode's error was the summary line itself.
    if (Error Rest = llvm::handleErrors(Generated.takeError(), [](const NotInstrumentedError &) {}))
      reportErrors(std::move(Rest), Err);
    else
      return ExitNotInstrumented;
    return ExitFailure;
  }
  const std::string &Source = Generated->Source;
  if (Opts.Object && !Generated->NoObjectReason.empty()) {
    if (Opts.ElseSource.empty()) {
      Err << ToolName << ": error: cannot write " << Opts.Output
          << " as an object without a compiler: " << Generated->NoObjectReason
          << "; write the C source (-o <file>.c) or use --compile\n";
      return ExitFailure;
    }
    if (Error E = writeFileAtomically(Opts.ElseSource, Source)) {
      reportErrors(std::move(E), Err);
      return ExitFailure;
    }
    if (Opts.Verbose)
      Err << ToolName << ": no object: " << Generated->NoObjectReason << "; wrote "
          << Opts.ElseSource << " instead\n";
    if (Opts.PrintSource)
      Out << Source;
    return ExitNeedsCompiler;
  }
  if (!Opts.Output.empty()) {
    Error E = Opts.Object ? writeFileAtomically(Opts.Output, Generated->ObjectBytes)
              : Opts.Compile
                  ? compileToObject(Source, Opts.Compiler, Opts.CompilerArgs, Opts.Output)
                  : writeFileAtomically(Opts.Output, Source);
    if (E) {
      reportErrors(std::move(E), Err);
      return ExitFailure;
    }
    if (Opts.Verbose)
      Err << ToolName << ": wrote " << Opts.Output << "\n";
  }
  if (Opts.PrintSource)
    Out << Source;
  return ExitSuccess;
}

} // namespace pomp::link
