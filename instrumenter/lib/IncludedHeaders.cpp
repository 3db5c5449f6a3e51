//===- IncludedHeaders.cpp - The files of a translation unit that ompinst rewrites ===//
#include "IncludedHeaders.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <set>

namespace pomp::inst {

using namespace clang;

namespace {
/// Stands for a header's tag in the names of its edits until every construct
/// of the header is known (the tag hashes their CTC strings). '@' is no
/// identifier character, so no user text can hold it by accident in a name.
constexpr std::string_view TagPlaceholder = "@POMP_HEADER_TAG@";

} // namespace

std::string absolutePath(const SourceManager &SM, llvm::StringRef Name) {
  llvm::SmallString<256> Path(Name);
  SM.getFileManager().makeAbsolutePath(Path);
  // "./include/x.h" from -I./include: no "." in the name ("..", which a
  // symbolic link can make meaningful, stays).
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/false);
  return std::string(Path);
}

bool nameableInInclude(llvm::StringRef Path) {
  return !Path.contains('"') && !Path.contains('\n') && !Path.contains('\r');
}

std::string lineDirective(const FileInstrumentation &File, std::size_t Offset) {
  const SourceManager &SM = File.sourceManager();
  const PresumedLoc P = SM.getPresumedLoc(File.location(Offset));
  // The file's own name is written absolute (as in its CTC strings); a name
  // the original set with #line stays as it was written.
  const OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File.fileId());
  const bool OwnName = Entry && Entry->getName() == P.getFilename();
  return "#line " + std::to_string(P.getLine()) + " " +
         handleinit::cStringLiteral(OwnName ? absolutePath(SM, P.getFilename())
                                            : std::string(P.getFilename()));
}

void IncludeRecorder::InclusionDirective(SourceLocation HashLoc, const Token &, StringRef, bool,
                                         CharSourceRange FilenameRange, OptionalFileEntryRef File,
                                         StringRef, StringRef, const Module *, bool,
                                         SrcMgr::CharacteristicKind FileType) {
  Inclusion I;
  I.Includer = SM->getFileID(SM->getExpansionLoc(HashLoc));
  I.Name = FilenameRange;
  I.Target = File;
  I.TargetIsSystem = FileType != SrcMgr::C_User;
  Inclusions.push_back(I);
}

bool mayHoldOpenMP(llvm::StringRef Text) {
  return Text.contains("omp") && (Text.contains("pragma") || Text.contains("Pragma") ||
                                  Text.contains("omp::") || Text.contains("using omp"));
}

bool mayIncludeInBodies(llvm::StringRef Text) {
  const std::size_t Brace = Text.find('{');
  if (Brace == llvm::StringRef::npos)
    return false;
  // A line whose first token is `#` and whose directive is include (or
  // include_next, import), spaces allowed around the `#`.
  for (std::size_t Hash = Text.find('#', Brace); Hash != llvm::StringRef::npos;
       Hash = Text.find('#', Hash + 1)) {
    const std::size_t LineStart = Text.find_last_of('\n', Hash) + 1;
    if (!Text.slice(LineStart, Hash).trim(" \t").empty())
      continue;
    const llvm::StringRef Directive = Text.substr(Hash + 1).ltrim(" \t");
    if (Directive.starts_with("include") || Directive.starts_with("import"))
      return true;
  }
  return false;
}

/// A header of the translation unit that holds constructs or includes one
/// that does.
struct TranslationUnitFiles::Header {
  std::unique_ptr<FileInstrumentation> File;
  /// The header as the compiler opened it, absolute.
  std::string Original;
  /// Where its first construct is, for a warning when it cannot be rewritten.
  SourceLocation FirstConstruct;
  unsigned Constructs = 0;
  /// Gets a copy: it holds constructs, or includes a header that gets one.
  bool Needed = false;
  /// Why it cannot be rewritten; empty when it can.
  std::string WhyNot;
  std::string Tag;
  std::string CopyPath;
};

TranslationUnitFiles::TranslationUnitFiles(ASTContext &Context, const Options &Opts,
                                           const IncludeRecorder &Includes)
    : Context(Context), SM(Context.getSourceManager()), Opts(Opts), Includes(Includes),
      Main(std::make_unique<FileInstrumentation>(Context, Opts, SM.getMainFileID())) {}

