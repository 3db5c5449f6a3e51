//===- pomp/model/PompDirectives.h - The POMP directives --------*- C++ -*-===//
///
/// \file
/// The POMP directives of paper sections 3.8 and 3.9 and OPARI2's spellings,
/// for both front ends (`#pragma pomp ...` in C, `!$pomp ...` in Fortran):
///
///   userregion start(name) | stop(name) | event(name)
///   inst begin(name) | end(name) | altend(name)
///   inst init | finalize | on | off
///   inst <group> <level> [file]
///   noinstrument | instrument
///
/// What a front end does: split the directive's text after `pomp` into
/// tokens, parse them here (an error names the token it is at), and emit
/// the plan of each user-region or control directive; the level and
/// noinstrument/instrument directives apply to the constructs that follow
/// them in source order (a level without `file` to the next construct only).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_MODEL_POMPDIRECTIVES_H
#define POMP_MODEL_POMPDIRECTIVES_H

#include "pomp/model/ConstructModel.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::inst::model {

/// One recognised POMP directive.
struct PompDirective {
  enum class Kind {
    RegionBegin,  ///< userregion start, inst begin
    RegionEnd,    ///< userregion stop, inst end
    RegionAltEnd, ///< inst altend: an extra end on another way out
    Event,        ///< userregion event
    Init,
    Finalize,
    On,
    Off,
    Level,        ///< inst <group> <level> [file]
    NoInstrument, ///< stop instrumenting from here
    Instrument    ///< resume instrumenting
  };
  Kind What = Kind::Init;
  std::string Name; ///< region name; group name for Level
  int Group = 0;
  int Level = 0;
  bool WholeFile = false; ///< Level applies to the rest of the file
};

/// The result of parsing: the directive, or a message and the index of the
/// token it is at (the number of tokens: at the end of the line).
struct PompParse {
  std::optional<PompDirective> Directive;
  std::string Error;
  std::size_t ErrorToken = 0;
};

/// Parses the tokens after `pomp` (identifiers and single punctuation
/// characters). Fortran passes CaseInsensitive: its keywords may be written
/// in any case (`!$POMP INST BEGIN(x)`); C's are lower case.
PompParse parsePompDirective(const std::vector<std::string> &Tokens, bool CaseInsensitive);

/// Splits a directive's text into the tokens parsePompDirective reads: words
/// of letters, digits and underscores, and every other non-blank character
/// on its own. A front end without a lexer of its own (Fortran) uses it.
std::vector<std::string> tokenizePompDirective(std::string_view Text);

/// What a user-region or control directive becomes: event steps (a user
/// region's first event binds a handle of its own from its CTC, the end
/// event uses the begin's handle), or a control routine ("POMP_Init").
/// Empty for Level, NoInstrument and Instrument, which only steer the
/// instrumentation, and for events off at the configured level.
struct PompDirectivePlan {
  std::vector<Step> Steps;
  const char *ControlRoutine = nullptr;
  /// The directive gets a handle of its own (begin, event), with a CTC of
  /// type userregion.
  bool NewHandle = false;
};
PompDirectivePlan planPompDirective(PompDirective::Kind What, const EnabledFn &Enabled);

/// Matches the ends of user regions to their begins: regions nest and do not
/// overlap; `altend` ends the innermost region on another way out and
/// leaves it open for its `end`. Where is the front end's own reference to
/// the directive (an index), reported back with unclosed regions.
class UserRegionMatcher {
public:
  struct Open {
    std::string Name;
    unsigned Handle;
    std::size_t Where;
  };
  explicit UserRegionMatcher(bool CaseInsensitive) : CaseInsensitive(CaseInsensitive) {}
  void begin(std::string Name, unsigned Handle, std::size_t Where) {
    Stack.push_back({std::move(Name), Handle, Where});
  }
  /// The handle of the region an end or altend closes, or the error message.
  std::optional<unsigned> end(const PompDirective &D, std::string &Error);
  /// The regions never ended, outermost first.
  const std::vector<Open> &unclosed() const { return Stack; }

private:
  bool CaseInsensitive;
  std::vector<Open> Stack;
};

/// The message for an unknown directive: what the POMP directives are.
extern const char *const PompDirectiveUsage;

} // namespace pomp::inst::model

#endif // POMP_MODEL_POMPDIRECTIVES_H
