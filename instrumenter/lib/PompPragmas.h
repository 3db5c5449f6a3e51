//===- PompPragmas.h - #pragma pomp -----------------------------*- C++ -*-===//
///
/// \file
/// The POMP directives of paper sections 3.8 and 3.9 in C spelling, and
/// OPARI2's spellings so that code annotated for Score-P works unchanged:
///
///   #pragma pomp userregion start(name) | stop(name) | event(name)
///   #pragma pomp inst begin(name) | end(name) | altend(name)
///   #pragma pomp inst init | finalize | on | off
///   #pragma pomp inst <group> <level> [file]
///   #pragma pomp noinstrument | instrument
///
/// A Clang PragmaHandler records them while the file is preprocessed and
/// reports unknown or malformed ones as errors at their file:line; the
/// shared model (pomp/model/PompDirectives.h) parses and plans them, for the
/// Fortran front end's `!$pomp` too.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_POMPPRAGMAS_H
#define POMP_INSTRUMENTER_POMPPRAGMAS_H

#include "pomp/model/PompDirectives.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <string>
#include <vector>

namespace pomp::inst {

/// One recognised `#pragma pomp`: the shared model's directive and where it is.
struct PompPragma : model::PompDirective {
  clang::SourceLocation Loc; ///< the `#` of the pragma... its `pomp` token
};

/// Records every `#pragma pomp` of the main file, in order.
class PompPragmaHandler final : public clang::PragmaHandler {
public:
  PompPragmaHandler() : clang::PragmaHandler("pomp") {}
  void HandlePragma(clang::Preprocessor &PP, clang::PragmaIntroducer Introducer,
                    clang::Token &FirstToken) override;
  const std::vector<PompPragma> &pragmas() const { return Pragmas; }

private:
  std::vector<PompPragma> Pragmas;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_POMPPRAGMAS_H
