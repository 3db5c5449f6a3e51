//===- DirectiveForms.cpp - OpenMP directives not written as #pragma -------===//
#include "DirectiveForms.h"

#include "EditList.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

#include <algorithm>
#include <cstring>
#include <optional>

namespace pomp::inst {

using namespace clang;

namespace {
constexpr llvm::StringLiteral PragmaOperator = "_Pragma";

/// Whether the text at At (a null-terminated buffer) starts with Prefix.
bool startsWith(const char *At, StringRef Prefix) {
  return std::strncmp(At, Prefix.data(), Prefix.size()) == 0;
}

const char *const MetadirectiveReason =
    "a metadirective's variant is chosen by each compiler itself";
const char *const SharedSpecifierReason =
    "written in the attribute syntax together with other attributes in one [[...]]: the "
    "directive cannot be taken out of it";
const char *const NotFirstReason =
    "written in the attribute syntax after other attributes or specifiers of its statement or "
    "declaration: a #pragma line cannot go there";
const char *const InMacroArgumentReason =
    "written inside a macro's argument: a #pragma line cannot go there";
const char *const AttributeInMacroReason =
    "written in the attribute syntax in a macro's definition: the directive cannot be taken out "
    "of its expansion";
const char *const UnknownAttributeReason =
    "written in the attribute syntax with an OpenMP attribute Clang 19 does not know";
const char *const StatementInMacroReason =
    "produced by a macro whose expansion holds more than _Pragma operators (the associated "
    "statement or other code): the directive cannot be taken out of it";
const char *const OtherPragmasReason =
    "produced by a macro whose pragmas cannot all be rewritten into pragma lines (an OpenMP "
    "directive without a construct of its own, or an operand the preprocessor did not show)";
const char *const UnreadableReason = "its text as the compiler saw it cannot be recovered";
const char *const IgnoredByCompilerReason =
    "written in the attribute syntax, which the real compiler ignores in C: as a #pragma line it "
    "would take effect where the original's does not";
const char *const IgnoredPartReason =
    "written in the attribute syntax with a part Clang ignores (a malformed clause): as a #pragma "
    "line it would not mean what Clang understood";
/// The warning groups of the parser's diagnostics that say it ignored part
/// of a directive: "... - ignoring" and "extra tokens at the end of '#pragma
/// omp ...' are ignored" (`directive(single single)` in an attribute: as a
/// pragma line gcc rejects what Clang ignored).
constexpr llvm::StringLiteral IgnoredPartGroups[] = {"ignored-pragmas", "extra-tokens"};

bool isIgnoredPartGroup(StringRef Group) { return llvm::is_contained(IgnoredPartGroups, Group); }
} // namespace

//===--- DirectiveFormRecorder --------------------------------------------===//

DirectiveFormRecorder::DirectiveFormRecorder(Preprocessor &PP) : PP(PP), SM(PP.getSourceManager()) {
  PP.setTokenWatcher([this](const Token &Tok) { onToken(Tok); });
}

void DirectiveFormRecorder::onToken(const Token &Tok) {
  // The OpenMP pragma handler hands the parser a pragma's tokens between
  // these two annotations.
  if (Tok.is(tok::annot_pragma_openmp)) {
    InOpenMPPragma = true;
    ++Expansions[SM.getExpansionLoc(Tok.getLocation())].OpenMPPragmas;
    return;
  }
  if (Tok.is(tok::annot_pragma_openmp_end)) {
    InOpenMPPragma = false;
    return;
  }
  // Other pragmas the parser sees (loop hints) are one annotation each.
  if (InOpenMPPragma || !Tok.getLocation().isMacroID() ||
      (Tok.isAnnotation() &&
       StringRef(tok::getTokenName(Tok.getKind())).starts_with("annot_pragma")))
    return;
  // Where the expansion starts is looked up only if a directive asks
  // (expansionAt): most parses have none from a macro, and the lookup of a
  // macro token's expansion cost 690 instructions each, 3% of LULESH's parse.
  OtherMacroTokens.push_back(Tok.getLocation());
}

void DirectiveFormRecorder::resolveOtherTokens() const {
  SourceLocation Last;
  for (const SourceLocation Loc : OtherMacroTokens) {
    const SourceLocation Begin = SM.getExpansionLoc(Loc);
    if (Begin == Last)
      continue;
    Last = Begin;
    Expansions[Begin].OtherTokens = true;
  }
  OtherMacroTokens.clear();
  OtherMacroTokens.shrink_to_fit();
}

void DirectiveFormRecorder::SourceRangeSkipped(SourceRange Range, SourceLocation) {
  if (!Range.getBegin().isFileID() || !Range.getEnd().isFileID())
    return;
  const auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
  Skipped[File].push_back({Begin, SM.getFileOffset(Range.getEnd())});
}

void DirectiveFormRecorder::MacroExpands(const Token &, const MacroDefinition &, SourceRange Range,
                                         const MacroArgs *Args) {
  // Only the invocations written in files have arguments a rewrite could
  // touch.
  if (!Args || !Range.getBegin().isFileID() || !Range.getEnd().isFileID() ||
      SM.isInSystemHeader(Range.getBegin()))
    return;
  const auto [File, Begin] = SM.getDecomposedLoc(Range.getBegin());
  Invocations[File].push_back({Begin, SM.getFileOffset(Range.getEnd())});
}

void DirectiveFormRecorder::PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Introducer) {
  if (Introducer != PIK__Pragma)
    return;
  Expansion &E = Expansions[SM.getExpansionLoc(Loc)];
  ++E.Pragmas;
  // The preprocessor lexes the destringized operand of a _Pragma operator
  // from a lexer of its own, which stands at its start now; the operand
  // ends with a newline there.
  // (Lexer is the only kind of PreprocessorLexer.)
  const auto *Operand = static_cast<const Lexer *>(PP.getCurrentLexer());
  if (!Operand || !Operand->isPragmaLexer() || !Operand->getBufferLocation())
    return;
  const StringRef Rest(Operand->getBufferLocation());
  const StringRef Text = Rest.substr(0, Rest.find('\n')).trim();
  if (!Text.empty())
    E.Texts.push_back(Text.str());
}

