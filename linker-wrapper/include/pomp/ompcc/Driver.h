//===- pomp/ompcc/Driver.h - The ompcc/ompc++ compiler driver -----*- C++ -*-===//
///
/// \file
/// ompcc and ompc++ stand in for the C and C++ compiler of a build: each
/// C/C++ source is instrumented with ompinst and the result compiled by the
/// real compiler; a link gets pomp-link's handle initialisation and libpomp.
/// Everything that needs no instrumentation goes to the real compiler as it
/// is. docs/OMPCC.md describes the behaviour; this is the library the thin
/// ompcc tool calls.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_DRIVER_H
#define POMP_OMPCC_DRIVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace pomp::ompcc {

/// Where the parts of the toolkit are, found relative to the driver's own
/// executable (an installed or moved toolkit: <prefix>/bin, <prefix>/lib,
/// <prefix>/include) or, failing that, in the build tree it was built in.
struct ToolkitPaths {
  /// The ompinst and pomp-link executables.
  std::string Ompinst;
  std::string PompLink;
  /// ompinst's C/C++ program, which ompinst runs for a C/C++ file: ompcc
  /// runs it directly and saves that step (docs/INSTRUMENTER.md).
  std::string OmpinstClang;
  /// The directory of libpomp.so and libpomp.a.
  std::string LibDir;
  /// The directory of pomplib.h.
  std::string IncludeDir;
  /// The directory of the Fortran include file pomp_lib.h and the module
  /// source pomp_lib.f90 (docs/FORTRAN.md).
  std::string FortranIncludeDir;
  /// The driver's own executable: it pre-links plain objects itself, so it
  /// is part of the key of a cached link (docs/OMPCC.md, "The pre-link").
  std::string Driver;
};

/// Finds the toolkit for the driver at ExecutablePath.
ToolkitPaths findToolkit(llvm::StringRef ExecutablePath);

/// ompcc's own options, taken out of the command line before the real
/// compiler sees it.
struct DriverOptions {
  /// Behave as ompc++: the real compiler is the C++ one, .c files are C++.
  bool Cxx = false;
  /// Behave as ompfc (ompf90, ompf77): the real compiler is the Fortran one.
  bool Fortran = false;
  /// --keep: keep the instrumented sources (and the generated init source).
  bool Keep = false;
  /// -v: print every command run (-v also goes to the real compiler).
  bool Verbose = false;
  /// --ompcc-help: print ompcc's usage.
  bool Help = false;
  /// --ompcc-print-config: print the toolkit paths and the real compiler.
  bool PrintConfig = false;
  /// --ompcc-stop-servers: stop this user's ompinst servers, compile nothing.
  bool StopServers = false;
  /// --ompcc-version: the toolkit's version, not the real compiler's.
  bool Version = false;
  /// --ompcc-strict or OMPCC_STRICT=1: a source that cannot be instrumented
  /// is an error, not an uninstrumented object with a warning.
  bool Strict = false;
  /// With clang-19 as the real compiler, instrument and compile in the
  /// compiler's own process (libpomp-clang-plugin.so, docs/OMPCC.md,
  /// "Instrumenting inside clang-19"): the default; OMPCC_INPROCESS=0 turns
  /// it off.
  bool InProcess = true;
  /// OMPCC_INPROCESS=1: asked for, so -v says why a file does not take it
  /// also when the real compiler is not clang-19.
  bool InProcessAsked = false;
  /// With gcc as the real compiler, compile a file's `#include` block while
  /// ompinst instruments it (docs/OMPCC.md, "With gcc"): the default;
  /// OMPINST_OVERLAP=0 turns it off, as it turns off clang-19's overlapped
  /// compile.
  bool CompileBeside = true;
  /// --cc=<compiler>: the real compiler for this command.
  std::optional<std::string> Compiler;
  /// --ompinst-arg=<arg>: passed to ompinst (--functions, --level=...).
  std::vector<std::string> OmpinstArgs;
};

/// Exit status for ompcc's own failures (the real compiler's status is
/// returned as it is).
inline constexpr int ExitFailure = 1;

/// Takes ompcc's options out of Args and adds them to Options.
void extractDriverOptions(std::vector<std::string> &Args, DriverOptions &Options);

/// Whether the executable name (argv[0]) asks for the C++ driver: a name
/// ending in "++" or "cxx" (ompc++, ompcxx).
bool isCxxDriverName(llvm::StringRef Argv0);

/// Whether the executable name asks for the Fortran driver: ompfc, ompf77,
/// ompf90, ompf95, ompfort.
bool isFortranDriverName(llvm::StringRef Argv0);

/// Writes the usage text of ompcc, ompc++ or ompfc.
void printUsage(llvm::raw_ostream &OS, const DriverOptions &Options);

/// Runs one compiler command: Argv0 is the name the driver was called by
/// (it chooses C, C++ or Fortran), ExecutablePath the driver's own file (the toolkit
/// is found relative to it), Args the rest of the command line. Returns the
/// exit status: the real compiler's, or ExitFailure for ompcc's own errors
/// (printed to Diagnostics as "ompcc: error: ...").
int runDriver(llvm::StringRef Argv0, llvm::StringRef ExecutablePath,
              llvm::ArrayRef<std::string> Args, llvm::raw_ostream &Diagnostics);

} // namespace pomp::ompcc

#endif // POMP_OMPCC_DRIVER_H
