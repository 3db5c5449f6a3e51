//===- PompPragmas.cpp - #pragma pomp --------------------------------------===//
#include "PompPragmas.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"

#include <algorithm>

namespace pomp::inst {

using namespace clang;

namespace {

void report(Preprocessor &PP, SourceLocation Loc, const std::string &Message) {
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  const unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  Diags.Report(Loc, ID) << Message;
}

} // namespace

void PompPragmaHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                                     Token &FirstToken) {
  // The tokens after `pomp`, for the shared model's parser, with their places.
  std::vector<std::string> Tokens;
  std::vector<SourceLocation> Places;
  Token Tok = FirstToken;
  for (PP.LexUnexpandedToken(Tok); Tok.isNot(tok::eod); PP.LexUnexpandedToken(Tok)) {
    Tokens.push_back(PP.getSpelling(Tok));
    Places.push_back(Tok.getLocation());
  }
  Places.push_back(Tok.getLocation());
  const model::PompParse Parsed = model::parsePompDirective(Tokens, /*CaseInsensitive=*/false);
  if (!Parsed.Directive) {
    const SourceLocation At = Places[std::min(Parsed.ErrorToken, Places.size() - 1)];
    report(PP, At.isValid() ? At : Introducer.Loc, "malformed '#pragma pomp': " + Parsed.Error);
    return;
  }
  PompPragma P;
  static_cast<model::PompDirective &>(P) = *Parsed.Directive;
  P.Loc = Introducer.Loc;
  if (PP.getSourceManager().isInMainFile(P.Loc))
    Pragmas.push_back(std::move(P));
}

} // namespace pomp::inst