bool expandsToPragmaOperator(const MacroDirective *MD, const llvm::StringSet<> &PragmaMacros) {
  const MacroInfo *Info = MD ? MD->getMacroInfo() : nullptr;
  if (!Info)
    return false;
  return llvm::any_of(Info->tokens(), [&](const Token &Tok) {
    const IdentifierInfo *Identifier = Tok.getIdentifierInfo();
    return Identifier && (Identifier->getName() == PragmaOperator ||
                          PragmaMacros.contains(Identifier->getName()));
  });
}

void DirectiveFormRecorder::MacroDefined(const Token &Name, const MacroDirective *MD) {
  if (expandsToPragmaOperator(MD, PragmaMacros))
    PragmaMacros.insert(Name.getIdentifierInfo()->getName());
}

void DirectiveFormRecorder::addPragmaMacros(const std::vector<std::string> &Names) {
  for (const std::string &Name : Names)
    PragmaMacros.insert(Name);
}

bool DirectiveFormRecorder::mentionsPragmaMacro(StringRef Text) const {
  return std::any_of(PragmaMacros.begin(), PragmaMacros.end(),
                     [Text](const auto &Macro) { return Text.contains(Macro.getKey()); });
}

const DirectiveFormRecorder::Expansion *
DirectiveFormRecorder::expansionAt(SourceLocation Begin) const {
  resolveOtherTokens();
  const auto It = Expansions.find(Begin);
  return It == Expansions.end() ? nullptr : &It->second;
}

namespace {
bool inAny(const std::map<FileID, std::vector<std::pair<std::size_t, std::size_t>>> &Ranges,
           FileID File, std::size_t Offset) {
  const auto It = Ranges.find(File);
  if (It == Ranges.end())
    return false;
  return std::any_of(It->second.begin(), It->second.end(),
                     [Offset](const auto &R) { return Offset > R.first && Offset < R.second; });
}
} // namespace

