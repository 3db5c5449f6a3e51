//===- Driver.cpp - The ompcc/ompc++ compiler driver ----------------------===//
///
/// \file
/// One command of a build, in three shapes:
///   - pass-through: nothing to instrument (a question to the compiler, -E,
///     a build system's probe): the real compiler runs the command as given;
///   - compile (-c, -S): each C/C++ input is instrumented into a temporary
///     file of the same base name, so that every name the compiler derives
///     from it (the object, the dependency file, -save-temps files) is the one
///     the original would give, and compiled with the user's flags;
///   - link: sources on the command line are compiled first into temporary
///     objects, pomp-link generates the handle initialisation of the link's
///     objects and archives, and libpomp and the OpenMP runtime are added.
/// Whatever ompinst cannot handle is compiled as it is, with a warning and a
/// mark in the object (pomp/handle-init/Uninstrumented.h) that the link's
/// summary and the profile show: the instrumenter never breaks a build, and
/// never silently. An error in the user's code is reported once, by the real
/// compiler, at the original file and line. In strict mode (OMPCC_STRICT=1,
/// --ompcc-strict) a file that would be compiled uninstrumented is an error.
///
//===----------------------------------------------------------------------===//

#include "pomp/ompcc/Driver.h"
#include "pomp/ompcc/OmpinstServerRunner.h"

#include "pomp/ompcc/BuildCache.h"
#include "pomp/ompcc/CompileBeside.h"
#include "pomp/ompcc/CompilerCommand.h"
#include "pomp/ompcc/DependencyFile.h"
#include "pomp/ompcc/Process.h"
#include "pomp/ompcc/SourceChecks.h"

#include "pomp/handle-init/Uninstrumented.h"
#include "pomp/link/ElfObjectScanner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>
#include <map>
#include <unistd.h>

#ifndef POMP_OMPCC_DEFAULT_CC
#error "the build defines POMP_OMPCC_DEFAULT_CC and POMP_OMPCC_DEFAULT_CXX (the real compilers)"
#endif
#ifndef POMP_OMPCC_DEFAULT_FC
#error "the build defines POMP_OMPCC_DEFAULT_FC (ompfc's real compiler)"
#endif
#ifndef POMP_OMPCC_PARSER_LIBRARIES
#error "the build defines POMP_OMPCC_PARSER_LIBRARIES (the Clang and LLVM libraries ompinst loads)"
#endif
#ifndef POMP_OMPCC_BUILD_TOOLS_DIR
#error                                                                                             \
    "the build defines POMP_OMPCC_BUILD_{TOOLS,LIB,INCLUDE,FORTRAN}_DIR (the build tree's toolkit)"
#endif

namespace pomp::ompcc {
namespace {

using llvm::StringRef;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

/// Environment variables.
constexpr const char *PassThroughVariable = "OMPCC_PASSTHROUGH";
constexpr const char *CCompilerVariable = "OMPCC_CC";
constexpr const char *CxxCompilerVariable = "OMPCC_CXX";
constexpr const char *FortranCompilerVariable = "OMPCC_FC";
constexpr const char *StrictVariable = "OMPCC_STRICT";
constexpr const char *InProcessVariable = "OMPCC_INPROCESS";
/// OMPINST_OVERLAP=0: instrument, then compile (with gcc here, inside
/// clang-19 in the plugin, which reads it itself).
constexpr const char *OverlapVariable = "OMPINST_OVERLAP";
/// OMPCC_PRELINK=pomp-link: every pre-link runs the pomp-link tool, also for
/// plain objects, which ompcc otherwise pre-links itself (to compare them).
constexpr const char *PreLinkVariable = "OMPCC_PRELINK";
constexpr StringRef PreLinkByTool = "pomp-link";

/// ompcc's own options (docs/OMPCC.md).
constexpr StringRef KeepOption = "--keep";
constexpr StringRef CompilerOption = "--cc=";
constexpr StringRef OmpinstArgOption = "--ompinst-arg=";
constexpr StringRef CxxOption = "--ompc++";
constexpr StringRef HelpOption = "--ompcc-help";
constexpr StringRef PrintConfigOption = "--ompcc-print-config";
constexpr StringRef StopServersOption = "--ompcc-stop-servers";
constexpr StringRef VersionOption = "--ompcc-version";
/// `ompcc --ompcc-launcher <compiler> <arguments>`: ompcc as CMake's compiler
/// launcher (<LANG>_COMPILER_LAUNCHER), which puts the real compiler first.
constexpr StringRef LauncherOption = "--ompcc-launcher";
constexpr StringRef StrictOption = "--ompcc-strict";

/// pomp-link's exit status when strict mode finds an uninstrumented source
/// (pomp-link's ExitNotInstrumented).
constexpr int PompLinkNotInstrumented = 3;
/// pomp-link's exit status when --object could not write the object and the
/// C source was written instead (pomp-link's ExitNeedsCompiler).
constexpr int PompLinkNeedsCompiler = 4;

/// File names in the toolkit.
constexpr StringRef OmpinstName = "ompinst";
constexpr StringRef OmpinstClangName = "ompinst-clang";
constexpr StringRef PompLinkName = "pomp-link";
constexpr StringRef SharedLibPomp = "libpomp.so";
constexpr StringRef StaticLibPomp = "libpomp.a";
/// ompinst as a Clang plugin, in the library directory (clang-plugin/).
constexpr StringRef ClangPluginName = "libpomp-clang-plugin.so";
/// The ompinst options the plugin takes (as -fplugin-arg-pomp-<option>
/// without the dashes); any other --ompinst-arg= keeps ompinst-clang.
constexpr StringRef PluginOmpinstOptions[] = {
    "--functions",          "--function-filter=", "--function-exclude=", "--level=",
    "--no-line-directives", "--thread-ids",       "--no-skip-bodies",    "--verbose"};
/// The ompinst options that give a file without OpenMP nothing to
/// instrument (as -fplugin-arg-... or on ompinst's command line): with only
/// these such a file is still compiled as it is. Any other --ompinst-arg=
/// (--functions, its filters, an option ompcc does not know) sends every file
/// through ompinst.
constexpr StringRef NeutralOmpinstOptions[] = {
    "--verbose", "--quiet", "--level=", "--no-skip-bodies", "--thread-ids", "--no-line-directives"};
/// The MPI layer (docs/MPI.md), built when MPI was found.
constexpr StringRef SharedLibPompMpi = "libpomp-mpi.so";

/// Whether an --ompinst-arg= may give every file something to instrument.
bool touchesEveryFile(const std::vector<std::string> &OmpinstArgs) {
  return llvm::any_of(OmpinstArgs, [](StringRef Arg) {
    return llvm::none_of(NeutralOmpinstOptions, [Arg](StringRef Neutral) {
      return Neutral.ends_with("=") ? Arg.starts_with(Neutral) : Arg == Neutral;
    });
  });
}

/// Whether a link is an MPI program's (docs/MPI.md): the real compiler is an
/// MPI wrapper (mpicc, mpicxx, mpic++, mpiCC, mpifort, mpif90, mpif77, also
/// behind ccache), or an argument names libmpi (`-lmpi`, `-lmpich`,
/// `libmpi.so`, `libmpi.a`).
bool isMpiWrapper(const std::vector<std::string> &Compiler) {
  for (const std::string &Word : Compiler) {
    const StringRef Name = path::filename(Word);
    if (Name.starts_with("mpic") || Name.starts_with("mpif") || Name == "mpiCC")
      return true;
  }
  return false;
}

bool isMpiLink(const std::vector<std::string> &Compiler, const std::vector<std::string> &Argv) {
  if (isMpiWrapper(Compiler))
    return true;
  for (const std::string &Word : Argv) {
    const StringRef W(Word);
    const StringRef File = path::filename(W);
    if (W == "-lmpi" || W == "-lmpich" || File.starts_with("libmpi.so") ||
        File.starts_with("libmpich.so") || File == "libmpi.a" || File == "libmpich.a")
      return true;
  }
  return false;
}
constexpr StringRef PompHeader = "pomplib.h";
constexpr StringRef PompFortranInclude = "pomp_lib.h";
/// Where an installed toolkit keeps the Fortran include file, below include/.
constexpr StringRef FortranIncludeSubdir = "fortran";

/// The magic numbers of the files pomp-link reads: ELF, archives (also
/// thin), LLVM bitcode (raw and wrapped). Linker scripts and other text are
/// left to the linker.
bool isLinkInputFile(StringRef Path) {
  constexpr std::size_t MagicSize = 8;
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFileSlice(Path, MagicSize, /*Offset=*/0);
  if (!Buffer)
    return false;
  const StringRef Head = (*Buffer)->getBuffer();
  return Head.starts_with("\x7f"
                          "ELF") ||
         Head.starts_with("!<arch>\n") || Head.starts_with("!<thin>\n") ||
         Head.starts_with("BC\xC0\xDE") || Head.starts_with("\xDE\xC0\x17\x0B");
}

/// Whether the file at Path holds Word anywhere (false when unreadable).
bool fileMentions(StringRef Path, StringRef Word) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer = llvm::MemoryBuffer::getFile(Path);
  return Buffer && (*Buffer)->getBuffer().contains(Word);
}

/// The first line of a captured stderr that says "error:", else its first
/// line: the reason a file was not instrumented.
std::string firstErrorLineIn(StringRef Text) {
  llvm::SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines)
    if (Line.contains("error:"))
      return Line.trim().str();
  return Lines.empty() ? "" : Lines.front().trim().str();
}

/// firstErrorLineIn() of the file CapturedStderr.
std::string firstErrorLine(StringRef CapturedStderr) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFile(CapturedStderr, /*IsText=*/true);
  return Buffer ? firstErrorLineIn((*Buffer)->getBuffer()) : "";
}

/// Flags that choose the target: the generated init source must be
/// compiled for the same one as the objects it is linked with.
bool isTargetFlag(const Argument &Arg) {
  const StringRef Word = Arg.Words.front();
  return Word == "-m32" || Word == "-m64" || Word == "-mx32" || Word.starts_with("--target") ||
         Word == "-target" || Word.starts_with("--sysroot") || Word.starts_with("-B");
}

/// Writes Contents to the new file Path.
std::error_code writeTextFile(StringRef Path, StringRef Contents) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC, fs::OF_Text);
  if (EC)
    return EC;
  OS << Contents;
  OS.close();
  if (OS.has_error()) {
    EC = OS.error();
    OS.clear_error();
  }
  return EC;
}

std::string getEnvironment(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? Value : "";
}

std::string currentDirectory() {
  llvm::SmallString<256> Directory;
  if (fs::current_path(Directory))
    return "";
  return std::string(Directory);
}

/// The file a program name runs (looked up on PATH unless it has a `/`),
/// with every link resolved; nullopt when there is none.
std::optional<std::string> resolvedProgram(StringRef Program) {
  std::string Path = Program.str();
  if (!Program.contains('/')) {
    llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program);
    if (!Found)
      return std::nullopt;
    Path = *Found;
  }
  llvm::SmallString<256> Real;
  if (fs::real_path(Path, Real))
    return std::nullopt;
  return std::string(Real);
}

/// "<path>:<size>:<mtime>": a file as a cache key sees it (a changed
/// program changes its size or time); "<path>:missing" when absent.
std::string fileStamp(StringRef File) {
  fs::file_status Status;
  if (fs::status(File, Status))
    return File.str() + ":missing";
  return File.str() + ":" + std::to_string(Status.getSize()) + ":" +
         std::to_string(llvm::sys::toTimeT(Status.getLastModificationTime()));
}

/// The environment variables that change what Clang's parse finds (include
/// directories) or which tools its driver finds, for the cache keys.
void addParseEnvironment(CacheKey &Key) {
  for (const char *Variable : {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH",
                               "OBJCPLUS_INCLUDE_PATH", "COMPILER_PATH", "GCC_EXEC_PREFIX"}) {
    const char *Value = std::getenv(Variable);
    Key.add(std::string(Variable) + (Value ? std::string("=") + Value : std::string()));
  }
}

/// What both ways of instrumenting add last to their cache keys: the Clang
/// libraries the parse loads, where and with which environment it runs, and
/// its command line.
void addParseInputs(CacheKey &Key, llvm::ArrayRef<std::string> Argv) {
  llvm::SmallVector<StringRef, 2> Libraries;
  StringRef(POMP_OMPCC_PARSER_LIBRARIES).split(Libraries, ':', -1, false);
  for (StringRef Library : Libraries)
    Key.add(fileStamp(Library));
  Key.add(currentDirectory());
  addParseEnvironment(Key);
  Key.addWords(Argv);
}

std::string toolkitStamps(const ToolkitPaths &Paths, llvm::ArrayRef<std::string> Compiler);

