//===- ConstructEditor.cpp - What a construct handler can do ---------------===//
#include "ConstructEditor.h"
#include "IncludedHeaders.h"

#include "pomp/handle-init/HandleInit.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cassert>

namespace pomp::inst {

using namespace clang;

//===--- FileInstrumentation ---------------------------------------------===//

FileInstrumentation::FileInstrumentation(ASTContext &Context, const Options &Opts, FileID File,
                                         std::string NameTag)
    : Context(Context), Opts(Opts), File(File), Levels(Opts.Levels),
      NameTag(NameTag.empty() ? "" : NameTag + "_") {
  const SourceManager &SM = Context.getSourceManager();
  PresumedLoc Start = SM.getPresumedLoc(SM.getLocForStartOfFile(File));
  llvm::SmallString<256> Name(Start.isValid() ? Start.getFilename() : "");
  // A header opened through a relative -I directory: the profile names it
  // by its absolute path, as it does the main file.
  if (!Name.empty()) {
    SM.getFileManager().makeAbsolutePath(Name);
    llvm::sys::path::remove_dots(Name, /*remove_dot_dot=*/false);
  }
  FileName = std::string(Name);
}

const SourceManager &FileInstrumentation::sourceManager() const {
  return Context.getSourceManager();
}

const LangOptions &FileInstrumentation::langOptions() const { return Context.getLangOpts(); }

bool FileInstrumentation::enabled(Event E) const {
  const EventInfo &Info = eventInfo(E);
  return (Info.LevelMask & (1u << Levels[Info.Group])) != 0;
}

unsigned FileInstrumentation::addHandle(const ctc::RegionDescriptor &Descriptor) {
  CtcStrings.push_back(ctc::writeDescriptor(Descriptor));
  return static_cast<unsigned>(CtcStrings.size());
}

void FileInstrumentation::markAfterConstruct(unsigned Handle) {
  std::string &Ctc = CtcStrings.at(Handle - 1);
  // The string was written from a descriptor: it parses back to it.
  ctc::Expected<ctc::RegionDescriptor> Descriptor = ctc::parseDescriptor(Ctc);
  assert(Descriptor && "a CTC string the instrumenter wrote");
  Descriptor->AfterConstruct = true;
  Ctc = ctc::writeDescriptor(*Descriptor);
}

std::size_t FileInstrumentation::offset(SourceLocation Loc) const {
  const SourceManager &SM = sourceManager();
  return SM.getFileOffset(SM.getExpansionLoc(Loc));
}

std::string_view FileInstrumentation::buffer() const {
  const SourceManager &SM = sourceManager();
  return SM.getBufferData(File);
}

SourceLocation FileInstrumentation::location(std::size_t Offset) const {
  return sourceManager().getLocForStartOfFile(File).getLocWithOffset(static_cast<int>(Offset));
}

std::size_t FileInstrumentation::contentStart() const {
  constexpr std::string_view ByteOrderMark = "\xEF\xBB\xBF";
  return buffer().substr(0, ByteOrderMark.size()) == ByteOrderMark ? ByteOrderMark.size() : 0;
}

std::size_t FileInstrumentation::tokenEnd(SourceLocation Loc) const {
  const SourceManager &SM = sourceManager();
  const SourceLocation At = SM.getExpansionLoc(Loc);
  return SM.getFileOffset(At) + Lexer::MeasureTokenLength(At, SM, langOptions());
}

std::size_t FileInstrumentation::lineStart(SourceLocation Loc) const {
  const std::string_view Buffer = buffer();
  const std::size_t Start = contentStart();
  std::size_t At = offset(Loc);
  while (At > Start && Buffer[At - 1] != '\n')
    --At;
  return At;
}

std::size_t FileInstrumentation::logicalLineStart(std::size_t Offset) const {
  const std::string_view Buffer = buffer();
  const std::size_t Start = contentStart();
  std::size_t At = std::min(Offset, Buffer.size());
  while (At > Start) {
    if (Buffer[At - 1] != '\n') {
      --At;
      continue;
    }
    // At starts a physical line: it goes on the one before when that one
    // ends with a backslash (before an optional carriage return).
    std::size_t Before = At - 1;
    if (Before > Start && Buffer[Before - 1] == '\r')
      --Before;
    if (Before > Start && Buffer[Before - 1] == '\\') {
      At = Before - 1;
      continue;
    }
    break;
  }
  return At;
}

std::size_t FileInstrumentation::statementEnd(const Stmt &S) const {
  // A directive's own range ends with its pragma; the construct ends with
  // the statement it applies to.
  if (const auto *Directive = dyn_cast<OMPExecutableDirective>(&S)) {
    if (Directive->isStandaloneDirective() || !Directive->hasAssociatedStmt())
      return pragmaLineEnd(Directive->getBeginLoc());
    const Stmt *Associated = Directive->getAssociatedStmt();
    while (const auto *Captured = dyn_cast_or_null<CapturedStmt>(Associated))
      Associated = Captured->getCapturedStmt();
    return statementEnd(*Associated);
  }
  const SourceManager &SM = sourceManager();
  const SourceLocation Last = SM.getExpansionRange(S.getEndLoc()).getEnd();
  SourceLocation After = Lexer::getLocForEndOfToken(Last, 0, SM, langOptions());
  if (!isa<CompoundStmt>(S)) {
    Token Next;
    if (!Lexer::getRawToken(After, Next, SM, langOptions(), /*IgnoreWhiteSpace=*/true) &&
        Next.is(tok::semi))
      After = Next.getEndLoc();
  }
  std::size_t End = SM.getFileOffset(After);
  // A loop, if or label whose last statement is a directive ends where that
  // construct ends, not where its own range says (the directive's pragma).
  if (!isa<Expr>(S) && !isa<CompoundStmt>(S)) {
    const Stmt *LastChild = nullptr;
    for (const Stmt *Child : S.children())
      if (Child && (!LastChild ||
                    SM.isBeforeInTranslationUnit(LastChild->getBeginLoc(), Child->getBeginLoc())))
        LastChild = Child;
    if (LastChild && !isa<Expr>(LastChild))
      End = std::max(End, statementEnd(*LastChild));
  }
  return End;
}

namespace {
/// Lexes the pragma starting at Hash in directive mode (continuations and
/// comments handled by the lexer) and returns the end offset of its last
/// token and the offset of the newline that ends it.
std::pair<std::size_t, std::size_t> lexPragma(const SourceManager &SM, const LangOptions &LO,
                                              FileID File, std::size_t HashOffset) {
  const StringRef Buffer = SM.getBufferData(File);
  Lexer Raw(SM.getLocForStartOfFile(File), LO, Buffer.begin(), Buffer.begin() + HashOffset,
            Buffer.end());
  Raw.setParsingPreprocessorDirective(true);
  std::size_t LastEnd = HashOffset + 1;
  Token Tok;
  while (true) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eod) || Tok.is(tok::eof))
      break;
    LastEnd = SM.getFileOffset(Tok.getLocation()) + Tok.getLength();
  }
  std::size_t LineEnd = SM.getFileOffset(Tok.getLocation());
  // The eod token sits at the newline; eof at the buffer's end.
  while (LineEnd < Buffer.size() && Buffer[LineEnd] != '\n')
    ++LineEnd;
  return {LastEnd, LineEnd};
}
} // namespace