bool DirectiveFormRecorder::skipped(FileID File, std::size_t Offset) const {
  return inAny(Skipped, File, Offset);
}

bool DirectiveFormRecorder::inMacroInvocation(FileID File, std::size_t Offset) const {
  return inAny(Invocations, File, Offset);
}

//===--- Attribute parsing -------------------------------------------------===//

namespace {
/// The raw tokens of a file outside preprocessor directive lines, with
/// whether a directive line came right before each.
struct RawToken {
  Token Tok;
  std::size_t Offset;
  bool AfterDirective;
};

std::vector<RawToken> rawTokens(const SourceManager &SM, const LangOptions &LO, FileID File) {
  const StringRef Buffer = SM.getBufferData(File);
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin(), Buffer.end());
  std::vector<RawToken> Tokens;
  bool InDirective = false;
  bool DirectiveBefore = true;
  Token Tok;
  while (!Raw.LexFromRawLexer(Tok) || Tok.isNot(tok::eof)) {
    if (Tok.is(tok::eof))
      break;
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(tok::hash);
    if (InDirective) {
      DirectiveBefore = true;
      continue;
    }
    Tokens.push_back({Tok, SM.getFileOffset(Tok.getLocation()), DirectiveBefore});
    DirectiveBefore = false;
  }
  return Tokens;
}

/// Parses the attribute-specifiers of a file's raw tokens.
class AttributeParser {
public:
  AttributeParser(const std::vector<RawToken> &Tokens, StringRef Buffer)
      : Tokens(Tokens), Buffer(Buffer) {}

  /// The result for the `[[` at I: the directives of its OpenMP
  /// attributes in order, the index just past its `]]`, and whether it holds
  /// other attributes or ones Clang does not know.
  struct Specifier {
    /// Each directive's text and the offset where it is written.
    std::vector<std::pair<std::string, std::size_t>> Directives;
    std::size_t End = 0;
    bool HasOther = false;
    bool HasUnknown = false;
  };
  /// Whether the tokens at I are `[[`, which parse() needs.
  bool opensSpecifier(std::size_t I) const {
    return is(I, tok::l_square) && is(I + 1, tok::l_square);
  }

