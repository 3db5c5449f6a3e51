//===- ConstructEditor.h - What a construct handler can do ------*- C++ -*-===//
///
/// \file
/// FileInstrumentation holds the state of one instrumented file (its edits,
/// handles and CTC strings). ConstructEditor is the view a construct handler
/// gets of one directive: facts about it (clauses, structured block, lines),
/// handle allocation, call text, and edits at the places POMP events go —
/// before the directive, after the construct, at the begin and end of its
/// structured block, and in the pragma itself.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_CONSTRUCTEDITOR_H
#define POMP_INSTRUMENTER_CONSTRUCTEDITOR_H

#include "EditList.h"
#include "Events.h"
#include "pomp/ctc/Ctc.h"
#include "pomp/instrumenter/Instrumenter.h"

#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace clang {
class ASTContext;
class SourceManager;
class LangOptions;
class Stmt;
} // namespace clang

namespace pomp::inst {

/// True when S or a statement below it (a lambda's body too) is one of
/// Kinds. Iterative: a block may nest deeper than the stack allows.
template <typename... Kinds> bool containsAny(const clang::Stmt *S) {
  llvm::SmallVector<const clang::Stmt *, 64> Pending{S};
  while (!Pending.empty()) {
    const clang::Stmt *Next = Pending.pop_back_val();
    if (!Next)
      continue;
    if (clang::isa<Kinds...>(Next))
      return true;
    for (const clang::Stmt *Child : Next->children())
      Pending.push_back(Child);
  }
  return false;
}

/// The POMP routines the edits' text calls: every "POMP_<name>(" whose name
/// handle-init can declare, each once, in the order of their first call.
std::vector<std::string> calledRoutines(const EditList &Edits);

/// The state of one instrumented file of a translation unit: its main file
/// or one of the project's own headers.
class FileInstrumentation {
public:
  /// NameTag goes in front of the handle index in every name the file's
  /// edits use; a header's is a placeholder until its tag is known
  /// (EditList::substitute).
  FileInstrumentation(clang::ASTContext &Context, const Options &Opts, clang::FileID File,
                      std::string NameTag = "");

  clang::ASTContext &context() const { return Context; }
  const clang::SourceManager &sourceManager() const;
  const clang::LangOptions &langOptions() const;
  const Options &options() const { return Opts; }
  EditList &edits() { return Edits; }

  /// Level currently in force for a group (command line, then
  /// `#pragma pomp inst`).
  int level(int Group) const { return Levels[Group]; }
  void setLevel(int Group, int Level) { Levels[Group] = Level; }
  /// True when the event fires at the group's current level.
  bool enabled(Event E) const;

  /// Registers a construct's descriptor; returns its handle index (1-based).
  unsigned addHandle(const ctc::RegionDescriptor &Descriptor);
  const std::vector<std::string> &ctcStrings() const { return CtcStrings; }
  /// Sets ctc::RegionDescriptor::AfterConstruct in the descriptor of a
  /// handle added before, once the traversal knows that only brief code
  /// ever runs between the construct's enter and the event before it.
  void markAfterConstruct(unsigned Handle);

  clang::FileID fileId() const { return File; }

  /// Byte offset of a location in this file (expansion location).
  std::size_t offset(clang::SourceLocation Loc) const;
  /// Offset where the text of the file starts: after a UTF-8 byte-order
  /// mark, which must stay the first bytes of the output.
  std::size_t contentStart() const;
  /// Offset just past the token at Loc: a brace may be spelled `<%`.
  std::size_t tokenEnd(clang::SourceLocation Loc) const;
  /// Offset of the start of the line holding Loc (never before
  /// contentStart()).
  std::size_t lineStart(clang::SourceLocation Loc) const;
  /// Offset of the start of the line holding Offset, where a line that a
  /// backslash continues counts with the line after it (a directive's);
  /// never before contentStart().
  std::size_t logicalLineStart(std::size_t Offset) const;
  /// Offset just past the last token of a statement, including a semicolon
  /// that directly follows it.
  std::size_t statementEnd(const clang::Stmt &S) const;
  /// Offset just past the last token of the pragma that starts at Hash.
  std::size_t pragmaEnd(clang::SourceLocation Hash) const;
  /// Offset of the newline ending the (possibly continued) pragma at Hash.
  std::size_t pragmaLineEnd(clang::SourceLocation Hash) const;
  /// Presumed line (after any #line of the original) of an offset.
  unsigned presumedLine(std::size_t Offset) const;
  /// The text of [Begin, End) of the file.
  std::string text(std::size_t Begin, std::size_t End) const;
  /// The file's buffer.
  std::string_view buffer() const;
  /// The location of an offset in the file.
  clang::SourceLocation location(std::size_t Offset) const;

