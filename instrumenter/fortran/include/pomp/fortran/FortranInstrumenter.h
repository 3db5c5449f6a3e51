//===- pomp/fortran/FortranInstrumenter.h - ompinst for Fortran -*- C++ -*-===//
///
/// \file
/// The Fortran front end of ompinst: parses a Fortran file (free or fixed
/// form, preprocessed for the upper-case suffixes) with Flang's parser, finds
/// its OpenMP constructs in the parse tree and spells the shared construct
/// model's plans (instrumenter/model) as Fortran: `call POMP_<event>(...)`
/// statements with the paper's Fortran bindings, the handles in a common
/// block, the file's POMP_Init_<id> as a bind(C) subroutine at its end.
/// docs/INSTRUMENTER.md, "Fortran", says what each construct becomes.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_FORTRAN_FORTRANINSTRUMENTER_H
#define POMP_FORTRAN_FORTRANINSTRUMENTER_H

#include "pomplib.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::fortran {

/// What to instrument and how.
struct Options {
  /// Level of each group (POMP_GROUP_* -> POMP_LEVEL_*).
  std::array<int, POMP_GROUP_COUNT> Levels{};
  /// Emit `# <line> "<file>"` line markers after inserted lines, so that
  /// compiler messages and debug info keep the original line numbers.
  bool LineDirectives = true;
  /// The compiler flags after `--`: -D, -U, -I, -cpp/-nocpp,
  /// -ffixed-form/-ffree-form are read; the rest is ignored.
  std::vector<std::string> CompilerFlags;
  /// `--functions`: Function_begin/end (or Function_event) in every
  /// subroutine and function body whose qualified name (`mod::sub`,
  /// `outer::inner`, lower case) matches FunctionFilter (empty: all) and
  /// not FunctionExclude (empty: none).
  bool InstrumentFunctions = false;
  std::string FunctionFilter;
  std::string FunctionExclude;
  /// `--thread-ids`: the events get `pomp_tid()` (the runtime's
  /// omp_get_thread_num) as their thread_id where OpenMP allows runtime
  /// calls; off: -1 everywhere (POMP_API.md, "The thread_id argument").
  bool ThreadIds = false;
};

/// The instrumentation of one file.
struct Result {
  std::string Output;
  /// OpenMP constructs rewritten.
  unsigned ConstructsInstrumented = 0;
  /// Procedures given a function region (`--functions`).
  unsigned FunctionsInstrumented = 0;
  /// OpenMP directives Flang's parser rejects, hidden from the parse and
  /// left as written (each with a warning).
  unsigned DirectivesHidden = 0;
  /// Their warnings (file:line: warning: ...), one per line: printed also
  /// with --quiet (which ompfc passes), since nothing else says it.
  std::string HiddenWarnings;
  /// Warnings (file:line: warning: ...), one per line.
  std::string Warnings;
};

/// True for the suffixes ompinst reads as Fortran: .f90 .F90 .f95 .F95 .f03
/// .F03 .f08 .F08 .f .F .for .FOR .ftn .FTN.
bool isFortranSource(std::string_view Path);

/// True for the fixed-form suffixes (.f .F .for .FOR .ftn .FTN).
bool isFixedFormSource(std::string_view Path);

/// Instruments the file at Path. On error returns false with the compiler's
/// messages (file:line) in Errors; Out is left unchanged.
bool instrumentFile(const std::string &Path, const Options &Opts, Result &Out, std::string &Errors);

} // namespace pomp::fortran

#endif // POMP_FORTRAN_FORTRANINSTRUMENTER_H