  std::optional<Specifier> parse(std::size_t I) {
    if (!opensSpecifier(I))
      return std::nullopt;
    Specifier S;
    std::size_t At = I + 2;
    bool UsingOmp = false;
    if (identifier(At, "using")) {
      if (!identifier(At + 1, "omp") || !is(At + 2, tok::colon))
        return std::nullopt;
      UsingOmp = true;
      At += 3;
    }
    while (!is(At, tok::r_square)) {
      if (At >= Tokens.size())
        return std::nullopt;
      bool Omp = UsingOmp;
      if (!UsingOmp) {
        if (std::optional<std::size_t> After = scope(At, "omp")) {
          Omp = true;
          At = *After;
        } else {
          S.HasOther = true;
        }
      }
      if (!Omp) {
        // Another vendor's attribute: skip to the next comma at this level.
        while (At < Tokens.size() && !is(At, tok::comma) && !is(At, tok::r_square))
          At = is(At, tok::l_paren) ? closing(At) + 1 : At + 1;
      } else if (!item(At, S)) {
        return std::nullopt;
      }
      if (is(At, tok::comma))
        ++At;
    }
    if (!is(At + 1, tok::r_square))
      return std::nullopt;
    S.End = At + 2;
    return S;
  }

private:
  bool is(std::size_t I, tok::TokenKind Kind) const {
    return I < Tokens.size() && Tokens[I].Tok.is(Kind);
  }
  bool identifier(std::size_t I, StringRef Name) const {
    return is(I, tok::raw_identifier) && Tokens[I].Tok.getRawIdentifier() == Name;
  }
  /// `Name ::` at I (C lexes `::` as two colons): the index after it.
  std::optional<std::size_t> scope(std::size_t I, StringRef Name) const {
    if (!identifier(I, Name))
      return std::nullopt;
    if (is(I + 1, tok::coloncolon))
      return I + 2;
    if (is(I + 1, tok::colon) && is(I + 2, tok::colon))
      return I + 3;
    return std::nullopt;
  }
  /// The index of the `)` that closes the `(` at Open (the end when none).
  std::size_t closing(std::size_t Open) const {
    unsigned Depth = 0;
    for (std::size_t I = Open; I < Tokens.size(); ++I) {
      if (is(I, tok::l_paren))
        ++Depth;
      else if (is(I, tok::r_paren) && --Depth == 0)
        return I;
    }
    return Tokens.size();
  }
  /// The text of tokens [Begin, End) on one line: a space wherever the
  /// original had whitespace, a comment or a line break between them.
  std::string text(std::size_t Begin, std::size_t End) const {
    std::string Text;
    for (std::size_t I = Begin; I < End; ++I) {
      const std::size_t Offset = Tokens[I].Offset;
      const std::size_t PreviousEnd =
          I > Begin ? Tokens[I - 1].Offset + Tokens[I - 1].Tok.getLength() : Offset;
      // A directive written over several lines stays on as many lines.
      if (Buffer.slice(PreviousEnd, Offset).contains('\n'))
        Text += " \\\n";
      else if (Offset > PreviousEnd)
        Text += ' ';
      Text += Buffer.substr(Offset, Tokens[I].Tok.getLength()).str();
    }
    return Text;
  }
  /// `directive(...)` or `sequence(...)` at At (its `omp::` already
  /// consumed); advances At past it.
  bool item(std::size_t &At, AttributeParser::Specifier &S) {
    const bool Directive = identifier(At, "directive");
    const bool Sequence = identifier(At, "sequence");
    if (!is(At + 1, tok::l_paren))
      return false;
    const std::size_t Close = closing(At + 1);
    if (Close >= Tokens.size())
      return false;
    if (Directive) {
      S.Directives.push_back({text(At + 2, Close), Tokens[At].Offset});
    } else if (Sequence) {
      std::size_t In = At + 2;
      while (In < Close) {
        if (std::optional<std::size_t> After = scope(In, "omp"))
          In = *After;
        if (!item(In, S))
          return false;
        if (is(In, tok::comma))
          ++In;
      }
    } else {
      S.HasUnknown = true;
    }
    At = Close + 1;
    return true;
  }

  const std::vector<RawToken> &Tokens;
  StringRef Buffer;
};

/// Whether a statement or declaration may start right after token I:
/// nothing but the start of a statement can take a #pragma line before it.
bool startsStatement(const std::vector<RawToken> &Tokens, std::size_t I) {
  if (I == 0 || Tokens[I].AfterDirective)
    return true;
  const Token &Before = Tokens[I - 1].Tok;
  if (Before.isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::r_paren, tok::colon))
    return true;
  return Before.is(tok::raw_identifier) &&
         (Before.getRawIdentifier() == "else" || Before.getRawIdentifier() == "do");
}

bool isMetadirective(const std::pair<std::string, std::size_t> &Directive) {
  return StringRef(Directive.first).starts_with("metadirective") ||
         StringRef(Directive.first).starts_with("begin metadirective");
}
} // namespace

//===--- IgnoredDirectiveParts --------------------------------------------===//

IgnoredDirectiveParts &IgnoredDirectiveParts::install(DiagnosticsEngine &Diags) {
  auto *Parts = new IgnoredDirectiveParts(Diags);
  Diags.setClient(Parts, /*ShouldOwnClient=*/true);
  for (const StringRef Group : IgnoredPartGroups)
    Diags.setSeverityForGroup(diag::Flavor::WarningOrError, Group, diag::Severity::Remark);
  return *Parts;
}

