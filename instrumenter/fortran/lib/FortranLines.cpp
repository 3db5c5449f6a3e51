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
  return {(Fixed ? "" : Indent) + Directive};
}

std::string lineMarkerFileName(const std::string &FileName) {
  return handleinit::cStringLiteral(FileName);
}

} // namespace pomp::fortran
