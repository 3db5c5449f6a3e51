//===- PompDirectives.cpp - !$pomp directives and !P$ lines ----------------===//
#include "PompDirectives.h"

#include "FortranLines.h"

#include <cctype>

namespace pomp::fortran {

namespace {

bool equalsIgnoringCase(std::string_view Text, std::string_view Lower) {
  if (Text.size() != Lower.size())
    return false;
  for (std::size_t I = 0; I < Text.size(); ++I)
    if (std::tolower(static_cast<unsigned char>(Text[I])) != Lower[I])
      return false;
  return true;
}

/// Where a line's comment sentinel starts: its first non-blank `!`, or in
/// fixed form a `c`, `C` or `*` in column 1; npos if the line is no comment.
std::size_t commentStart(std::string_view Line, bool Fixed) {
  if (Fixed && !Line.empty() && (Line[0] == 'c' || Line[0] == 'C' || Line[0] == '*'))
    return 0;
  const std::size_t N = Line.find_first_not_of(" \t");
  if (N == std::string_view::npos || Line[N] != '!')
    return std::string_view::npos;
  // Fixed form: a `!` in column 6 marks a continuation line, not a comment.
  if (Fixed && N == FixedSentinelColumns)
    return std::string_view::npos;
  return N;
}

} // namespace

PompLines scanPompLines(std::string_view Text, bool Fixed) {
  PompLines Result;
  unsigned LineNumber = 0;
  for (std::size_t Begin = 0; Begin < Text.size();) {
    std::size_t End = Text.find('\n', Begin);
    if (End == std::string_view::npos)
      End = Text.size();
    std::string_view Line = Text.substr(Begin, End - Begin);
    Begin = End + 1;
    ++LineNumber;
    if (Fixed && Line.size() > FixedFormColumns)
      Line = Line.substr(0, FixedFormColumns);
    const std::size_t At = commentStart(Line, Fixed);
    if (At == std::string_view::npos)
      continue;
    const std::string_view Rest = Line.substr(At + 1);
    // `!$pomp` and its blank or end of line.
    static constexpr std::string_view Pomp = "$pomp";
    if (Rest.size() >= Pomp.size() && equalsIgnoringCase(Rest.substr(0, Pomp.size()), Pomp) &&
        (Rest.size() == Pomp.size() || Rest[Pomp.size()] == ' ' || Rest[Pomp.size()] == '\t')) {
      std::string_view Words = Rest.substr(Pomp.size());
      // A trailing `!` comment is not part of the directive.
      if (const std::size_t Bang = Words.find('!'); Bang != std::string_view::npos)
        Words = Words.substr(0, Bang);
      const inst::model::PompParse Parsed = inst::model::parsePompDirective(
          inst::model::tokenizePompDirective(Words), /*CaseInsensitive=*/true);
      PompLine P;
      P.Line = LineNumber;
      P.Directive = Parsed.Directive;
      P.Error = Parsed.Error;
      Result.Directives.push_back(std::move(P));
      continue;
    }
    // `!P$` then a blank (the rest of the line is Fortran); `CP$`, `*P$`
    // only in column 1 of fixed form.
    const bool Sentinel = Rest.size() >= 2 && (Rest[0] == 'p' || Rest[0] == 'P') && Rest[1] == '$';
    const bool Placed = Fixed ? At == 0 : Rest.size() == 2 || Rest[2] == ' ' || Rest[2] == '\t';
    if (Sentinel && Placed)
      Result.Sentinels.push_back({LineNumber, At});
  }
  return Result;
}

} // namespace pomp::fortran
