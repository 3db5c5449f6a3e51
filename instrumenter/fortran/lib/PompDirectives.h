//===- PompDirectives.h - !$pomp directives and !P$ lines -------*- C++ -*-===//
///
/// \file
/// The POMP lines of a Fortran file, which Flang's prescanner drops as
/// comments: `!$pomp` directives (paper sections 3.8 and 3.9, OPARI2's
/// spellings; `c$pomp` and `*$pomp` in fixed form too), read by the shared
/// model (pomp/model/PompDirectives.h) as C's `#pragma pomp` are, and the
/// `!P$` conditional-compilation sentinel of paper section 3.7 (`CP$` and
/// `*P$` in fixed form only), which instrumentation replaces by three blanks.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_FORTRAN_POMPDIRECTIVES_H
#define POMP_FORTRAN_POMPDIRECTIVES_H

#include "pomp/model/PompDirectives.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::fortran {

/// One `!$pomp` line: its directive, or why it is malformed.
struct PompLine {
  unsigned Line = 0; ///< 1-based
  std::optional<inst::model::PompDirective> Directive;
  std::string Error;
};

/// A `!P$` sentinel: where its three characters are.
struct ConditionalSentinel {
  unsigned Line = 0;      ///< 1-based
  std::size_t Column = 0; ///< 0-based offset of the `!` (or `C`, `*`) in the line
};

/// The POMP lines of a file's text, in line order.
struct PompLines {
  std::vector<PompLine> Directives;
  std::vector<ConditionalSentinel> Sentinels;
};

/// Finds the POMP lines of Text in free or fixed form. Only comment lines
/// count: a sentinel is the first non-blank text of its line (fixed form:
/// `c` and `*` in column 1), so text in statements and strings never does.
PompLines scanPompLines(std::string_view Text, bool Fixed);

} // namespace pomp::fortran

#endif // POMP_FORTRAN_POMPDIRECTIVES_H
