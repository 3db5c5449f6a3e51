//===- BodySkipping.h - Which function bodies of the main file to build -----===//
///
/// \file
/// ompinst rewrites OpenMP directives, OpenMP API calls, main and (with
/// --functions) every function of the main file. A function body of the main
/// file that holds none of these produces no edit, so Sema need not build it
/// (issue 15: most of a large file's parse time goes into such bodies).
/// The decision is taken before the body is parsed, from the raw text of the
/// body, and errs on the side of building: a body is skipped only when a
/// raw-lexer scan proves that its tokens are exactly those Clang's parser
/// will skip and that none of them can lead to an OpenMP construct.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_BODYSKIPPING_H
#define POMP_INSTRUMENTER_BODYSKIPPING_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/TokenKinds.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/FunctionExtras.h"

#include <memory>

namespace pomp::inst {

/// Decides, for a function definition of the main file whose body the
/// parser is about to read, whether that body can be skipped. It watches the
/// preprocessor's token stream (Preprocessor::setTokenWatcher) to know where
/// the body starts: at the decision the last token lexed is the parser's
/// current one, the `{`, `:` (constructor initialisers) or `try`.
class MainFileBodyFilter {
public:
  /// Installs the token watcher on PP, in place of the one PP has, which
  /// it calls in turn as Next, for tokens outside system headers only (no
  /// body of theirs is decided here, and Next records nothing of them);
  /// PP must outlive the filter's use.
  MainFileBodyFilter(clang::Preprocessor &PP,
                     llvm::unique_function<void(const clang::Token &)> Next);

  /// True when the body that starts at the last lexed token can be
  /// skipped: it is in the main file, written there (no macro), holds no
  /// preprocessor directive, no identifier that starts with `omp` or
  /// `pomp` (any case), no `_Pragma` or `__pragma`, no `##`, and no macro
  /// whose expansion might produce any of these or unbalance the brackets.
  bool canSkipBodyAtLastToken();

private:
  class SystemHeaderGate;

  /// Where the last two tokens outside system headers were and their kinds.
  struct Trail {
    clang::SourceLocation Last, BeforeLast;
    clang::tok::TokenKind LastKind = clang::tok::unknown;
    clang::tok::TokenKind BeforeLastKind = clang::tok::unknown;
    /// Whether the preprocessor lexes a system header: its tokens, most of a
    /// parse's, are not watched (LULESH's parse 0.6% fewer instructions,
    /// samples/cxx_features.cpp's 2%).
    bool InSystemHeader = false;
  };

  bool macroIsHarmless(const clang::MacroInfo &Macro, unsigned Depth);
  bool identifierIsHarmless(llvm::StringRef Name, unsigned Depth);

  clang::Preprocessor &PP;
  std::shared_ptr<Trail> Tokens;
  /// Per macro definition: can its expansion produce OpenMP or unbalance
  /// brackets? Macros defined inside a body stop the skip (a directive), so
  /// a definition's answer never changes while it is cached.
  llvm::DenseMap<const clang::MacroInfo *, bool> HarmlessMacros;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_BODYSKIPPING_H
