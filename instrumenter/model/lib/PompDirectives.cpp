//===- PompDirectives.cpp - The POMP directives of both front ends ---------===//
#include "pomp/model/PompDirectives.h"

#include "pomp/model/Levels.h"

#include <algorithm>
#include <cctype>

namespace pomp::inst::model {

const char *const PompDirectiveUsage =
    "expected 'userregion start|stop|event(name)', 'inst begin|end|altend(name)', "
    "'inst init|finalize|on|off', 'inst <group> <level> [file]', 'noinstrument' or 'instrument'";

namespace {

bool isWordCharacter(char C) {
  return std::isalnum(static_cast<unsigned char>(C)) != 0 || C == '_';
}

bool isIdentifier(const std::string &Token) {
  return !Token.empty() && !std::isdigit(static_cast<unsigned char>(Token[0])) &&
         std::all_of(Token.begin(), Token.end(), isWordCharacter);
}

std::string lowercase(std::string Text) {
  std::transform(Text.begin(), Text.end(), Text.begin(),
                 [](unsigned char C) { return static_cast<char>(std::tolower(C)); });
  return Text;
}

/// Reads the tokens in order; past the last one it is at the end.
class Reader {
public:
  Reader(const std::vector<std::string> &Tokens, bool CaseInsensitive)
      : Tokens(Tokens), CaseInsensitive(CaseInsensitive) {}
  bool atEnd() const { return At >= Tokens.size(); }
  std::size_t position() const { return At; }
  void next() {
    if (!atEnd())
      ++At;
  }
  /// The current token as a keyword (lower case for Fortran), "" when it is
  /// not an identifier.
  std::string word() const {
    if (atEnd() || !isIdentifier(Tokens[At]))
      return "";
    return CaseInsensitive ? lowercase(Tokens[At]) : Tokens[At];
  }
  /// Reads "(name)" after the current token; false on malformed input,
  /// with the reader at the offending token.
  bool parenthesisedName(std::string &Name) {
    next();
    if (atEnd() || Tokens[At] != "(")
      return false;
    next();
    if (atEnd() || !isIdentifier(Tokens[At]))
      return false;
    Name = Tokens[At];
    next();
    return !atEnd() && Tokens[At] == ")";
  }

private:
  const std::vector<std::string> &Tokens;
  bool CaseInsensitive;
  std::size_t At = 0;
};

} // namespace

std::vector<std::string> tokenizePompDirective(std::string_view Text) {
  std::vector<std::string> Tokens;
  for (std::size_t I = 0; I < Text.size();) {
    const char C = Text[I];
    if (C == ' ' || C == '\t' || C == '\r') {
      ++I;
    } else if (isWordCharacter(C)) {
      const std::size_t Begin = I;
      while (I < Text.size() && isWordCharacter(Text[I]))
        ++I;
      Tokens.emplace_back(Text.substr(Begin, I - Begin));
    } else {
      Tokens.emplace_back(1, C);
      ++I;
    }
  }
  return Tokens;
}

PompParse parsePompDirective(const std::vector<std::string> &Tokens, bool CaseInsensitive) {
  Reader R(Tokens, CaseInsensitive);
  PompParse Result;
  PompDirective P;
  auto fail = [&](std::string Message) {
    Result.Error = std::move(Message);
    Result.ErrorToken = R.position();
    return Result;
  };
  const std::string Word = R.word();
  if (Word == "noinstrument" || Word == "instrument") {
    P.What = Word == "noinstrument" ? PompDirective::Kind::NoInstrument
                                    : PompDirective::Kind::Instrument;
  } else if (Word == "userregion") {
    R.next();
    const std::string Action = R.word();
    if (Action == "start")
      P.What = PompDirective::Kind::RegionBegin;
    else if (Action == "stop")
      P.What = PompDirective::Kind::RegionEnd;
    else if (Action == "event")
      P.What = PompDirective::Kind::Event;
    else
      return fail("'userregion' takes start(name), stop(name) or event(name)");
    if (!R.parenthesisedName(P.Name))
      return fail("expected '(name)' after 'userregion " + Action + "'");
  } else if (Word == "inst") {
    R.next();
    const std::string Action = R.word();
    if (Action == "begin" || Action == "end" || Action == "altend") {
      P.What = Action == "begin" ? PompDirective::Kind::RegionBegin
               : Action == "end" ? PompDirective::Kind::RegionEnd
                                 : PompDirective::Kind::RegionAltEnd;
      if (!R.parenthesisedName(P.Name))
        return fail("expected '(name)' after 'inst " + Action + "'");
    } else if (Action == "init") {
      P.What = PompDirective::Kind::Init;
    } else if (Action == "finalize") {
      P.What = PompDirective::Kind::Finalize;
    } else if (Action == "on") {
      P.What = PompDirective::Kind::On;
    } else if (Action == "off") {
      P.What = PompDirective::Kind::Off;
    } else if (std::optional<int> Group = groupFromName(Action)) {
      P.What = PompDirective::Kind::Level;
      P.Group = *Group;
      P.Name = Action;
      R.next();
      const std::string LevelWord = R.word();
      const std::optional<int> Level = levelFromName(LevelWord);
      if (!Level || !levelValidForGroup(*Group, *Level))
        return fail("'" + LevelWord + "' is not a level of group '" + Action + "'");
      P.Level = *Level;
      R.next();
      if (!R.atEnd()) {
        if (R.word() != "file")
          return fail("expected 'file' or the end of the line after the level");
        P.WholeFile = true;
      }
    } else {
      return fail(PompDirectiveUsage);
    }
  } else {
    return fail(PompDirectiveUsage);
  }
  R.next();
  if (!R.atEnd())
    return fail("unexpected tokens at the end of the line");
  Result.Directive = std::move(P);
  return Result;
}

PompDirectivePlan planPompDirective(PompDirective::Kind What, const EnabledFn &Enabled) {
  PompDirectivePlan Plan;
  auto step = [&](Event E, std::vector<Arg> Args) {
    if (Enabled(E))
      Plan.Steps.push_back({Step::Kind::Call, E, Region::Construct, std::move(Args)});
  };
  switch (What) {
  case PompDirective::Kind::RegionBegin:
    Plan.NewHandle = true;
    step(Event::User_region_begin, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc});
    break;
  case PompDirective::Kind::RegionEnd:
  case PompDirective::Kind::RegionAltEnd:
    step(Event::User_region_end, {Arg::Handle, Arg::ThreadId});
    break;
  case PompDirective::Kind::Event:
    Plan.NewHandle = true;
    step(Event::User_event, {Arg::HandleFirst, Arg::ThreadId, Arg::Ctc});
    break;
  case PompDirective::Kind::Init:
    Plan.ControlRoutine = "POMP_Init";
    break;
  case PompDirective::Kind::Finalize:
    Plan.ControlRoutine = "POMP_Finalize";
    break;
  case PompDirective::Kind::On:
    Plan.ControlRoutine = "POMP_On";
    break;
  case PompDirective::Kind::Off:
    Plan.ControlRoutine = "POMP_Off";
    break;
  case PompDirective::Kind::Level:
  case PompDirective::Kind::NoInstrument:
  case PompDirective::Kind::Instrument:
    break;
  }
  return Plan;
}

std::optional<unsigned> UserRegionMatcher::end(const PompDirective &D, std::string &Error) {
  auto same = [&](const std::string &A, const std::string &B) {
    return CaseInsensitive ? lowercase(A) == lowercase(B) : A == B;
  };
  if (Stack.empty() || !same(Stack.back().Name, D.Name)) {
    Error = Stack.empty() ? "end of user region '" + D.Name + "' without a begin"
                          : "end of user region '" + D.Name + "' does not match the open region '" +
                                Stack.back().Name + "'";
    return std::nullopt;
  }
  const unsigned Handle = Stack.back().Handle;
  if (D.What == PompDirective::Kind::RegionEnd)
    Stack.pop_back();
  return Handle;
}

} // namespace pomp::inst::model
