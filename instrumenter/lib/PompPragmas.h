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
/// reports unknown or malformed ones as errors at their file:line.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_POMPPRAGMAS_H
#define POMP_INSTRUMENTER_POMPPRAGMAS_H

#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Pragma.h"

#include <string>
#include <vector>

namespace pomp::inst {

/// One recognised `#pragma pomp`.
struct PompPragma {
  enum class Kind {
    RegionBegin, ///< userregion start, inst begin
    RegionEnd,   ///< userregion stop, inst end
    RegionAltEnd, ///< inst altend: an extra end on another way out
    Event,        ///< userregion event
    Init,
    Finalize,
    On,
    Off,
    Level,          ///< inst <group> <level> [file]
    NoInstrument,   ///< stop instrumenting from here
    Instrument      ///< resume instrumenting
  };
  Kind What;
  clang::SourceLocation Loc; ///< the `#` of the pragma... its `pomp` token
  std::string Name;          ///< region name; group name for Level
  int Group = 0;
  int Level = 0;
  bool WholeFile = false; ///< Level applies to the rest of the file
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
