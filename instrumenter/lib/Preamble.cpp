//===- Preamble.cpp - A precompiled preamble for ompinst -------------------===//
#include "pomp/instrumenter/Preamble.h"

#include "DirectiveForms.h"
#include "IncludedHeaders.h"
#include "ParseWarnings.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <cctype>

namespace pomp::inst {

using namespace clang;

namespace {

/// The identifier of the `_Pragma` operator (and MSVC's `__pragma`).
bool isPragmaOperator(StringRef Name) { return Name == "_Pragma" || Name == "__pragma"; }

/// True when Name holds `omp` or `pragma` in any case.
bool mentionsOpenMP(StringRef Name) {
  const std::string Lower = Name.lower();
  return Lower.find("omp") != std::string::npos || Lower.find("pragma") != std::string::npos;
}

} // namespace

namespace {

/// precompilableBounds() and compileBounds(): ForCompile keeps `#line` (at
/// conditional depth 0) and the macros of directives, and sets LineAfter.
PreambleBounds boundsFor(const LangOptions &Lang, StringRef Text, bool ForCompile,
                         std::string *LineAfter = nullptr) {
  const PreambleBounds Clang = Lexer::ComputePreamble(Text, Lang, /*MaxLines=*/0);
  // A raw lexer over a copy of the preamble alone (a lexer stops only at a
  // null character): comments are skipped, every token belongs to a
  // directive. Offsets are relative to the text's start.
  const std::string Preamble = Text.substr(0, Clang.Size).str();
  const SourceLocation Start = SourceLocation::getFromRawEncoding(1);
  Lexer Lex(Start, Lang, Preamble.data(), Preamble.data(), Preamble.data() + Preamble.size());
  Lex.SetCommentRetentionState(false);
  auto OffsetOf = [&](const Token &Tok) {
    return static_cast<std::size_t>(Tok.getLocation().getRawEncoding() - Start.getRawEncoding());
  };
  // The cut goes before a directive at conditional depth 0 whose
  // predecessors may all be precompiled.
  std::size_t Safe = 0;
  int Depth = 0;
  // The last `#line`: its physical line, number and file name (as written).
  std::size_t LineDirectiveAt = 0;
  unsigned LineNumber = 0;
  std::string LineFile;
  auto PhysicalLine = [&Preamble](std::size_t Offset) {
    return static_cast<std::size_t>(std::count(Preamble.begin(), Preamble.begin() + Offset, '\n')) +
           1;
  };
  Token Tok;
  Lex.LexFromRawLexer(Tok);
  while (true) {
    if (Tok.is(tok::eof)) {
      if (Depth == 0)
        Safe = Clang.Size;
      break;
    }
    if (Tok.isNot(tok::hash) || !Tok.isAtStartOfLine())
      break;
    if (Depth == 0)
      Safe = OffsetOf(Tok);
    const std::size_t DirectiveAt = OffsetOf(Tok);
    Lex.LexFromRawLexer(Tok);
    StringRef Name;
    bool LineMarker = false;
    if (Tok.is(tok::raw_identifier) && !Tok.isAtStartOfLine())
      Name = Tok.getRawIdentifier();
    else if (Tok.is(tok::numeric_constant) && !Tok.isAtStartOfLine())
      LineMarker = true;
    bool Cut = LineMarker || Name == "pragma" || (Name == "line" && (!ForCompile || Depth > 0));
    if (Name == "line" && !Cut) {
      Lex.LexFromRawLexer(Tok);
      if (Tok.isAtStartOfLine() || Tok.isNot(tok::numeric_constant) ||
          StringRef(Tok.getLiteralData(), Tok.getLength()).getAsInteger(10, LineNumber)) {
        Cut = true;
      } else {
        LineDirectiveAt = PhysicalLine(DirectiveAt);
        Lex.LexFromRawLexer(Tok);
        if (!Tok.isAtStartOfLine() && Tok.is(tok::string_literal))
          LineFile = std::string(Tok.getLiteralData(), Tok.getLength());
      }
    }
    // The rest of the directive: up to the next token at the start of a line.
    while (Tok.isNot(tok::eof) && !Tok.isAtStartOfLine()) {
      if (Tok.is(tok::raw_identifier)) {
        const StringRef Identifier = Tok.getRawIdentifier();
        if (!ForCompile &&
            (isPragmaOperator(Identifier) || (Name == "define" && mentionsOpenMP(Identifier))))
          Cut = true;
      }
      Lex.LexFromRawLexer(Tok);
    }
    if (Cut)
      break;
    if (Name == "if" || Name == "ifdef" || Name == "ifndef")
      ++Depth;
    else if (Name == "endif" && --Depth < 0)
      break;
  }
  const PreambleBounds Bounds =
      Safe == Clang.Size
          ? Clang
          : PreambleBounds(static_cast<unsigned>(Safe), /*PreambleEndsAtStartOfLine=*/true);
  if (LineAfter && LineDirectiveAt != 0) {
    // Restated where the preamble ends, the line it starts is numbered as
    // the `#line` said; a preamble that ends within a line cannot be.
    if (!Bounds.PreambleEndsAtStartOfLine)
      return PreambleBounds(0, true);
    const std::size_t Presumed = LineNumber + (PhysicalLine(Bounds.Size) - LineDirectiveAt - 1);
    *LineAfter =
        "#line " + std::to_string(Presumed) + (LineFile.empty() ? "" : " " + LineFile) + "\n";
  }
  return Bounds;
}

} // namespace

PreambleBounds precompilableBounds(const LangOptions &Lang, StringRef Text) {
  return boundsFor(Lang, Text, /*ForCompile=*/false);
}

PreambleBounds compileBounds(const LangOptions &Lang, StringRef Text, std::string &LineAfter) {
  LineAfter.clear();
  return boundsFor(Lang, Text, /*ForCompile=*/true, &LineAfter);
}

//===--- PreambleWatcher ---------------------------------------------------===//

struct PreambleWatcher::State {
  const SourceManager *SM = nullptr;
  /// The project's headers the preamble entered (not system headers).
  std::vector<FileID> ProjectFiles;
  llvm::StringSet<> PragmaMacros;
  std::string WhyNot;
};

namespace {

/// What the preamble's preprocessor does that the watcher needs.
class WatcherCallbacks : public PPCallbacks {
public:
  explicit WatcherCallbacks(std::shared_ptr<void> Keep, const SourceManager &SM,
                            std::vector<FileID> &ProjectFiles, llvm::StringSet<> &PragmaMacros)
      : Keep(std::move(Keep)), SM(SM), ProjectFiles(ProjectFiles), PragmaMacros(PragmaMacros) {}