std::size_t FileInstrumentation::pragmaEnd(SourceLocation Hash) const {
  return lexPragma(sourceManager(), langOptions(), File, offset(Hash)).first;
}

std::size_t FileInstrumentation::pragmaLineEnd(SourceLocation Hash) const {
  return lexPragma(sourceManager(), langOptions(), File, offset(Hash)).second;
}

unsigned FileInstrumentation::presumedLine(std::size_t Offset) const {
  return sourceManager().getPresumedLineNumber(location(Offset));
}

std::string FileInstrumentation::presumedFileName(std::size_t Offset) const {
  const SourceManager &SM = sourceManager();
  const PresumedLoc P = SM.getPresumedLoc(location(Offset));
  const OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (P.isInvalid() || !Entry || Entry->getName() == P.getFilename())
    return FileName;
  return absolutePath(SM, P.getFilename());
}

std::string FileInstrumentation::text(std::size_t Begin, std::size_t End) const {
  return std::string(buffer().substr(Begin, End - Begin));
}

std::string FileInstrumentation::handleName(unsigned Index) const {
  return localName("handle", Index);
}
std::string FileInstrumentation::handleAddress(unsigned Index) const {
  return "&" + handleName(Index);
}
std::string FileInstrumentation::ctcName(unsigned Index) const { return localName("ctc", Index); }
std::string FileInstrumentation::localName(std::string_view What, unsigned Index) const {
  return "pomp_" + std::string(What) + "_" + NameTag + std::to_string(Index);
}
std::string FileInstrumentation::threadId() const {
  return ThreadIdAvailable ? threadIdInParallel() : std::string(handleinit::UnknownThreadId);
}
std::string FileInstrumentation::threadIdInParallel() const {
  return Opts.ThreadIds ? "omp_get_thread_num()" : std::string(handleinit::UnknownThreadId);
}

