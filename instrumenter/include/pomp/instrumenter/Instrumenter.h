//===- pomp/instrumenter/Instrumenter.h - POMP source instrumentation -*- C++ -*-===//
///
/// \file
/// The library behind `ompinst`: parses a C/C++ file with Clang 19 in OpenMP
/// mode and rewrites every OpenMP construct of its main file into POMP API
/// calls (paper section 3.3 and Appendix C), with CTC strings (section 3.2)
/// and the file's POMP_Init_<id>() (Appendix B).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_INSTRUMENTER_H
#define POMP_INSTRUMENTER_INSTRUMENTER_H

#include "pomp/model/Levels.h"
#include "pomplib.h"

#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clang::tooling {
class FrontendActionFactory;
} // namespace clang::tooling

namespace pomp::inst {

/// What to instrument and how.
struct Options {
  GroupLevels Levels = defaultGroupLevels();
  /// Emit `#line` directives so diagnostics and debug info point at the
  /// original file and line.
  bool LineDirectives = true;
  /// Insert Function_begin/end into every function definition of the main
  /// file whose name matches FunctionFilter (an LLVM regex; empty: all).
  bool InstrumentFunctions = false;
  std::string FunctionFilter;
  /// Functions whose qualified name matches this LLVM regex are left out,
  /// also when FunctionFilter selects them (empty: none).
  std::string FunctionExclude;
  /// Where the instrumented copies of the project's own headers go
  /// (HeaderCopy::Path); required when a header holds OpenMP constructs.
  std::string HeaderDirectory;
  /// Rewrite the OpenMP directives that are not `#pragma omp` lines
  /// (attributes, `_Pragma` operators, macros expanding to them) into such
  /// lines: the parse then yields FileResult::Rewritten instead of the
  /// instrumentation, and the caller parses again with those texts in place
  /// of the files and this off.
  bool RewriteDirectiveForms = true;
  /// Paste a header that holds only a directive into the file that
  /// includes it right before the directive's statement (DirectiveHeaders.h):
  /// the parse then yields FileResult::Rewritten too. nextRewritingParse()
  /// says what the next parse rewrites.
  bool PasteDirectiveHeaders = true;
  /// The real compiler ignores C's directives in the attribute syntax (gcc
  /// warns that the `omp::directive` attribute is ignored): they are left
  /// as they are, with a warning, instead of becoming #pragma lines that it
  /// would obey, so that the instrumented program runs as the original
  /// does. C++ is not concerned (gcc 12 knows the attributes there).
  bool CompilerIgnoresCAttributes = false;
  /// Skip the bodies of the main file's functions that hold no OpenMP
  /// directive, API call or macro that may expand to one (BodySkipping.h):
  /// they produce no edit, so the output is the same (issue 15). Off with
  /// --functions, which edits every body.
  bool SkipPlainBodies = true;
  /// The parse loads a precompiled preamble (Preamble.h): the errors of
  /// loading it are not shown but noted in the ResultSink.
  bool PreambleInUse = false;
  /// The macros of the precompiled preamble whose expansion holds a
  /// `_Pragma` operator, as its parse found them (PreambleWatcher).
  std::vector<std::string> PreamblePragmaMacros;
  /// Pass omp_get_thread_num() as the events' thread_id where OpenMP allows
  /// runtime calls, as the paper's examples do; off: -1 ("not available")
  /// everywhere, since libpomp identifies threads itself (POMP_API.md,
  /// "The thread_id argument").
  bool ThreadIds = false;
};

/// The instrumented copy of one of the project's own headers: the main
/// file's output (and other copies) include it in place of the original.
struct HeaderCopy {
  /// The header as the compiler opened it, absolute.
  std::string Original;
  /// Where the copy must be written: below Options::HeaderDirectory.
  std::string Path;
  std::string Text;
};

/// The instrumentation of one file.
struct FileResult {
  std::string Output;
  /// Copies of the headers the output includes instead of the originals.
  std::vector<HeaderCopy> Headers;
  /// OpenMP constructs rewritten, in the main file and in headers.
  unsigned ConstructsInstrumented = 0;
  /// Of those, the ones in the project's own headers.
  unsigned ConstructsInHeaders = 0;
  /// OpenMP constructs of headers that cannot be rewritten (included from a
  /// system header or by -include), each reported with a warning.
  unsigned ConstructsLeftInHeaders = 0;
  /// OpenMP constructs left alone because a macro produced them and they
  /// cannot be taken out of its expansion.
  unsigned ConstructsFromMacros = 0;
  /// OpenMP constructs left alone because they are not `#pragma omp` lines
  /// and cannot be rewritten into one: metadirectives, and the attribute
  /// syntax or `_Pragma` operators where no pragma line can go.
  unsigned ConstructsNotPragmaLines = 0;
  /// OpenMP constructs left alone because their directive and their
  /// statement are in different files (a header with the directive only,
  /// #included inside a function): no one file's edits can surround them.
  unsigned ConstructsAcrossFiles = 0;
  /// When not empty, nothing else is set: the files (absolute names as the
  /// compiler opened them) whose directives must be rewritten first, with
  /// their rewritten texts (Options::RewriteDirectiveForms).
  std::map<std::string, std::string> Rewritten;
  /// With Rewritten: empty files that stand in for the headers pasted into
  /// the rewritten texts (DirectiveHeaders.h), #included where each header
  /// was, so that the compile's dependency file names them (and ompcc, by
  /// pomp-headers.map, the header). They are in Rewritten too, for the
  /// second parse; the caller adds them to the final result's Headers.
  std::vector<HeaderCopy> StandIns;
};

/// The value ompinst gives `_POMP` (paper section 3.7): the version of the
/// POMP API implemented, as a long constant (`202611L`).
std::string pompVersionValue();
/// The text ompinst's output of a C/C++ file starts with (after a UTF-8
/// byte-order mark): `_POMP` defined unless the compile defined it. With
/// Options::LineDirectives the `#line` that gives the file's own lines and
/// name follows it.
std::string pompVersionDefinition();

/// The line ompinst prints after a file some of whose constructs were left
/// as they are ("ompinst: <Source>: N OpenMP constructs instrumented ...;
/// not instrumented: ..."), ending in a newline; empty when none was.
std::string leftAloneSummary(const std::string &Source, const FileResult &Result);

/// Collects the results of a ClangTool run, keyed by main-file path.
class ResultSink {
public:
  void add(std::string MainFile, FileResult Result);
  const std::map<std::string, FileResult> &results() const { return Results; }
  /// Set when the parse could not load its precompiled preamble: the
  /// caller parses again without it.
  void notePreambleFailed() { PreambleFailed = true; }
  bool preambleFailed() const { return PreambleFailed; }

private:
  std::map<std::string, FileResult> Results;
  bool PreambleFailed = false;
};

/// Opts for the parse after one that yielded FileResult::Rewritten:
/// directive forms are rewritten first, then the headers that hold only a
/// directive are pasted into the rewritten texts, then nothing: a file is
/// parsed at most three times.
void nextRewritingParse(Options &Opts);

/// A FrontendActionFactory for clang::tooling::ClangTool::run: parses each
/// file and stores its instrumented text in Sink. A file whose parse has
/// errors (or whose POMP pragmas are wrong) yields no result and makes run()
/// return non-zero.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newInstrumentActionFactory(const Options &Opts, ResultSink &Sink);

/// Compiler arguments ompinst adds to every parse: OpenMP mode, _POMP, and
/// Clang 19's resource directory (found without the user passing it).
std::vector<std::string> parseArguments(std::string_view ExecutablePath);

/// The Clang resource directory used for parsing (its include/ holds omp.h
/// and the builtin headers): $POMP_CLANG_RESOURCE_DIR, else the one of an
/// installed toolkit next to the executable, else Clang 19's own.
std::string clangResourceDir(std::string_view ExecutablePath);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_INSTRUMENTER_H
