//===- pomp/instrumenter/HiddenDirectives.h - Directives the compiler ignores -*- C++ -*-===//
///
/// \file
/// gcc before 15 ignores `metadirective` altogether (an unknown pragma), so
/// what the program computes with it is what the file computes without
/// those lines. Clang 19 parses them, and rejects some that gcc builds (a
/// run-time `user={condition(x)}`, a `vendor(gnu)` variant whose
/// `otherwise` is a compile-time `error`). With a real compiler that ignores
/// them, ompinst hides these lines from its parse the same way: the pragma's
/// `omp` becomes a namespace nobody registers, so the preprocessor drops the
/// line, and the output gets the original text back.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_HIDDENDIRECTIVES_H
#define POMP_INSTRUMENTER_HIDDENDIRECTIVES_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace pomp::inst {

/// The result of hiding a file's metadirectives.
struct HiddenDirectives {
  /// The text to parse: each `#pragma omp [begin|end] metadirective` line
  /// with its `omp` replaced by HiddenNamespace.
  std::string Text;
  /// The 1-based lines of the hidden pragmas, for the user's warnings.
  std::vector<unsigned> Lines;
};

/// The pragma namespace that replaces `omp` in a hidden line: a reserved
/// identifier, so no user code spells it.
inline constexpr llvm::StringRef HiddenNamespace = "__ompinst_hidden_omp__";

/// Finds the `#pragma omp metadirective`, `begin metadirective` and `end
/// metadirective` lines of Source with Clang's raw lexer (comments, string
/// literals and continuation lines are what the compiler sees) and hides
/// them. Lines is empty when the file has none.
HiddenDirectives hideMetadirectives(llvm::StringRef Source);

/// Puts back `omp` where hideMetadirectives() hid it.
void restoreHiddenDirectives(std::string &Text);

} // namespace pomp::inst

#endif