/// One instrumented compile's files.
struct Instrumented {
  /// The directory holding the instrumented file.
  std::string Directory;
  /// The instrumented file: the original's base name in Directory.
  std::string Source;
  /// Where ompinst writes the instrumented copies of headers, with their
  /// map to the originals (pomp-headers.map).
  std::string HeaderDirectory;
  /// Source is the copy in ompcc's cache (BuildCache::instrumentedInPlace),
  /// not a file in the temporary directory.
  bool InCache = false;
};

/// The include directories and macros an MPI compiler wrapper adds on its
/// own, which ompinst's parse needs to find mpi.h: Open MPI's wrappers print
/// them with `--showme:compile`, MPICH's with `-compile-info` (whose first
/// word is the compiler). Empty when the wrapper says nothing.
std::vector<std::string> mpiWrapperParseFlags(const std::vector<std::string> &Compiler,
                                              TempDirectory &Temp) {
  std::vector<std::string> Flags;
  if (Compiler.empty())
    return Flags;
  // `ccache mpicc`: the wrapper is the last word.
  const std::string &Wrapper = Compiler.back();
  llvm::ErrorOr<std::string> Program = llvm::sys::findProgramByName(Wrapper);
  if (!Program)
    return Flags;
  const std::string Output = Temp.add("mpi-wrapper-flags.txt");
  for (StringRef Query : {"--showme:compile", "-compile-info"}) {
    const std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Output), StringRef("")};
    const StringRef Args[] = {Wrapper, Query};
    if (llvm::sys::ExecuteAndWait(*Program, Args, std::nullopt, Redirects) != 0)
      continue;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(Output);
    if (!Text)
      continue;
    llvm::SmallVector<StringRef, 16> Words;
    (*Text)->getBuffer().split(Words, ' ', -1, false);
    for (StringRef W : Words) {
      W = W.trim();
      if (W.starts_with("-I") || W.starts_with("-D"))
        Flags.push_back(W.str());
    }
    break;
  }
  return Flags;
}

/// The state of one ompcc command.
class Driver {
public:
  Driver(const DriverOptions &Opts, StringRef Name, std::vector<std::string> Compiler,
         std::vector<std::string> CCompiler, ToolkitPaths Paths, const CompilerCommand &Command,
         TempDirectory &Temp, const std::optional<BuildCache> &Cache,
         llvm::raw_ostream &Diagnostics)
      : Opts(Opts), Name(Name), Compiler(std::move(Compiler)), CCompiler(std::move(CCompiler)),
        Paths(std::move(Paths)), Command(Command), Temp(Temp), Cache(Cache),
        Runner(Name, Opts.Verbose, Diagnostics, &Temp), Diagnostics(Diagnostics) {}

  /// Runs ompinst-clang through its start-up server when it can (unless OMPCC_SERVER=0).
  void useOmpinstServer(OmpinstServerRunner Runner) { Server = std::move(Runner); }

  /// -c, -S: compiles every input, like the compiler, also after a failure;
  /// the first failure's status is returned.
  int compileOnly();
  /// Compiles the sources into temporary objects, pre-links and links.
  int compileAndLink();

private:
  /// Compiles the input at Args[Index]; ObjectFile is set in a link, where
  /// the object is a temporary one.
  int compileInput(std::size_t Index, const std::optional<std::string> &ObjectFile);
  /// Whether ompinst has a Fortran front end (asked once).
  bool ompinstHandlesFortran();
  /// Whether the real compiler ignores `metadirective` as an unknown pragma
  /// (gcc before 15), so that ompinst may hide such lines from Clang's parse
  /// as well (asked at most once, for a file Clang rejected).
  bool compilerIgnoresMetadirectives();
  /// Whether the real compiler accepts the C program Text (written to the
  /// temporary file Probe, -fsyntax-only) and rejects it with ErrorFlag
  /// (-Werror=<warning>): it only warns, and so ignores what it warns about.
  bool compilerOnlyWarns(llvm::StringRef Probe, llvm::StringRef Text, llvm::StringRef ErrorFlag);
  /// Whether the source or a project header it includes writes a directive
  /// in the attribute syntax (mentionsOpenMPAttributesWithHeaders).
  bool writesOpenMPAttributes(const Argument &Input) const;
  /// Whether the real compiler ignores OpenMP directives written as C
  /// attributes (gcc), so that ompinst leaves them as they are (asked at
  /// most once, for a C file that writes one).
  bool compilerIgnoresCAttributes();
  /// Writes the files of a cache entry, which must all lie in the command's
  /// temporary directory (the key holds their paths); false when one cannot
  /// be written or lies elsewhere (a damaged entry).
  bool restoreFiles(const CacheEntry &Entry);
  /// Adds the files instrumenting wrote (the instrumented source and the
  /// header copies) to Entry; false when one cannot be read.
  static bool collectWritten(const Instrumented &Inst, CacheEntry &Entry);
  /// Why the input cannot be instrumented inside the real compiler (empty:
  /// it can): OMPCC_INPROCESS=1, clang-19 as the real compiler, the plugin
  /// there, and nothing in the command the plugin path cannot honour.
  std::string whyNotInProcess();
  /// Whether the real compiler is Clang of the plugin's LLVM major version
  /// (asked once, from the path of its executable).
  bool compilerTakesPlugin();
  /// libpomp-clang-plugin.so next to libpomp.
  std::string pluginPath() const {
    llvm::SmallString<256> Plugin(Paths.LibDir);
    path::append(Plugin, ClangPluginName);
    return std::string(Plugin);
  }
  /// Instruments and compiles the input in one run of the real compiler
  /// with the plugin; nullopt (and Reason) when the plugin could not
  /// instrument it or its output does not compile.
  std::optional<int> compileInProcess(std::size_t Index,
                                      const std::optional<std::string> &ObjectFile,
                                      std::string &Reason);
  /// Restores the instrumented file (and headers) cached under Key into
  /// Inst's directory, or points Inst at the cache's own copy of a file
  /// without headers (useInPlace), and repeats the warnings instrumenting
  /// it gave; false when the cache has no usable entry.
  bool restoreInstrumented(const std::string &Key, const Argument &Input, Instrumented &Inst);
  /// Whether the compile may read the cache's copy Copy: not after a copy
  /// went during a compile (NoInPlace), and not at a path with a `=`, which
  /// -fdebug-prefix-map=<old>=<new> cannot take.
  bool compilesInPlace(StringRef Copy) const { return !NoInPlace && !Copy.contains('='); }
  /// Makes Copy, the cache's copy of the instrumented file, the one Inst
  /// compiles: a cached compile then writes no temporary file, and the
  /// compiler (a ccache) sees the same path whether ompcc's cache hit or
  /// not.
  void useInPlace(Instrumented &Inst, const std::string &Copy) {
    Inst.Directory = path::parent_path(Copy).str();
    Inst.Source = Copy;
    Inst.InCache = true;
  }
  /// Runs ompinst on the input; nullopt (and Reason) when it fails.
  /// BeforeOmpinst is called with the planned files when ompinst is about
  /// to run (not when the cache serves the file).
  std::optional<Instrumented>
  instrument(const Argument &Input, std::size_t Index, std::string &Reason,
             llvm::function_ref<void(const Instrumented &)> BeforeOmpinst = nullptr);
  /// Why the input is not compiled beside its instrumentation with gcc
  /// (CompileBeside.h) for reasons of the command ("" when it may be).
  std::string whyNotBeside(const Argument &Input);
  /// The names a dependency file of Input's compile from Inst must change:
  /// the instrumented copy and the header copies, to their originals.
  std::vector<DependencyRename> dependencyRenames(const Instrumented &Inst,
                                                  const Argument &Input) const;
  /// Whether the real compiler of this command's C and C++ inputs is gcc
  /// (g++, cc, c++ resolved), asked once.
  bool compilerIsGcc();
  /// Starts gcc's compile of Input beside its instrumentation, Files the
  /// instrumentation's planned files and Text the source; nullopt when it
  /// does not go beside (said with -v).
  std::unique_ptr<CompileBeside> startBeside(const Argument &Input, std::size_t Index,
                                             const Instrumented &Files,
                                             const std::optional<std::string> &ObjectFile,
                                             StringRef Text);
  /// Gives the compile beside the instrumented text Inst and waits for it:
  /// true when it compiled the file (its messages shown, its dependency
  /// files fixed); false when the file must be compiled after all.
  bool finishBeside(CompileBeside &Beside, const Argument &Input, std::size_t Index,
                    const Instrumented &Inst, const std::optional<std::string> &ObjectFile);
  /// The files of the compile beside: its main file in a directory of its
  /// own, with the name of the source.
  Instrumented besideFiles(const Argument &Input, std::size_t Index, const Instrumented &Files) {
    const std::string Directory = Temp.planned(std::to_string(Index) + ".beside");
    llvm::SmallString<256> Main(Directory);
    path::append(Main, path::filename(Input.Value));
    return Instrumented{Directory, std::string(Main), Files.HeaderDirectory};
  }
  /// With -v: the compile beside stopped for Why, and the file is compiled
  /// as without it.
  void sayBesideStopped(const Argument &Input, const std::string &Why) {
    if (Opts.Verbose)
      Diagnostics << Name << ": " << Input.Value
                  << ": the compile beside the instrumentation stopped (" << Why
                  << "): compiled after it\n";
  }
  std::optional<bool> RealCompilerIsGcc;
  /// The names of what instrumenting input Index writes (ompinst-clang or
  /// the plugin) in the temporary directory, planned: nothing is made until
  /// something is written there (makeDirectory), and a compile from the
  /// cache's copy makes nothing.
  Instrumented instrumentedFiles(const Argument &Input, std::size_t Index);
  /// Makes the temporary directory; false when it is not the one Inst's
  /// names were planned in (a concurrent command with the same key took
  /// that name): the caller starts again with the names of the one made.
  bool ownsPlanned(const Instrumented &Inst);
  /// Creates Inst's directory and registers its names for removal; false
  /// (and Reason) when it cannot be made.
  bool makeDirectory(const Instrumented &Inst, std::string &Reason);
  /// Runs the ompinst command Argv, its stderr into Log: ompinst-clang in
  /// the server when there is one and it answers, else as a program.
  int runOmpinst(const std::vector<std::string> &Argv, const std::string &Log) {
    if (Server && Argv.front() == Paths.OmpinstClang)
      if (const std::optional<int> Status =
              Server->run(Argv, Log, Temp, Opts.Verbose, Diagnostics, Name))
        return *Status;
    return Runner.run(Argv, StringRef(Log));
  }
  /// How the original (not instrumented) source is compiled.
  enum class Original {
    /// A file that needs no instrumentation: as it is.
    AsIs,
    /// A fallback: with the header that marks it (MarkHeader).
    Marked,
    /// Strict mode's check whether the compiler accepts the file: into a
    /// temporary object, writing no dependency file.
    Check,
  };
  std::vector<std::string> compileCommand(const Argument &Input, StringRef Source,
                                          const Instrumented *Inst,
                                          const std::optional<std::string> &ObjectFile,
                                          Original How = Original::AsIs,
                                          StringRef MarkHeader = "") const;
  /// Compiles the original of a file that could not be instrumented, for
  /// Reason: marked and with a warning, or in strict mode not at all.
  int compileFallback(std::size_t Index, const std::optional<std::string> &ObjectFile,
                      const std::string &Reason);
  /// Fortran's compileFallback(): the original compiled, its object marked.
  int compileMarkedFortran(std::size_t Index, const std::optional<std::string> &ObjectFile,
                           const std::string &Header, const std::string &Message);
  /// The object a compile-only command writes for Input: -o's, else the
  /// source's stem with .o in the current directory.
  std::string objectOf(const Argument &Input) const;
  /// The -I and -iquote directories of the command: where the project's
  /// own headers are found (-isystem and -idirafter name system headers).
  std::vector<std::string> projectIncludeDirectories() const;
  /// The dependency file the compile of Input writes because of -MD/-MMD,
  /// or "" when none was asked for.
  std::string dependencyFile(const Argument &Input) const;
  /// The dependency files the compile of Input writes (-MD/-MMD's, -Wp,-MD's);
  /// with Written, only those that exist (a failed compile may have written
  /// them: gcc does).
  std::vector<std::string> dependencyFiles(const Argument &Input, bool Written) const;
  /// Names the original and its headers where the instrumented compile's
  /// dependency files name the temporary copies; after a failed compile
  /// (AfterFailure), only in the files it wrote (gcc writes them anyway).
  void fixDependencyFiles(const Argument &Input, const Instrumented &Inst,
                          bool AfterFailure = false);
  void keepInstrumented(const Argument &Input, const Instrumented &Inst,
                        const std::optional<std::string> &ObjectFile);
  /// Generates and compiles the handle initialisation of the link; nullopt
  /// when there is none (the link still works: handles are then bound on
  /// first use).
  std::optional<std::string> preLink(const std::map<std::size_t, std::string> &Objects);
  std::vector<std::string> preLinkInputs(const std::map<std::size_t, std::string> &Objects) const;
  /// Runs the pomp-link command Argv in this process when its inputs are
  /// plain objects (pomp/link/ElfObjectScanner.h): its exit status, and its
  /// messages in Messages. Nothing when the tool must run.
  std::optional<int> preLinkInProcess(const std::vector<std::string> &Argv, std::string &Messages);
  void warn(const llvm::Twine &Message) { Diagnostics << Name << ": warning: " << Message << "\n"; }
  /// -fdiagnostics-color=always when stderr is a terminal: a compiler whose
  /// stderr is captured would otherwise lose its colours.
  bool wantsColor() const {
    return !Command.HasColorChoice && llvm::sys::Process::StandardErrHasColors();
  }