bool IgnoredDirectiveParts::within(FileID File, std::size_t Begin, std::size_t End) const {
  const auto It = Offsets.find(File);
  return It != Offsets.end() &&
         std::any_of(It->second.begin(), It->second.end(),
                     [&](std::size_t At) { return At >= Begin && At < End; });
}

void IgnoredDirectiveParts::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                             const Diagnostic &Info) {
  if (Level == DiagnosticsEngine::Remark &&
      isIgnoredPartGroup(DiagnosticIDs::getWarningOptionForDiag(Info.getID()))) {
    if (Info.getLocation().isValid() && Info.hasSourceManager()) {
      const std::pair<FileID, unsigned> At =
          Info.getSourceManager().getDecomposedExpansionLoc(Info.getLocation());
      Offsets[At.first].push_back(At.second);
    }
    return;
  }
  passOn(Level, Info);
}

//===--- DirectiveForms ---------------------------------------------------===//

DirectiveForms::DirectiveForms(ASTContext &Context, const DirectiveFormRecorder &Recorder,
                               const IgnoredDirectiveParts &Ignored,
                               bool CompilerIgnoresCAttributes)
    : Context(Context), SM(Context.getSourceManager()), Recorder(Recorder), Ignored(Ignored),
      KeepAttributes(CompilerIgnoresCAttributes && !Context.getLangOpts().CPlusPlus) {
  collectOperators();
  if (rewritable(SM.getMainFileID()))
    scanAttributes(SM.getMainFileID());
  // Headers: those holding a directive of the AST written as an attribute.
  std::vector<FileID> Scanned{SM.getMainFileID()};
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(std::vector<FileID> &Files, const SourceManager &SM) : Files(Files), SM(SM) {}
    bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
      const SourceLocation Loc = D->getBeginLoc();
      if (Loc.isFileID() && !SM.isInSystemHeader(Loc))
        if (std::find(Files.begin(), Files.end(), SM.getFileID(Loc)) == Files.end())
          Files.push_back(SM.getFileID(Loc));
      return true;
    }
    std::vector<FileID> &Files;
    const SourceManager &SM;
  };
  Finder(Scanned, SM).TraverseDecl(Context.getTranslationUnitDecl());
  for (std::size_t I = 1; I < Scanned.size(); ++I)
    if (rewritable(Scanned[I]))
      scanAttributes(Scanned[I]);
  render();
}

bool DirectiveForms::rewritable(FileID File) const {
  return File.isValid() && SM.getFileEntryRefForID(File) &&
         !SM.isInSystemHeader(SM.getLocForStartOfFile(File));
}

