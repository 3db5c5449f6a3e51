//===- DirectiveHeaders.cpp - Headers that hold only a directive ----------===//

#include "DirectiveHeaders.h"
#include "IncludedHeaders.h"

#include "pomp/handle-init/HandleInit.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/CharInfo.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

namespace pomp::inst {

using namespace clang;

FileID statementElsewhere(const OMPExecutableDirective &D, const SourceManager &SM) {
  if (D.isStandaloneDirective() || !D.hasAssociatedStmt())
    return FileID();
  const Stmt *Associated = D.getAssociatedStmt();
  while (const auto *Captured = dyn_cast_or_null<CapturedStmt>(Associated))
    Associated = Captured->getCapturedStmt();
  if (!Associated)
    return FileID();
  const FileID DirectiveFile = SM.getFileID(SM.getExpansionLoc(D.getBeginLoc()));
  for (const SourceLocation Loc : {Associated->getBeginLoc(), Associated->getEndLoc()}) {
    if (Loc.isInvalid())
      continue;
    const FileID StatementFile = SM.getFileID(SM.getExpansionLoc(Loc));
    if (StatementFile != DirectiveFile)
      return StatementFile;
  }
  return FileID();
}

namespace {

/// The inclusions of headers whose directive's statement is in the file
/// that #includes them (the main file or a project header).
class DirectiveHeaderFinder : public RecursiveASTVisitor<DirectiveHeaderFinder> {
public:
  explicit DirectiveHeaderFinder(const SourceManager &SM) : SM(SM) {}

  bool VisitOMPExecutableDirective(OMPExecutableDirective *D) {
    const SourceLocation Loc = D->getBeginLoc();
    if (Loc.isMacroID() || SM.isInSystemHeader(Loc))
      return true;
    const FileID Statement = statementElsewhere(*D, SM);
    if (Statement.isInvalid())
      return true;
    const FileID Header = SM.getFileID(Loc);
    const SourceLocation Included = SM.getIncludeLoc(Header);
    if (Included.isValid() && !Included.isMacroID() && !SM.isInSystemHeader(Included) &&
        SM.getFileID(Included) == Statement)
      Headers.insert(Header);
    return true;
  }

  std::set<FileID> Headers;

private:
  const SourceManager &SM;
};

/// True when pasting Text in place of its #include changes nothing but the
/// inclusion depth: it includes no file (whose search would start from the
/// main file's directory instead of the header's) and is not `#pragma once`.
bool canPaste(StringRef Text) {
  if (Text.contains("__has_include") || Text.contains("__INCLUDE_LEVEL__"))
    return false;
  for (StringRef Rest = Text; !Rest.empty();) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    Line = Line.trim();
    if (!Line.consume_front("#"))
      continue;
    const StringRef Directive = Line.ltrim().take_while([](char C) { return isAsciiIdentifierContinue(C); });
    if (Directive == "include" || Directive == "include_next" || Directive == "import" ||
        (Directive == "pragma" && Line.contains("once")))
      return false;
  }
  return true;
}

/// True for what may follow the header name on its #include line: blanks,
/// and a comment that ends on the line (the pasted text goes without it).
bool blankOrComment(StringRef Text) {
  Text = Text.trim();
  if (Text.consume_front("/*")) {
    const std::size_t End = Text.find("*/");
    if (End == StringRef::npos)
      return false;
    Text = Text.drop_front(End + 2).trim();
  }
  return Text.empty() || Text.starts_with("//");
}

} // namespace

