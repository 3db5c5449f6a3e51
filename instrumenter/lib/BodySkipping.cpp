//===- BodySkipping.cpp - Which function bodies of the main file to build ---===//
#include "BodySkipping.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// How deep macros that name macros are followed before a body is built
/// rather than skipped.
constexpr unsigned MaxMacroDepth = 32;

bool startsWithInsensitive(llvm::StringRef Name, llvm::StringRef Prefix) {
  return Name.size() >= Prefix.size() && Name.take_front(Prefix.size()).equals_insensitive(Prefix);
}

/// Brackets of any kind, counted together: the skip ends at the `}` that
/// closes the body, so only their nesting matters.
int bracketStep(tok::TokenKind Kind) {
  switch (Kind) {
  case tok::l_paren:
  case tok::l_square:
  case tok::l_brace:
    return 1;
  case tok::r_paren:
  case tok::r_square:
  case tok::r_brace:
    return -1;
  default:
    return 0;
  }
}

} // namespace

/// Tells the filter's token watcher when the preprocessor enters and leaves
/// system headers.
class MainFileBodyFilter::SystemHeaderGate : public PPCallbacks {
public:
  explicit SystemHeaderGate(std::shared_ptr<MainFileBodyFilter::Trail> Tokens)
      : Tokens(std::move(Tokens)) {}

  void FileChanged(SourceLocation, FileChangeReason Reason, SrcMgr::CharacteristicKind FileType,
                   FileID) override {
    if (Reason != EnterFile && Reason != ExitFile)
      return;
    const bool System = SrcMgr::isSystem(FileType);
    if (System && !Tokens->InSystemHeader) {
      // The last tokens before the header no longer are the last two when
      // a body starts right after it (an `#include` between a function's
      // head and its `{`): `{` as the last keeps that body built.
      Tokens->Last = SourceLocation();
      Tokens->LastKind = tok::l_brace;
    }
    Tokens->InSystemHeader = System;
  }

private:
  std::shared_ptr<MainFileBodyFilter::Trail> Tokens;
};

MainFileBodyFilter::MainFileBodyFilter(Preprocessor &PP,
                                       llvm::unique_function<void(const Token &)> Next)
    : PP(PP), Tokens(std::make_shared<Trail>()) {
  PP.addPPCallbacks(std::make_unique<SystemHeaderGate>(Tokens));
  PP.setTokenWatcher([Trail = Tokens, Next = std::move(Next)](const Token &Tok) mutable {
    if (Trail->InSystemHeader)
      return;
    if (Next)
      Next(Tok);
    Trail->BeforeLast = Trail->Last;
    Trail->BeforeLastKind = Trail->LastKind;
    Trail->LastKind = Tok.getKind();
    Trail->Last = Tok.getLocation();
  });
}

bool MainFileBodyFilter::identifierIsHarmless(llvm::StringRef Name, unsigned Depth) {
  if (startsWithInsensitive(Name, "omp") || startsWithInsensitive(Name, "pomp") ||
      Name == "_Pragma" || Name == "__pragma")
    return false;
  const IdentifierTable &Identifiers = PP.getIdentifierTable();
  const auto It = Identifiers.find(Name);
  if (It == Identifiers.end() || !It->second->hasMacroDefinition())
    return true;
  const MacroInfo *Macro = PP.getMacroInfo(It->second);
  return !Macro || macroIsHarmless(*Macro, Depth);
}

bool MainFileBodyFilter::macroIsHarmless(const MacroInfo &Macro, unsigned Depth) {
  if (Depth > MaxMacroDepth)
    return false;
  const auto [It, New] = HarmlessMacros.try_emplace(&Macro, false);
  if (!New)
    return It->second; // Also a macro that names itself, while it is being decided: not harmless.
  int Nesting = 0;
  for (const Token &Tok : Macro.tokens()) {
    // `##` may paste an OpenMP name together.
    if (Tok.is(tok::hashhash))
      return false;
    Nesting += bracketStep(Tok.getKind());
    if (Nesting < 0)
      return false;
    if (const IdentifierInfo *II = Tok.getIdentifierInfo())
      if (!identifierIsHarmless(II->getName(), Depth + 1))
        return false;
  }
  if (Nesting != 0)
    return false;
  // The map may have grown while names were followed: look the entry up again.
  HarmlessMacros[&Macro] = true;
  return true;
}

bool MainFileBodyFilter::canSkipBodyAtLastToken() {
  const Trail T = *Tokens;
  if (T.Last.isInvalid() ||
      (T.LastKind != tok::l_brace && T.LastKind != tok::colon && T.LastKind != tok::kw_try))
    return false;
  // A body never follows `{`: the parser would have looked past the body's
  // first token, and the last token would not be where the body starts.
  if (T.BeforeLastKind == tok::l_brace)
    return false;
  const SourceManager &SM = PP.getSourceManager();
  if (!T.Last.isFileID() || !SM.isWrittenInMainFile(T.Last))
    return false;
  const auto [File, Offset] = SM.getDecomposedLoc(T.Last);
  if (File != SM.getMainFileID())
    return false;
  const llvm::StringRef Buffer = SM.getBufferData(File);
  Lexer Raw(SM.getLocForStartOfFile(File), PP.getLangOpts(), Buffer.begin(),
            Buffer.begin() + Offset, Buffer.end());
  int Nesting = 0;
  // After the `}` that brings the nesting back to 0: the body ends there
  // unless more of it follows (`, member{}` or the body after a
  // constructor's braced initialiser, `catch` of a function try block).
  bool Closed = false;
  Token Tok;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Closed) {
      const bool Continues = Tok.isOneOf(tok::comma, tok::l_brace) ||
                             (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "catch");
      if (!Continues)
        return true;
      Closed = false;
    }
    switch (Tok.getKind()) {
    case tok::eof:
    // A directive (also `#pragma omp`, `#if` that may unbalance braces,
    // `#define`) or a digraph of one.
    case tok::hash:
    case tok::hashhash:
    case tok::hashat:
      return false;
    case tok::raw_identifier:
      if (!identifierIsHarmless(Tok.getRawIdentifier(), 0))
        return false;
      break;
    default: {
      const int Step = bracketStep(Tok.getKind());
      Nesting += Step;
      if (Nesting < 0)
        return false;
      if (Step < 0 && Nesting == 0 && Tok.is(tok::r_brace))
        Closed = true;
      break;
    }
    }
  }
}

} // namespace pomp::inst
