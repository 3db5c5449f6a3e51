//===- OverlappedCompile.h - The instrumentation beside the compile -*- C++ -*-===//
///
/// \file
/// The first compile of a file inside clang-19 parses its headers twice:
/// once for the instrumentation, once for the compile of the instrumented
/// text (issue 15: LULESH's first build cost 1.27 × the plain compile, the
/// instrumentation's parse 1.0 G of its 6.6 G instructions). The compile
/// cannot start before the instrumented text exists, but its first part can:
/// the instrumented text is the source with a fixed header (`_POMP` and a
/// `#line`) and edits that all lie after the source's `#include` block.
///
/// So the instrumentation runs on a thread of its own (ompinst's parse
/// exactly as without the overlap, writing the same files) while the
/// compile parses the source itself up to the end of its last `#include`
/// line, the header's effect given by a predefined `_POMP` and a line note.
/// There the compile waits for the instrumented text, checks that the part
/// it parsed is the text's, and goes on with the rest of the text, written
/// into its own buffer in place of the source's rest. The object is the one
/// the instrumented text compiles to; the diagnostics are the same, in the
/// same order (the compile's first part is held back until the
/// instrumentation's messages are out). Anything unexpected (the
/// instrumentation fails, the text differs, the trigger never comes) stops
/// the overlapped compile before it emits anything, and the plugin compiles
/// as without it.
/// docs/OMPCC.md, "The overlapped compile".
///
//===----------------------------------------------------------------------===//
#ifndef POMP_CLANG_PLUGIN_OVERLAPPEDCOMPILE_H
#define POMP_CLANG_PLUGIN_OVERLAPPEDCOMPILE_H

#include "pomp/instrumenter/Preamble.h"

#include "clang/Frontend/FrontendAction.h"
#include "llvm/ADT/FunctionExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/thread.h"

#include <memory>
#include <optional>
#include <string>

namespace clang {
class CompilerInstance;
class CompilerInvocation;
class DiagnosticConsumer;
class LangOptions;
} // namespace clang
namespace llvm {
class MemoryBuffer;
class raw_ostream;
} // namespace llvm

namespace pomp::plugin {

/// What the instrumentation beside the compile gave it.
struct BackgroundResult {
  /// False after the instrumentation's errors were reported.
  bool Succeeded = false;
  /// The instrumented text.
  std::string Text;
  /// The diagnostics the instrumentation counted, which the compiler's
  /// printer must count too (its summary line, the exit code).
  unsigned Warnings = 0;
  unsigned Errors = 0;
  /// What it would have printed on stderr, in order.
  std::string Messages;
};

/// Runs the instrumentation on a thread of its own while the compile goes on
/// in the calling thread. The work must touch nothing the compile uses but
/// what is safe to share (the file system, read-only options): it prints
/// into its result, never to the compiler's printer or stderr. A thread,
/// not a forked process: after fork() every page either process writes is
/// copied first, which cost a small C file more than its headers' parse.
class BackgroundInstrumentation {
public:
  BackgroundInstrumentation() = default;
  BackgroundInstrumentation(const BackgroundInstrumentation &) = delete;
  BackgroundInstrumentation &operator=(const BackgroundInstrumentation &) = delete;
  /// Joins a thread that was never waited for.
  ~BackgroundInstrumentation();

  /// True when a second thread can run beside the compile: more than one
  /// CPU to run on, one of them idle; Why says why not.
  static bool canOverlap(std::string &Why);

  /// Starts Work on a thread with Clang's stack size.
  void start(llvm::unique_function<BackgroundResult()> Work);
  /// Waits for the result (once).
  BackgroundResult wait();

private:
  llvm::unique_function<BackgroundResult()> Work;
  std::optional<BackgroundResult> Result;
  std::unique_ptr<llvm::thread> Thread;
};

/// Precompiles a preamble on a thread of its own while the compile goes on:
/// a preamble seen before is precompiled after the instrumentation, beside
/// the compile's rest (issue 15: precompiled before the compile, LULESH's
/// second build cost 1.53 × plain). The compile waits for it at its end:
/// the process must not exit while it is written, and a deterministic build
/// leaves the same cache.
class BackgroundPrecompile {
public:
  using Work = llvm::unique_function<void(llvm::raw_ostream &Messages)>;

  BackgroundPrecompile() = default;
  BackgroundPrecompile(const BackgroundPrecompile &) = delete;
  BackgroundPrecompile &operator=(const BackgroundPrecompile &) = delete;
  /// finish(), when it was not called.
  ~BackgroundPrecompile();

  /// Starts Precompile on a thread with Clang's stack size (once).
  void start(Work Precompile);
  /// Waits for it and returns what it said.
  std::string finish();

private:
  Work Precompile;
  std::string Messages;
  std::unique_ptr<llvm::thread> Thread;
};

/// The source's text as the overlapped compile reads it: the source, then
/// room for the instrumented text's longer rest (spaces up to a final
/// newline, which the lexer skips). The buffer's size is fixed when the
/// compile creates its main file (its source locations are allotted then),
/// so the rest is written into the same bytes.
class SplicedSource {
public:
  SplicedSource(llvm::StringRef Source, llvm::StringRef Name);
  ~SplicedSource();