  const DriverOptions &Opts;
  std::string Name;
  std::vector<std::string> Compiler;
  /// The C compiler for the C the driver generates (the handle
  /// initialisation, the mark of a fallback): the real compiler, except for
  /// ompfc, where it is ompcc's (flang compiles no C).
  std::vector<std::string> CCompiler;
  ToolkitPaths Paths;
  const CompilerCommand &Command;
  TempDirectory &Temp;
  /// ompcc's cache of instrumented files and link initialisations; none
  /// when OMPCC_CACHE=0.
  const std::optional<BuildCache> &Cache;
  CommandRunner Runner;
  /// ompinst-clang's start-up server; none with OMPCC_SERVER=0.
  std::optional<OmpinstServerRunner> Server;
  llvm::raw_ostream &Diagnostics;
  unsigned NextFile = 0;
  /// Set by preLink when strict mode finds an uninstrumented source.
  bool NotInstrumented = false;
  /// ompinstHandlesFortran()'s answer, once asked.
  std::optional<bool> FortranFrontEnd;
  /// compilerTakesPlugin()'s answer, once asked.
  std::optional<bool> TakesPlugin;
  /// compilerIgnoresCAttributes()'s answer, once asked.
  std::optional<bool> IgnoresCAttributes;
  /// compilerIgnoresMetadirectives()'s answer, once asked.
  std::optional<bool> IgnoresMetadirectives;
  /// mpiWrapperParseFlags()'s answer, once asked.
  std::optional<std::vector<std::string>> MpiParseFlags;
  /// Compiles read instrumented files from this command's temporary
  /// directory only: set when a copy in the cache went during the compile.
  bool NoInPlace = false;
};

Instrumented Driver::instrumentedFiles(const Argument &Input, std::size_t Index) {
  const std::string Unit = std::to_string(Index);
  return Instrumented{Temp.planned(Unit),
                      Temp.planned(Unit + "/" + path::filename(Input.Value).str()),
                      Temp.planned(Unit + ".headers")};
}

bool Driver::ownsPlanned(const Instrumented &Inst) {
  return path::parent_path(Inst.Directory) == Temp.path();
}

bool Driver::makeDirectory(const Instrumented &Inst, std::string &Reason) {
  const StringRef Root = path::parent_path(Inst.Directory);
  const auto Relative = [&Root](StringRef Full) { return Full.drop_front(Root.size() + 1); };
  llvm::Expected<std::string> Directory = Temp.addDirectory(Relative(Inst.Directory));
  if (!Directory) {
    Reason = llvm::toString(Directory.takeError());
    return false;
  }
  Temp.add(Relative(Inst.Source));
  Temp.add(Relative(Inst.HeaderDirectory));
  return true;
}

std::optional<Instrumented>
Driver::instrument(const Argument &Input, std::size_t Index, std::string &Reason,
                   llvm::function_ref<void(const Instrumented &)> BeforeOmpinst) {
  const std::string Unit = std::to_string(Index);
  Instrumented Inst = instrumentedFiles(Input, Index);
  std::string Log = Temp.planned(Unit + ".ompinst.log");
  // Fortran's language (and source form) follows the suffix, which the
  // instrumented copy keeps (contract of docs/FORTRAN.md).
  const std::string &Ompinst = Input.Lang == Language::Fortran || Paths.OmpinstClang.empty()
                                   ? Paths.Ompinst
                                   : Paths.OmpinstClang;
  std::vector<std::string> Argv = {Ompinst, Input.Value, "-o", Inst.Source};
  if (Input.Lang != Language::Fortran)
    llvm::append_values(Argv, "-x", Input.Lang == Language::CXX ? "c++" : "c");
  Argv.push_back("--header-dir=" + Inst.HeaderDirectory);
  if (!Opts.Verbose)
    Argv.push_back("--quiet");
  llvm::append_range(Argv, Opts.OmpinstArgs);
  Argv.push_back("--");
  for (const Argument &Arg : Command.Args)
    if (Arg.ForParse)
      llvm::append_range(Argv, Arg.Words);
  // An MPI wrapper's own -I for mpi.h (docs/MPI.md), asked once per command.
  if (Input.Lang != Language::Fortran && isMpiWrapper(Compiler)) {
    if (!MpiParseFlags)
      MpiParseFlags = mpiWrapperParseFlags(Compiler, Temp);
    llvm::append_range(Argv, *MpiParseFlags);
  }
  // The real compiler warns about the user's code, once; ompinst's parse
  // ignores every warning, also those Clang makes errors by default and gcc
  // accepts (instrumenter/lib/ParseWarnings.h). No -Wno-everything, which did
  // that until session 18: it sets each of Clang's thousands of warnings
  // apart, 3.5 M instructions of a served parse's 14.5 M for a small file.
  if (Input.Lang != Language::Fortran) {
    // C and C++ code that calls the POMP API itself (POMP_USER_REGION_BEGIN)
    // includes pomplib.h; after the user's directories, as in the compile.
    llvm::append_values(Argv, "-isystem", Paths.IncludeDir);
  }
  // Directives written as C attributes, which gcc ignores (with a warning)
  // and Clang's parse obeys: rewritten into #pragma lines they would take
  // effect in the instrumented program only.
  if (Input.Lang == Language::C && writesOpenMPAttributes(Input) && compilerIgnoresCAttributes())
    Argv.insert(llvm::find(Argv, "--"), "--compiler-ignores-c-attributes");
  // The cache: ompinst's result depends on its command (which names the
  // temporary files, the same from one build to the next), the directory,
  // ompinst and the Clang it loads, the environment of the parse, and the
  // files the parse reads, which the entry lists. Fortran's front end reads
  // the disk itself and lists nothing.
  std::optional<std::string> Key;
  std::string InputsList;
  if (Cache && Input.Lang != Language::Fortran) {
    CacheKey Builder("instrument");
    Builder.add(fileStamp(Ompinst));
    addParseInputs(Builder, Argv);
    Key = Builder.finish();
    if (restoreInstrumented(*Key, Input, Inst))
      return Inst;
  }
  if (!ownsPlanned(Inst))
    return instrument(Input, Index, Reason, BeforeOmpinst);
  if (Key) {
    InputsList = Temp.add(Unit + ".inputs");
    Argv.insert(llvm::find(Argv, "--"), "--inputs-list=" + InputsList);
  }
  if (!makeDirectory(Inst, Reason))
    return std::nullopt;
  Temp.add(Unit + ".ompinst.log");
  if (BeforeOmpinst)
    BeforeOmpinst(Inst);
  int Status = runOmpinst(Argv, Log);
  if (Status == 0 && Key) {
    CacheEntry Entry;
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
            llvm::MemoryBuffer::getFile(Log, /*IsText=*/false, /*RequiresNullTerminator=*/false))
      Entry.Log = (*Text)->getBuffer().str();
    // Compiled from the cache's copy, as the next build will be (a ccache
    // around the compiler then finds this compile).
    if (collectWritten(Inst, Entry))
      if (const std::optional<std::string> Copy = Cache->storeInstrumented(*Key, InputsList, Entry);
          Copy && compilesInPlace(*Copy))
        useInPlace(Inst, *Copy);
  }
  // Clang 19 rejects some metadirectives that gcc before 15 builds because
  // it ignores them; the parse may then ignore them too.
  if (Status != 0 && Input.Lang != Language::Fortran &&
      fileMentions(Input.Value, "metadirective") && compilerIgnoresMetadirectives()) {
    Argv.insert(llvm::find(Argv, "--"), "--hide-metadirectives");
    Log = Temp.add(Unit + ".ompinst-hidden.log");
    Status = runOmpinst(Argv, Log);
  }
  if (Status == 0) {
    copyFileTo(Log, Diagnostics);
    return Inst;
  }
  Reason = firstErrorLine(Log);
  if (Reason.empty())
    Reason = "ompinst failed (exit status " + std::to_string(Status) + ")";
  if (Input.Lang == Language::Fortran && !ompinstHandlesFortran())
    Reason = "this ompinst has no Fortran front end (it instruments C and C++ only)";
  return std::nullopt;
}

bool Driver::collectWritten(const Instrumented &Inst, CacheEntry &Entry) {
  std::vector<std::string> Written = {Inst.Source};
  std::error_code EC;
  for (fs::recursive_directory_iterator It(Inst.HeaderDirectory, EC), End; It != End && !EC;
       It.increment(EC))
    if (It->type() == fs::file_type::regular_file)
      Written.push_back(It->path());
  for (const std::string &File : Written) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
        llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Text)
      return false;
    Entry.Files.emplace_back(File, (*Text)->getBuffer().str());
  }
  return true;
}

bool Driver::restoreFiles(const CacheEntry &Entry) {
  const std::string Prefix = Temp.path() + "/";
  for (const auto &[File, Contents] : Entry.Files) {
    llvm::SmallString<256> Clean(File);
    path::remove_dots(Clean, /*remove_dot_dot=*/true);
    if (!StringRef(File).starts_with(Prefix) || Clean != File)
      return false;
    // Registered for removal on a signal, each directory before what it
    // holds (the names were planned, not registered: instrumentedFiles).
    const StringRef Relative = StringRef(File).drop_front(Prefix.size());
    for (std::size_t Slash = Relative.find('/'); Slash != StringRef::npos;
         Slash = Relative.find('/', Slash + 1))
      Temp.add(Relative.take_front(Slash));
    Temp.add(Relative);
    if (fs::create_directories(path::parent_path(File)) || writeTextFile(File, Contents))
      return false;
  }
  return true;
}

bool Driver::ompinstHandlesFortran() {
  // An ompinst with the Fortran front end says so in its --help
  // (docs/FORTRAN.md); asked only when a Fortran file failed.
  if (!FortranFrontEnd) {
    const std::string Log = Temp.add("ompinst-help.log");
    FortranFrontEnd = false;
    const std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Log), StringRef(Log)};
    const StringRef Argv[] = {Paths.Ompinst, "--help"};
    if (llvm::sys::ExecuteAndWait(Paths.Ompinst, Argv, std::nullopt, Redirects) == 0)
      if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Help =
              llvm::MemoryBuffer::getFile(Log, /*IsText=*/true))
        FortranFrontEnd = (*Help)->getBuffer().contains("Fortran");
  }
  return *FortranFrontEnd;
}

bool Driver::writesOpenMPAttributes(const Argument &Input) const {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
      llvm::MemoryBuffer::getFile(Input.Value, /*IsText=*/true);
  return Text && mentionsOpenMPAttributesWithHeaders(Input.Value, (*Text)->getBuffer(),
                                                     projectIncludeDirectories());
}

bool Driver::compilerOnlyWarns(StringRef Probe, StringRef Text, StringRef ErrorFlag) {
  const std::string File = Temp.add(Probe);
  if (writeTextFile(File, Text))
    return false;
  std::vector<std::string> Argv = Compiler;
  llvm::append_values(Argv, "-fopenmp", "-fsyntax-only", "-x", "c", File);
  std::string Messages;
  if (Runner.runCapturing(Argv, Messages) != 0)
    return false;
  Argv.insert(Argv.end() - 1, ErrorFlag.str());
  return Runner.runCapturing(Argv, Messages) != 0;
}

bool Driver::compilerIgnoresCAttributes() {
  // gcc 12 accepts [[omp::directive(...)]] in C and warns that it ignores it.
  if (!IgnoresCAttributes)
    IgnoresCAttributes = compilerOnlyWarns("attribute-probe.c",
                                           "int main(void) {\n"
                                           "  int n = 0;\n"
                                           "  [[omp::directive(parallel)]]\n"
                                           "  n++;\n"
                                           "  return n;\n"
                                           "}\n",
                                           "-Werror=attributes");
  return *IgnoresCAttributes;
}

bool Driver::compilerIgnoresMetadirectives() {
  // The compiler accepts the pragma and only warns that it does not know it.
  if (!IgnoresMetadirectives)
    IgnoresMetadirectives =
        compilerOnlyWarns("metadirective-probe.c",
                          "int main(void) {\n"
                          "#pragma omp metadirective when(user={condition(1)}: parallel)\n"
                          "  ;\n"
                          "  return 0;\n"
                          "}\n",
                          "-Werror=unknown-pragmas");
  return *IgnoresMetadirectives;
}