  void FileChanged(SourceLocation Loc, FileChangeReason Reason, SrcMgr::CharacteristicKind Kind,
                   FileID) override {
    if (Reason != EnterFile || Kind != SrcMgr::C_User)
      return;
    const FileID File = SM.getFileID(SM.getExpansionLoc(Loc));
    if (File == SM.getMainFileID() || !SM.getFileEntryRefForID(File))
      return;
    ProjectFiles.push_back(File);
  }

  /// As DirectiveFormRecorder::MacroDefined: a macro whose expansion holds
  /// `_Pragma`, directly or through another such macro.
  void MacroDefined(const Token &Name, const MacroDirective *MD) override {
    if (expandsToPragmaOperator(MD, PragmaMacros))
      PragmaMacros.insert(Name.getIdentifierInfo()->getName());
  }

private:
  std::shared_ptr<void> Keep;
  const SourceManager &SM;
  std::vector<FileID> &ProjectFiles;
  llvm::StringSet<> &PragmaMacros;
};

} // namespace

PreambleWatcher::PreambleWatcher() : S(std::make_shared<State>()) {}
PreambleWatcher::~PreambleWatcher() = default;

void PreambleWatcher::BeforeExecute(CompilerInstance &CI) {
  S->SM = &CI.getSourceManager();
  // The parses that load the PCH map this group to remarks before loading
  // it (IgnoredDirectiveParts); the PCH carries the same mapping.
  CI.getDiagnostics().setSeverityForGroup(diag::Flavor::WarningOrError, "ignored-pragmas",
                                          diag::Severity::Remark);
  // The parse's own mappings: a header of the preamble may hold an implicit
  // int, which gcc accepts.
  ignoreDefaultErrorWarnings(CI.getDiagnostics());
}

std::unique_ptr<PPCallbacks> PreambleWatcher::createPPCallbacks() {
  if (!S->SM)
    return nullptr;
  return std::make_unique<WatcherCallbacks>(S, *S->SM, S->ProjectFiles, S->PragmaMacros);
}

void PreambleWatcher::AfterExecute(CompilerInstance &CI) {
  if (CI.getDiagnostics().hasErrorOccurred()) {
    S->WhyNot = "the preamble does not compile";
    return;
  }
  const SourceManager &SM = CI.getSourceManager();
  for (const FileID File : S->ProjectFiles) {
    const StringRef Text = SM.getBufferData(File);
    bool Pragmas = false;
    for (const auto &Macro : S->PragmaMacros)
      Pragmas = Pragmas || Text.contains(Macro.getKey());
    if (mayHoldOpenMP(Text) || Pragmas) {
      const OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
      S->WhyNot = "the project's header '" + (Entry ? Entry->getName().str() : std::string()) +
                  "' may hold OpenMP directives";
      return;
    }
  }
}

std::string PreambleWatcher::whyNot() const {
  if (!S->SM && S->WhyNot.empty())
    return "the preamble was not parsed";
  return S->WhyNot;
}

std::vector<std::string> PreambleWatcher::pragmaMacros() const {
  std::vector<std::string> Names;
  for (const auto &Macro : S->PragmaMacros)
    Names.push_back(Macro.getKey().str());
  std::sort(Names.begin(), Names.end());
  return Names;
}

//===--- PreambleLoadErrors ------------------------------------------------===//

PreambleLoadErrors &PreambleLoadErrors::install(DiagnosticsEngine &Diags,
                                                std::function<void()> OnFailure) {
  auto *Errors = new PreambleLoadErrors(Diags, std::move(OnFailure));
  Diags.setClient(Errors, /*ShouldOwnClient=*/true);
  return *Errors;
}

void PreambleLoadErrors::HandleDiagnostic(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
  const unsigned ID = Info.getID();
  const bool Loading = (ID >= diag::DIAG_START_SERIALIZATION && ID < diag::DIAG_START_LEX) ||
                       ID == diag::err_fe_unable_to_load_pch;
  if (Loading) {
    // Its notes go with it.
    // Not counted either: "1 error generated" would name it.
    if (Level >= DiagnosticsEngine::Error && !Failed) {
      Failed = true;
      OnFailure();
    }
    return;
  }
  if (Failed && Level == DiagnosticsEngine::Note)
    return;
  if (!Info.hasSourceManager()) {
    passOn(Level, Info);
    return;
  }
  SourceManager &SM = Info.getSourceManager();
  const FileID Preamble = SM.getPreambleFileID();
  bool Invalid = false;
  SrcMgr::SLocEntry *Entry = Preamble.isValid() ? &SM.getSLocEntry(Preamble, &Invalid) : nullptr;
  if (!Entry || Invalid || !Entry->isFile() || Entry->getFile().getIncludeLoc().isInvalid()) {
    passOn(Level, Info);
    return;
  }
  SrcMgr::FileInfo &File = Entry->getFile();
  const SrcMgr::FileInfo Kept = File;
  // FileInfo's include location has no setter: a copy without it (get()
  // also clears the count of created FileIDs, which printing does not read).
  File = SrcMgr::FileInfo::get(SourceLocation(),
                               const_cast<SrcMgr::ContentCache &>(Kept.getContentCache()),
                               Kept.getFileCharacteristic(), Kept.getName());
  if (Kept.hasLineDirectives())
    File.setHasLineDirectives();
  passOn(Level, Info);
  File = Kept;
}

} // namespace pomp::inst
