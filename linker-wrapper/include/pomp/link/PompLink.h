//===- pomp/link/PompLink.h - The pomp-link pre-linker ----------*- C++ -*-===//
///
/// \file
/// pomp-link, the pre-linker of paper Appendix B, as a library: its command
/// line, its run, and its steps (generate the source of POMP_Init_Handles()
/// or of a shared library's constructor, write a file atomically, compile a
/// C file). The pomp-link tool is a thin main() around runPompLink; ompcc
/// runs the same code in its own process when every input is a plain ELF
/// object (ElfObjectScanner.h), else the tool (docs/OMPCC.md).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_LINK_POMPLINK_H
#define POMP_LINK_POMPLINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <string_view>
#include <vector>

namespace pomp::link {

class UnitScanner;

/// Exit statuses of pomp-link.
inline constexpr int ExitSuccess = 0;
/// An input could not be read, an init function is defined twice, the output
/// could not be written or the compiler failed.
inline constexpr int ExitFailure = 1;
/// The command line is wrong.
inline constexpr int ExitUsage = 2;
/// --strict, and a source of the link was compiled uninstrumented.
inline constexpr int ExitNotInstrumented = 3;
/// --object --else-source=<file>: the link needs code that a table cannot
/// hold (or a machine pomp-link writes no objects for), so the C source was
/// written to <file> for the caller to compile; no object was written.
inline constexpr int ExitNeedsCompiler = 4;

/// The error of --strict when a source was compiled uninstrumented; the
/// summary line already said which.
class NotInstrumentedError : public llvm::ErrorInfo<NotInstrumentedError> {
public:
  static char ID;
  void log(llvm::raw_ostream &OS) const override { OS << "sources not instrumented"; }
  std::error_code convertToErrorCode() const override { return llvm::inconvertibleErrorCode(); }
};

/// The compiler --compile runs when --cc is not given.
inline constexpr std::string_view DefaultCompiler = "cc";

/// What the command line asks for.
struct Options {
  /// Objects, archives, shared libraries, bitcode files, in link order.
  std::vector<std::string> Inputs;
  /// -o: the generated C file, or with Compile the object file; "" for none.
  std::string Output;
  /// --print-source: also write the generated C source to stdout.
  bool PrintSource = false;
  /// --compile: compile the generated source into the object Output.
  bool Compile = false;
  /// --object: write the object Output without a compiler: the table of
  /// init functions that libpomp's POMP_Init_Handles() walks
  /// (InitTableObject.h). Where the link needs code or its machine is not
  /// supported, an error, or with ElseSource the C source written there.
  bool Object = false;
  /// --else-source=<file>: with Object, where the C source goes when no
  /// object can be written (exit status ExitNeedsCompiler).
  std::string ElseSource;
  /// --cc=<compiler>: the compiler for --compile (a name looked up on PATH,
  /// or a path).
  std::string Compiler = std::string(DefaultCompiler);
  /// --cc-arg=<arg>, repeatable: extra compiler arguments for --compile
  /// (-m32, -fPIC, --target=...).
  std::vector<std::string> CompilerArgs;
  /// --shared-library: the inputs are those of a shared library; generate
  /// the constructor that binds its handles when it is loaded
  /// (SharedLibraryInit.h) instead of POMP_Init_Handles().
  bool SharedLibrary = false;
  /// -v: list each input, the units read and the init functions found.
  bool Verbose = false;
  /// --strict: a source compiled uninstrumented is an error.
  bool Strict = false;
  /// --report-as=<name>: the program named in the summary line.
  std::string ReportAs = "pomp-link";
  /// -h, --help: print the usage and do nothing else.
  bool Help = false;
  bool Version = false; ///< --version: print the toolkit's version
};

/// Writes pomp-link's usage text (the --help output) to OS.
void printUsage(llvm::raw_ostream &OS);

/// Parses pomp-link's arguments (without the program name). A usage error
/// (unknown option, missing value, no inputs, nothing to write) is returned
/// as an Error saying what is wrong.
llvm::Expected<Options> parseArguments(llvm::ArrayRef<std::string_view> Args);

/// Reads the inputs and returns the C source of POMP_Init_Handles() calling
/// the init functions of their objects and bitcode, sorted by name. With
/// Verbose, lists every unit and what was found in it; warnings (an input
/// whose init functions cannot be read, no init function at all) always go
/// to Diagnostics. Errors name the input.
llvm::Expected<std::string> generateProgramInit(llvm::ArrayRef<std::string> Inputs, bool Verbose,
                                                llvm::raw_ostream &Diagnostics);

/// The source Opts asks for (POMP_Init_Handles() or, with SharedLibrary,
/// the library's constructor), after the one summary line naming the
/// sources compiled uninstrumented; with Strict, such a source is a
/// NotInstrumentedError. When no instrumented unit of a program defines
/// main, the program's source also starts the measurement.
llvm::Expected<std::string> generateInit(const Options &Opts, llvm::raw_ostream &Diagnostics);

/// Like generateProgramInit, for the inputs of a shared library: returns the
/// C source of a constructor that calls their init functions when the
/// library is loaded. No init function at all is no warning here: a library
/// without OpenMP has none, and its constructor is empty.
llvm::Expected<std::string> generateSharedLibraryInit(llvm::ArrayRef<std::string> Inputs,
                                                      bool Verbose, llvm::raw_ostream &Diagnostics);

/// What pomp-link generates for a link: the C source, and the data that
/// --object writes as an object instead.
struct GeneratedInit {
  /// The C source of POMP_Init_Handles() (or of the shared library's
  /// constructor), with the start-up constructor when one is needed.
  std::string Source;
  /// The init functions to call, in order.
  std::vector<std::string> InitFunctions;
  /// Why the link's initialisation cannot be a table: it needs code (a
  /// shared library's constructor, the start of the measurement without an
  /// instrumented main) or the inputs' machine is not supported. Empty when
  /// it can; then ObjectBytes holds the object.
  std::string NoObjectReason;
  /// The object of --object (InitTableObject.h), when NoObjectReason is empty.
  std::string ObjectBytes;
};

/// generateInit's source, with the object that --object writes or the reason
/// why there is none.
llvm::Expected<GeneratedInit> generateInitAndTable(const Options &Opts,
                                                   llvm::raw_ostream &Diagnostics);
/// The same, reading the inputs with Scanner: ompcc's ElfObjectScanner for a
/// link of plain objects, InitFunctionScanner for every kind of input.
llvm::Expected<GeneratedInit> generateInitAndTable(const Options &Opts, UnitScanner &Scanner,
                                                   llvm::raw_ostream &Diagnostics);

/// Replaces the file Path with Contents atomically: a temporary file in the
/// same directory, renamed over Path. On failure Path is untouched.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// Compiles the C source Source with `Compiler CompilerArgs... -c` into the
/// object file Output, replacing it atomically. The compiler's diagnostics go
/// to stderr.
llvm::Error compileToObject(llvm::StringRef Source, llvm::StringRef Compiler,
                            llvm::ArrayRef<std::string> CompilerArgs, llvm::StringRef Output);

/// Runs pomp-link as Opts says: generated source to Out with --print-source;
/// messages ("pomp-link: error: ...") to Err. Returns the exit status.
int runPompLink(const Options &Opts, llvm::raw_ostream &Out, llvm::raw_ostream &Err);
/// The same, reading the inputs with Scanner (ompcc's own pre-link).
int runPompLink(const Options &Opts, UnitScanner &Scanner, llvm::raw_ostream &Out,
                llvm::raw_ostream &Err);

} // namespace pomp::link

#endif // POMP_LINK_POMPLINK_H