//===--- ConstructEditor --------------------------------------------------===//

ConstructEditor::ConstructEditor(FileInstrumentation &File, const OMPExecutableDirective &Directive,
                                 unsigned Depth)
    : File(File), Directive(Directive), Depth(Depth) {}

const Stmt *ConstructEditor::associatedStatement() const {
  if (Directive.isStandaloneDirective() || !Directive.hasAssociatedStmt())
    return nullptr;
  const Stmt *S = Directive.getAssociatedStmt();
  while (const auto *Captured = dyn_cast_or_null<CapturedStmt>(S))
    S = Captured->getCapturedStmt();
  return S;
}

namespace {
/// Marks the clause facts of the CTC table (paper section 3.2) and
/// SPEC.md's additions.
void describeClauses(const OMPExecutableDirective &D, ctc::RegionDescriptor &R) {
  for (const OMPClause *C : D.clauses()) {
    switch (C->getClauseKind()) {
    case llvm::omp::OMPC_firstprivate:
      R.HasFirstprivate = true;
      break;
    case llvm::omp::OMPC_lastprivate:
      R.HasLastprivate = true;
      break;
    case llvm::omp::OMPC_reduction:
    case llvm::omp::OMPC_task_reduction:
    case llvm::omp::OMPC_in_reduction:
      R.HasReduction = true;
      break;
    case llvm::omp::OMPC_nowait:
      R.HasNowait = true;
      break;
    case llvm::omp::OMPC_copyin:
      R.HasCopyin = true;
      break;
    case llvm::omp::OMPC_copyprivate:
      R.HasCopyprivate = true;
      break;
    case llvm::omp::OMPC_ordered:
      R.HasOrdered = true;
      break;
    case llvm::omp::OMPC_if:
      R.HasIf = true;
      break;
    case llvm::omp::OMPC_num_threads:
      R.HasNumThreads = true;
      break;
    case llvm::omp::OMPC_untied:
      R.HasUntied = true;
      break;
    case llvm::omp::OMPC_collapse:
      R.HasCollapse = true;
      break;
    case llvm::omp::OMPC_depend:
    case llvm::omp::OMPC_doacross:
      R.HasDepend = true;
      break;
    case llvm::omp::OMPC_schedule: {
      const auto *Schedule = cast<OMPScheduleClause>(C);
      R.Schedule =
          getOpenMPSimpleClauseTypeName(llvm::omp::OMPC_schedule, Schedule->getScheduleKind());
      break;
    }
    default:
      break;
    }
  }
}
} // namespace