std::vector<std::string> Driver::projectIncludeDirectories() const {
  std::vector<std::string> Directories;
  for (const Argument &Arg : Command.Args) {
    const StringRef Word = Arg.Words.front();
    for (const StringRef Option : {"-I", "-iquote"})
      if (Word.starts_with(Option))
        Directories.push_back(Arg.Words.size() > 1 ? Arg.Words[1]
                                                   : Word.drop_front(Option.size()).str());
  }
  return Directories;
}

std::string Driver::dependencyFile(const Argument &Input) const {
  if (!Command.DependencyFileRequested)
    return "";
  if (Command.DependencyFile)
    return *Command.DependencyFile;
  // In a link, the compile's output is a temporary object; the compilers
  // name the dependency file after the link's output instead (-o prog:
  // prog.d, written by every source in turn), as without -o after the
  // source (clang's rule; gcc 12 adds a prefix: a-x.d).
  return defaultDependencyFile(Input.Value, Command.Output ? StringRef(*Command.Output) : "");
}

/// Whether the command may turn -Wunused-macros on (-Wunused-macros,
/// -Werror=unused-macros, Clang's -Weverything; a later -Wno- is not
/// weighed: the definition is harmless where the warning is off) and leaves
/// _POMP to the instrumented text (no -D or -U of its own).
static bool mayWarnUnusedMacros(const std::vector<Argument> &Args) {
  bool Warns = false;
  for (const Argument &Arg : Args) {
    const std::string Joined = llvm::join(Arg.Words, "");
    const StringRef Option(Joined);
    if (Arg.Kind == ArgKind::Preprocessor &&
        (Option.starts_with("-D_POMP") || Option.starts_with("-U_POMP")))
      return false;
    if ((Option.starts_with("-W") && !Option.starts_with("-Wno-") &&
         Option.ends_with("unused-macros")) ||
        Option == "-Weverything")
      Warns = true;
  }
  return Warns;
}

std::vector<std::string> Driver::compileCommand(const Argument &Input, StringRef Source,
                                                const Instrumented *Inst,
                                                const std::optional<std::string> &ObjectFile,
                                                Original How, StringRef MarkHeader) const {
  // ompfc compiles the C (and assembly) of a mixed command with the C
  // compiler: flang compiles Fortran only.
  std::vector<std::string> Argv =
      Opts.Fortran && Input.Lang != Language::Fortran ? CCompiler : Compiler;
  StringRef SourceDirectory = path::parent_path(Input.Value);
  if (SourceDirectory.empty())
    SourceDirectory = ".";
  // `#include "x.h"` looks first in the directory of the including file,
  // which for the instrumented file is a temporary one: the original's
  // directory comes next, before the user's own -iquote directories.
  // Fortran's INCLUDE and the compilers have no -iquote: -I, searched right
  // after the source's own directory, comes nearest.
  const bool Fortran = Input.Lang == Language::Fortran;
  if (Inst)
    llvm::append_values(Argv, Fortran ? "-I" : "-iquote", SourceDirectory.str());
  const bool Link = ObjectFile.has_value();
  const bool Check = How == Original::Check;
  for (const Argument &Arg : Command.Args) {
    switch (Arg.Kind) {
    case ArgKind::Input:
    case ArgKind::LanguageSelect:
      continue;
    case ArgKind::Dependency:
      if (Check)
        continue;
      break;
    case ArgKind::Output:
    case ArgKind::LinkOnly:
      if (Link)
        continue;
      break;
    default:
      break;
    }
    llvm::append_range(Argv, Arg.Words);
  }
  if (Link)
    Argv.push_back("-c");
  if (!Input.ExplicitLanguage.empty())
    llvm::append_values(Argv, "-x", Input.ExplicitLanguage);
  Argv.push_back(Source.str());
  if (Link)
    llvm::append_values(Argv, "-o", *ObjectFile);
  if (!Command.HasOpenMP)
    Argv.push_back("-fopenmp");
  if (Fortran) {
    // pomp_lib.h and the compiler's pomp_lib module, after the user's -I
    // directories: `include 'pomp_lib.h'` and `use pomp_lib` work in every
    // Fortran file ompfc compiles, instrumented or not (docs/FORTRAN.md).
    llvm::append_values(Argv, "-I", Paths.FortranIncludeDir);
    llvm::SmallString<256> ModuleDir(Paths.FortranIncludeDir);
    const bool Flang = llvm::any_of(
        Compiler, [](const std::string &Word) { return path::filename(Word).contains("flang"); });
    path::append(ModuleDir, Flang ? "flang" : "gfortran");
    if (fs::is_directory(ModuleDir))
      llvm::append_values(Argv, "-I", std::string(ModuleDir));
    // gfortran (GCC) maps the instrumented copy's directory in the debug
    // information back to the original's, as for C; flang cannot.
    if (Inst && !Flang) {
      llvm::SmallString<256> OriginalDirectory(SourceDirectory);
      fs::make_absolute(OriginalDirectory);
      path::remove_dots(OriginalDirectory, /*remove_dot_dot=*/true);
      Argv.push_back("-fdebug-prefix-map=" + Inst->Directory + "=" +
                     std::string(OriginalDirectory));
    }
  } else if (Inst || Input.Lang == Language::C || Input.Lang == Language::CXX) {
    // pomplib.h as a system header: no warnings from it under the user's
    // -Wall -pedantic, and -MMD leaves it out like every toolkit header.
    // Also for a source compiled as it is: code that calls the POMP API
    // (POMP_USER_REGION_BEGIN) includes it.
    llvm::append_values(Argv, "-isystem", Paths.IncludeDir);
  }
  if (!Fortran && Inst && mayWarnUnusedMacros(Command.Args))
    // The instrumented text's header defines _POMP in the main file, where
    // -Wunused-macros reports it: a warning the original does not give (gcc
    // names the temporary copy in it). Defined on the command line, with the
    // header's value, it leaves the header's definition out.
    Argv.push_back(std::string("-D_POMP=") + POMP_API_VERSION_TEXT + "L");
  if (!Fortran && Inst) {
    // The #line directives point the line table at the original; the
    // compilation unit's name follows with this map.
    llvm::SmallString<256> OriginalDirectory(SourceDirectory);
    fs::make_absolute(OriginalDirectory);
    path::remove_dots(OriginalDirectory, /*remove_dot_dot=*/true);
    Argv.push_back("-fdebug-prefix-map=" + Inst->Directory + "=" + std::string(OriginalDirectory));
  }
  // After the user's -include options, so that a precompiled header they
  // name still comes first.
  if (How == Original::Marked)
    llvm::append_values(Argv, "-include", MarkHeader.str());
  if (Check)
    return Argv;
  if (Command.DependencyFileRequested && !Command.DependencyFile)
    llvm::append_values(Argv, "-MF", dependencyFile(Input));
  const bool TargetGiven = llvm::any_of(Command.Args, [](const Argument &Arg) {
    return StringRef(Arg.Words.front()).starts_with("-MT") ||
           StringRef(Arg.Words.front()).starts_with("-MQ");
  });
  if (Link && Command.DependencyFileRequested && !TargetGiven)
    llvm::append_values(Argv, "-MT",
                        Command.Output ? *Command.Output : (path::stem(Input.Value) + ".o").str());
  // gfortran and flang spell the colour option differently (or not at all).
  if (Inst && !Fortran && wantsColor())
    Argv.push_back("-fdiagnostics-color=always");
  return Argv;
}

bool Driver::restoreInstrumented(const std::string &Key, const Argument &Input,
                                 Instrumented &Inst) {
  std::optional<CacheEntry> Entry = Cache->lookupInstrumented(Key);
  if (!Entry ||
      !llvm::any_of(Entry->Files, [&](const auto &File) { return File.first == Inst.Source; }))
    return false;
  if (const std::optional<std::string> Copy = Cache->instrumentedInPlace(Key, *Entry);
      Copy && compilesInPlace(*Copy))
    useInPlace(Inst, *Copy);
  else if (!restoreFiles(*Entry))
    return false;
  if (Opts.Verbose)
    Diagnostics << Name << ": " << Input.Value << ": instrumented file from the cache in "
                << Cache->directory() << "\n";
  Diagnostics << Entry->Log;
  return true;
}

std::vector<std::string> Driver::dependencyFiles(const Argument &Input, bool Written) const {
  std::vector<std::string> Files;
  if (std::string File = dependencyFile(Input); !File.empty())
    Files.push_back(File);
  if (Command.PreprocessorDependencyFile)
    Files.push_back(*Command.PreprocessorDependencyFile);
  if (Written)
    llvm::erase_if(Files, [](const std::string &File) { return !fs::exists(File); });
  return Files;
}

void Driver::fixDependencyFiles(const Argument &Input, const Instrumented &Inst,
                                bool AfterFailure) {
  const std::vector<std::string> Files = dependencyFiles(Input, AfterFailure);
  if (Files.empty())
    return;
  const std::vector<DependencyRename> Renames = dependencyRenames(Inst, Input);
  for (const std::string &File : Files)
    if (llvm::Error E = rewriteDependencyFile(File, Renames))
      warn(llvm::toString(std::move(E)));
}

std::vector<DependencyRename> Driver::dependencyRenames(const Instrumented &Inst,
                                                        const Argument &Input) const {
  std::vector<DependencyRename> Renames = {{Inst.Source, Input.Value}};
  // "<copy>\t<original>" per line (docs/INSTRUMENTER.md, "Headers").
  llvm::SmallString<256> MapPath(Inst.HeaderDirectory);
  path::append(MapPath, "pomp-headers.map");
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Map =
          llvm::MemoryBuffer::getFile(MapPath, /*IsText=*/true)) {
    llvm::SmallVector<StringRef, 16> Lines;
    (*Map)->getBuffer().split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    for (StringRef Line : Lines) {
      const auto [Copy, Original] = Line.split('\t');
      Renames.push_back({Copy.str(), Original.str()});
    }
  }
  return Renames;
}

void Driver::keepInstrumented(const Argument &Input, const Instrumented &Inst,
                              const std::optional<std::string> &ObjectFile) {
  // Next to the object (x.o -> x.inst.c); in a link, next to its output.
  llvm::SmallString<256> Kept;
  if (!ObjectFile && Command.Output) {
    Kept = *Command.Output;
    path::replace_extension(Kept, "");
  } else {
    if (Command.Output)
      Kept = path::parent_path(*Command.Output);
    path::append(Kept, path::stem(Input.Value));
  }
  Kept += ".inst";
  Kept += path::extension(Input.Value);
  if (std::error_code EC = fs::copy_file(Inst.Source, Kept))
    warn("cannot keep the instrumented source as '" + Kept + "': " + EC.message());
  else if (Opts.Verbose)
    Diagnostics << Name << ": kept " << Kept << "\n";
}

int Driver::compileInput(std::size_t Index, const std::optional<std::string> &ObjectFile) {
  const Argument &Input = Command.Args[Index];
  std::string Reason;
  std::optional<Instrumented> Inst;
  // gcc's compile of the #include block while ompinst runs (CompileBeside.h).
  std::unique_ptr<CompileBeside> Beside;
  if (Input.Lang == Language::C || Input.Lang == Language::CXX || Input.Lang == Language::Fortran) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
        llvm::MemoryBuffer::getFile(Input.Value, /*IsText=*/true);
    // Function instrumentation touches every file; otherwise a file that
    // mentions nothing ompinst rewrites is compiled as it is, also with
    // --ompinst-arg=--verbose, which must not change the object. An
    // unreadable file goes to the compiler, which reports it.
    const bool MayNeed = !Text || touchesEveryFile(Opts.OmpinstArgs) ||
                         (Input.Lang == Language::Fortran
                              ? mayNeedFortranInstrumentation((*Text)->getBuffer())
                              : mayNeedInstrumentationWithHeaders(Input.Value, (*Text)->getBuffer(),
                                                                  projectIncludeDirectories()));
    if (MayNeed && Input.Lang != Language::Fortran && Opts.InProcess) {
      const std::string WhyNot = whyNotInProcess();
      if (WhyNot.empty()) {
        if (const std::optional<int> Status = compileInProcess(Index, ObjectFile, Reason))
          return *Status;
        return compileFallback(Index, ObjectFile, Reason);
      }
      // By default, only a clang-19 that could take the plugin is worth a
      // word: with gcc the two-step path is the only one.
      if (Opts.Verbose && (Opts.InProcessAsked || (Compiler.size() == 1 && compilerTakesPlugin())))
        Diagnostics << Name << ": " << Input.Value << ": not instrumented inside the compiler ("
                    << WhyNot << "): ompinst, then the compiler\n";
    }
    if (MayNeed)
      Inst = instrument(Input, Index, Reason, [&](const Instrumented &Files) {
        if (Text)
          Beside = startBeside(Input, Index, Files, ObjectFile, (*Text)->getBuffer());
      });
    else if (Opts.Verbose)
      Diagnostics << Name << ": " << Input.Value
                  << ": no OpenMP construct, API call or main: compiled as it is\n";
  }

  if (Beside && Inst && finishBeside(*Beside, Input, Index, *Inst, ObjectFile))
    return 0;
  if (Beside) {
    // Ended without an object before anything else writes one.
    Beside->abandon(Runner);
    Beside.reset();
    if (!Inst)
      sayBesideStopped(Input, "ompinst failed");
  }
  if (Inst) {
    std::string Log;
    const int Status =
        Runner.runCapturing(compileCommand(Input, Inst->Source, &*Inst, ObjectFile), Log);
    if (Opts.Keep)
      keepInstrumented(Input, *Inst, ObjectFile);
    if (Status == 0) {
      Diagnostics << Log;
      fixDependencyFiles(Input, *Inst);
      return 0;
    }
    // The cache's copy went (a concurrent command trimmed the cache) before
    // the compiler read it: again, from a file of this command's own.
    if (Inst->InCache && !fs::exists(Inst->Source)) {
      NoInPlace = true;
      return compileInput(Index, ObjectFile);
    }
    // The instrumented file does not compile although Clang parsed the
    // original: a difference between Clang and the real compiler, or an
    // instrumentation bug. Compiling the original tells which; its
    // diagnostics are the ones the user sees. Strict mode's check of it
    // writes no dependency file: the one the failed compile wrote must not
    // name the temporary copy, or the next make stops at a missing file.
    fixDependencyFiles(Input, *Inst, /*AfterFailure=*/true);
    Reason = "the instrumented source does not compile: " + firstErrorLineIn(Log);
  }
  if (!Reason.empty())
    return compileFallback(Index, ObjectFile, Reason);
  return Runner.run(compileCommand(Input, Input.Value, nullptr, ObjectFile));
}

