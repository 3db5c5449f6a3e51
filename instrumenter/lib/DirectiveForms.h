//===- DirectiveForms.h - OpenMP directives not written as #pragma -*- C++ -*-===//
///
/// \file
/// Every construct handler edits a `#pragma omp` line of its own. OpenMP
/// directives can also be written as OpenMP 5.1 attributes
/// (`[[omp::directive(...)]]`, `[[omp::sequence(...)]]`), as a
/// `_Pragma("omp ...")` operator, or come from a macro that expands to
/// such operators. By the OpenMP specification each of these means what the
/// equivalent `#pragma omp` lines mean, so ompinst first rewrites them into
/// those lines (with `#line` directives that keep every other line's number)
/// and then instruments the rewritten file as usual: a second parse, of the
/// rewritten text, does the instrumenting. What cannot be rewritten without
/// changing what the program computes keeps a reason, which the
/// instrumentation reports as a warning at the directive.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_DIRECTIVEFORMS_H
#define POMP_INSTRUMENTER_DIRECTIVEFORMS_H

#include "pomp/instrumenter/DiagnosticFilter.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class OMPExecutableDirective;
class Preprocessor;
class Token;
} // namespace clang

namespace pomp::inst {

/// True when the macro MD defines expands to a `_Pragma` operator, directly
/// or through one of PragmaMacros (the macros known to do so).
bool expandsToPragmaOperator(const clang::MacroDirective *MD,
                             const llvm::StringSet<> &PragmaMacros);

/// Records during the parse what the rewriting needs and the AST does not
/// keep: the ranges `#if` skipped, the macro invocations written in files,
/// and per invocation (or `_Pragma` operator written in a file) the pragmas
/// its expansion holds and whether it gives the parser any other token.
class DirectiveFormRecorder : public clang::PPCallbacks {
public:
  /// Registers itself as the preprocessor's token watcher; the preprocessor
  /// owns it once it is added with addPPCallbacks.
  explicit DirectiveFormRecorder(clang::Preprocessor &PP);

  void SourceRangeSkipped(clang::SourceRange Range, clang::SourceLocation EndifLoc) override;
  void MacroExpands(const clang::Token &Name, const clang::MacroDefinition &Definition,
                    clang::SourceRange Range, const clang::MacroArgs *Args) override;
  void PragmaDirective(clang::SourceLocation Loc, clang::PragmaIntroducerKind Introducer) override;
  void MacroDefined(const clang::Token &Name, const clang::MacroDirective *MD) override;

  /// Whether Text names a macro defined so far whose expansion holds a
  /// `_Pragma` operator (directly or through other such macros): a file
  /// that uses a portability layer's OMP_PARALLEL_FOR may hold OpenMP
  /// directives although its own text has no pragma.
  bool mentionsPragmaMacro(llvm::StringRef Text) const;
  /// Takes these for macros whose expansion holds `_Pragma`: those a
  /// precompiled preamble defined, whose definitions this parse never sees.
  void addPragmaMacros(const std::vector<std::string> &Names);

  /// What the expansion that starts at a file location holds.
  struct Expansion {
    /// `_Pragma` operators (any pragma, OpenMP or not).
    unsigned Pragmas = 0;
    /// OpenMP pragmas the parser received.
    unsigned OpenMPPragmas = 0;
    /// Whether any token outside those pragmas reached the parser.
    bool OtherTokens = false;
    /// The operands of the `_Pragma` operators, destringized, in order.
    std::vector<std::string> Texts;
  };
  /// Null when nothing was recorded for the expansion starting at Begin.
  const Expansion *expansionAt(clang::SourceLocation Begin) const;
  /// True when Offset of File lies in a range `#if` skipped.
  bool skipped(clang::FileID File, std::size_t Offset) const;
  /// True when Offset of File lies inside the invocation of a macro (in one
  /// of its arguments).
  bool inMacroInvocation(clang::FileID File, std::size_t Offset) const;
  /// Sees each token the preprocessor hands the parser: installed as the
  /// preprocessor's token watcher, which another watcher that replaces it
  /// (MainFileBodyFilter) calls in turn.
  void onToken(const clang::Token &Tok);

private:
  clang::Preprocessor &PP;
  const clang::SourceManager &SM;
  /// Marks the expansions of OtherMacroTokens, which it empties.
  void resolveOtherTokens() const;

