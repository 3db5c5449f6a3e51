//===- FortranLines.h - Inserted code as Fortran source lines ---*- C++ -*-===//
///
/// \file
/// Inserted statements as lines of free or fixed form source: free form
/// lines wrap with `&` at the end and at the start of the continuation (so
/// that a CTC string may be split anywhere); fixed form statements start in
/// column 7, keep to column 72 and continue with `&` in column 6.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_FORTRAN_FORTRANLINES_H
#define POMP_FORTRAN_FORTRANLINES_H

#include <cstddef>
#include <string>
#include <vector>

namespace pomp::fortran {

/// Fixed form: statements end at this column; columns 1-5 hold a directive's
/// sentinel (`!$omp`, `c$omp`, `*$omp`).
inline constexpr std::size_t FixedFormColumns = 72;
inline constexpr std::size_t FixedSentinelColumns = 5;
/// Free form: the standard's line length.
inline constexpr std::size_t FreeFormColumns = 132;
/// Free form: inserted lines wrap here, well inside the limit.
inline constexpr std::size_t FreeFormWrap = 100;

/// A statement as lines (without newlines); Indent goes in front of each
/// free form line.
std::vector<std::string> formatStatement(const std::string &Statement, bool Fixed,
                                         const std::string &Indent);

/// A directive line (`!$omp barrier`), the sentinel in column 1 in fixed form.
std::vector<std::string> formatDirective(const std::string &Directive, bool Fixed,
                                         const std::string &Indent);

/// The file name of a `# <line> "<file>"` line marker.
std::string lineMarkerFileName(const std::string &FileName);

} // namespace pomp::fortran

#endif // POMP_FORTRAN_FORTRANLINES_H
