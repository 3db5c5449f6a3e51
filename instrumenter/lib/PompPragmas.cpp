//===- PompPragmas.cpp - #pragma pomp --------------------------------------===//
#include "PompPragmas.h"

#include "pomp/instrumenter/Instrumenter.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Lex/Preprocessor.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// Reads the rest of the pragma line as identifiers and punctuation.
class PragmaReader {
public:
  PragmaReader(Preprocessor &PP, Token &Tok) : PP(PP), Tok(Tok) {}

  /// The next token; after the last one, an eod token.
  const Token &next() {
    PP.LexUnexpandedToken(Tok);
    return Tok;
  }
  const Token &current() const { return Tok; }
  bool atEnd() const { return Tok.is(tok::eod); }

  std::string identifier() const {
    if (const IdentifierInfo *II = Tok.getIdentifierInfo())
      return II->getName().str();
    return "";
  }

  /// Reads "(name)" after the current token; false on malformed input.
  bool parenthesisedName(std::string &Name) {
    if (next().isNot(tok::l_paren))
      return false;
    if (next().isNot(tok::identifier))
      return false;
    Name = identifier();
    return next().is(tok::r_paren);
  }

  void skipToEnd() {
    while (!atEnd())
      next();
  }

private:
  Preprocessor &PP;
  Token &Tok;
};

void report(Preprocessor &PP, SourceLocation Loc, const std::string &Message) {
  DiagnosticsEngine &Diags = PP.getDiagnostics();
  const unsigned ID = Diags.getCustomDiagID(DiagnosticsEngine::Error, "%0");
  Diags.Report(Loc, ID) << Message;
}

const char *const UsageHint =
    "expected 'userregion start|stop|event(name)', 'inst begin|end|altend(name)', "
    "'inst init|finalize|on|off', 'inst <group> <level> [file]', 'noinstrument' or 'instrument'";

} // namespace

void PompPragmaHandler::HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                                     Token &FirstToken) {
  Token Tok = FirstToken;
  PragmaReader Reader(PP, Tok);
  PompPragma P;
  P.Loc = Introducer.Loc;
  auto Fail = [&](const std::string &Message) {
    report(PP, Reader.current().getLocation().isValid() ? Reader.current().getLocation() : P.Loc,
           "malformed '#pragma pomp': " + Message);
    Reader.skipToEnd();
  };

  Reader.next();
  const std::string Word = Reader.identifier();
  if (Word == "noinstrument" || Word == "instrument") {
    P.What = Word == "noinstrument" ? PompPragma::Kind::NoInstrument : PompPragma::Kind::Instrument;
  } else if (Word == "userregion") {
    Reader.next();
    const std::string Action = Reader.identifier();
    if (Action == "start")
      P.What = PompPragma::Kind::RegionBegin;
    else if (Action == "stop")
      P.What = PompPragma::Kind::RegionEnd;
    else if (Action == "event")
      P.What = PompPragma::Kind::Event;
    else
      return Fail("'userregion' takes start(name), stop(name) or event(name)");
    if (!Reader.parenthesisedName(P.Name))
      return Fail("expected '(name)' after 'userregion " + Action + "'");
  } else if (Word == "inst") {
    Reader.next();
    const std::string Action = Reader.identifier();
    if (Action == "begin" || Action == "end" || Action == "altend") {
      P.What = Action == "begin"  ? PompPragma::Kind::RegionBegin
               : Action == "end" ? PompPragma::Kind::RegionEnd
                                 : PompPragma::Kind::RegionAltEnd;
      if (!Reader.parenthesisedName(P.Name))
        return Fail("expected '(name)' after 'inst " + Action + "'");
    } else if (Action == "init") {
      P.What = PompPragma::Kind::Init;
    } else if (Action == "finalize") {
      P.What = PompPragma::Kind::Finalize;
    } else if (Action == "on") {
      P.What = PompPragma::Kind::On;
    } else if (Action == "off") {
      P.What = PompPragma::Kind::Off;
    } else if (std::optional<int> Group = groupFromName(Action)) {
      P.What = PompPragma::Kind::Level;
      P.Group = *Group;
      P.Name = Action;
      Reader.next();
      const std::string LevelWord = Reader.identifier();
      const std::optional<int> Level = levelFromName(LevelWord);
      if (!Level || !levelValidForGroup(*Group, *Level))
        return Fail("'" + LevelWord + "' is not a level of group '" + Action + "'");
      P.Level = *Level;
      Reader.next();
      if (!Reader.atEnd()) {
        if (Reader.identifier() != "file")
          return Fail("expected 'file' or the end of the line after the level");
        P.WholeFile = true;
      }
    } else {
      return Fail(std::string(UsageHint));
    }
  } else {
    return Fail(std::string(UsageHint));
  }
  if (!Reader.atEnd())
    Reader.next();
  if (!Reader.atEnd())
    return Fail("unexpected tokens at the end of the line");
  if (PP.getSourceManager().isInMainFile(P.Loc))
    Pragmas.push_back(std::move(P));
}

} // namespace pomp::inst