  /// Presumed name of the file, as CTC strings and #line give it (made
  /// absolute when the compiler opened it by a relative path).
  const std::string &fileName() const { return FileName; }
  /// The presumed name of an offset's line: fileName(), unless a #line of
  /// the text names another file (a header pasted in, DirectiveHeaders.h, or
  /// a generated file's source), made absolute as fileName() is.
  std::string presumedFileName(std::size_t Offset) const;

  /// Names in the inserted code: a construct's handle ("pomp_handle_<i>"),
  /// its address, its CTC string ("pomp_ctc_<i>") and a helper variable
  /// ("pomp_<what>_<i>"). The handles of an included header carry the
  /// header's tag in front of the index, so that they never meet the main
  /// file's and every translation unit that instruments the header alike
  /// names them alike.
  std::string handleName(unsigned Index) const;
  std::string handleAddress(unsigned Index) const;
  std::string ctcName(unsigned Index) const;
  std::string localName(std::string_view What, unsigned Index) const;
  /// The thread-number argument of an event: the paper's "not available" -1,
  /// or with Options::ThreadIds `omp_get_thread_num()` where OpenMP allows
  /// runtime calls (not strictly inside a teams region, nor in loop, simd and
  /// order(concurrent) regions).
  std::string threadId() const;
  /// The thread-number argument inside a parallel region, where the thread
  /// number is always available (also in a parallel region nested in teams).
  std::string threadIdInParallel() const;
  /// Set by the construct visitor for the place of the directive at hand.
  void setThreadIdAvailable(bool Available) { ThreadIdAvailable = Available; }
  /// The qualified name of the function the directive at hand is in (the
  /// CTC `function`), set by the construct visitor; "" outside functions.
  void setEnclosingFunction(std::string Name) { EnclosingFunction = std::move(Name); }
  const std::string &enclosingFunction() const { return EnclosingFunction; }

  unsigned ConstructsInstrumented = 0;

private:
  clang::ASTContext &Context;
  const Options &Opts;
  clang::FileID File;
  GroupLevels Levels;
  EditList Edits;
  std::vector<std::string> CtcStrings;
  std::string FileName;
  /// Put in front of handle indices in names; empty for the main file,
  /// "<tag>_" for a header.
  std::string NameTag;
  bool ThreadIdAvailable = true;
  std::string EnclosingFunction;
};

/// Nesting depth key of edits: a construct's enter/exit code wraps its
/// begin/end code, which wraps the constructs nested in its block.
enum class EditLayer { Construct, Block };

/// One directive, as its handler sees it.
class ConstructEditor {
public:
  ConstructEditor(FileInstrumentation &File, const clang::OMPExecutableDirective &Directive,
                  unsigned Depth);

  const clang::OMPExecutableDirective &directive() const { return Directive; }

  /// Whether the directive's statement comes right after a construct whose
  /// handler ended its code with an exit event (noteEndsWithExit()), or first
  /// in the block of a construct whose handler began that block with a begin
  /// event (noteBlockBeginsWithBegin()), with nothing between them: the same
  /// block, no label. Set by the traversal.
  bool followsExit() const { return FollowsExit; }
  void setFollowsExit(bool Follows) { FollowsExit = Follows; }
  /// Said by a handler whose last code after the construct is the call of an
  /// exit event: a construct written right after this one may start at that
  /// exit's time (ctc::RegionDescriptor::AfterConstruct).
  void noteEndsWithExit() { EndsWithExit = true; }
  bool endsWithExit() const { return EndsWithExit; }
  /// Said by a handler whose code at the start of the construct's block ends
  /// with the call of a begin event: a construct written first in that block
  /// may start at the begin's time.
  void noteBlockBeginsWithBegin() { BlockBeginsWithBegin = true; }
  bool blockBeginsWithBegin() const { return BlockBeginsWithBegin; }
  /// Said by a handler whose code before the directive starts with the call
  /// of the enter event of the construct's region Handle: the traversal may
  /// find later that the construct repeats in a loop after a construct that
  /// ends with an exit event (FileInstrumentation::markAfterConstruct()).
  void noteStartsWithEnter(unsigned Handle) { EnterHandle = Handle; }
  /// That handle; 0 when the code does not start with an enter event.
  unsigned enterHandle() const { return EnterHandle; }
  FileInstrumentation &file() const { return File; }
  bool enabled(Event E) const { return File.enabled(E); }