void DirectiveForms::scanAttributes(FileID File) {
  const std::vector<RawToken> Tokens = rawTokens(SM, Context.getLangOpts(), File);
  AttributeParser Parser(Tokens, SM.getBufferData(File));
  for (std::size_t I = 0; I + 1 < Tokens.size(); ++I) {
    // The cheap test first: the skipped ranges are searched per `[[` only.
    if (!Parser.opensSpecifier(I) || Recorder.skipped(File, Tokens[I].Offset))
      continue;
    // A run of attribute-specifiers one after the other: the pragma lines of
    // its OpenMP attributes replace the run's start. All of them are
    // rewritten or none (compilers reject a declaration with directives in
    // both syntaxes).
    std::vector<std::pair<std::size_t, AttributeParser::Specifier>> Run;
    for (std::size_t At = I;;) {
      std::optional<AttributeParser::Specifier> S = Parser.parse(At);
      if (!S)
        break;
      const std::size_t Next = S->End;
      Run.push_back({At, std::move(*S)});
      At = Next;
    }
    if (Run.empty())
      continue;
    const char *RunWhy = startsStatement(Tokens, I) ? nullptr : NotFirstReason;
    bool OtherBefore = false;
    for (const auto &[At, S] : Run) {
      const bool OpenMP = !S.Directives.empty() || S.HasUnknown;
      if (!OpenMP) {
        OtherBefore = true;
        continue;
      }
      const char *Why = nullptr;
      if (Recorder.inMacroInvocation(File, Tokens[At].Offset))
        Why = InMacroArgumentReason;
      else if (S.HasUnknown)
        Why = UnknownAttributeReason;
      else if (S.HasOther)
        Why = SharedSpecifierReason;
      else if (std::any_of(S.Directives.begin(), S.Directives.end(), isMetadirective))
        Why = MetadirectiveReason;
      else if (Ignored.within(File, Tokens[At].Offset,
                              Tokens[S.End - 1].Offset + Tokens[S.End - 1].Tok.getLength()))
        Why = IgnoredPartReason;
      else if (OtherBefore)
        Why = NotFirstReason;
      if (!RunWhy)
        RunWhy = Why;
    }
    if (!RunWhy && KeepAttributes)
      RunWhy = IgnoredByCompilerReason;
    for (const auto &[At, S] : Run) {
      if (S.Directives.empty() && !S.HasUnknown)
        continue;
      const std::size_t Begin = Tokens[At].Offset;
      const std::size_t End = Tokens[S.End - 1].Offset + Tokens[S.End - 1].Tok.getLength();
      Attributes[File].push_back({Begin, End, RunWhy});
      if (RunWhy)
        continue;
      Rewrite R{Begin, End, {}};
      for (const auto &[Directive, Offset] : S.Directives)
        R.Pragmas.push_back({"#pragma omp " + Directive, Offset});
      Rewrites[File].push_back(std::move(R));
    }
    I = Run.back().second.End - 1;
  }
}

void DirectiveForms::collectOperators() {
  // The directives of each expansion (or operator written in a file), in
  // the order the parser saw them: outer constructs before inner ones.
  class Collector : public RecursiveASTVisitor<Collector> {
  public:
    explicit Collector(const SourceManager &SM) : SM(SM) {}
    bool shouldVisitTemplateInstantiations() const { return false; }
    bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
      const SourceLocation Loc = D->getBeginLoc();
      const SourceLocation Key = SM.getExpansionLoc(Loc);
      if (isa<OMPMetaDirective>(D)) {
        Metadirectives.insert(Key);
        return true;
      }
      if (Metadirectives.contains(Key))
        return true;
      bool Invalid = false;
      const char *At = SM.getCharacterData(SM.getSpellingLoc(Loc), &Invalid);
      if (Invalid)
        return true;
      if (Loc.isFileID() && !startsWith(At, PragmaOperator))
        return true;
      if (Loc.isMacroID() && SM.getFileEntryRefForID(SM.getFileID(SM.getSpellingLoc(Loc))) &&
          !startsWith(At, PragmaOperator)) {
        // The attribute syntax in a macro's definition or argument.
        AttributeReasons[Key] =
            SM.isMacroArgExpansion(Loc) ? InMacroArgumentReason : AttributeInMacroReason;
        return true;
      }
      auto [It, New] = Index.try_emplace(Key, Groups.size());
      if (New)
        Groups.push_back({Key, {}});
      Groups[It->second].second.push_back(D);
      return true;
    }
    const SourceManager &SM;
    llvm::DenseSet<SourceLocation> Metadirectives;
    llvm::DenseMap<SourceLocation, const char *> AttributeReasons;
    llvm::DenseMap<SourceLocation, std::size_t> Index;
    std::vector<std::pair<SourceLocation, std::vector<const OMPExecutableDirective *>>> Groups;
  };
  Collector C(SM);
  C.TraverseDecl(Context.getTranslationUnitDecl());
  OperatorReasons = C.AttributeReasons;
  for (const auto &[Key, Directives] : C.Groups) {
    const FileID File = SM.getFileID(Key);
    if (!rewritable(File))
      continue;
    const DirectiveFormRecorder::Expansion *E = Recorder.expansionAt(Key);
    const bool FromMacro = Directives.front()->getBeginLoc().isMacroID();
    const char *Why = nullptr;
    if (!E || (FromMacro && E->OtherTokens))
      Why = StatementInMacroReason;
    else if (E->OpenMPPragmas != Directives.size() || E->Texts.size() != E->Pragmas)
      Why = OtherPragmasReason;
    Rewrite R{SM.getFileOffset(Key), 0, {}};
    const SourceLocation Last = SM.getExpansionRange(Directives.back()->getEndLoc()).getEnd();
    if (!Why && SM.getFileID(Last) != File)
      Why = UnreadableReason;
    if (!Why) {
      R.End = SM.getFileOffset(Last) + Lexer::MeasureTokenLength(Last, SM, Context.getLangOpts());
      // Every pragma of the expansion, OpenMP's and others, in order.
      for (const std::string &Text : E->Texts)
        R.Pragmas.push_back({"#pragma " + Text, R.Begin});
    }
    if (Why) {
      OperatorReasons[Key] = Why;
      continue;
    }
    Rewrites[File].push_back(std::move(R));
  }
}

