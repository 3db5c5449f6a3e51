//===- pomp/instrumenter/Preamble.h - A precompiled preamble for ompinst -*- C++ -*-===//
///
/// \file
/// Most of a C++ file's parse is the parse of its headers (issue 15). As
/// clangd does, ompinst can compile the main file's preamble (its leading
/// block of #include and #define lines) once into a PCH and load it in later
/// parses of files that start with the same text (docs/INSTRUMENTER.md,
/// "The preamble cache"). This part says which block may be precompiled
/// and watches the parse that precompiles it for what the instrumentation
/// would miss when it is loaded instead of parsed; the cache is
/// PreambleCache.h.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_PREAMBLE_H
#define POMP_INSTRUMENTER_PREAMBLE_H

#include "pomp/instrumenter/DiagnosticFilter.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class DiagnosticsEngine;
class LangOptions;
} // namespace clang

namespace pomp::inst {

/// Where a preamble's entry in the cache stands (PreambleCache.h).
enum class EntryState {
  /// None: the preamble was never parsed (or compiled), or the cache is off.
  Missing,
  /// Seen once, or damaged: the next parse or compile precompiles it.
  Pending,
  /// Precompiled (or known to be unusable): later ones load it.
  Stored,
};

/// How the first compile of a preamble went when it overlapped its
/// instrumentation (clang-plugin/OverlappedCompile.h): milliseconds until
/// the compile went on with the instrumented text (its headers' parse, and
/// any wait), and after that (the rest of the compile). Its pending entry
/// keeps them: the second compile precompiles beside its rest only when
/// that rest is long enough to hide the precompiles.
struct OverlapTimes {
  unsigned long SpliceMs = 0;
  unsigned long RestMs = 0;
};

/// The part of the main file's text that may be precompiled: Clang's
/// preamble (the leading directives and comments, Lexer::ComputePreamble),
/// cut before the first directive the instrumentation reads itself or that
/// would tie the preamble to the main file's lines: `#pragma` (`#pragma
/// pomp`, `#pragma omp declare ...`), a `_Pragma` or `__pragma` operator, a
/// `#define` with an identifier that holds `omp` or `pragma` in any case
/// (directives written as macros), `#line` and line markers; and never
/// inside a conditional block. Size 0: nothing to precompile.
clang::PreambleBounds precompilableBounds(const clang::LangOptions &Lang, llvm::StringRef Text);

/// The part of an instrumented text that its compile may load precompiled
/// (CompilePreamble.h): as precompilableBounds(), but `#line` (which the
/// instrumented text starts with; at conditional depth 0) and `#define`s of
/// directives stay in. A loaded PCH does not carry the main file's `#line`
/// past its end: LineAfter is then the `#line` that restates where the
/// compile is at the preamble's end, which goes there (empty without one).
clang::PreambleBounds compileBounds(const clang::LangOptions &Lang, llvm::StringRef Text,
                                    std::string &LineAfter);

/// Watches the parse that precompiles a preamble: the bodies of its
/// functions are skipped, as ompinst skips those of headers without OpenMP;
/// the names of the macros whose expansion holds `_Pragma` are kept for the
/// parses that load the PCH (Options::PreamblePragmaMacros); and a preamble
/// that pulls in a header of the project which may hold OpenMP directives,
/// or that fails to parse, must not be used (whyNot()): such a header's
/// constructs are instrumented, which needs its parse and its #include
/// lines.
class PreambleWatcher : public clang::PreambleCallbacks {
public:
  PreambleWatcher();
  ~PreambleWatcher() override;

  void BeforeExecute(clang::CompilerInstance &CI) override;
  std::unique_ptr<clang::PPCallbacks> createPPCallbacks() override;
  void AfterExecute(clang::CompilerInstance &CI) override;
  bool shouldSkipFunctionBody(clang::Decl *) override { return true; }

  /// Empty when the PCH can replace the preamble's parse; else why not.
  std::string whyNot() const;
  /// The macros whose expansion holds a `_Pragma` operator.
  std::vector<std::string> pragmaMacros() const;

private:
  struct State;
  std::shared_ptr<State> S;
};

/// Wraps the diagnostics client of a parse or compile that loads a
/// precompiled preamble: the errors of loading it (a stale, corrupt or
/// foreign file) are not shown but noted (failed()), so that the caller
/// parses again without it; every other diagnostic passes on, printed with
/// the include stack it has without the PCH. Clang's ASTReader gives the
/// preamble's FileID (the PCH's copy of the main file's first bytes) the
/// main file's start as its include location, so a diagnostic in a header
/// the preamble includes, given after the preamble (a declaration that a
/// later definition conflicts with, a template instantiated by the main
/// file), printed "In file included from x.c:1:" above the stack. While a
/// diagnostic passes on, that FileID reads as included from nowhere, as the
/// main file it stands for; the parse's own order of locations, which goes
/// by the include location, is left as it is.
class PreambleLoadErrors : public DiagnosticFilter {
public:
  /// Wraps Diags' client; Diags owns the result. OnFailure runs at the
  /// first error of loading the preamble.
  static PreambleLoadErrors &install(clang::DiagnosticsEngine &Diags,
                                     std::function<void()> OnFailure);

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  PreambleLoadErrors(clang::DiagnosticsEngine &Diags, std::function<void()> OnFailure)
      : DiagnosticFilter(Diags), OnFailure(std::move(OnFailure)) {}

  std::function<void()> OnFailure;
  bool Failed = false;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_PREAMBLE_H
