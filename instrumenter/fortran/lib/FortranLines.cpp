//===- FortranLines.cpp - Inserted code as Fortran source lines ------------===//
#include "FortranLines.h"

#include "pomp/handle-init/HandleInit.h"

namespace pomp::fortran {

namespace {
/// Fixed form: a statement's first line starts in column 7.
constexpr std::size_t FixedStatementColumn = 6;
} // namespace

std::vector<std::string> formatStatement(const std::string &Statement, bool Fixed,
                                         const std::string &Indent) {
  std::vector<std::string> Lines;
  if (Fixed) {
    const std::size_t Width = FixedFormColumns - FixedStatementColumn;
    for (std::size_t At = 0; At < Statement.size() || Lines.empty(); At += Width)
      Lines.push_back((Lines.empty() ? std::string(FixedStatementColumn, ' ')
                                     : std::string(FixedStatementColumn - 1, ' ') + "&") +
                      Statement.substr(At, Width));
    return Lines;
  }
  const std::size_t Room = FreeFormWrap > Indent.size() + 2 ? FreeFormWrap - Indent.size() - 2 : 1;
  std::size_t At = 0;
  do {
    std::string Line = Indent + (At == 0 ? "" : "&") + Statement.substr(At, Room);
    At += Room;
    if (At < Statement.size())
      Line += "&";
    Lines.push_back(std::move(Line));
  } while (At < Statement.size());
  return Lines;
}

std::vector<std::string> formatDirective(const std::string &Directive, bool Fixed,
                                         const std::string &Indent) {
  const std::size_t Limit = Fixed ? FixedFormColumns : FreeFormColumns;
  const std::string First = (Fixed ? "" : Indent) + Directive;
  if (First.size() <= Limit)
    return {First};
  // Too long for one line (a rebuilt directive with added clauses): break
  // it between clauses, never inside parentheses, onto continuation lines
  // of the same sentinel.
  std::vector<std::string> Words;
  std::string Word;
  int Depth = 0;
  for (const char C : Directive) {
    Depth += C == '(' ? 1 : C == ')' ? -1 : 0;
    if (C == ' ' && Depth == 0) {
      if (!Word.empty())
        Words.push_back(std::move(Word));
      Word.clear();
    } else {
      Word += C;
    }
  }
  if (!Word.empty())
    Words.push_back(std::move(Word));
  const std::string Continued = Fixed ? "!$omp&" : Indent + "!$omp&";
  const std::size_t Ampersand = Fixed ? 0 : 2; // free form: " &" ends a continued line
  std::vector<std::string> Lines;
  std::string Line = (Fixed ? "" : Indent) + Words.front();
  for (std::size_t I = 1; I < Words.size(); ++I) {
    if (Line.size() + 1 + Words[I].size() + Ampersand <= Limit) {
      Line += " " + Words[I];
      continue;
    }
    if (!Fixed)
      Line += " &";
    Lines.push_back(std::move(Line));
    Line = Continued + " " + Words[I];
  }
  Lines.push_back(std::move(Line));
  return Lines;
}

std::string lineMarkerFileName(const std::string &FileName) {
  return handleinit::cStringLiteral(FileName);
}

} // namespace pomp::fortran