  /// The statement the directive applies to with captures stripped: the
  /// structured block, or the loop of a loop directive. Null for standalone
  /// directives.
  const clang::Stmt *associatedStatement() const;

  template <typename ClauseT> const ClauseT *clause() const {
    return Directive.getSingleClause<ClauseT>();
  }
  template <typename ClauseT> bool hasClause() const {
    return Directive.hasClausesOfKind<ClauseT>();
  }

  /// A descriptor of the directive: type, file, directive and end lines,
  /// clause facts.
  ctc::RegionDescriptor describe(ctc::RegionKind Kind) const;
  /// Registers a descriptor and returns the handle index.
  unsigned newHandle(const ctc::RegionDescriptor &Descriptor) { return File.addHandle(Descriptor); }
  unsigned newHandle(ctc::RegionKind Kind) { return newHandle(describe(Kind)); }

  /// Text of a POMP call statement: "POMP_<Event>(Args...);".
  static std::string call(Event E, const std::vector<std::string> &Args);
  /// Text of the call of an event that hands out a context (Parallel_fork,
  /// Teams_enter, Task_create_enter) in its form that returns it
  /// (pomp_context_forms.h): "<Context> = POMP_<Event>_ctx(Args...);", Args
  /// without the context pointer. The variable's address never goes to a
  /// call, which costs the compile (docs/PERFORMANCE.md, session 10).
  static std::string contextCall(Event E, const std::string &Context,
                                 const std::vector<std::string> &Args);
  /// Expressions used in calls (FileInstrumentation names them).
  std::string handle(unsigned Index) const { return File.handleName(Index); }
  std::string handleAddress(unsigned Index) const { return File.handleAddress(Index); }
  std::string ctc(unsigned Index) const { return File.ctcName(Index); }
  std::string threadId() const { return File.threadId(); }
  std::string threadIdInParallel() const { return File.threadIdInParallel(); }
  /// A name for a helper variable of this construct: "pomp_<what>_<i>".
  std::string local(std::string_view What, unsigned Index) const {
    return File.localName(What, Index);
  }

  /// Code on lines of its own before the directive (its own block opens here).
  void beforeDirective(std::string Code);
  /// Code right after the construct: after the structured block or loop, or
  /// on the line after a standalone directive.
  void afterConstruct(std::string Code);
  /// Code at the begin and end of the structured block; an unbraced block
  /// is wrapped in braces.
  void blockBegin(std::string Code);
  void blockEnd(std::string Code);
  /// Both at once for a given statement (a section, a loop body).
  /// Where the code a block begins with goes: after its brace, or in C89 after
  /// its declarations.
  std::size_t blockCodeOffset(const clang::CompoundStmt &Compound) const;
  void statementBegin(const clang::Stmt &S, std::string Code, unsigned ExtraDepth);
  void statementEnd(const clang::Stmt &S, std::string Code, unsigned ExtraDepth);
  /// Appends clause text (with a leading space) to the pragma.
  void appendClause(std::string Clause);
  /// Replaces the pragma's text from `#pragma` to its last token by Text
  /// (clauses appended with appendClause still follow it).
  void replacePragma(std::string Text);
  /// Text after the pragma's last token and everything appended to it: the
  /// second half of a combined construct split in two.
  void afterPragma(std::string Text);
  /// A #line directive and indentation that put the text after them where
  /// the directive's `#` is, line and column; empty with
  /// --no-line-directives. A pragma the instrumenter writes on a line of its
  /// own (the second half of a split combined construct) then stands for the
  /// user's directive in the debug locations of the code the compiler makes
  /// for it and in its diagnostics, as the directive would.
  std::string atDirective() const;
  /// The source text of each explicit clause, in source order.
  std::vector<std::pair<const clang::OMPClause *, std::string>> clauseTexts() const;
  /// Replaces the source of an expression in a clause by Text.
  void replaceExpression(const clang::Expr &E, std::string Text);
  /// Source text of an expression (its expansion range).
  std::string expressionText(const clang::Expr &E) const;

private:
  unsigned depthKey(EditLayer Layer, unsigned ExtraDepth = 0) const;

  FileInstrumentation &File;
  const clang::OMPExecutableDirective &Directive;
  unsigned Depth;
  bool FollowsExit = false;
  bool EndsWithExit = false;
  bool BlockBeginsWithBegin = false;
  unsigned EnterHandle = 0;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_CONSTRUCTEDITOR_H
