//===- HiddenDirectives.cpp - OpenMP directives Flang's parser rejects ----===//
#include "HiddenDirectives.h"

#include "FortranLines.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Frontend/OpenMP/OMP.h"

#include <cctype>

namespace pomp::fortran {

namespace {

/// The sentinel `!$omp` is 5 characters; its `$` is the second.
constexpr std::size_t SentinelLength = 5;
constexpr std::size_t DollarColumn = 1;
/// Fixed form: column 6 (0-based 5) marks a continuation line.
constexpr std::size_t FixedContinuationColumn = 5;

bool isWordChar(char C) { return std::isalnum(static_cast<unsigned char>(C)) != 0 || C == '_'; }

/// Whether Text at At spells `$omp` in any case.
bool isOmpDollar(std::string_view Line, std::size_t At) {
  static constexpr std::string_view Omp = "$omp";
  if (Line.size() < At + Omp.size())
    return false;
  for (std::size_t I = 0; I < Omp.size(); ++I)
    if (std::tolower(static_cast<unsigned char>(Line[At + I])) != Omp[I])
      return false;
  return true;
}

/// One line of a directive: where its `$` is, whether it continues an
/// earlier line, and the text after the sentinel.
struct SentinelLine {
  std::size_t Dollar;
  bool Continuation;
  std::string_view Rest;
};

/// The directive sentinel of a line, if it has one.
bool readSentinel(std::string_view Line, bool Fixed, bool PreviousContinues, SentinelLine &Out) {
  if (Fixed) {
    if (Line.size() < SentinelLength + 1 ||
        !(Line[0] == '!' || Line[0] == 'c' || Line[0] == 'C' || Line[0] == '*') ||
        !isOmpDollar(Line, DollarColumn))
      return false;
    if (Line.size() > FixedFormColumns)
      Line = Line.substr(0, FixedFormColumns);
    const char Mark = Line.size() > FixedContinuationColumn ? Line[FixedContinuationColumn] : ' ';
    Out.Dollar = DollarColumn;
    Out.Continuation = Mark != ' ' && Mark != '\t' && Mark != '0';
    Out.Rest = Line.size() > FixedContinuationColumn + 1 ? Line.substr(FixedContinuationColumn + 1)
                                                         : std::string_view();
    return true;
  }
  const std::size_t At = Line.find_first_not_of(" \t");
  if (At == std::string_view::npos || Line[At] != '!' || !isOmpDollar(Line, At + DollarColumn))
    return false;
  std::string_view Rest = Line.substr(At + SentinelLength);
  if (!Rest.empty() && isWordChar(Rest[0]))
    return false; // `!$ompx`: not the OpenMP sentinel
  Out.Dollar = At + DollarColumn;
  Out.Continuation = PreviousContinues;
  if (PreviousContinues) {
    const std::size_t Text = Rest.find_first_not_of(" \t");
    if (Text != std::string_view::npos && Rest[Text] == '&')
      Rest = Rest.substr(Text + 1);
  }
  Out.Rest = Rest;
  return true;
}

/// Whether a free form directive line ends with `&` (before any `!` comment).
bool continuesFree(std::string_view Rest) {
  if (const std::size_t Bang = Rest.find('!'); Bang != std::string_view::npos)
    Rest = Rest.substr(0, Bang);
  const std::size_t Last = Rest.find_last_not_of(" \t\r");
  return Last != std::string_view::npos && Rest[Last] == '&';
}

/// The directive's name from the text after its sentinel: the longest run of
/// leading words that LLVM knows as a directive (so `do ordered` is `do`).
void readName(std::string_view Rest, DirectiveLines &D) {
  std::vector<std::string> Words;
  std::size_t I = 0;
  while (I < Rest.size()) {
    while (I < Rest.size() && (Rest[I] == ' ' || Rest[I] == '\t'))
      ++I;
    if (I >= Rest.size() || !isWordChar(Rest[I]))
      break;
    std::string Word;
    for (; I < Rest.size() && isWordChar(Rest[I]); ++I)
      Word += static_cast<char>(std::tolower(static_cast<unsigned char>(Rest[I])));
    Words.push_back(std::move(Word));
  }
  if (Words.empty())
    return;
  static constexpr std::string_view EndWord = "end";
  if (Words.front() == EndWord) {
    D.End = true;
    Words.erase(Words.begin());
  } else if (Words.front().size() > EndWord.size() &&
             Words.front().compare(0, EndWord.size(), EndWord) == 0 &&
             llvm::omp::getOpenMPDirectiveKind(Words.front().substr(EndWord.size())) !=
                 llvm::omp::Directive::OMPD_unknown) {
    D.End = true; // `enddo`
    Words.front().erase(0, EndWord.size());
  }
  std::string Candidate, Longest;
  for (const std::string &W : Words) {
    Candidate += (Candidate.empty() ? "" : " ") + W;
    if (llvm::omp::getOpenMPDirectiveKind(Candidate) != llvm::omp::Directive::OMPD_unknown)
      Longest = Candidate;
  }
  D.Name = Longest.empty() ? (Words.empty() ? std::string() : Words.front()) : Longest;
}

} // namespace

std::vector<DirectiveLines> scanOmpDirectives(std::string_view Text, bool Fixed) {
  std::vector<DirectiveLines> Result;
  unsigned LineNumber = 0;
  bool PreviousContinues = false; // free form: the last directive line ended with `&`
  for (std::size_t Begin = 0; Begin < Text.size();) {
    std::size_t End = Text.find('\n', Begin);
    if (End == std::string_view::npos)
      End = Text.size();
    const std::string_view Line = Text.substr(Begin, End - Begin);
    const std::size_t LineStart = Begin;
    Begin = End + 1;
    ++LineNumber;
    SentinelLine S;
    if (!readSentinel(Line, Fixed, PreviousContinues, S)) {
      // Free form: a blank line or comment between a directive's lines ends it.
      PreviousContinues = false;
      continue;
    }
    PreviousContinues = !Fixed && continuesFree(S.Rest);
    if (S.Continuation && !Result.empty() && Result.back().Last + 1 == LineNumber) {
      Result.back().Last = LineNumber;
      Result.back().Dollars.push_back(LineStart + S.Dollar);
      continue;
    }
    DirectiveLines D;
    D.First = D.Last = LineNumber;
    D.Dollars.push_back(LineStart + S.Dollar);
    readName(S.Rest, D);
    Result.push_back(std::move(D));
  }
  return Result;
}

const DirectiveLines *directiveAt(const std::vector<DirectiveLines> &Directives, unsigned Line) {
  for (const DirectiveLines &D : Directives)
    if (D.First <= Line && Line <= D.Last)
      return &D;
  return nullptr;
}

const DirectiveLines *matchingEnd(const std::vector<DirectiveLines> &Directives,
                                  const DirectiveLines &Begin) {
  if (Begin.End || Begin.Name.empty())
    return nullptr;
  unsigned Depth = 1;
  for (const DirectiveLines &D : Directives) {
    if (D.First <= Begin.First || D.Name != Begin.Name)
      continue;
    if (!D.End) {
      ++Depth;
      continue;
    }
    if (--Depth == 0)
      return &D;
  }
  return nullptr;
}

unsigned nextStatementLine(std::string_view Text, bool Fixed, unsigned AfterLine) {
  unsigned LineNumber = 0;
  for (std::size_t Begin = 0; Begin < Text.size();) {
    std::size_t End = Text.find('\n', Begin);
    if (End == std::string_view::npos)
      End = Text.size();
    const std::string_view Line = Text.substr(Begin, End - Begin);
    Begin = End + 1;
    if (++LineNumber <= AfterLine)
      continue;
    SentinelLine S;
    if (readSentinel(Line, Fixed, false, S))
      return LineNumber;
    const bool FixedComment =
        Fixed && !Line.empty() && (Line[0] == 'c' || Line[0] == 'C' || Line[0] == '*');
    const std::size_t First = Line.find_first_not_of(" \t\r");
    if (FixedComment || First == std::string_view::npos || Line[First] == '!')
      continue;
    return LineNumber;
  }
  return LineNumber + 1;
}

bool takesNextStatement(const DirectiveLines &Directive, bool HasEnd) {
  const llvm::omp::Directive Kind = llvm::omp::getOpenMPDirectiveKind(Directive.Name);
  if (Directive.End || Kind == llvm::omp::Directive::OMPD_unknown)
    return false;
  const llvm::omp::Association A = llvm::omp::getDirectiveAssociation(Kind);
  return A == llvm::omp::Association::Loop || (A == llvm::omp::Association::Block && !HasEnd);
}

void hideDirective(std::string &Text, const DirectiveLines &Directive) {
  for (const std::size_t At : Directive.Dollars)
    Text[At] = ' ';
}

} // namespace pomp::fortran