  /// Filled by the token watcher and the pragma callbacks; the other tokens'
  /// part only when expansionAt() first asks (resolveOtherTokens).
  mutable llvm::DenseMap<clang::SourceLocation, Expansion> Expansions;
  /// Macro tokens outside pragmas that reached the parser, whose expansions
  /// are not marked yet.
  mutable std::vector<clang::SourceLocation> OtherMacroTokens;
  /// [begin, end) offsets per file.
  std::map<clang::FileID, std::vector<std::pair<std::size_t, std::size_t>>> Skipped;
  std::map<clang::FileID, std::vector<std::pair<std::size_t, std::size_t>>> Invocations;
  /// Names of the macros whose expansion holds a `_Pragma` operator.
  llvm::StringSet<> PragmaMacros;
  bool InOpenMPPragma = false;
};

/// Records where Clang's parser ignored part of an OpenMP directive (its
/// `ignored-pragmas` warnings, such as a clause without its ':'). Such a
/// directive does not mean to Clang what its text says, so its text must
/// not become a pragma line that another compiler reads as written. The
/// parse runs with -w, so install() maps the group to remarks, which -w
/// leaves alone; this consumer keeps them and passes everything else on.
class IgnoredDirectiveParts : public DiagnosticFilter {
public:
  /// Wraps Diags' client; Diags owns the result.
  static IgnoredDirectiveParts &install(clang::DiagnosticsEngine &Diags);

  /// True when Clang ignored something between the offsets [Begin, End) of
  /// File.
  bool within(clang::FileID File, std::size_t Begin, std::size_t End) const;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;

private:
  explicit IgnoredDirectiveParts(clang::DiagnosticsEngine &Diags) : DiagnosticFilter(Diags) {}

  std::map<clang::FileID, std::vector<std::size_t>> Offsets;
};

/// The rewriting of one translation unit's directives that are not
/// `#pragma omp` lines, and why some of them stay as they are.
class DirectiveForms {
public:
  /// CompilerIgnoresCAttributes: Options::CompilerIgnoresCAttributes.
  DirectiveForms(clang::ASTContext &Context, const DirectiveFormRecorder &Recorder,
                 const IgnoredDirectiveParts &Ignored, bool CompilerIgnoresCAttributes = false);

  /// Files with directives to rewrite: the name the compiler opened each
  /// by, made absolute, and its rewritten text.
  const std::map<std::string, std::string> &rewrittenFiles() const { return Rewritten; }

  /// Why a directive that is not a `#pragma omp` line of its own cannot be
  /// rewritten into one; null for a `#pragma omp` line.
  const char *reasonLeftAlone(const clang::OMPExecutableDirective &D) const;

private:
  struct Rewrite {
    std::size_t Begin;
    std::size_t End;
    /// Each pragma line and the offset its directive is written at.
    std::vector<std::pair<std::string, std::size_t>> Pragmas;
  };
  /// An attribute-specifier holding OpenMP attributes: [Begin, End).
  struct AttributeSite {
    std::size_t Begin;
    std::size_t End;
    const char *Why;
  };

  void scanAttributes(clang::FileID File);
  void collectOperators();
  void render();
  bool rewritable(clang::FileID File) const;

  clang::ASTContext &Context;
  const clang::SourceManager &SM;
  const DirectiveFormRecorder &Recorder;
  const IgnoredDirectiveParts &Ignored;
  /// C's attributes are left alone (Options::CompilerIgnoresCAttributes).
  bool KeepAttributes;
  std::map<clang::FileID, std::vector<Rewrite>> Rewrites;
  std::map<clang::FileID, std::vector<AttributeSite>> Attributes;
  /// Reasons of `_Pragma` operators and macros left alone, by the
  /// expansion location of the directive's start.
  llvm::DenseMap<clang::SourceLocation, const char *> OperatorReasons;
  std::map<std::string, std::string> Rewritten;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_DIRECTIVEFORMS_H