TranslationUnitFiles::~TranslationUnitFiles() = default;

TranslationUnitFiles::Header *TranslationUnitFiles::headerOf(FileID File) {
  const OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return nullptr;
  std::unique_ptr<Header> &H = Headers[&Entry->getFileEntry()];
  if (!H) {
    H = std::make_unique<Header>();
    H->File =
        std::make_unique<FileInstrumentation>(Context, Opts, File, std::string(TagPlaceholder));
    H->Original = absolutePath(SM, Entry->getName());
  }
  return H.get();
}

FileInstrumentation *TranslationUnitFiles::forLocation(SourceLocation Loc) {
  const SourceLocation Expansion = SM.getExpansionLoc(Loc);
  const FileID File = SM.getFileID(Expansion);
  if (File == SM.getMainFileID())
    return Main.get();
  if (SM.isInSystemHeader(Expansion))
    return nullptr;
  Header *H = headerOf(File);
  if (!H || H->File->fileId() != File)
    return nullptr;
  if (H->FirstConstruct.isInvalid())
    H->FirstConstruct = Expansion;
  ++H->Constructs;
  return H->File.get();
}

void TranslationUnitFiles::warn(SourceLocation Loc, const std::string &Message) {
  DiagnosticsEngine &Diags = Context.getDiagnostics();
  // The parse runs with -w; ompinst's own warnings are shown all the same.
  const bool IgnoringWarnings = Diags.getIgnoreAllWarnings();
  Diags.setIgnoreAllWarnings(false);
  Diags.Report(Loc, Diags.getCustomDiagID(DiagnosticsEngine::Warning, "%0")) << Message;
  Diags.setIgnoreAllWarnings(IgnoringWarnings);
}

