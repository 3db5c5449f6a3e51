//===- IncludedHeaders.h - The files of a translation unit that ompinst rewrites -*- C++ -*-===//
///
/// \file
/// The constructs of the project's own headers are instrumented like those
/// of the main file (docs/INSTRUMENTER.md, "Headers"). A header cannot be
/// rewritten in place, so the instrumented text goes into a copy, and every
/// #include that names the header names the copy instead. That makes the
/// headers that include it rewritten files too, up to the main file.
///
/// TranslationUnitFiles owns the FileInstrumentation of every rewritten file
/// of one translation unit, and turns the headers' edits into their copies.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_INCLUDEDHEADERS_H
#define POMP_INSTRUMENTER_INCLUDEDHEADERS_H

#include "ConstructEditor.h"
#include "pomp/handle-init/HandleInit.h"
#include "pomp/instrumenter/Instrumenter.h"

#include "clang/Lex/PPCallbacks.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pomp::inst {

/// One #include directive as the preprocessor resolved it.
struct Inclusion {
  /// The file holding the directive.
  clang::FileID Includer;
  /// The header name's tokens ("x.h" or <x.h>).
  clang::CharSourceRange Name;
  clang::OptionalFileEntryRef Target;
  bool TargetIsSystem = false;
};

/// Records every #include directive of the translation unit.
class IncludeRecorder : public clang::PPCallbacks {
public:
  void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &IncludeTok,
                          llvm::StringRef FileName, bool IsAngled,
                          clang::CharSourceRange FilenameRange, clang::OptionalFileEntryRef File,
                          llvm::StringRef SearchPath, llvm::StringRef RelativePath,
                          const clang::Module *SuggestedModule, bool ModuleImported,
                          clang::SrcMgr::CharacteristicKind FileType) override;

  const std::vector<Inclusion> &inclusions() const { return Inclusions; }
  void setSourceManager(const clang::SourceManager &Manager) { SM = &Manager; }

private:
  const clang::SourceManager *SM = nullptr;
  std::vector<Inclusion> Inclusions;
};

/// Name made absolute against the file manager's working directory, without
/// "." components: how ompinst names a file in #line directives and CTC
/// strings.
std::string absolutePath(const clang::SourceManager &SM, llvm::StringRef Name);

/// False for a path a header name between quotes cannot hold: there are no
/// escapes in a header name.
bool nameableInInclude(llvm::StringRef Path);

/// True when a file's text may hold an OpenMP directive (`#pragma omp`,
/// `_Pragma("omp ...")`, `[[omp::...]]`): the bodies of functions in files
/// without one need not be parsed. Errs on the side of yes.
bool mayHoldOpenMP(llvm::StringRef Text);

/// True when a file's text may #include another file inside a function
/// body: an #include line after its first `{` (Quicksilver's headers bring
/// a directive into an inline function that way). Such a file's bodies are
/// parsed even without a directive of its own. Errs on the side of yes.
bool mayIncludeInBodies(llvm::StringRef Text);

/// The rewritten files of one translation unit: the main file and the
/// headers, each with its own edits, handles and names.
class TranslationUnitFiles {
public:
  TranslationUnitFiles(clang::ASTContext &Context, const Options &Opts,
                       const IncludeRecorder &Includes);
  ~TranslationUnitFiles();

  FileInstrumentation &main() { return *Main; }

  /// The instrumentation of the file holding Loc (its expansion location),
  /// made on first use. Null when the constructs there are not instrumented
  /// here: a system header (WhyNot empty: nothing to say), or a header that
  /// was already instrumented through an earlier inclusion (its copy serves
  /// both; WhyNot empty too).
  FileInstrumentation *forLocation(clang::SourceLocation Loc);

  /// Finishes the headers once every construct was instrumented: fixes
  /// their tags (so the names in their edits), decides which files need a
  /// copy, points their #include directives at the copies and renders the
  /// copies. Handles receives the headers' handles for the main file's init
  /// function. Warns at the construct about headers that cannot be rewritten
  /// and returns how many constructs that left uninstrumented; reports an
  /// error (through the diagnostics) when copies are needed but no header
  /// directory was given.
  unsigned finishHeaders(std::vector<handleinit::HeaderHandles> &Handles,
                         std::vector<HeaderCopy> &Copies);

private:
  struct Header;
  Header *headerOf(clang::FileID File);
  void warn(clang::SourceLocation Loc, const std::string &Message);

  clang::ASTContext &Context;
  const clang::SourceManager &SM;
  const Options &Opts;
  const IncludeRecorder &Includes;
  std::unique_ptr<FileInstrumentation> Main;
  /// Headers by file entry: a header included twice is one file.
  std::map<const clang::FileEntry *, std::unique_ptr<Header>> Headers;
};

/// The `#line <n> "<file>"` directive that makes the text after Offset of
/// File keep its presumed line and file name.
std::string lineDirective(const FileInstrumentation &File, std::size_t Offset);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_INCLUDEDHEADERS_H