bool Driver::compilerIsGcc() {
  if (RealCompilerIsGcc)
    return *RealCompilerIsGcc;
  RealCompilerIsGcc = false;
  // ompfc compiles C with the C compiler.
  const std::vector<std::string> &Real = Opts.Fortran ? CCompiler : Compiler;
  if (Real.size() != 1)
    return false;
  // cc and c++ are gcc's through their links; ccache's masquerading links
  // resolve to ccache, which would read the pipe to hash it.
  const std::optional<std::string> Resolved = resolvedProgram(Real.front());
  if (!Resolved)
    return false;
  const StringRef File = path::filename(*Resolved);
  RealCompilerIsGcc = File.contains("gcc") || File.contains("g++");
  return *RealCompilerIsGcc;
}

std::string Driver::whyNotBeside(const Argument &Input) {
  if (!Opts.CompileBeside)
    return "off (OMPINST_OVERLAP=0)";
  if (Input.Lang != Language::C && Input.Lang != Language::CXX)
    return "not C or C++";
  if (!Input.ExplicitLanguage.empty() && Input.ExplicitLanguage != "c" &&
      Input.ExplicitLanguage != "c++")
    return "-x " + Input.ExplicitLanguage;
  // Without ompinst's #line its text has no header to share.
  if (llvm::is_contained(Opts.OmpinstArgs, "--no-line-directives"))
    return "--no-line-directives";
  // -Wp,-MD,<file> names the dependency file where -MF cannot move it.
  if (Command.PreprocessorDependencyFile)
    return "-Wp,-MD";
  return "";
}

std::unique_ptr<CompileBeside> Driver::startBeside(const Argument &Input, std::size_t Index,
                                                   const Instrumented &Files,
                                                   const std::optional<std::string> &ObjectFile,
                                                   StringRef Text) {
  // Only gcc: clang-19 has its own overlapped compile (the plugin), and any
  // other compiler or a launcher (ccache, distcc) is not asked.
  if (!compilerIsGcc())
    return nullptr;
  std::string Why = whyNotBeside(Input);
  std::unique_ptr<CompileBeside> Beside;
  if (Why.empty())
    Beside = CompileBeside::prepare(Input.Value, Text, Command.Args, Why);
  if (Beside) {
    const Instrumented Main = besideFiles(Input, Index, Files);
    std::vector<std::string> Argv = compileCommand(Input, Main.Source, &Main, ObjectFile);
    // gcc writes the dependency file also when it fails, as when the
    // compile beside is ended: into a file of its own, then (the last -MF
    // counts), which replaces the command's only after a compile that
    // counts.
    if (Command.DependencyFileRequested) {
      Beside->DependencyFile = Temp.add(std::to_string(Index) + ".beside.d");
      llvm::append_values(Argv, "-MF", Beside->DependencyFile);
    }
    if (!makeDirectory(Main, Why)) {
      Beside.reset();
    } else if (std::error_code EC = writeTextFile(Main.Source, Beside->mainText())) {
      Why = "cannot write '" + Main.Source + "': " + EC.message();
      Beside.reset();
    } else if (!Beside->start(Runner, Argv)) {
      Why = "gcc could not be started beside ompinst";
      Beside.reset();
    }
  }
  if (Opts.Verbose && !Beside)
    Diagnostics << Name << ": " << Input.Value << ": not compiled beside the instrumentation ("
                << Why << ")\n";
  return Beside;
}

bool Driver::finishBeside(CompileBeside &Beside, const Argument &Input, std::size_t Index,
                          const Instrumented &Inst, const std::optional<std::string> &ObjectFile) {
  std::string Why, Log;
  std::optional<int> Status;
  if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
          llvm::MemoryBuffer::getFile(Inst.Source, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false))
    Status = Beside.finish(Runner, (*Text)->getBuffer(), Log, Why);
  else
    Why = "cannot read '" + Inst.Source + "'";
  if (Status && *Status == 0) {
    if (Opts.Keep)
      keepInstrumented(Input, Inst, ObjectFile);
    Diagnostics << Log;
    // The dependency file names the main file ompcc wrote, as the original,
    // and the pipe, which is nobody's dependency.
    if (!Beside.DependencyFile.empty()) {
      const std::string Target = dependencyFile(Input);
      if (llvm::Error E = rewriteDependencyFile(
              Beside.DependencyFile, dependencyRenames(besideFiles(Input, Index, Inst), Input)))
        warn(llvm::toString(std::move(E)));
      else if (llvm::Error E = removeFromDependencyFile(Beside.DependencyFile, Beside.pipeName()))
        warn(llvm::toString(std::move(E)));
      else if (std::error_code EC = fs::copy_file(Beside.DependencyFile, Target))
        warn("cannot write the dependency file '" + Target + "': " + EC.message());
    }
    if (Opts.Verbose)
      Diagnostics << Name << ": " << Input.Value << ": compiled beside the instrumentation ("
                  << (Beside.hasBlock() ? "its #include block" : "gcc's start-up")
                  << " while ompinst ran)\n";
    return true;
  }
  sayBesideStopped(Input, Status ? "the compile failed" : Why);
  return false;
}

bool Driver::compilerTakesPlugin() {
  // Debian's clang-19 (and clang++-19) is /usr/lib/llvm-19/bin/clang behind
  // a link; the plugin needs the libclang-cpp and libLLVM it was built with.
  if (!TakesPlugin) {
    TakesPlugin = false;
    std::string Program = Compiler.front();
    if (!StringRef(Program).contains('/'))
      if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Program))
        Program = *Found;
    llvm::SmallString<256> Real;
    if (!fs::real_path(Program, Real)) {
      const std::string Major = std::to_string(LLVM_VERSION_MAJOR);
      const StringRef File = path::filename(Real);
      const StringRef Bin = path::parent_path(Real);
      TakesPlugin = (File == "clang" || File == "clang++") && path::filename(Bin) == "bin" &&
                    path::filename(path::parent_path(Bin)) == "llvm-" + Major;
    }
  }
  return *TakesPlugin;
}

std::string Driver::whyNotInProcess() {
  if (Opts.Fortran)
    return "ompfc";
  if (Compiler.size() != 1 || !compilerTakesPlugin())
    return "the real compiler is not clang-" + std::to_string(LLVM_VERSION_MAJOR);
  if (!fs::exists(pluginPath()))
    return std::string(ClangPluginName) + " is not in " + Paths.LibDir;
  for (const std::string &Arg : Opts.OmpinstArgs)
    if (llvm::none_of(PluginOmpinstOptions, [&Arg](StringRef Option) {
          return Option.ends_with("=") ? StringRef(Arg).starts_with(Option) : Arg == Option;
        }))
      return "--ompinst-arg=" + Arg;
  // Options that make the compile write or load more than an object or
  // assembly, or that reach cc1 directly (another plugin, -Xclang). -flto
  // makes the compile's action bitcode, which the plugin's ReplaceAction
  // hides from it (ompcc would have it write an object).
  for (const Argument &Arg : Command.Args)
    for (const std::string &Word : Arg.Words)
      for (const StringRef Prefix : {"-save-temps", "--save-temps", "-emit-", "-fplugin", "-Xclang",
                                     "-fsyntax-only", "-flto"})
        if (StringRef(Word).starts_with(Prefix))
          return Word;
  return "";
}

std::optional<int> Driver::compileInProcess(std::size_t Index,
                                            const std::optional<std::string> &ObjectFile,
                                            std::string &Reason) {
  const Argument &Input = Command.Args[Index];
  const std::string Unit = std::to_string(Index);
  // The plugin writes the files ompinst-clang would: --keep and the
  // dependency files' header names work as they do after ompinst.
  Instrumented Inst = instrumentedFiles(Input, Index);
  const std::string Plugin = pluginPath();
  // The original source, as a compile without instrumentation names it: the
  // plugin compiles the instrumented text under its name.
  std::vector<std::string> Argv = compileCommand(Input, Input.Value, nullptr, ObjectFile);
  Argv.push_back("-fplugin=" + Plugin);
  auto PluginArg = [&Argv](const std::string &Arg) { Argv.push_back("-fplugin-arg-pomp-" + Arg); };
  PluginArg("output=" + Inst.Source);
  PluginArg("header-dir=" + Inst.HeaderDirectory);
  PluginArg(Command.AssemblyOnly ? "emit=asm" : "emit=obj");
  if (!Opts.Verbose)
    PluginArg("quiet");
  for (const std::string &Arg : Opts.OmpinstArgs)
    PluginArg(StringRef(Arg).ltrim('-').str());
  // ompcc's cache, as for ompinst (instrument()): the instrumented text
  // depends on the compile's command (the plugin's parse sees all of it;
  // the temporary paths are the same from one build to the next), the
  // directory, the plugin, the compiler and the Clang it loads, the
  // environment of the parse, and the files the parse read, which the entry
  // lists. A hit compiles the cached text with the plugin, without a parse:
  // the same compile, so the same object, as on a miss.
  std::optional<std::string> Key;
  std::string InputsList;
  std::string InstrumentLog;
  bool Hit = false;
  if (Cache) {
    CacheKey Builder("instrument-in-compiler");
    Builder.add(fileStamp(Plugin));
    for (const std::string &Word : Compiler)
      if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Word)) {
        llvm::SmallString<256> Real;
        Builder.add(fileStamp(fs::real_path(*Found, Real) ? StringRef(*Found) : StringRef(Real)));
      }
    addParseInputs(Builder, Argv);
    Key = Builder.finish();
    if (restoreInstrumented(*Key, Input, Inst)) {
      PluginArg("instrumented=" + Inst.Source);
      Hit = true;
    } else {
      if (!ownsPlanned(Inst))
        return compileInProcess(Index, ObjectFile, Reason);
      InputsList = Temp.add(Unit + ".inputs");
      InstrumentLog = Temp.add(Unit + ".instrument.log");
      fs::remove(InputsList);
      PluginArg("inputs-list=" + InputsList);
      PluginArg("log=" + InstrumentLog);
    }
  }
  if (wantsColor())
    Argv.push_back("-fdiagnostics-color=always");
  if (Opts.Verbose && !Hit)
    Diagnostics << Name << ": " << Input.Value << ": instrumenting inside " << Compiler.front()
                << " (" << ClangPluginName << ")\n";
  if (!Hit) {
    // Without the cache the planned names have not been checked yet.
    if (!Key && !ownsPlanned(Inst))
      return compileInProcess(Index, ObjectFile, Reason);
    if (!makeDirectory(Inst, Reason))
      return std::nullopt;
  }
  std::string Log;
  const int Status = Runner.runCapturing(Argv, Log);
  // The cache's copy went before the compiler read it (instrumentedInPlace):
  // again, from a file of this command's own.
  if (Status != 0 && Inst.InCache && !fs::exists(Inst.Source)) {
    NoInPlace = true;
    return compileInProcess(Index, ObjectFile, Reason);
  }
  const bool Written = fs::exists(Inst.Source);
  // The plugin writes the inputs list only after it instrumented the file
  // and wrote what it instruments into: stored whatever the compile did, as
  // ompinst's result is.
  if (Key && !Hit && Written && fs::exists(InputsList)) {
    CacheEntry Entry;
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text = llvm::MemoryBuffer::getFile(
            InstrumentLog, /*IsText=*/false, /*RequiresNullTerminator=*/false))
      Entry.Log = (*Text)->getBuffer().str();
    if (collectWritten(Inst, Entry))
      Cache->storeInstrumented(*Key, InputsList, Entry);
  }
  if (Opts.Keep && Written)
    keepInstrumented(Input, Inst, ObjectFile);
  if (Status == 0) {
    Diagnostics << Log;
    fixDependencyFiles(Input, Inst);
    return 0;
  }
  fixDependencyFiles(Input, Inst, /*AfterFailure=*/true);
  // As after ompinst: the original is compiled next (compileFallback), and
  // its diagnostics are the ones the user sees.
  Reason = firstErrorLineIn(Log);
  if (Reason.empty())
    Reason = "the compiler with " + std::string(ClangPluginName) + " failed (exit status " +
             std::to_string(Status) + ")";
  if (Written)
    Reason = "the instrumented source does not compile: " + Reason;
  return std::nullopt;
}

