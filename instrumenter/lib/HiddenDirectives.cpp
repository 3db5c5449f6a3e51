//===- HiddenDirectives.cpp - Directives the real compiler ignores ---------===//
#include "pomp/instrumenter/HiddenDirectives.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/Lexer.h"

namespace pomp::inst {

namespace {

/// The raw identifier a token spells, or "" for any other token.
llvm::StringRef identifierOf(const clang::Token &Tok) {
  return Tok.is(clang::tok::raw_identifier) ? Tok.getRawIdentifier() : llvm::StringRef();
}

} // namespace

HiddenDirectives hideMetadirectives(llvm::StringRef Source) {
  HiddenDirectives Result;
  Result.Text = Source.str();
  clang::LangOptions Lang;
  Lang.CPlusPlus = true;
  Lang.LineComment = true;
  // The raw lexer reads the buffer in place; locations are offsets from a
  // fake start, which is all the rewriting needs.
  clang::Lexer Lex(clang::SourceLocation::getFromRawEncoding(1), Lang, Source.begin(),
                   Source.begin(), Source.end());
  clang::Token Tok;
  auto Offset = [&](const clang::Token &T) { return T.getLocation().getRawEncoding() - 1; };
  auto LineOf = [&](std::size_t At) {
    return static_cast<unsigned>(Source.take_front(At).count('\n')) + 1;
  };
  std::vector<std::size_t> Hidden;
  while (!Lex.LexFromRawLexer(Tok)) {
    if (!Tok.is(clang::tok::hash) || !Tok.isAtStartOfLine())
      continue;
    // A directive: read its tokens up to the end of its (logical) line.
    Lex.setParsingPreprocessorDirective(true);
    std::vector<clang::Token> Words;
    clang::Token Word;
    while (!Lex.LexFromRawLexer(Word) && Word.isNot(clang::tok::eod))
      Words.push_back(Word);
    Lex.setParsingPreprocessorDirective(false);
    if (Words.size() < 3 || identifierOf(Words[0]) != "pragma" || identifierOf(Words[1]) != "omp")
      continue;
    const llvm::StringRef Name = identifierOf(Words[2]);
    const bool Meta =
        Name == "metadirective" || ((Name == "begin" || Name == "end") && Words.size() > 3 &&
                                    identifierOf(Words[3]) == "metadirective");
    if (!Meta)
      continue;
    Hidden.push_back(Offset(Words[1]));
    Result.Lines.push_back(LineOf(Offset(Tok)));
  }
  // From the back, so that the offsets before each replacement stay valid.
  for (auto It = Hidden.rbegin(); It != Hidden.rend(); ++It)
    Result.Text.replace(*It, llvm::StringRef("omp").size(), HiddenNamespace.str());
  return Result;
}

void restoreHiddenDirectives(std::string &Text) {
  for (std::size_t At = Text.find(HiddenNamespace.data()); At != std::string::npos;
       At = Text.find(HiddenNamespace.data(), At))
    Text.replace(At, HiddenNamespace.size(), "omp");
}

} // namespace pomp::inst