ctc::RegionDescriptor ConstructEditor::describe(ctc::RegionKind Kind) const {
  ctc::RegionDescriptor R;
  R.Kind = Kind;
  R.Type = std::string(ctc::regionKindSpelling(Kind));
  const std::size_t DirectiveBegin = File.offset(Directive.getBeginLoc());
  const std::size_t DirectiveEnd = File.pragmaEnd(Directive.getBeginLoc());
  // The lines are presumed lines, so the file is the presumed file too.
  R.File = File.presumedFileName(DirectiveBegin);
  R.StartLines = ctc::LineRange{File.presumedLine(DirectiveBegin), File.presumedLine(DirectiveEnd)};
  const Stmt *S = associatedStatement();
  // A construct whose directive came from a pasted header ends in another
  // presumed file, whose line numbers the CTC string cannot give.
  if (S && File.presumedFileName(File.statementEnd(*S) - 1) == R.File) {
    const unsigned EndLine = File.presumedLine(File.statementEnd(*S) - 1);
    R.EndLines = ctc::LineRange{EndLine, EndLine};
  } else {
    R.EndLines = R.StartLines;
  }
  if (const auto *Critical = dyn_cast<OMPCriticalDirective>(&Directive))
    R.Name = Critical->getDirectiveName().getAsString();
  describeClauses(Directive, R);
  // Clang splits an untied task into parts at the task scheduling points in
  // its block, all of them directives; without one the block runs in one
  // part, and libpomp need not follow the task between threads. A directive
  // in a lambda or a nested region counts too: a safe overestimate.
  if (Kind == ctc::RegionKind::Task && R.HasUntied)
    R.DirectiveFree = !containsAny<OMPExecutableDirective>(associatedStatement());
  R.Function = File.enclosingFunction();
  return R;
}

namespace {
/// "(Args...);".
std::string argumentList(const std::vector<std::string> &Args) {
  std::string Text = "(";
  bool First = true;
  for (const std::string &Arg : Args) {
    if (!First)
      Text += ", ";
    Text += Arg;
    First = false;
  }
  Text += ");";
  return Text;
}

/// The routine and the arguments of a call of event E: without an unknown
/// thread id (not --thread-ids), the routine's form without it, whose one
/// argument fewer gcc compiles at every call site (docs/PERFORMANCE.md,
/// session 31).
std::string eventCall(Event E, std::string_view Suffix, const std::vector<std::string> &Args) {
  std::string Routine = std::string(eventInfo(E).Routine) + std::string(Suffix);
  const unsigned ThreadId = eventInfo(E).ThreadIdArgument;
  if (ThreadId >= Args.size() || Args[ThreadId] != handleinit::UnknownThreadId)
    return Routine + argumentList(Args);
  std::vector<std::string> Rest = Args;
  Rest.erase(Rest.begin() + ThreadId);
  return Routine + std::string(handleinit::NoThreadIdSuffix) + argumentList(Rest);
}
} // namespace

std::vector<std::string> calledRoutines(const EditList &Edits) {
  constexpr std::string_view Prefix = "POMP_";
  std::vector<std::string> Routines;
  Edits.forEachText([&](std::string_view Text) {
    for (std::size_t At = Text.find(Prefix); At != std::string_view::npos;
         At = Text.find(Prefix, At + Prefix.size())) {
      std::size_t End = At + Prefix.size();
      while (End < Text.size() && isAsciiIdentifierContinue(Text[End]))
        ++End;
      const std::string_view Name = Text.substr(At, End - At);
      if (End < Text.size() && Text[End] == '(' && handleinit::isDeclarableRoutine(Name) &&
          std::find(Routines.begin(), Routines.end(), Name) == Routines.end())
        Routines.emplace_back(Name);
    }
  });
  return Routines;
}

std::string ConstructEditor::call(Event E, const std::vector<std::string> &Args) {
  return eventCall(E, "", Args);
}

std::string ConstructEditor::contextCall(Event E, const std::string &Context,
                                         const std::vector<std::string> &Args) {
  return Context + " = " + eventCall(E, handleinit::ContextFormSuffix, Args);
}

unsigned ConstructEditor::depthKey(EditLayer Layer, unsigned ExtraDepth) const {
  constexpr unsigned LayersPerConstruct = 2;
  return (Depth + ExtraDepth) * LayersPerConstruct + (Layer == EditLayer::Block ? 1 : 0);
}

void ConstructEditor::beforeDirective(std::string Code) {
  File.edits().insert(File.lineStart(Directive.getBeginLoc()), InsertSide::Open,
                      depthKey(EditLayer::Construct), Code + "\n");
}