int Driver::compileFallback(std::size_t Index, const std::optional<std::string> &ObjectFile,
                            const std::string &Reason) {
  const Argument &Input = Command.Args[Index];
  const std::string Message =
      Input.Value + ": not instrumented, its OpenMP constructs are not measured: " + Reason;
  if (Opts.Strict) {
    // A genuine error in the file is the compiler's to report, once; only a
    // file the compiler accepts is strict mode's error. Nothing the user
    // sees is written either way.
    const std::string Object = Temp.add(std::to_string(Index) + ".check.o");
    if (const int Status =
            Runner.run(compileCommand(Input, Input.Value, nullptr, Object, Original::Check));
        Status != 0)
      return Status;
    Diagnostics << Name << ": error: " << Input.Value << ": cannot be instrumented: " << Reason
                << " (strict mode: " << StrictVariable << "=1 or " << StrictOption << ")\n";
    return ExitFailure;
  }
  llvm::SmallString<256> File(Input.Value);
  fs::make_absolute(File);
  path::remove_dots(File, /*remove_dot_dot=*/true);
  const std::string Header = Temp.add(std::to_string(Index) + ".uninstrumented.h");
  if (std::error_code EC =
          writeTextFile(Header, handleinit::uninstrumentedHeader(std::string(File), Reason))) {
    Diagnostics << Name << ": error: cannot write '" << Header << "': " << EC.message() << "\n";
    return ExitFailure;
  }
  if (Input.Lang == Language::Fortran)
    return compileMarkedFortran(Index, ObjectFile, Header, Message);
  const int Status =
      Runner.run(compileCommand(Input, Input.Value, nullptr, ObjectFile, Original::Marked, Header));
  // Also after a failed compile: gcc writes the dependency file anyway, and
  // one that named the header, which goes with this command's temporary
  // directory, would stop the next make at a missing file ("No rule to make
  // target") instead of compiling again.
  for (const std::string &DependencyFile : dependencyFiles(Input, /*Written=*/Status != 0))
    if (llvm::Error E = removeFromDependencyFile(DependencyFile, Header))
      warn(llvm::toString(std::move(E)));
  if (Status != 0)
    return Status;
  warn(Message);
  return 0;
}

std::string Driver::objectOf(const Argument &Input) const {
  if (Command.Output)
    return *Command.Output;
  return (path::stem(Input.Value) + ".o").str();
}

int Driver::compileMarkedFortran(std::size_t Index, const std::optional<std::string> &ObjectFile,
                                 const std::string &Header, const std::string &Message) {
  // Fortran cannot -include the C header that marks a fallback: the original
  // is compiled into a temporary object, the header as C into another, and
  // the two are joined (ld -r) into the object the command must produce, so
  // that pomp-link and the profile see the mark as for C.
  const Argument &Input = Command.Args[Index];
  if (Command.AssemblyOnly) {
    const int Status = Runner.run(compileCommand(Input, Input.Value, nullptr, ObjectFile));
    if (Status == 0)
      warn(Message + " (and -S output cannot carry the mark that names it in the profile)");
    return Status;
  }
  const std::string Unit = std::to_string(Index);
  const std::string Plain = Temp.add(Unit + ".fallback.o");
  if (const int Status = Runner.run(compileCommand(Input, Input.Value, nullptr, Plain));
      Status != 0)
    return Status;
  // The header is made to be included: a C file that includes it.
  const std::string MarkSource = Temp.add(Unit + ".mark.c");
  if (std::error_code EC = writeTextFile(MarkSource, "#include \"" + Header + "\"\n")) {
    Diagnostics << Name << ": error: cannot write '" << MarkSource << "': " << EC.message() << "\n";
    return ExitFailure;
  }
  const std::string Mark = Temp.add(Unit + ".mark.o");
  std::vector<std::string> CompileMark = CCompiler;
  for (const Argument &Arg : Command.Args)
    if (isTargetFlag(Arg))
      llvm::append_range(CompileMark, Arg.Words);
  llvm::append_values(CompileMark, "-fPIC", "-c", MarkSource, "-o", Mark);
  const std::string Target = ObjectFile ? *ObjectFile : objectOf(Input);
  std::vector<std::string> Join = CCompiler;
  for (const Argument &Arg : Command.Args)
    if (isTargetFlag(Arg))
      llvm::append_range(Join, Arg.Words);
  llvm::append_values(Join, "-r", "-nostdlib", Plain, Mark, "-o", Target);
  if (Runner.run(CompileMark) != 0 || Runner.run(Join) != 0) {
    Diagnostics << Name << ": error: " << Input.Value
                << ": cannot add the mark of an uninstrumented file to its object\n";
    return ExitFailure;
  }
  warn(Message);
  return 0;
}

int Driver::compileOnly() {
  int Result = 0;
  for (const std::size_t Index : Command.inputs()) {
    if (Command.Args[Index].Lang == Language::LinkerInput)
      continue;
    const int Status = compileInput(Index, std::nullopt);
    if (Result == 0)
      Result = Status;
  }
  return Result;
}

std::vector<std::string>
Driver::preLinkInputs(const std::map<std::size_t, std::string> &Objects) const {
  // -l is searched in the -L directories of the command (all of them, as the
  // linker does, wherever they stand), never in the system's: system
  // libraries hold no instrumented code, and glibc's libc.so is a script.
  std::vector<std::string> SearchDirectories;
  for (const Argument &Arg : Command.Args)
    if (StringRef(Arg.Words.front()).starts_with("-L"))
      SearchDirectories.push_back(Arg.Value);

  std::vector<std::string> Inputs;
  bool Static = Command.Static;
  for (std::size_t I = 0; I < Command.Args.size(); ++I) {
    const Argument &Arg = Command.Args[I];
    const StringRef Word = Arg.Words.front();
    if (Word == "-Wl,-Bstatic" || Word == "-Wl,-dn" || Word == "-Wl,-non_shared")
      Static = true;
    else if (Word == "-Wl,-Bdynamic" || Word == "-Wl,-dy" || Word == "-Wl,-call_shared")
      Static = Command.Static;
    if (auto Object = Objects.find(I); Object != Objects.end()) {
      Inputs.push_back(Object->second);
    } else if (Arg.Kind == ArgKind::Input && Arg.Lang == Language::LinkerInput) {
      if (isLinkInputFile(Arg.Value))
        Inputs.push_back(Arg.Value);
    } else if (Word.starts_with("-l")) {
      const StringRef Library = Arg.Value;
      std::vector<std::string> Names;
      if (Library.starts_with(":"))
        Names.push_back(Library.drop_front().str());
      else {
        if (!Static)
          Names.push_back(("lib" + Library + ".so").str());
        Names.push_back(("lib" + Library + ".a").str());
      }
      bool Found = false;
      for (const std::string &Directory : SearchDirectories) {
        for (const std::string &File : Names) {
          llvm::SmallString<256> Candidate(Directory);
          path::append(Candidate, File);
          if (fs::exists(Candidate)) {
            if (isLinkInputFile(Candidate))
              Inputs.push_back(std::string(Candidate));
            Found = true;
            break;
          }
        }
        if (Found)
          break;
      }
    }
  }
  return Inputs;
}

std::optional<int> Driver::preLinkInProcess(const std::vector<std::string> &Argv,
                                            std::string &Messages) {
  std::string Reason;
  const std::string Setting = getEnvironment(PreLinkVariable);
  if (!Setting.empty() && Setting != PreLinkByTool)
    warn(llvm::Twine(PreLinkVariable) + "='" + Setting + "' is not a valid setting (" +
         PreLinkByTool + " or unset): ignored");
  if (Setting == PreLinkByTool) {
    Reason = std::string(PreLinkVariable) + "=" + PreLinkByTool.str();
  } else {
    llvm::raw_string_ostream Err(Messages);
    if (std::optional<int> Status = pomp::link::runPompLinkOnObjects(
            llvm::ArrayRef(Argv).drop_front(), llvm::nulls(), Err, Reason)) {
      if (Opts.Verbose)
        Diagnostics << Name << ": pre-link in " << Name
                    << " (plain objects, no pomp-link process): " << shellQuote(Argv) << "\n";
      return Status;
    }
    Messages.clear();
  }
  if (Opts.Verbose)
    Diagnostics << Name << ": pre-link by pomp-link: " << Reason << "\n";
  return std::nullopt;
}

std::optional<std::string> Driver::preLink(const std::map<std::size_t, std::string> &Objects) {
  const std::vector<std::string> Inputs = preLinkInputs(Objects);
  if (Inputs.empty())
    return std::nullopt;
  const std::string Source = Temp.add("pomp_init.c");
  const std::string Log = Temp.add("pomp-link.log");
  const std::string Object = Temp.add("pomp_init.o");
  std::vector<std::string> Argv = {Paths.PompLink};
  if (Opts.Verbose)
    Argv.push_back("-v");
  if (Command.Shared)
    Argv.push_back("--shared-library");
  if (Opts.Strict)
    Argv.push_back("--strict");
  // A program's handle initialisation is a table that pomp-link writes as an
  // object itself, which saves the compile of the generated source (a whole
  // compiler start per link); where that cannot be (code is needed, an
  // unsupported machine), it writes the source, compiled below. A shared
  // library's constructor is code, and --keep keeps the source that is
  // linked.
  const bool DirectObject = !Command.Shared && !Opts.Keep;
  if (DirectObject)
    llvm::append_values(Argv, "--report-as=" + Name, "--object", "-o", Object,
                        "--else-source=" + Source, "--");
  else
    llvm::append_values(Argv, "--report-as=" + Name, "-o", Source, "--");
  llvm::append_range(Argv, Inputs);
  std::vector<std::string> Compile = CCompiler;
  for (const Argument &Arg : Command.Args)
    if (isTargetFlag(Arg))
      llvm::append_range(Compile, Arg.Words);
  // -x c: the generated file is C (and valid C++), also for ompc++'s
  // compiler; -fPIC: it may go into a shared library or a PIE.
  llvm::append_values(Compile, "-fPIC", "-c", "-x", "c", Source, "-o", Object);

  // The cache: the object depends on the inputs' contents, the two commands
  // (whose temporary paths are the same from one build to the next), the
  // toolkit (pomp-link, pomplib.h) and the compiler.
  const auto LinkKey = [&]() -> std::optional<std::string> {
    CacheKey Builder("link");
    Builder.add(toolkitStamps(Paths, CCompiler));
    // ompcc writes the object of plain objects itself.
    Builder.add(fileStamp(Paths.Driver));
    Builder.add(currentDirectory());
    addParseEnvironment(Builder);
    Builder.addWords(Argv);
    Builder.addWords(Compile);
    for (const std::string &Input : Inputs)
      if (!Builder.addFileContents(Input))
        return std::nullopt;
    return Builder.finish();
  };
  std::optional<std::string> Key;
  if (Cache)
    Key = LinkKey();
  if (Key)
    if (std::optional<CacheEntry> Hit = Cache->lookupLink(*Key);
        Hit && llvm::any_of(Hit->Files, [&](const auto &File) { return File.first == Object; }) &&
        restoreFiles(*Hit)) {
      if (Opts.Verbose)
        Diagnostics << Name << ": the handle initialisation from the cache in "
                    << Cache->directory() << "\n";
      Diagnostics << Hit->Log;
      if (Opts.Keep) {
        const std::string Kept = (Command.Output ? *Command.Output : "a.out") + ".pomp_init.c";
        if (std::error_code EC = fs::copy_file(Source, Kept))
          warn("cannot keep the generated source as '" + Kept + "': " + EC.message());
      }
      return Object;
    }
  // Plain objects (the usual link) are pre-linked here, by pomp-link's own
  // code: no process, and no load of libLLVM.so (issue 15).
  std::string Messages;
  int Status = 0;
  if (std::optional<int> InProcess = preLinkInProcess(Argv, Messages)) {
    Status = *InProcess;
  } else {
    Status = Runner.run(Argv, StringRef(Log));
    if (llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
            llvm::MemoryBuffer::getFile(Log, /*IsText=*/false, /*RequiresNullTerminator=*/false))
      Messages = (*Text)->getBuffer().str();
  }
  Diagnostics << Messages;
  if (Status == PompLinkNotInstrumented) {
    NotInstrumented = true;
    return std::nullopt;
  }
  const bool Compiled = !DirectObject || Status == PompLinkNeedsCompiler;
  if (Status != 0 && !(DirectObject && Status == PompLinkNeedsCompiler)) {
    warn("the POMP handles of this link are bound on first use (pomp-link failed)");
    return std::nullopt;
  }
  if (Opts.Keep) {
    const std::string Kept = (Command.Output ? *Command.Output : "a.out") + ".pomp_init.c";
    if (std::error_code EC = fs::copy_file(Source, Kept))
      warn("cannot keep the generated source as '" + Kept + "': " + EC.message());
  }

  if (Compiled && Runner.run(Compile) != 0) {
    warn("the POMP handles of this link are bound on first use (the generated "
         "initialisation does not compile)");
    return std::nullopt;
  }
  if (Key) {
    CacheEntry Entry;
    bool Complete = true;
    for (const std::string &File : {Object, Source}) {
      if (!Compiled && File == Source)
        continue;
      llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Text =
          llvm::MemoryBuffer::getFile(File, /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!Text) {
        Complete = false;
        break;
      }
      Entry.Files.emplace_back(File, (*Text)->getBuffer().str());
    }
    Entry.Log = Messages;
    // An input that changed while pomp-link read it changes the key: the
    // result is then not kept.
    if (Complete && LinkKey() == Key)
      Cache->storeLink(*Key, Entry);
  }
  return Object;
}