  /// The buffer the compile reads as its main file (owned here).
  llvm::MemoryBuffer &buffer() { return *Buffer; }
  /// Replaces everything from At on by Rest; false when Rest does not fit.
  bool splice(std::size_t At, llvm::StringRef Rest);

private:
  std::unique_ptr<char[]> Bytes;
  std::size_t Capacity = 0;
  std::unique_ptr<llvm::MemoryBuffer> Buffer;
};

/// The text that ompinst puts before the source's own (after a byte-order
/// mark): `_POMP`, then the `#line` that names the file by Name.
std::string instrumentedTextHeader(llvm::StringRef Name);

/// The last `#include` line of a source's preamble (the leading block of
/// directives that ompinst leaves as it is): the offset of its `#` and of
/// the start of the line after it.
struct PreambleInclude {
  std::size_t Hash = 0;
  std::size_t LineEnd = 0;
};

/// The `#include` line after which the overlapped compile waits for the
/// instrumented text; nullopt when the preamble has none outside a
/// conditional block.
std::optional<PreambleInclude> lastPreambleInclude(const clang::LangOptions &Lang,
                                                   llvm::StringRef Source);

/// The name ompinst's `#line` gives Source (FileInstrumentation: the
/// parse's absolute name without `.` components).
std::string instrumentedName(llvm::StringRef Source);

/// How much of the instrumented text Instrumented is the source's own text
/// Source (named Name) up to the end of its last preamble `#include`, with
/// the header before it: the end of that line in Instrumented; nullopt when
/// the source has no such `#include` or Instrumented does not start so.
/// What the overlapped compile parses before it waits, and what the
/// compile's precompiled preamble may hold before the instrumented text is
/// known.
std::optional<std::size_t> sharedPrefixEnd(const clang::LangOptions &Lang, llvm::StringRef Source,
                                           llvm::StringRef Name, llvm::StringRef Instrumented);

/// Adds diagnostics counted elsewhere (the instrumentation's) to Printer:
/// its summary line ("N warnings generated") and the compiler's exit status
/// count them.
void addCounts(clang::DiagnosticConsumer &Printer, unsigned Warnings, unsigned Errors);

/// How an overlapped compile ended.
enum class OverlapOutcome {
  /// The compile ran on the instrumented text; nothing more to do.
  Compiled,
  /// The instrumentation failed; its errors were reported.
  InstrumentationFailed,
  /// The instrumented text is in Text, its messages are out: compile it as
  /// without the overlap.
  CompileText,
  /// Nothing was printed or counted: instrument and compile as without it.
  Restart,
};

/// Runs the compile of one source in Compile's options alongside its
/// instrumentation. RunCompile compiles: it gets the main file's buffer
/// to remap the source to, the options to compile with, a wrapper for the
/// compile's action and one for the diagnostics client it would show
/// through.
class OverlappedCompile {
public:
  /// Wraps the compile's frontend action.
  using ActionWrapper = llvm::unique_function<std::unique_ptr<clang::FrontendAction>(
      std::unique_ptr<clang::FrontendAction>)>;
  /// Wraps the diagnostics client the compile shows through.
  using ClientWrapper =
      llvm::unique_function<clang::DiagnosticConsumer &(clang::DiagnosticConsumer &)>;
  using CompileRunner =
      llvm::function_ref<void(std::shared_ptr<clang::CompilerInvocation>, llvm::MemoryBuffer &,
                              ActionWrapper, ClientWrapper)>;

  /// Always: overlap also where no CPU is idle (the tests' setting).
  OverlappedCompile(clang::CompilerInstance &Outer, std::string Source, bool Verbose, bool Always)
      : Outer(Outer), Source(std::move(Source)), Verbose(Verbose), Always(Always) {}

  /// Why the compile of Compile's source cannot overlap its instrumentation
  /// (its options, the source); empty when it can.
  std::string whyNot(const clang::CompilerInvocation &Compile);

  /// Starts the instrumentation (Instrument), then the compile (RunCompile) of
  /// Compile's one source. Text is set with Compiled and CompileText;
  /// Spliced gets it when the compile goes on with it, before the compile's
  /// held diagnostics come out (where a compile after the instrumentation
  /// would start).
  OverlapOutcome run(const clang::CompilerInvocation &Compile,
                     llvm::unique_function<BackgroundResult()> Instrument, CompileRunner RunCompile,
                     llvm::unique_function<void(llvm::StringRef)> Spliced, std::string &Text);

  /// After run() gave Compiled: how long the compile took to go on with the
  /// instrumented text, and after that.
  const std::optional<inst::OverlapTimes> &times() const { return Times; }

  /// Says, with --verbose, what the overlapped compile did.
  void say(const llvm::Twine &Message) const;

  /// After whyNot() said nothing: the start of every instrumented text of
  /// the source, its header and the source up to the end of its last
  /// preamble `#include` (sharedPrefixEnd()).
  std::string sharedPrefix() const;

private:
  clang::CompilerInstance &Outer;
  const std::string Source;
  const bool Verbose;
  const bool Always;
  /// Read by whyNot(): the source's text and its last `#include` line.
  std::string Original;
  PreambleInclude LastInclude;
  std::optional<inst::OverlapTimes> Times;
};

} // namespace pomp::plugin

#endif // POMP_CLANG_PLUGIN_OVERLAPPEDCOMPILE_H
