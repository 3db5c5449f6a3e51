//===- HiddenDirectives.h - OpenMP directives Flang's parser rejects -*- C++ -*-===//
///
/// \file
/// The OpenMP directive lines of a Fortran file, read from its text, and the
/// hiding of some of them from Flang's parse: a file whose directive Flang 19
/// cannot parse (an OpenMP 5.x form gfortran compiles) is parsed again with
/// that directive's lines turned into comments of the same length, so that
/// the rest of the file is instrumented and every line and column stays
/// where it was; the output keeps the hidden lines as written. The C front
/// end's `--hide-metadirectives` (instrumenter/lib/HiddenDirectives.cpp) is
/// the same idea for Clang.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_FORTRAN_HIDDENDIRECTIVES_H
#define POMP_FORTRAN_HIDDENDIRECTIVES_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::fortran {

/// One OpenMP directive as its lines show it: the initial line with its
/// sentinel (`!$omp`; fixed form also `c$omp`, `*$omp` in column 1) and its
/// continuation lines.
struct DirectiveLines {
  unsigned First = 0, Last = 0; ///< 1-based lines
  /// The directive's name in lower case, words joined by one blank
  /// (`parallel do`, `task`), without the `end` of an end directive.
  std::string Name;
  bool End = false; ///< `!$omp end <name>`
  /// Offsets in the text of each line's `$` (what hiding blanks).
  std::vector<std::size_t> Dollars;
};

/// The OpenMP directives of a file's text in free or fixed form, in line
/// order. Only comment lines count, so a sentinel in a statement or a string
/// never does.
std::vector<DirectiveLines> scanOmpDirectives(std::string_view Text, bool Fixed);

/// The directive whose lines hold Line, or null.
const DirectiveLines *directiveAt(const std::vector<DirectiveLines> &Directives, unsigned Line);

/// The end directive that closes the begin directive Begin (an element of
/// Directives): the next end directive of the same name, directives of that
/// name in between counted as nested; null if there is none (a loop
/// construct or a strictly structured block, whose end is optional).
const DirectiveLines *matchingEnd(const std::vector<DirectiveLines> &Directives,
                                  const DirectiveLines &Begin);

/// The first line after AfterLine that holds a statement or a directive:
/// blank lines and comments are skipped. LineCount+1 if there is none.
unsigned nextStatementLine(std::string_view Text, bool Fixed, unsigned AfterLine);

/// Whether the statement after the directive belongs to it, so that nothing
/// may be inserted between the two: a loop construct's DO loop, the block of
/// a construct without an end directive (`atomic`, a strictly structured
/// block). HasEnd: a matching end directive was found.
bool takesNextStatement(const DirectiveLines &Directive, bool HasEnd);

/// Turns the directive's lines into comments of the same length: the `$` of
/// each sentinel becomes a blank.
void hideDirective(std::string &Text, const DirectiveLines &Directive);

} // namespace pomp::fortran

#endif // POMP_FORTRAN_HIDDENDIRECTIVES_H