int Driver::compileAndLink() {
  std::map<std::size_t, std::string> Objects;
  int CompileStatus = 0;
  for (const std::size_t Index : Command.inputs()) {
    const Argument &Input = Command.Args[Index];
    if (Input.Lang == Language::LinkerInput)
      continue;
    const std::string Unit = "object-" + std::to_string(++NextFile);
    llvm::Expected<std::string> Directory = Temp.addDirectory(Unit);
    if (!Directory) {
      Diagnostics << Name << ": error: " << llvm::toString(Directory.takeError()) << "\n";
      return ExitFailure;
    }
    const std::string Object = Temp.add(Unit + "/" + path::stem(Input.Value).str() + ".o");
    Objects.emplace(Index, Object);
    if (const int Status = compileInput(Index, Object); Status != 0 && CompileStatus == 0)
      CompileStatus = Status;
  }
  // Like the compiler: every source is compiled, and nothing is linked after
  // a failure.
  if (CompileStatus != 0)
    return CompileStatus;

  std::optional<std::string> InitObject;
  if (!Command.Relocatable)
    InitObject = preLink(Objects);
  // Strict mode: a source of the link was compiled uninstrumented (before,
  // by a command that was not strict); pomp-link said which.
  if (NotInstrumented)
    return ExitFailure;

  std::vector<std::string> Argv = Compiler;
  const bool Compiled = !Objects.empty();
  for (std::size_t I = 0; I < Command.Args.size(); ++I) {
    const Argument &Arg = Command.Args[I];
    if (auto Object = Objects.find(I); Object != Objects.end()) {
      Argv.push_back(Object->second);
      continue;
    }
    // The sources are objects now: -x would make them sources again, and
    // the dependency files were written by the compiles.
    if (Compiled && (Arg.Kind == ArgKind::LanguageSelect || Arg.Kind == ArgKind::Dependency))
      continue;
    llvm::append_range(Argv, Arg.Words);
  }
  if (InitObject)
    Argv.push_back(*InitObject);
  if (!Command.Relocatable) {
    if (!Command.HasOpenMP)
      Argv.push_back("-fopenmp");
    llvm::SmallString<256> Library(Paths.LibDir);
    if (Command.Static) {
      // libpomp is C++; a C compiler's static link needs its runtime.
      path::append(Library, StaticLibPomp);
      llvm::append_values(Argv, std::string(Library), "-lstdc++", "-lm");
    } else {
      // An MPI program gets the PMPI layer first, so that its MPI_Init comes
      // before libmpi's (docs/MPI.md).
      llvm::SmallString<256> MpiLayer(Paths.LibDir);
      path::append(MpiLayer, SharedLibPompMpi);
      if (isMpiLink(Compiler, Argv) && fs::exists(MpiLayer))
        Argv.push_back(std::string(MpiLayer));
      // An rpath, so that the program runs without LD_LIBRARY_PATH.
      path::append(Library, SharedLibPomp);
      llvm::append_values(Argv, std::string(Library), "-Wl,-rpath," + Paths.LibDir);
    }
  }
  return Runner.run(Argv);
}

/// A compiler setting as words, so that "ccache gcc" works.
std::vector<std::string> compilerWords(StringRef Spec) {
  llvm::SmallVector<StringRef, 4> Words;
  Spec.split(Words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  return std::vector<std::string>(Words.begin(), Words.end());
}

/// The real compiler as words: --cc=, else OMPCC_CC/OMPCC_CXX/OMPCC_FC, else
/// the one the toolkit was configured with.
std::vector<std::string> realCompiler(const DriverOptions &Opts) {
  std::string Spec;
  if (Opts.Compiler)
    Spec = *Opts.Compiler;
  else
    Spec = getEnvironment(Opts.Fortran ? FortranCompilerVariable
                          : Opts.Cxx   ? CxxCompilerVariable
                                       : CCompilerVariable);
  if (StringRef(Spec).trim().empty())
    Spec = Opts.Fortran ? POMP_OMPCC_DEFAULT_FC
           : Opts.Cxx   ? POMP_OMPCC_DEFAULT_CXX
                        : POMP_OMPCC_DEFAULT_CC;
  return compilerWords(Spec);
}

/// ompfc's C compiler for generated C: OMPCC_CC, else the toolkit's.
std::vector<std::string> generatedCCompiler() {
  std::string Spec = getEnvironment(CCompilerVariable);
  if (StringRef(Spec).trim().empty())
    Spec = POMP_OMPCC_DEFAULT_CC;
  return compilerWords(Spec);
}

/// Whether the real compiler is this driver itself (OMPCC_CC=ompcc), which
/// would call itself for ever.
bool isThisDriver(StringRef Program, StringRef ExecutablePath) {
  const std::optional<std::string> Real = resolvedProgram(Program);
  return Real && *Real == ExecutablePath;
}

const char *passThroughReason(PassThrough Pass) {
  switch (Pass) {
  case PassThrough::No:
    break;
  case PassThrough::NoInput:
    return "no input file";
  case PassThrough::NoObject:
    return "no object is produced";
  case PassThrough::UnsupportedInput:
    return "an input from stdin";
  case PassThrough::AmbiguousOutput:
    return "-o with several inputs";
  }
  return "";
}

std::string firstExisting(std::initializer_list<std::string> Candidates) {
  for (const std::string &Candidate : Candidates)
    if (fs::exists(Candidate))
      return Candidate;
  return *std::prev(Candidates.end());
}

std::string joinPath(StringRef A, StringRef B, StringRef C = "") {
  llvm::SmallString<256> Joined(A);
  path::append(Joined, B, C);
  path::remove_dots(Joined, /*remove_dot_dot=*/true);
  return std::string(Joined);
}

bool passThroughRequested() {
  const std::string Setting = getEnvironment(PassThroughVariable);
  return !Setting.empty() && Setting != "0";
}

/// "<path>:<size>:<mtime>" of every file an instrumented object depends on
/// besides the user's: a compiler cache that sees only ompcc (CC="ccache
/// ompcc") learns from them that the toolkit or the real compiler changed
/// (CCACHE_COMPILERCHECK="%compiler% --ompcc-print-config").
std::string toolkitStamps(const ToolkitPaths &Paths, llvm::ArrayRef<std::string> Compiler) {
  std::vector<std::string> Files = {Paths.Ompinst,
                                    Paths.OmpinstClang,
                                    Paths.PompLink,
                                    joinPath(Paths.IncludeDir, PompHeader),
                                    joinPath(Paths.LibDir, SharedLibPomp),
                                    joinPath(Paths.LibDir, StaticLibPomp)};
  // The programs of the compiler's words ("ccache gcc": both).
  for (const std::string &Word : Compiler)
    if (!StringRef(Word).starts_with("-"))
      if (llvm::ErrorOr<std::string> Found = llvm::sys::findProgramByName(Word))
        Files.push_back(*Found);
  std::vector<std::string> Stamps;
  for (const std::string &File : Files) {
    fs::file_status Status;
    if (fs::status(File, Status))
      continue;
    Stamps.push_back(File + ":" + std::to_string(Status.getSize()) + ":" +
                     std::to_string(llvm::sys::toTimeT(Status.getLastModificationTime())));
  }
  return llvm::join(Stamps, " ");
}

/// The name of the command's temporary directory: the same for the same
/// command (words, real compiler, driver) run by the same user in the same
/// directory, so that the instrumented files, the header copies and every
/// path of the real compiler's command are the same from one build to the
/// next, and a compiler cache behind ompcc hits (docs/OMPCC.md, "ccache").
std::string stableDirectoryKey(StringRef Name, llvm::ArrayRef<std::string> Compiler,
                               llvm::ArrayRef<std::string> Args) {
  std::string Identity = std::to_string(geteuid());
  // NUL cannot occur in a word: the fields cannot run into each other.
  const std::string Directory = currentDirectory();
  for (StringRef Field : {Name, StringRef(Directory)})
    (Identity += '\0') += Field;
  for (llvm::ArrayRef<std::string> Words : {Compiler, Args}) {
    Identity += '\1';
    for (const std::string &Word : Words)
      (Identity += '\0') += Word;
  }
  constexpr unsigned HexDigits = 16;
  return llvm::utohexstr(llvm::xxh3_64bits(Identity), /*LowerCase=*/true, HexDigits);
}

} // namespace

ToolkitPaths findToolkit(StringRef ExecutablePath) {
  // <prefix>/bin/ompcc, <prefix>/lib/libpomp.so, <prefix>/include/pomplib.h
  // in an install, wherever it was moved; the build tree (build/bin,
  // build/lib, the source's include directory) otherwise.
  const StringRef BinDir = path::parent_path(ExecutablePath);
  const StringRef Prefix = path::parent_path(BinDir);
  ToolkitPaths Paths;
  Paths.Driver = ExecutablePath.str();
  Paths.Ompinst = firstExisting(
      {joinPath(BinDir, OmpinstName), joinPath(POMP_OMPCC_BUILD_TOOLS_DIR, OmpinstName)});
  Paths.PompLink = firstExisting(
      {joinPath(BinDir, PompLinkName), joinPath(POMP_OMPCC_BUILD_TOOLS_DIR, PompLinkName)});
  // Next to the ompinst found (an older toolkit may have none: ompinst then).
  const std::string OmpinstClang = joinPath(path::parent_path(Paths.Ompinst), OmpinstClangName);
  if (fs::can_execute(OmpinstClang))
    Paths.OmpinstClang = OmpinstClang;
  const std::string InstalledLib = joinPath(Prefix, "lib");
  Paths.LibDir = fs::exists(joinPath(InstalledLib, SharedLibPomp)) ||
                         fs::exists(joinPath(InstalledLib, StaticLibPomp))
                     ? InstalledLib
                     : joinPath(POMP_OMPCC_BUILD_LIB_DIR, "");
  const std::string InstalledInclude = joinPath(Prefix, "include");
  Paths.IncludeDir = fs::exists(joinPath(InstalledInclude, PompHeader))
                         ? InstalledInclude
                         : joinPath(POMP_OMPCC_BUILD_INCLUDE_DIR, "");
  const std::string InstalledFortran = joinPath(InstalledInclude, FortranIncludeSubdir);
  Paths.FortranIncludeDir = fs::exists(joinPath(InstalledFortran, PompFortranInclude))
                                ? InstalledFortran
                                : joinPath(POMP_OMPCC_BUILD_FORTRAN_DIR, "");
  return Paths;
}

bool isCxxDriverName(StringRef Argv0) {
  const StringRef Base = path::filename(Argv0);
  return Base.ends_with("++") || Base.ends_with("cxx");
}

bool isFortranDriverName(StringRef Argv0) {
  const StringRef Base = path::filename(Argv0);
  return Base == "ompfc" || Base == "ompf77" || Base == "ompf90" || Base == "ompf95" ||
         Base == "ompfort";
}