namespace {
/// True when S ends with the unbraced body of a loop or an if: code appended
/// on that line reads as if the loop or if guarded it, which clang and gcc
/// report under -Wall (-Wmisleading-indentation; an error with -Werror, and
/// the file would be compiled uninstrumented). Such code goes on a line of its
/// own, and the line directive after it keeps the numbering.
bool endsWithUnbracedBody(const Stmt &S) {
  const Stmt *Current = &S;
  bool Guarded = false;
  for (;;) {
    const Stmt *Next = nullptr;
    bool IsBody = true;
    if (const auto *For = dyn_cast<ForStmt>(Current))
      Next = For->getBody();
    else if (const auto *While = dyn_cast<WhileStmt>(Current))
      Next = While->getBody();
    else if (const auto *Range = dyn_cast<CXXForRangeStmt>(Current))
      Next = Range->getBody();
    else if (const auto *If = dyn_cast<IfStmt>(Current))
      Next = If->getElse() ? If->getElse() : If->getThen();
    else if (const auto *Label = dyn_cast<LabelStmt>(Current))
      Next = Label->getSubStmt(), IsBody = false;
    else if (const auto *Attributed = dyn_cast<AttributedStmt>(Current))
      Next = Attributed->getSubStmt(), IsBody = false;
    if (!Next)
      return Guarded && !isa<CompoundStmt>(Current);
    Guarded = Guarded || IsBody;
    Current = Next;
  }
}

/// What separates code appended after S from S.
const char *separatorAfter(const Stmt &S) { return endsWithUnbracedBody(S) ? "\n" : " "; }
} // namespace

void ConstructEditor::afterConstruct(std::string Code) {
  if (const Stmt *S = associatedStatement()) {
    File.edits().insert(File.statementEnd(*S), InsertSide::Close, depthKey(EditLayer::Construct),
                        separatorAfter(*S) + Code);
    return;
  }
  // After a standalone directive: on a new line, the pragma's own line ends
  // at the newline.
  File.edits().insert(File.pragmaLineEnd(Directive.getBeginLoc()), InsertSide::Close,
                      depthKey(EditLayer::Construct), "\n" + Code);
}

std::size_t ConstructEditor::blockCodeOffset(const CompoundStmt &Compound) const {
  std::size_t At = File.tokenEnd(Compound.getLBracLoc());
  // C89 forbids statements before declarations: the block begins after
  // its declarations there.
  const LangOptions &LO = File.langOptions();
  if (!LO.C99 && !LO.CPlusPlus) {
    for (const Stmt *Child : Compound.body()) {
      if (!isa<DeclStmt>(Child))
        break;
      At = File.statementEnd(*Child);
    }
  }
  return At;
}

void ConstructEditor::statementBegin(const Stmt &S, std::string Code, unsigned ExtraDepth) {
  const unsigned Key = depthKey(EditLayer::Block, ExtraDepth);
  if (const auto *Compound = dyn_cast<CompoundStmt>(&S)) {
    File.edits().insert(blockCodeOffset(*Compound), InsertSide::Open, Key, " " + Code);
    return;
  }
  // An unbraced block gets braces. A nested directive must stay first on its
  // line, so the opening code then goes on lines of its own before it.
  if (isa<OMPExecutableDirective>(S)) {
    File.edits().insert(File.lineStart(S.getBeginLoc()), InsertSide::Open, Key, "{ " + Code + "\n");
    return;
  }
  File.edits().insert(File.offset(S.getBeginLoc()), InsertSide::Open, Key, "{ " + Code + " ");
}

void ConstructEditor::statementEnd(const Stmt &S, std::string Code, unsigned ExtraDepth) {
  const unsigned Key = depthKey(EditLayer::Block, ExtraDepth);
  if (const auto *Compound = dyn_cast<CompoundStmt>(&S)) {
    // An empty block (`{}`) has its begin and end code at one offset, where
    // closing code goes before opening code (the end of one construct before
    // the begin of the next): its end must come after its begin.
    const std::size_t At = File.offset(Compound->getRBracLoc());
    const InsertSide Side = At == blockCodeOffset(*Compound) ? InsertSide::Last : InsertSide::Close;
    File.edits().insert(At, Side, Key, " " + Code + " ");
    return;
  }
  File.edits().insert(File.statementEnd(S), InsertSide::Close, Key,
                      separatorAfter(S) + Code + " }");
}