PastedHeaders pasteDirectiveHeaders(ASTContext &Context, const std::string &HeaderDirectory) {
  PastedHeaders Result;
  if (HeaderDirectory.empty())
    return Result;
  const SourceManager &SM = Context.getSourceManager();
  DirectiveHeaderFinder Finder(SM);
  Finder.TraverseDecl(Context.getTranslationUnitDecl());
  // The stand-in of each pasted header, by the header's absolute name.
  std::map<std::string, std::string> StandInOf;
  // Per including file, the #include lines' ranges and their replacements.
  std::map<FileID, std::map<std::size_t, std::pair<std::size_t, std::string>>> Pastes;
  for (const FileID Header : Finder.Headers) {
    const StringRef Text = SM.getBufferData(Header);
    if (!canPaste(Text))
      continue;
    // The include position is the header name's token.
    const SourceLocation Name = SM.getIncludeLoc(Header);
    const FileID Includer = SM.getFileID(Name);
    const StringRef In = SM.getBufferData(Includer);
    const std::size_t At = SM.getFileOffset(Name);
    const std::size_t NewLine = At == 0 ? StringRef::npos : In.rfind('\n', At - 1);
    const std::size_t LineStart = NewLine == StringRef::npos ? 0 : NewLine + 1;
    const std::size_t LineEnd = std::min(In.find('\n', At), In.size());
    const char Close = In[At] == '<' ? '>' : '"';
    const std::size_t NameEnd = In.find(Close, At + 1);
    // `#include "h"` alone on its line (but for a comment), not continued
    // from the line before or onto the next.
    const StringRef Before = In.slice(LineStart, At).trim();
    if (NameEnd == StringRef::npos || NameEnd >= LineEnd ||
        !blankOrComment(In.slice(NameEnd + 1, LineEnd)) ||
        In.slice(LineStart, LineEnd).rtrim("\r").ends_with("\\") || !Before.starts_with("#") ||
        Before.drop_front().trim() != "include" || (LineStart >= 2 && In[LineStart - 2] == '\\'))
      continue;
    const PresumedLoc Here = SM.getPresumedLoc(Name);
    const PresumedLoc HeaderStart = SM.getPresumedLoc(SM.getLocForStartOfFile(Header));
    const OptionalFileEntryRef HeaderEntry = SM.getFileEntryRefForID(Header);
    if (Here.isInvalid() || HeaderStart.isInvalid() || !HeaderEntry)
      continue;
    // One stand-in per header, however often it is pasted.
    const std::string Original = absolutePath(SM, HeaderEntry->getName());
    auto [It, New] = StandInOf.try_emplace(Original);
    if (New) {
      llvm::SmallString<256> Path(HeaderDirectory);
      llvm::sys::path::append(Path, "pasted", std::to_string(StandInOf.size()),
                              llvm::sys::path::filename(Original));
      if (!nameableInInclude(Path)) {
        StandInOf.erase(It);
        continue;
      }
      It->second = std::string(Path);
      Result.StandIns.push_back({Original, It->second,
                                 "/* ompinst: stands in for " + Original +
                                     ", pasted in its #include's place, in dependency files */\n"});
      Result.Files[It->second] = Result.StandIns.back().Text;
    }
    // Absolute names, as ompinst's own #line directives give them.
    std::string Paste = "#include \"" + It->second + "\"\n";
    Paste +=
        "#line 1 " + handleinit::cStringLiteral(absolutePath(SM, HeaderStart.getFilename())) + "\n";
    Paste += Text;
    if (!Text.ends_with("\n"))
      Paste += "\n";
    Paste += "#line " + std::to_string(Here.getLine() + 1) + " " +
             handleinit::cStringLiteral(absolutePath(SM, Here.getFilename()));
    Pastes[Includer][LineStart] = {LineEnd, std::move(Paste)};
  }
  for (const auto &[Includer, Lines] : Pastes) {
    const OptionalFileEntryRef Entry = SM.getFileEntryRefForID(Includer);
    if (!Entry)
      continue;
    const StringRef In = SM.getBufferData(Includer);
    std::string Out;
    std::size_t Done = 0;
    for (const auto &[Begin, Paste] : Lines) {
      Out += In.slice(Done, Begin);
      Out += Paste.second;
      Done = Paste.first;
    }
    Out += In.substr(Done);
    // Named as DirectiveForms names its rewritten files.
    llvm::SmallString<256> Name(Entry->getName());
    SM.getFileManager().makeAbsolutePath(Name);
    Result.Files[std::string(Name)] = std::move(Out);
  }
  return Result;
}

} // namespace pomp::inst