void extractDriverOptions(std::vector<std::string> &Args, DriverOptions &Options) {
  std::vector<std::string> Rest;
  bool CompilerNext = false;
  for (std::string &Arg : Args) {
    const StringRef Word = Arg;
    if (CompilerNext) {
      CompilerNext = false;
      Options.Compiler = Arg;
    } else if (Word == LauncherOption)
      CompilerNext = true;
    else if (Word == KeepOption)
      Options.Keep = true;
    else if (Word == CxxOption)
      Options.Cxx = true;
    else if (Word == HelpOption)
      Options.Help = true;
    else if (Word == PrintConfigOption)
      Options.PrintConfig = true;
    else if (Word == StopServersOption)
      Options.StopServers = true;
    else if (Word == VersionOption)
      Options.Version = true;
    else if (Word == StrictOption)
      Options.Strict = true;
    else if (Word.starts_with(CompilerOption))
      Options.Compiler = Word.drop_front(CompilerOption.size()).str();
    else if (Word.starts_with(OmpinstArgOption))
      Options.OmpinstArgs.push_back(Word.drop_front(OmpinstArgOption.size()).str());
    else {
      // -v is the compiler's option too: it stays, and ompcc shows its own
      // commands as well.
      if (Word == "-v")
        Options.Verbose = true;
      Rest.push_back(std::move(Arg));
    }
  }
  Args = std::move(Rest);
}

void printUsage(llvm::raw_ostream &OS, const DriverOptions &Options) {
  const StringRef Name = Options.Fortran ? "ompfc" : Options.Cxx ? "ompc++" : "ompcc";
  OS << "usage: " << Name << " [ompcc options] <compiler arguments>\n"
     << "\n"
        "A drop-in compiler driver: CC=ompcc CXX=ompc++ FC=ompfc for make, cmake or\n"
        "configure. Each C/C++/Fortran source is instrumented with ompinst (POMP events\n"
        "for its OpenMP\n"
        "constructs) and compiled by the real compiler with the same flags; a link gets\n"
        "the handle initialisation from pomp-link, libpomp and the OpenMP runtime.\n"
        "Commands that need no instrumentation (-E, --version, -print-*, configure's and\n"
        "CMake's probes) run the real compiler unchanged.\n"
        "\n"
        "ompcc options (removed before the real compiler sees the command):\n"
        "  --cc=<compiler>       the real compiler, with arguments (\"ccache gcc\")\n"
        "  --keep                keep the instrumented sources (x.o -> x.inst.c) and the\n"
        "                        generated handle initialisation (<output>.pomp_init.c)\n"
        "  --ompinst-arg=<arg>   pass <arg> to ompinst (--functions, --level=loop=none)\n"
        "  --ompc++              behave as ompc++ (C++ compiler, .c files are C++)\n"
        "  --ompcc-strict        a source that cannot be instrumented is an error (without\n"
        "                        it: compiled uninstrumented, with a warning, named in the\n"
        "                        link's summary and in the profile); the same as\n"
        "                        OMPCC_STRICT=1\n"
        "  -v                    print every command run (also passed to the compiler)\n"
        "  --ompcc-print-config  print the real compiler and the toolkit's paths\n"
        "  --ompcc-stop-servers  stop this user's ompinst servers (OMPCC_SERVER_DIR)\n"
        "  --ompcc-launcher <compiler>  the real compiler comes next: ompcc as CMake's\n"
        "                        compiler launcher (pomp_instrument(), docs/OMPCC.md)\n"
        "  --ompcc-version       print the toolkit's version (--version prints the real\n"
        "                        compiler's, then the toolkit's)\n"
        "  --ompcc-help          print this help\n"
        "\n"
        "Environment: OMPCC_CC, OMPCC_CXX (the real compilers, default: those the toolkit\n"
        "was built with), OMPCC_FC (ompfc's, default: " POMP_OMPCC_DEFAULT_FC "; ompfc\n"
        "compiles the C it generates with OMPCC_CC), OMPCC_PASSTHROUGH=1 (instrument\n"
        "nothing, add nothing),\n"
        "OMPCC_STRICT=1 (as --ompcc-strict; 0 or unset: not strict),\n"
        "OMPCC_INPROCESS=0 (ompinst, then the compiler; 1 or unset: with clang-19,\n"
        "instrument inside the compiler, one process per source: the default),\n"
        "OMPCC_CACHE=0 (no cache of instrumented files and link initialisations; on by\n"
        "default), OMPCC_CACHE_DIR (default ~/.cache/pomp-ompcc), OMPCC_CACHE_MAXSIZE\n"
        "(default 256M), OMPCC_PRELINK=pomp-link (every pre-link by the pomp-link tool,\n"
        "also of plain objects, which ompcc otherwise pre-links itself),\n"
        "OMPCC_SERVER=0 (ompinst-clang run by itself; 1 or unset: through its start-up\n"
        "server, which exits after OMPCC_SERVER_IDLE seconds, default 60).\n"
        "Exit status: the real compiler's; 1 for ompcc's own errors.\n"
        "Documentation: man ompcc, <prefix>/share/doc/pomp/OMPCC.md (installed), docs/OMPCC.md.\n";
}

int runDriver(StringRef Argv0, StringRef ExecutablePath, llvm::ArrayRef<std::string> Args,
              llvm::raw_ostream &Diagnostics) {
  DriverOptions Opts;
  Opts.Cxx = isCxxDriverName(Argv0);
  Opts.Fortran = isFortranDriverName(Argv0);
  // The command as given, without ompcc's options, is what a pass-through
  // runs: response files stay unexpanded there.
  std::vector<std::string> Given(Args.begin(), Args.end());
  extractDriverOptions(Given, Opts);
  const StringRef Name = Opts.Fortran ? "ompfc" : Opts.Cxx ? "ompc++" : "ompcc";
  if (Opts.Help) {
    printUsage(llvm::outs(), Opts);
    return 0;
  }
  if (Opts.StopServers)
    return OmpinstServerRunner::stopServers(llvm::outs(), Diagnostics, Name);
  if (Opts.Version) {
    llvm::outs() << Name << " (POMP toolkit) " << POMP_TOOLKIT_VERSION << ", POMP API "
                 << POMP_API_VERSION_TEXT << "\n";
    return 0;
  }
  llvm::Expected<std::vector<std::string>> Expanded = expandResponseFiles(Given);
  if (!Expanded) {
    Diagnostics << Name << ": error: " << llvm::toString(Expanded.takeError()) << "\n";
    return ExitFailure;
  }
  extractDriverOptions(*Expanded, Opts);
  // A misspelt setting must not quietly turn strict mode off.
  if (const char *Strict = std::getenv(StrictVariable)) {
    const StringRef Value = Strict;
    if (Value == "1")
      Opts.Strict = true;
    else if (!Value.empty() && Value != "0") {
      Diagnostics << Name << ": error: " << StrictVariable << "='" << Value
                  << "' is not a valid setting: use 1 (a source that cannot be instrumented is "
                     "an error) or 0 (it is compiled uninstrumented, with a warning)\n";
      return ExitFailure;
    }
  }

  if (const char *InProcess = std::getenv(InProcessVariable)) {
    const StringRef Value = InProcess;
    if (Value == "1")
      Opts.InProcessAsked = true;
    else if (Value == "0")
      Opts.InProcess = false;
    else if (!Value.empty()) {
      Diagnostics << Name << ": error: " << InProcessVariable << "='" << Value
                  << "' is not a valid setting: use 1 (instrument inside clang-"
                  << LLVM_VERSION_MAJOR << ") or 0 (ompinst, then the compiler)\n";
      return ExitFailure;
    }
  }

  if (const char *Overlap = std::getenv(OverlapVariable)) {
    const StringRef Value = Overlap;
    if (Value == "0")
      Opts.CompileBeside = false;
    else if (!Value.empty() && Value != "1" && Value != "always") {
      Diagnostics << Name << ": error: " << OverlapVariable << "='" << Value
                  << "' is not a valid setting: 0 (instrument, then compile), 1 or always "
                     "(compile while the file is instrumented)\n";
      return ExitFailure;
    }
  }

  llvm::Expected<std::optional<BuildCache>> Cache = BuildCache::fromEnvironment();
  if (!Cache) {
    Diagnostics << Name << ": error: " << llvm::toString(Cache.takeError()) << "\n";
    return ExitFailure;
  }

  std::vector<std::string> Compiler = realCompiler(Opts);
  if (Compiler.empty() || isThisDriver(Compiler.front(), ExecutablePath)) {
    Diagnostics << Name << ": error: the real compiler '" << llvm::join(Compiler, " ") << "' is "
                << Name << " itself; set " << CCompilerVariable << "/" << CxxCompilerVariable << "/"
                << FortranCompilerVariable
                << " or --cc= to gcc, clang-19, gfortran, flang-new-19, ...\n";
    return ExitFailure;
  }
  const ToolkitPaths Paths = findToolkit(ExecutablePath);
  llvm::Expected<std::optional<OmpinstServerRunner>> Server =
      OmpinstServerRunner::fromEnvironment(Paths.OmpinstClang, POMP_OMPCC_PARSER_LIBRARIES);
  if (!Server) {
    Diagnostics << Name << ": error: " << llvm::toString(Server.takeError()) << "\n";
    return ExitFailure;
  }
  if (Opts.PrintConfig) {
    llvm::outs() << "driver:    " << Name << " ("
                 << (Opts.Fortran ? "Fortran"
                     : Opts.Cxx   ? "C++"
                                  : "C")
                 << ")\n"
                 << "compiler:  " << llvm::join(Compiler, " ") << "\n"
                 << "ompinst:   " << Paths.Ompinst << "\n"
                 << "pomp-link: " << Paths.PompLink << "\n"
                 << "libdir:    " << Paths.LibDir << "\n"
                 << "includedir: " << Paths.IncludeDir << "\n"
                 << "fortrandir: " << Paths.FortranIncludeDir << "\n"
                 << "strict:    " << (Opts.Strict ? "yes" : "no") << "\n"
                 << "passthrough: " << (passThroughRequested() ? "yes" : "no") << "\n"
                 << "inprocess: " << (Opts.InProcess ? "yes" : "no") << " (with clang-"
                 << LLVM_VERSION_MAJOR << " and " << ClangPluginName << ")\n"
                 << "cache:     "
                 << (*Cache ? (*Cache)->directory() + " (at most " +
                                  std::to_string((*Cache)->maxSize()) + " bytes)"
                            : std::string("off"))
                 << "\n"
                 << "stamps:    " << toolkitStamps(Paths, Compiler) << "\n";
    return 0;
  }

  const CompilerCommand Command = parseCompilerCommand(*Expanded, Opts.Cxx);
  std::vector<std::string> Named;
  for (const Argument &Arg : Command.Args)
    if (Arg.Kind == ArgKind::Input || Arg.Kind == ArgKind::Output)
      Named.push_back(Arg.Value);
  std::string Reason;
  if (passThroughRequested())
    Reason = std::string(PassThroughVariable) + " is set";
  else if (Command.Pass != PassThrough::No)
    Reason = passThroughReason(Command.Pass);
  else if (isBuildSystemProbe(Named, currentDirectory()))
    Reason = "a build system's probe";
  if (!Reason.empty()) {
    if (Opts.Verbose)
      Diagnostics << Name << ": passing through (" << Reason << ")\n";
    std::vector<std::string> Argv = Compiler;
    llvm::append_range(Argv, Given);
    // The command is the one given (response files unexpanded): it needs
    // no response file of ours, so no temporary directory either.
    const int Status =
        CommandRunner(Name, Opts.Verbose, Diagnostics, /*Scratch=*/nullptr).run(Argv);
    // `ompcc --version` is the real compiler's answer, which build systems
    // read (its first line stays first), and then the toolkit's.
    if (Status == 0 && llvm::is_contained(Given, "--version"))
      llvm::outs() << Name << " (POMP toolkit) " << POMP_TOOLKIT_VERSION << ", POMP API "
                   << POMP_API_VERSION_TEXT << "\n";
    return Status;
  }

  llvm::Expected<TempDirectory> Temp =
      TempDirectory::create(Name, stableDirectoryKey(Name, Compiler, *Expanded));
  if (!Temp) {
    Diagnostics << Name << ": error: " << llvm::toString(Temp.takeError()) << "\n";
    return ExitFailure;
  }
  // flang compiles no C: ompfc's generated C goes to the C compiler.
  std::vector<std::string> CCompiler = Opts.Fortran ? generatedCCompiler() : Compiler;
  Driver D(Opts, Name, std::move(Compiler), std::move(CCompiler), Paths, Command, *Temp, *Cache,
           Diagnostics);
  if (*Server)
    D.useOmpinstServer(std::move(**Server));
  return Command.CompileOnly ? D.compileOnly() : D.compileAndLink();
}

} // namespace pomp::ompcc