void ConstructEditor::blockBegin(std::string Code) {
  if (const Stmt *S = associatedStatement())
    statementBegin(*S, std::move(Code), 0);
}

void ConstructEditor::blockEnd(std::string Code) {
  if (const Stmt *S = associatedStatement())
    statementEnd(*S, std::move(Code), 0);
}

void ConstructEditor::appendClause(std::string Clause) {
  File.edits().insert(File.pragmaEnd(Directive.getBeginLoc()), InsertSide::Close,
                      depthKey(EditLayer::Construct), " " + Clause);
}

void ConstructEditor::replacePragma(std::string Text) {
  File.edits().replace(File.offset(Directive.getBeginLoc()),
                       File.pragmaEnd(Directive.getBeginLoc()), std::move(Text));
}

void ConstructEditor::afterPragma(std::string Text) {
  File.edits().insert(File.pragmaEnd(Directive.getBeginLoc()), InsertSide::Last,
                      depthKey(EditLayer::Construct), std::move(Text));
}

std::string ConstructEditor::atDirective() const {
  if (!File.options().LineDirectives)
    return "";
  const std::size_t At = File.offset(Directive.getBeginLoc());
  const PresumedLoc P = File.sourceManager().getPresumedLoc(File.location(At));
  const unsigned Indent = P.isValid() && P.getColumn() > 1 ? P.getColumn() - 1 : 0;
  return lineDirective(File, At) + "\n" + std::string(Indent, ' ');
}

std::vector<std::pair<const OMPClause *, std::string>> ConstructEditor::clauseTexts() const {
  // A clause's text runs to the next clause's start (the AST keeps no
  // reliable end for clauses without parentheses); separators, line
  // continuations and comments at its end are dropped.
  std::vector<std::pair<std::size_t, const OMPClause *>> Starts;
  for (const OMPClause *C : Directive.clauses())
    if (!C->isImplicit() && C->getBeginLoc().isValid() && !C->getBeginLoc().isMacroID())
      Starts.push_back({File.offset(C->getBeginLoc()), C});
  std::sort(Starts.begin(), Starts.end(),
            [](const auto &A, const auto &B) { return A.first < B.first; });
  const std::size_t PragmaEnd = File.pragmaEnd(Directive.getBeginLoc());
  std::vector<std::pair<const OMPClause *, std::string>> Texts;
  for (std::size_t I = 0; I < Starts.size(); ++I) {
    const std::size_t End = I + 1 < Starts.size() ? Starts[I + 1].first : PragmaEnd;
    std::string Text = File.text(Starts[I].first, End);
    while (!Text.empty() &&
           std::string_view(" \t\r\n\\,").find(Text.back()) != std::string_view::npos)
      Text.pop_back();
    Texts.push_back({Starts[I].second, std::move(Text)});
  }
  return Texts;
}

void ConstructEditor::replaceExpression(const Expr &E, std::string Text) {
  const SourceManager &SM = File.sourceManager();
  const CharSourceRange Range = SM.getExpansionRange(E.getSourceRange());
  const std::size_t Begin = SM.getFileOffset(Range.getBegin());
  const std::size_t End =
      SM.getFileOffset(Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, File.langOptions()));
  File.edits().replace(Begin, End, std::move(Text));
}

std::string ConstructEditor::expressionText(const Expr &E) const {
  const SourceManager &SM = File.sourceManager();
  const CharSourceRange Range = SM.getExpansionRange(E.getSourceRange());
  const std::size_t Begin = SM.getFileOffset(Range.getBegin());
  const std::size_t End =
      SM.getFileOffset(Lexer::getLocForEndOfToken(Range.getEnd(), 0, SM, File.langOptions()));
  return File.text(Begin, End);
}

} // namespace pomp::inst