void DirectiveForms::render() {
  for (auto &[File, List] : Rewrites) {
    const StringRef Buffer = SM.getBufferData(File);
    const SourceLocation Start = SM.getLocForStartOfFile(File);
    auto LineStart = [&](std::size_t Offset) {
      const std::size_t NewLine = Buffer.rfind('\n', Offset == 0 ? 0 : Offset - 1);
      return NewLine == StringRef::npos || Offset == 0 ? 0 : NewLine + 1;
    };
    auto Line = [&](std::size_t Offset) {
      return std::to_string(SM.getPresumedLineNumber(Start.getLocWithOffset(Offset)));
    };
    EditList Edits;
    for (const Rewrite &R : List) {
      // Every pragma and the text after the rewritten range keep the line
      // the range started and ended on; the text after keeps its column.
      const std::size_t Before = LineStart(R.Begin);
      const bool FirstOnLine = Buffer.slice(Before, R.Begin).trim().empty();
      std::string Text;
      for (std::size_t I = 0; I < R.Pragmas.size(); ++I) {
        if (I > 0 || !FirstOnLine)
          Text += "\n#line " + Line(R.Pragmas[I].second) + "\n";
        Text += R.Pragmas[I].first;
      }
      Text += "\n#line " + Line(R.End) + "\n";
      const std::size_t LineEnd = std::min(Buffer.find('\n', R.End), Buffer.size());
      if (!Buffer.slice(R.End, LineEnd).trim().empty())
        for (char C : Buffer.slice(LineStart(R.End), R.End))
          Text += C == '\t' ? '\t' : ' ';
      Edits.replace(R.Begin, R.End, std::move(Text));
    }
    std::string Out;
    if (!Edits.apply(
            Buffer, [](std::size_t) { return std::string(); }, Out))
      continue;
    llvm::SmallString<256> Name(SM.getFileEntryRefForID(File)->getName());
    SM.getFileManager().makeAbsolutePath(Name);
    Rewritten[std::string(Name)] = std::move(Out);
  }
}

const char *DirectiveForms::reasonLeftAlone(const OMPExecutableDirective &D) const {
  const SourceLocation Loc = D.getBeginLoc();
  const SourceLocation Key = SM.getExpansionLoc(Loc);
  if (const auto It = OperatorReasons.find(Key); It != OperatorReasons.end())
    return It->second;
  const auto [File, Offset] = SM.getDecomposedLoc(Key);
  bool Invalid = false;
  const char *At = SM.getCharacterData(Key, &Invalid);
  if (!Invalid && *At == '#')
    return nullptr;
  if (const auto It = Attributes.find(File); It != Attributes.end())
    for (const AttributeSite &Site : It->second)
      if (Offset >= Site.Begin && Offset < Site.End && Site.Why)
        return Site.Why;
  if (Loc.isMacroID())
    return "produced by a macro";
  if (!Invalid && startsWith(At, PragmaOperator))
    return "written as a _Pragma operator, not a #pragma line";
  return "written in the attribute syntax ([[omp::directive]]), not as a #pragma line";
}

} // namespace pomp::inst