unsigned TranslationUnitFiles::finishHeaders(std::vector<handleinit::HeaderHandles> &Handles,
                                             std::vector<HeaderCopy> &Copies) {
  // 1. The headers that hold constructs need copies, and so does every
  //    header that includes a header with a copy: its #include must name it.
  for (auto &[Entry, H] : Headers)
    H->Needed = !H->File->edits().empty();
  const FileID MainFile = SM.getMainFileID();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const Inclusion &I : Includes.inclusions()) {
      if (!I.Target || I.TargetIsSystem)
        continue;
      const auto Target = Headers.find(&I.Target->getFileEntry());
      if (Target == Headers.end() || !Target->second->Needed || !Target->second->WhyNot.empty())
        continue;
      Header &T = *Target->second;
      if (I.Name.getBegin().isInvalid() || I.Name.getBegin().isMacroID()) {
        T.WhyNot = "an #include names it through a macro";
        Changed = true;
        continue;
      }
      if (I.Includer == MainFile)
        continue;
      const OptionalFileEntryRef Includer = SM.getFileEntryRefForID(I.Includer);
      if (!Includer) {
        T.WhyNot = "it is included by the command line (-include)";
        Changed = true;
        continue;
      }
      if (SM.isInSystemHeader(SM.getLocForStartOfFile(I.Includer))) {
        T.WhyNot = "it is included by the system header '" + Includer->getName().str() + "'";
        Changed = true;
        continue;
      }
      Header *By = headerOf(I.Includer);
      if (By && !By->Needed) {
        By->Needed = true;
        Changed = true;
      }
    }
  }

  // 2. Copy paths, in the order the headers were first entered.
  std::vector<Header *> Needed;
  for (auto &[Entry, H] : Headers)
    if (H->Needed && H->WhyNot.empty())
      Needed.push_back(H.get());
  std::sort(Needed.begin(), Needed.end(), [&](const Header *A, const Header *B) {
    return SM.isBeforeInTranslationUnit(SM.getLocForStartOfFile(A->File->fileId()),
                                        SM.getLocForStartOfFile(B->File->fileId()));
  });
  if (!Needed.empty() && Opts.HeaderDirectory.empty()) {
    DiagnosticsEngine &Diags = Context.getDiagnostics();
    Diags.Report(Needed.front()->FirstConstruct,
                 Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                       "OpenMP constructs in this header need a directory for "
                                       "the instrumented copies of headers (--header-dir)"));
    return 0;
  }
  unsigned Number = 0;
  for (Header *H : Needed) {
    llvm::SmallString<256> Path(Opts.HeaderDirectory);
    const llvm::StringRef Base = llvm::sys::path::filename(H->Original);
    llvm::sys::path::append(Path, std::to_string(++Number), Base);
    if (!nameableInInclude(Path) || !nameableInInclude(H->Original)) {
      H->WhyNot = "its path cannot be written in an #include";
      continue;
    }
    H->CopyPath = std::string(Path);
  }

  // 3. Tags fix the names of the headers' handles.
  for (Header *H : Needed) {
    if (!H->WhyNot.empty())
      continue;
    const std::vector<std::string> &Ctc = H->File->ctcStrings();
    std::string Salt;
    for (const std::string &C : Ctc)
      Salt += C;
    H->Tag = handleinit::makeHeaderTag(H->Original, Salt);
    H->File->edits().substitute(TagPlaceholder, H->Tag);
    if (!Ctc.empty())
      Handles.push_back({H->Tag, Ctc});
  }

  // 4. Every #include of a rewritten file that names a header of the
  //    project names the copy, or the original by its absolute path (a copy
  //    lives in another directory, where "x.h" would not be found).
  std::set<std::pair<const FileInstrumentation *, std::size_t>> Rewritten;
  for (const Inclusion &I : Includes.inclusions()) {
    if (!I.Target || I.TargetIsSystem || I.Name.getBegin().isInvalid() ||
        I.Name.getBegin().isMacroID())
      continue;
    FileInstrumentation *In = nullptr;
    if (I.Includer == MainFile) {
      In = Main.get();
    } else if (const OptionalFileEntryRef Includer = SM.getFileEntryRefForID(I.Includer)) {
      const auto It = Headers.find(&Includer->getFileEntry());
      if (It != Headers.end() && !It->second->CopyPath.empty() &&
          It->second->File->fileId() == I.Includer)
        In = It->second->File.get();
    }
    if (!In)
      continue;
    const auto Target = Headers.find(&I.Target->getFileEntry());
    std::string Name;
    if (Target != Headers.end() && !Target->second->CopyPath.empty())
      Name = Target->second->CopyPath;
    else if (In != Main.get())
      Name = absolutePath(SM, I.Target->getName());
    if (Name.empty() || !nameableInInclude(Name))
      continue;
    const std::size_t Begin = SM.getFileOffset(I.Name.getBegin());
    if (!Rewritten.insert({In, Begin}).second)
      continue;
    In->edits().replace(Begin, SM.getFileOffset(I.Name.getEnd()), "\"" + Name + "\"");
  }

  // 5. The copies, and a word on every header that could not be rewritten.
  unsigned Left = 0;
  const handleinit::Language Lang =
      Context.getLangOpts().CPlusPlus ? handleinit::Language::CXX : handleinit::Language::C;
  for (auto &[Entry, H] : Headers) {
    if (!H->WhyNot.empty()) {
      if (H->Constructs > 0)
        warn(H->FirstConstruct,
             "the " + std::to_string(H->Constructs) +
                 " OpenMP constructs of this header are not instrumented: " + H->WhyNot);
      Left += H->Constructs;
      continue;
    }
    if (H->CopyPath.empty())
      continue;
    FileInstrumentation &File = *H->File;
    // The POMP declarations too are put in the original, by the #line that
    // starts the copy: debug information must not name the copy, whose path
    // (under ompcc's temporary directory) changes with every build.
    std::string Prologue = "/* ompinst: the instrumented copy of a header */\n" +
                           lineDirective(File, File.contentStart()) + "\n";
    if (!File.ctcStrings().empty())
      Prologue += handleinit::headerPrologue({H->Tag, File.ctcStrings()}, Lang) +
                  handleinit::noThreadIdForms(calledRoutines(File.edits()), Lang);
    File.edits().insert(File.contentStart(), InsertSide::First, 0, Prologue);
    HeaderCopy Copy{H->Original, H->CopyPath, ""};
    // A copy always names its original in #line: __FILE__, diagnostics and
    // debug information must not name the copy.
    if (!File.edits().apply(
            File.buffer(), [&File](std::size_t Offset) { return lineDirective(File, Offset); },
            Copy.Text))
      return Left;
    Copies.push_back(std::move(Copy));
  }
  return Left;
}

} // namespace pomp::inst
