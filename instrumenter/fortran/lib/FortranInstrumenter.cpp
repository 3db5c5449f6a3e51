//===- FortranInstrumenter.cpp - ompinst's Fortran front end --------------===//
///
/// \file
/// Parse with Flang (prescanner, preprocessor, parser, and the two parse-tree
/// canonicalisations that attach DO loops and `end do` directives to their
/// constructs), walk the OpenMP constructs, ask the shared construct model
/// what each becomes and spell its plan as Fortran lines inserted between
/// the original lines. Original lines are never rewritten except to add a
/// clause (continuation line) or to replace an if/num_threads argument by
/// the variable that holds its value.
///
//===----------------------------------------------------------------------===//
#include "pomp/fortran/FortranInstrumenter.h"

#include "FortranLines.h"
#include "HiddenDirectives.h"
#include "PompDirectives.h"

#include "pomp/ctc/Ctc.h"
#include "pomp/handle-init/HandleInit.h"
#include "pomp/model/ApiRoutines.h"
#include "pomp/model/ConstructModel.h"

#include "flang/Common/Fortran-features.h"
#include "flang/Parser/parse-state.h"
#include "flang/Parser/parse-tree-visitor.h"
#include "flang/Parser/parse-tree.h"
#include "flang/Parser/parsing.h"
#include "flang/Parser/provenance.h"
#include "flang/Parser/source.h"
#include "flang/Parser/tools.h"
#include "flang/Parser/user-state.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Frontend/OpenMP/OMP.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <optional>
#include <set>

// Flang's canonicalisations live in libFortranSemantics without a public
// header; these are their declarations in Flang 19.
namespace Fortran::parser {
bool CanonicalizeDo(Program &program);
// The parser of a program (lib/Parser/type-parsers.h in Flang 19), called
// directly: Parsing::Parse always records a parsing log that the
// instrumenter never reads, and that costs a tenth of the parse.
template <typename A> struct Parser {
  using resultType = A;
  constexpr Parser() {}
  constexpr Parser(const Parser &) = default;
  static std::optional<resultType> Parse(ParseState &);
};
} // namespace Fortran::parser
namespace Fortran::semantics {
bool CanonicalizeOmp(parser::Messages &messages, parser::Program &program);
} // namespace Fortran::semantics

namespace pomp::fortran {

namespace parser = Fortran::parser;
using inst::Event;
using inst::model::Arg;
using inst::model::Plan;
using inst::model::Step;
using llvm::omp::Directive;

bool isFortranSource(std::string_view Path) {
  static const char *const Suffixes[] = {".f90", ".F90", ".f95", ".F95", ".f03", ".F03", ".f08",
                                         ".F08", ".f",   ".F",   ".for", ".FOR", ".ftn", ".FTN"};
  for (const char *S : Suffixes) {
    const std::string_view Suffix(S);
    if (Path.size() > Suffix.size() && Path.substr(Path.size() - Suffix.size()) == Suffix)
      return true;
  }
  return false;
}

bool isFixedFormSource(std::string_view Path) {
  const std::size_t Dot = Path.rfind('.');
  if (Dot == std::string_view::npos)
    return false;
  const std::string_view Suffix = Path.substr(Dot);
  return Suffix == ".f" || Suffix == ".F" || Suffix == ".for" || Suffix == ".FOR" ||
         Suffix == ".ftn" || Suffix == ".FTN";
}

namespace {

/// True for the suffixes compilers preprocess: upper case.
bool isPreprocessedSuffix(std::string_view Path) {
  const std::size_t Dot = Path.rfind('.');
  return Dot != std::string_view::npos && Dot + 1 < Path.size() && Path[Dot + 1] >= 'A' &&
         Path[Dot + 1] <= 'Z';
}

/// Lines of a piece of the original file: true line numbers for edits,
/// presumed ones (after any `#line`) for CTC strings.
struct Span {
  unsigned First = 0, Last = 0; ///< true lines, 1-based
  unsigned PresumedFirst = 0, PresumedLast = 0;
  /// The file a line marker in the input names (a preprocessed input, as CMake's Fortran
  /// rules compile), empty for the input itself.
  std::string PresumedPath;
  std::size_t EndOffset = 0; ///< byte just past the last character
};

/// The file a position's line markers name, empty when it is the file itself.
std::string presumedPath(const parser::SourcePosition &P) {
  const std::string &Path = *P.path;
  return Path == P.sourceFile->path() ? std::string() : Path;
}

/// One block of lines inserted at a boundary between original lines.
struct Insertion {
  unsigned Boundary; ///< before this original line (lines+1: at the end)
  bool Close;        ///< closes a construct (after, block end) or opens one
  int Depth;         ///< nesting key: opens outer first, closes inner first
  unsigned Sequence; ///< insertion order, for equal keys
  std::vector<std::string> Lines;
  /// Non-zero: stands for the rest of this original line after a loop that
  /// ends inside it (`10 a(i) = 1; b = 2`), moved behind the loop's end code.
  unsigned TailOf = 0;
};

/// An edit inside an original line.
/// Stands for the file's common block name (pomp_cb_ and 16 hex digits),
/// known only at the end, and is as long, so that line lengths hold.
constexpr std::string_view CommonPlaceholder = "@POMP_COMMON_BLOCK_NAME@";
/// The nesting key of a directive's continuation lines: before any other
/// insertion at the same line.
constexpr int ContinuationDepth = -1000;

struct InlineEdit {
  std::size_t Offset, Length;
  std::string Text;
};

/// A procedure (or main program) that gets declarations.
struct Unit {
  unsigned DeclarationBoundary = 0;
  /// The unit's lines: its first, and the first after its execution part
  /// (its `contains` or end statement); where `!$pomp` calls may go.
  unsigned FirstLine = 0, ExecutionEnd = 0;
  std::string Indent;
  bool UsesHandles = false;
  bool UsesThreadId = false;
  std::vector<std::string> Locals; ///< "integer(kind=8) pomp_ctx_3", ...
};

/// Appends a clause to a directive being rebuilt, unless the same text is
/// already there: compilers accept a repeated clause on some combined
/// directives (gfortran: `private(i)` twice on `parallel do`) but not on
/// the halves a split makes of it.
void appendClauseOnce(std::string &Directive, const std::string &Clause) {
  const std::string Text = " " + Clause;
  const std::size_t At = Directive.find(Text);
  const bool Present = At != std::string::npos &&
                       (At + Text.size() == Directive.size() || Directive[At + Text.size()] == ' ');
  if (!Present)
    Directive += Text;
}

/// The variables of the OpenMP object lists below a clause (`a` of `a(1:n)`;
/// not a reduction's operator), in order, each once.
struct ObjectNames {
  std::vector<std::string> Names;
  bool Pre(const parser::OmpObject &Object) {
    std::string Name;
    if (const auto *D = std::get_if<parser::Designator>(&Object.u))
      Name = parser::GetFirstName(*D).ToString();
    if (!Name.empty() && std::find(Names.begin(), Names.end(), Name) == Names.end())
      Names.push_back(Name);
    return false;
  }
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
};

/// Finds an `end atomic` directive below a node.
struct EndAtomicVisitor {
  bool Found = false;
  bool Pre(const parser::OmpEndAtomic &) {
    Found = true;
    return false;
  }
  template <typename T> bool Pre(const T &) { return !Found; }
  template <typename T> void Post(const T &) {}
};

/// The ways out of a procedure's execution part that get Function_end before
/// them (`--functions`): every `return`, and `stop`/`error stop` outside
/// OpenMP constructs (inside one, the thread that stops need not be the one
/// that began the procedure), alone or as the statement of a one-line IF.
struct ProcedureExits {
  struct Exit {
    const parser::Statement<parser::ActionStmt> *Statement;
    const parser::ScalarLogicalExpr *Condition; ///< of a one-line IF, else null
    /// The IF statement's own statement, and whether it is a plain `return`.
    const parser::UnlabeledStatement<parser::ActionStmt> *Inner;
    bool PlainReturn;
  };
  std::vector<Exit> Exits;
  /// Every statement label of the procedure, so that a new one is unused.
  std::set<parser::Label> Labels;
  template <typename T> bool Pre(const parser::Statement<T> &S) {
    if (S.label)
      Labels.insert(*S.label);
    return true;
  }
  int OpenMP = 0;
  bool Pre(const parser::OpenMPConstruct &) {
    ++OpenMP;
    return true;
  }
  void Post(const parser::OpenMPConstruct &) { --OpenMP; }
  bool Pre(const parser::Statement<parser::ActionStmt> &S) {
    if (S.label)
      Labels.insert(*S.label);
    const parser::ActionStmt *Action = &S.statement;
    const parser::ScalarLogicalExpr *Condition = nullptr;
    const parser::UnlabeledStatement<parser::ActionStmt> *Inner = nullptr;
    if (const auto *If = std::get_if<Fortran::common::Indirection<parser::IfStmt>>(&Action->u)) {
      Condition = &std::get<parser::ScalarLogicalExpr>(If->value().t);
      Inner = &std::get<parser::UnlabeledStatement<parser::ActionStmt>>(If->value().t);
      Action = &Inner->statement;
    }
    const auto *Return = std::get_if<Fortran::common::Indirection<parser::ReturnStmt>>(&Action->u);
    const bool Stop =
        std::holds_alternative<Fortran::common::Indirection<parser::StopStmt>>(Action->u);
    if (Return || (Stop && OpenMP == 0))
      Exits.push_back({&S, Condition, Inner, Return && !Return->value().v});
    return false;
  }
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
};

/// What makes inserting Function_begin/end into a procedure wrong: a second
/// way in (ENTRY), or a body that may call no host routine (declare simd,
/// declare target). Internal subprograms are their own procedures.
struct ProcedureBlockers {
  const char *Reason = nullptr;
  bool Pre(const parser::EntryStmt &) {
    Reason = "it has an ENTRY statement (a way in that would skip Function_begin)";
    return false;
  }
  bool Pre(const parser::OpenMPDeclareSimdConstruct &) {
    Reason = "it is 'declare simd' (a SIMD variant calls no library routine)";
    return false;
  }
  bool Pre(const parser::OpenMPDeclareTargetConstruct &) {
    Reason = "it is 'declare target' (device code)";
    return false;
  }
  bool Pre(const parser::InternalSubprogramPart &) { return false; }
  template <typename T> bool Pre(const T &) { return Reason == nullptr; }
  template <typename T> void Post(const T &) {}
};

/// Inserted lines of a `!$pomp` directive come first at their boundary: the
/// directive is before whatever the next line closes or opens.
constexpr int PompDirectiveDepth = 1 << 20;

/// Which clauses of a list to read: all, or those of one half of a split construct.
using ClauseFilter = std::function<bool(const parser::OmpClause &)>;

bool threadIdInside(Directive D, bool Outer);

/// The walker: finds constructs and records what to insert where.
class Instrumenter {
public:
  Instrumenter(parser::Parsing &P, const parser::SourceFile &Main, const Options &Opts,
               std::string FileName, bool Fixed, const llvm::Regex *FunctionFilter,
               const llvm::Regex *FunctionExclude)
      : Parsing(P), Main(Main), Opts(Opts), FileName(std::move(FileName)), Fixed(Fixed),
        FunctionFilter(FunctionFilter), FunctionExclude(FunctionExclude), Levels(Opts.Levels) {
    const auto Content = Main.content();
    Text.assign(Content.data(), Content.size());
    LineCount = static_cast<unsigned>(Main.lines());
    Pomp = scanPompLines(Text, Fixed);
  }

  /// Makes the output of the file's own text when the parse read a copy
  /// with hidden directives: the same length, line for line.
  void useText(const std::string &Original) {
    assert(Original.size() == Text.size() && "hiding keeps every line and column");
    Text = Original;
  }
  /// Insertions meant for a boundary (key) go to another (value): before a
  /// hidden directive, when they would separate it from its statement.
  void moveInsertions(std::map<unsigned, unsigned> Moves) { MovedBoundaries = std::move(Moves); }
  /// What a walk found that enclosing constructs must make private, and
  /// the same for the next walk to add (see PrivatizingStack).
  const std::map<unsigned, std::vector<std::string>> &neededPrivates() const {
    return NeededPrivates;
  }
  void addPrivates(std::map<unsigned, std::vector<std::string>> Privates) {
    ExtraPrivates = std::move(Privates);
  }
  /// The DO loops (by the line of their DO statement) of hidden loop
  /// directives, with the directive's kind.
  void hiddenLoops(std::map<unsigned, Directive> Loops) { HiddenLoops = std::move(Loops); }

  /// The qualified name of the procedure (or main program) whose code is
  /// being walked, `mod::proc`, `host::inner`: the CTC's `function` key, the
  /// context every construct gets without function instrumentation (as in C).
  std::string enclosingFunction() const {
    if (UnitStack.empty())
      return {};
    std::string Qualified;
    for (const std::string &S : Scopes)
      Qualified += (Qualified.empty() ? "" : "::") + S;
    return Qualified;
  }

  // Program units: a scoping unit with an execution part. Scopes names the
  // modules and host procedures around a procedure, for its qualified name.
  bool Pre(const parser::MainProgram &X) {
    const auto &Header = std::get<std::optional<parser::Statement<parser::ProgramStmt>>>(X.t);
    enterUnit(std::get<parser::SpecificationPart>(X.t), headerSpan(Header),
              std::get<parser::ExecutionPart>(X.t),
              executionEnd(X, std::get<parser::Statement<parser::EndProgramStmt>>(X.t)));
    InMain = true;
    mainProgram(X);
    Scopes.push_back(Header ? Header->statement.v.ToString() : std::string("main program"));
    return true;
  }
  void Post(const parser::MainProgram &) {
    Scopes.pop_back();
    leaveUnit();
  }
  bool Pre(const parser::Module &X) {
    Scopes.push_back(std::get<parser::Statement<parser::ModuleStmt>>(X.t).statement.v.ToString());
    return true;
  }
  void Post(const parser::Module &) { Scopes.pop_back(); }
  bool Pre(const parser::Submodule &X) {
    Scopes.push_back(
        std::get<parser::Name>(std::get<parser::Statement<parser::SubmoduleStmt>>(X.t).statement.t)
            .ToString());
    return true;
  }
  void Post(const parser::Submodule &) { Scopes.pop_back(); }
  bool Pre(const parser::SubroutineSubprogram &X) {
    return enterProcedure<parser::SubroutineStmt, parser::EndSubroutineStmt>(X);
  }
  void Post(const parser::SubroutineSubprogram &) { leaveProcedure(); }
  bool Pre(const parser::FunctionSubprogram &X) {
    return enterProcedure<parser::FunctionStmt, parser::EndFunctionStmt>(X);
  }
  void Post(const parser::FunctionSubprogram &) { leaveProcedure(); }
  bool Pre(const parser::SeparateModuleSubprogram &X) {
    const auto &Header = std::get<parser::Statement<parser::MpSubprogramStmt>>(X.t);
    const auto &End = std::get<parser::Statement<parser::EndMpSubprogramStmt>>(X.t);
    enterUnit(std::get<parser::SpecificationPart>(X.t), span(Header.source),
              std::get<parser::ExecutionPart>(X.t), executionEnd(X, End));
    const std::string Name = Header.statement.v.ToString();
    functionRegion(X, Header.source, Name, nullptr, End);
    Scopes.push_back(Name);
    return true;
  }
  void Post(const parser::SeparateModuleSubprogram &) { leaveProcedure(); }
  // An internal subprogram is not part of its host's main program.
  bool Pre(const parser::InternalSubprogramPart &) {
    MainStack.push_back(InMain);
    InMain = false;
    return true;
  }
  void Post(const parser::InternalSubprogramPart &) {
    InMain = MainStack.back();
    MainStack.pop_back();
  }

  // `stop` and `error stop` statements of the main program.
  bool Pre(const parser::ExecutionPartConstruct &X) {
    if (!InMain)
      return true;
    const auto *Exec = std::get_if<parser::ExecutableConstruct>(&X.u);
    if (!Exec)
      return true;
    const auto *Action = std::get_if<parser::Statement<parser::ActionStmt>>(&Exec->u);
    if (!Action)
      return true;
    const bool IsStop =
        std::holds_alternative<Fortran::common::Indirection<parser::StopStmt>>(Action->statement.u);
    if (IsStop)
      if (const auto S = span(Action->source))
        insert(S->First, /*Close=*/true, -1, {statementLines("call POMP_Finalize()", S->First)});
    return true;
  }

  bool Pre(const parser::OpenMPBlockConstruct &X) {
    const auto &Begin = std::get<parser::OmpBeginBlockDirective>(X.t);
    const auto &End = std::get<parser::OmpEndBlockDirective>(X.t);
    const Directive D = std::get<parser::OmpBlockDirective>(Begin.t).v;
    const auto &Clauses = std::get<parser::OmpClauseList>(Begin.t);
    const auto &EndClauses = std::get<parser::OmpClauseList>(End.t);
    Construct C;
    C.Kind = D;
    C.Begin = span(Begin.source);
    C.End = span(End.source);
    C.BeginClauses = &Clauses;
    C.EndClauses = &EndClauses;
    C.Body = &std::get<parser::Block>(X.t);
    instrument(C);
    enterBody(D);
    return true;
  }
  void Post(const parser::OpenMPBlockConstruct &) { leaveBody(); }

  bool Pre(const parser::OpenMPLoopConstruct &X) {
    const auto &Begin = std::get<parser::OmpBeginLoopDirective>(X.t);
    const Directive D = std::get<parser::OmpLoopDirective>(Begin.t).v;
    Construct C;
    C.Kind = D;
    C.Begin = span(Begin.source);
    C.BeginClauses = &std::get<parser::OmpClauseList>(Begin.t);
    const auto &Loop = std::get<std::optional<parser::DoConstruct>>(X.t);
    const auto &End = std::get<std::optional<parser::OmpEndLoopDirective>>(X.t);
    if (End) {
      C.End = span(End->source);
      C.EndClauses = &std::get<parser::OmpClauseList>(End->t);
    } else if (Loop) {
      // Without `end do` the construct ends with its loop, unless an
      // enclosing loop ends with the same statement (F77 `do 10` loops
      // sharing `10 continue`): nothing can go after the inner loop alone then.
      C.End = extent(*Loop);
      C.EndIsLoop = true;
      const char *LoopEnd = charEnd(*Loop);
      if (C.End && std::find(DoEnds.begin(), DoEnds.end(), LoopEnd) != DoEnds.end()) {
        C.End.reset();
        C.SharedEnd = true;
      } else if (C.End) {
        splitAfterLoop(LoopEnd);
      }
    }
    C.Loop = Loop ? &*Loop : nullptr;
    instrument(C);
    enterBody(D);
    return true;
  }
  void Post(const parser::OpenMPLoopConstruct &) { leaveBody(); }

  // Where the DO loops around the current point end.
  bool Pre(const parser::DoConstruct &X) {
    DoEnds.push_back(charEnd(X));
    if (const auto Loop = extent(X);
        Loop && LinesAfterEvents.count(Loop->First) != 0 && repeatsOneConstruct(X))
      if (const auto Body = extent(std::get<parser::Block>(X.t).front()))
        RepeatedConstructs[Body->First] = Loop->Last;
    // The loop of a hidden loop directive (`!$omp loop bind(teams)`): the
    // constructs in it get the thread number only where that construct
    // allows runtime calls, as if the directive had been parsed.
    const auto Header = span(std::get<parser::Statement<parser::NonLabelDoStmt>>(X.t).source);
    const auto Hidden = Header ? HiddenLoops.find(Header->First) : HiddenLoops.end();
    HiddenLoopStack.push_back(Hidden != HiddenLoops.end());
    if (HiddenLoopStack.back()) {
      const bool Available = threadIdInside(Hidden->second, ThreadIdStack.back());
      ThreadIdStack.push_back(Available);
      if (const auto Extent = extent(X))
        Bodies.push_back({Extent->First, Extent->Last, Available});
    }
    return true;
  }
  void Post(const parser::DoConstruct &) {
    DoEnds.pop_back();
    if (HiddenLoopStack.back())
      ThreadIdStack.pop_back();
    HiddenLoopStack.pop_back();
  }

  bool Pre(const parser::OpenMPSectionsConstruct &X) {
    const auto &Begin = std::get<parser::OmpBeginSectionsDirective>(X.t);
    const auto &End = std::get<parser::OmpEndSectionsDirective>(X.t);
    const Directive D = std::get<parser::OmpSectionsDirective>(Begin.t).v;
    Construct C;
    C.Kind = D;
    C.Begin = span(Begin.source);
    C.End = span(End.source);
    C.BeginClauses = &std::get<parser::OmpClauseList>(Begin.t);
    C.EndClauses = &std::get<parser::OmpClauseList>(End.t);
    C.Sections = &std::get<parser::OmpSectionBlocks>(X.t);
    instrument(C);
    enterBody(D);
    return true;
  }
  void Post(const parser::OpenMPSectionsConstruct &) { leaveBody(); }

  bool Pre(const parser::OpenMPCriticalConstruct &X) {
    const auto &Begin = std::get<parser::OmpCriticalDirective>(X.t);
    Construct C;
    C.Kind = Directive::OMPD_critical;
    C.Begin = span(Begin.source);
    C.End = span(std::get<parser::OmpEndCriticalDirective>(X.t).source);
    C.BeginClauses = &std::get<parser::OmpClauseList>(Begin.t);
    if (const auto &Name = std::get<std::optional<parser::Name>>(Begin.t))
      C.Name = Name->ToString();
    C.Body = &std::get<parser::Block>(X.t);
    instrument(C);
    enterBody(C.Kind);
    return true;
  }
  void Post(const parser::OpenMPCriticalConstruct &) { leaveBody(); }

  bool Pre(const parser::OpenMPStandaloneConstruct &X) {
    Construct C;
    C.Begin = span(X.source);
    C.Standalone = true;
    std::visit(
        [&](const auto &S) {
          using T = std::decay_t<decltype(S)>;
          if constexpr (std::is_same_v<T, parser::OpenMPSimpleStandaloneConstruct>) {
            C.Kind = std::get<parser::OmpSimpleStandaloneDirective>(S.t).v;
            C.BeginClauses = &std::get<parser::OmpClauseList>(S.t);
          } else if constexpr (std::is_same_v<T, parser::OpenMPFlushConstruct>) {
            C.Kind = Directive::OMPD_flush;
          } else if constexpr (std::is_same_v<T, parser::OpenMPCancelConstruct>) {
            C.Kind = Directive::OMPD_cancel;
            if (const auto &If = std::get<std::optional<parser::OpenMPCancelConstruct::If>>(S.t))
              C.CancelIf = &If->v;
          } else if constexpr (std::is_same_v<T, parser::OpenMPCancellationPointConstruct>) {
            C.Kind = Directive::OMPD_cancellation_point;
          } else {
            C.Kind = Directive::OMPD_unknown;
          }
        },
        X.u);
    if (C.Kind != Directive::OMPD_unknown)
      instrument(C);
    return true;
  }

  bool Pre(const parser::OpenMPAtomicConstruct &X) {
    Construct C;
    C.Kind = Directive::OMPD_atomic;
    C.Standalone = true;
    C.Begin = extent(X);
    C.End = C.Begin;
    // `end atomic` has no source position in the tree: it is the next
    // directive line after the statement when the tree says it is there.
    EndAtomicVisitor EndAtomic;
    parser::Walk(X, EndAtomic);
    if (EndAtomic.Found && C.End)
      if (const unsigned Line = nextSignificantLine(C.End->Last + 1))
        C.End->Last = C.End->PresumedLast = Line;
    instrument(C);
    return false;
  }

  bool Pre(const parser::OpenMPExecutableAllocate &) { return false; }

  // OpenMP library routines called in statements (not in directive clauses).
  bool Pre(const parser::OmpClauseList &) {
    ++InClauses;
    return true;
  }
  void Post(const parser::OmpClauseList &) { --InClauses; }
  bool Pre(const parser::CallStmt &X) {
    apiCallSite(X.call, /*Function=*/false);
    return true;
  }
  bool Pre(const parser::FunctionReference &X) {
    apiCallSite(X.v, /*Function=*/true);
    return true;
  }
  bool Pre(const parser::SubroutineStmt &X) {
    Defined.insert(std::get<parser::Name>(X.t).ToString());
    return true;
  }
  bool Pre(const parser::FunctionStmt &X) {
    Defined.insert(std::get<parser::Name>(X.t).ToString());
    return true;
  }

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  /// The instrumented text.
  std::string finish();
  /// Spells the user-region and control `!$pomp` directives and the `!P$`
  /// lines, after the walk; false with the errors (file:line) if some
  /// directive is malformed, misplaced or unmatched.
  bool pompDirectives(std::string &Errors);
  /// Rewrites the OpenMP routine calls the walk found into their wrappers.
  void apiCalls();

  unsigned Constructs = 0;
  /// Procedures that got a function region (`--functions`).
  unsigned Functions = 0;
  std::string Warnings;

private:
  /// What the walker knows of one construct.
  struct Construct {
    Directive Kind = Directive::OMPD_unknown;
    std::optional<Span> Begin, End;
    bool EndIsLoop = false;
    bool SharedEnd = false; ///< the loop ends on an enclosing loop's line
    bool Standalone = false;
    const parser::OmpClauseList *BeginClauses = nullptr;
    const parser::OmpClauseList *EndClauses = nullptr;
    const parser::Block *Body = nullptr;
    const parser::DoConstruct *Loop = nullptr;
    const parser::OmpSectionBlocks *Sections = nullptr;
    const parser::ScalarLogicalExpr *CancelIf = nullptr;
    std::string Name;
    /// A combined `parallel <worksharing>` construct is split in two: the
    /// outer half is instrumented as `parallel` with the combined CTC type,
    /// the inner half as the worksharing construct, one level deeper.
    enum class Half { None, Outer, Inner } Split = Half::None;
    std::optional<ctc::RegionKind> KindOverride;
    ClauseFilter Filter;
    std::string InnerSpelling; ///< "do", "do simd", "sections", "workshare"
    bool InnerHasBarrier = false;
  };
  /// Instruments a combined construct split in two; false when it is not one.
  bool instrumentSplit(const Construct &C);

  /// A subroutine or function: its unit, its function region and its name
  /// among the scopes that CTCs name (HeaderStmt and EndStmt: its two
  /// statements in Flang's parse tree).
  template <typename HeaderStmt, typename EndStmt, typename U> bool enterProcedure(const U &X) {
    const auto &Header = std::get<parser::Statement<HeaderStmt>>(X.t);
    const auto &End = std::get<parser::Statement<EndStmt>>(X.t);
    enterUnit(std::get<parser::SpecificationPart>(X.t), span(Header.source),
              std::get<parser::ExecutionPart>(X.t), executionEnd(X, End));
    const std::string Name = std::get<parser::Name>(Header.statement.t).ToString();
    functionRegion(X, Header.source, Name,
                   &std::get<std::list<parser::PrefixSpec>>(Header.statement.t), End);
    Scopes.push_back(Name);
    return true;
  }
  void leaveProcedure() {
    Scopes.pop_back();
    leaveUnit();
  }

  void instrument(const Construct &C);
  void instrumentConstruct(const Construct &C);
  /// `--functions`: the function region of a subroutine or function (the
  /// model's planFunction), or a warning that says why it is left alone.
  /// Prefixes is null for a separate module procedure (`module procedure`).
  template <typename U, typename E>
  void functionRegion(const U &X, parser::CharBlock Header, const std::string &Name,
                      const std::list<parser::PrefixSpec> *Prefixes,
                      const parser::Statement<E> &End);
  /// The line that carries a moved label (`<label> continue`).
  std::string labelLine(parser::Label Label, const std::string &Indent) const;
  /// Blanks the statement label at the start of Line.
  void removeLabel(unsigned Line);
  /// Applies the level and noinstrument/instrument directives before a line.
  void applyPompDirectives(unsigned BeforeLine);
  bool enabled(Event E) const {
    const inst::EventInfo &Info = inst::eventInfo(E);
    return (Info.LevelMask & (1u << Levels[Info.Group])) != 0;
  }
  /// Whether the thread number may be asked for at a line (not inside simd,
  /// teams, loop), from the bodies the walk saw.
  bool threadIdAvailableAt(unsigned Line) const;
  /// The innermost unit whose execution part holds a line, or null.
  Unit *unitAt(unsigned Line);
  void mainProgram(const parser::MainProgram &X);

  // Position helpers.
  std::optional<Span> span(parser::CharBlock Block) const;
  template <typename T> std::optional<Span> extent(const T &Node) const;
  std::optional<Span>
  headerSpan(const std::optional<parser::Statement<parser::ProgramStmt>> &Header) const {
    return Header ? span(Header->source) : std::nullopt;
  }
  std::string lineIndent(unsigned Line) const;
  std::size_t lineStart(unsigned Line) const { return Main.GetLineStartOffset(Line); }
  std::string lineText(unsigned Line) const;
  /// The first line from Line on that is neither blank nor a comment (a
  /// directive line counts); 0 if none.
  unsigned nextSignificantLine(unsigned Line) const;

  void enterUnit(const parser::SpecificationPart &Spec, std::optional<Span> Header,
                 const parser::ExecutionPart &Exec, unsigned ExecutionEnd);
  /// The first line after a unit's execution part: its `contains` or end.
  template <typename U, typename E>
  unsigned executionEnd(const U &Unit, const parser::Statement<E> &End) const {
    if (const auto &Internal = std::get<std::optional<parser::InternalSubprogramPart>>(Unit.t))
      if (const auto S =
              span(std::get<parser::Statement<parser::ContainsStmt>>(Internal->t).source))
        return S->First;
    const auto S = span(End.source);
    return S ? S->First : 0;
  }
  void leaveUnit() {
    if (!UnitStack.empty())
      UnitStack.pop_back();
    InMain = false;
  }
  void enterBody(Directive D);
  void leaveBody() {
    ThreadIdStack.pop_back();
    PrivatizingStack.pop_back();
    if (TargetStack.back())
      --TargetDepth;
    TargetStack.pop_back();
  }

  void insert(unsigned Boundary, bool Close, int Depth, std::vector<std::string> Lines) {
    Insertions.push_back({Boundary, Close, Depth, Sequence++, std::move(Lines)});
  }
  /// One past the last cooked character of a node's statements.
  template <typename T> const char *charEnd(const T &Node) const;
  /// The line of the INCLUDE line in this file that brought a cooked
  /// character from another file; nothing for the file's own characters.
  std::optional<unsigned> includingLine(const char *Cooked) const;
  /// A loop construct without `end do` whose loop ends inside a line, before
  /// `; <statements>` (`10 a(i) = 1; b = 2`, or `end do; b = 2`): the line is
  /// split there, so that the construct's end code goes between the loop and
  /// the statements after it, which are no part of the construct.
  void splitAfterLoop(const char *LoopEnd);
  std::vector<std::string> statementLines(const std::string &Statement, unsigned NearLine) const {
    return formatStatement(Statement, Fixed, Fixed ? "" : lineIndent(NearLine));
  }
  std::vector<std::string> directiveLines(const std::string &Directive, unsigned NearLine) const {
    return formatDirective(Directive, Fixed, Fixed ? "" : lineIndent(NearLine));
  }
  /// Replaces original lines First..Last by Lines.
  void replaceLines(unsigned First, unsigned Last, const std::vector<std::string> &Lines) {
    std::string Joined;
    for (const std::string &L : Lines)
      Joined += (Joined.empty() ? "" : "\n") + L;
    const std::size_t Begin = lineStart(First);
    std::size_t End = Text.find('\n', lineStart(Last));
    if (End == std::string::npos)
      End = Text.size();
    InlineEdits.push_back({Begin, End - Begin, Joined});
  }
  /// Adds Clause to the directive whose last line is Last.
  void addClause(const Span &Directive, const std::string &Clause);

  parser::Parsing &Parsing;
  const parser::SourceFile &Main;
  const Options &Opts;
  std::string FileName;
  bool Fixed;
  /// `--functions`: which procedures (by qualified name); null: none.
  const llvm::Regex *FunctionFilter;
  /// `--function-exclude`: which of those are left out; null: none.
  const llvm::Regex *FunctionExclude;
  std::vector<std::string> Scopes;
  std::string Text;
  unsigned LineCount = 0;

  std::vector<Insertion> Insertions;
  std::vector<InlineEdit> InlineEdits;
  /// addClause's continuation line after a directive (by the line it is
  /// inserted before: index into Insertions), and the characters it added
  /// at the end of a directive line (by offset).
  std::map<unsigned, std::size_t> Continuations;
  std::map<std::size_t, std::size_t> AddedAt;
  unsigned Sequence = 0;
  std::vector<std::string> CtcStrings;
  std::vector<Unit> Units;            ///< every unit that got declarations
  std::vector<std::size_t> UnitStack; ///< indices into Units
  bool InMain = false;
  std::vector<bool> MainStack;
  std::vector<bool> ThreadIdStack{true};
  /// One past the last cooked character of each DO loop around the current point.
  std::vector<const char *> DoEnds;
  /// Original lines whose rest, from this offset of Text on, follows a loop
  /// construct's end code (splitAfterLoop).
  std::map<unsigned, std::size_t> LineTails;
  /// Whether each open body is a target region's (device code: as in C,
  /// nothing inside it is instrumented), and how many are open.
  std::vector<bool> TargetStack;
  int TargetDepth = 0;
  int Depth = 0;
  std::vector<int> DepthSteps;

  /// Levels now: the command line's, changed by `!$pomp inst <group> <level>`.
  std::array<int, POMP_GROUP_COUNT> Levels;
  PompLines Pomp;
  std::size_t NextPomp = 0;
  bool Instrumenting = true;
  std::vector<std::pair<int, int>> SavedLevels;
  /// The lines of the construct instrument() saw last, for enterBody.
  std::optional<std::pair<unsigned, unsigned>> PendingBody;
  /// The first line of every construct whose directive is the next line, not
  /// blank or a comment, after the last line of an instrumented construct
  /// whose code ends with an exit event, or after a directive whose block
  /// code ends with a begin event: the next statement of the same block, or
  /// the first of the block, with no code between the event and the
  /// construct's own (docs/INSTRUMENTER.md, "Constructs one after another").
  std::set<unsigned> LinesAfterEvents;
  /// The directive line of the one construct of a counted DO loop that starts
  /// in LinesAfterEvents and whose bounds are names and literals, and the
  /// loop's last line: the construct repeats with only the loop's increment
  /// and test between its exit and its next enter.
  std::map<unsigned, unsigned> RepeatedConstructs;
  /// Whether X is such a loop: a counted DO whose block is one OpenMP
  /// construct.
  static bool repeatsOneConstruct(const parser::DoConstruct &X);
  /// A call of an OpenMP routine the walk found.
  struct ApiCallSite {
    const inst::model::WrappedRoutine *Routine;
    parser::CharBlock Name;
    bool Function, HasArguments;
    std::size_t Unit;
    std::string EnclosingFunction; ///< the CTC's `function` key
  };
  void apiCallSite(const parser::Call &Call, bool Function);
  std::vector<ApiCallSite> ApiSites;
  int InClauses = 0;
  /// Procedures this file defines: a call of one of them is not the runtime's.
  std::set<std::string> Defined;
  /// Construct bodies and whether the thread number is available inside.
  struct BodyLines {
    unsigned First, Last;
    bool ThreadIdAvailable;
  };
  std::vector<BodyLines> Bodies;
  /// The variables a construct adds (its context, its if and num_threads
  /// values) are locals of the procedure, set by every thread that reaches
  /// the construct: each enclosing parallel, teams or task-generating
  /// construct must make them private (shared, threads would set one
  /// variable at once; under default(none) the compiler wants them listed).
  /// The walk notes them per enclosing construct (NeededPrivates, by the
  /// line of its directive) when that directive is written already; a
  /// second walk (instrumentFortran) adds them (ExtraPrivates).
  std::vector<unsigned> PrivatizingStack; ///< directive lines; 0 for other bodies
  std::map<unsigned, std::vector<std::string>> NeededPrivates;
  std::map<unsigned, std::vector<std::string>> ExtraPrivates;
  void notePrivate(const std::string &Variable) {
    for (const unsigned Line : PrivatizingStack)
      if (Line != 0) {
        std::vector<std::string> &List = NeededPrivates[Line];
        if (std::find(List.begin(), List.end(), Variable) == List.end())
          List.push_back(Variable);
      }
  }
  /// The private clause the second walk adds to the construct at Line; "".
  std::string extraPrivateClause(unsigned Line) const {
    const auto It = ExtraPrivates.find(Line);
    if (It == ExtraPrivates.end())
      return "";
    std::string Clause = "private(";
    for (std::size_t I = 0; I < It->second.size(); ++I)
      Clause += (I ? ", " : "") + It->second[I];
    return Clause + ")";
  }
  std::map<unsigned, unsigned> MovedBoundaries;
  std::map<unsigned, Directive> HiddenLoops;
  std::vector<bool> HiddenLoopStack;
};

/// True for parse-tree nodes with a `CharBlock source` member.
template <typename T, typename = void> struct HasSource : std::false_type {};
template <typename T>
struct HasSource<T, std::void_t<decltype(std::declval<const T &>().source)>>
    : std::is_same<std::decay_t<decltype(std::declval<const T &>().source)>, parser::CharBlock> {};

/// Collects the lines of every statement and sourced node below a node.
struct ExtentVisitor {
  const parser::AllCookedSources &Cooked;
  const parser::SourceFile &Main;
  std::optional<Span> Result;

  void add(parser::CharBlock Block) {
    if (Block.empty())
      return;
    const auto Range = Cooked.GetSourcePositionRange(Block);
    if (!Range || &*Range->first.sourceFile != &Main || &*Range->second.sourceFile != &Main)
      return;
    const unsigned First = static_cast<unsigned>(Range->first.trueLineNumber);
    const unsigned Last = static_cast<unsigned>(Range->second.trueLineNumber);
    if (!Result) {
      Result = Span{First,
                    Last,
                    static_cast<unsigned>(Range->first.line),
                    static_cast<unsigned>(Range->second.line),
                    presumedPath(Range->first),
                    0};
      return;
    }
    if (First < Result->First) {
      Result->First = First;
      Result->PresumedFirst = static_cast<unsigned>(Range->first.line);
      Result->PresumedPath = presumedPath(Range->first);
    }
    if (Last > Result->Last) {
      Result->Last = Last;
      Result->PresumedLast = static_cast<unsigned>(Range->second.line);
    }
  }
  template <typename T> bool Pre(const parser::Statement<T> &S) {
    add(S.source);
    return true;
  }
  template <typename T> bool Pre(const T &X) {
    if constexpr (HasSource<T>::value)
      add(X.source);
    return true;
  }
  template <typename T> void Post(const T &) {}
};

/// The first and one-past-last cooked characters of the statements and
/// sourced nodes below a node.
struct CharRangeVisitor {
  const char *Begin = nullptr, *End = nullptr;

  void add(parser::CharBlock Block) {
    if (Block.empty())
      return;
    if (!Begin || Block.begin() < Begin)
      Begin = Block.begin();
    if (!End || Block.end() > End)
      End = Block.end();
  }
  template <typename T> bool Pre(const parser::Statement<T> &S) {
    add(S.source);
    return true;
  }
  template <typename T> bool Pre(const T &X) {
    if constexpr (HasSource<T>::value)
      add(X.source);
    return true;
  }
  template <typename T> void Post(const T &) {}
};

/// True when an expression may be evaluated a second time: no function
/// reference (the parser cannot tell an array element from a call, so any
/// parenthesised reference counts).
struct SideEffectVisitor {
  bool Found = false;
  bool Pre(const parser::FunctionReference &) {
    Found = true;
    return false;
  }
  template <typename T> bool Pre(const T &) { return !Found; }
  template <typename T> void Post(const T &) {}
};

template <typename T> bool reEvaluable(const T &Node) {
  SideEffectVisitor V;
  parser::Walk(Node, V);
  return !V.Found;
}

std::optional<Span> Instrumenter::span(parser::CharBlock Block) const {
  if (Block.empty())
    return std::nullopt;
  const auto Range = Parsing.allCooked().GetSourcePositionRange(Block);
  if (!Range || &*Range->first.sourceFile != &Main || &*Range->second.sourceFile != &Main)
    return std::nullopt;
  Span S;
  S.First = static_cast<unsigned>(Range->first.trueLineNumber);
  S.Last = static_cast<unsigned>(Range->second.trueLineNumber);
  S.PresumedFirst = static_cast<unsigned>(Range->first.line);
  S.PresumedLast = static_cast<unsigned>(Range->second.line);
  S.PresumedPath = presumedPath(Range->first);
  // The range ends one past its last character (its column is 1-based).
  S.EndOffset = lineStart(S.Last) + static_cast<std::size_t>(Range->second.column) - 1;
  // Keep it on its line.
  const std::size_t LineEnd = Text.find('\n', lineStart(S.Last));
  if (LineEnd != std::string::npos && S.EndOffset > LineEnd)
    S.EndOffset = LineEnd;
  // Trailing blanks of a directive are not part of it.
  while (S.EndOffset > lineStart(S.Last) &&
         (Text[S.EndOffset - 1] == ' ' || Text[S.EndOffset - 1] == '\t'))
    --S.EndOffset;
  return S;
}

template <typename T> std::optional<Span> Instrumenter::extent(const T &Node) const {
  // The cooked characters of a node's statements lie in source order: the
  // first and last of them give the extent with one position lookup, unless
  // an end comes from another file (an INCLUDE), where each statement is
  // looked up and those of other files are left out.
  CharRangeVisitor Chars;
  parser::Walk(Node, Chars);
  if (!Chars.Begin)
    return std::nullopt;
  const auto Range = Parsing.allCooked().GetSourcePositionRange(
      parser::CharBlock{Chars.Begin, static_cast<std::size_t>(Chars.End - Chars.Begin)});
  if (Range && &*Range->first.sourceFile == &Main && &*Range->second.sourceFile == &Main)
    return Span{static_cast<unsigned>(Range->first.trueLineNumber),
                static_cast<unsigned>(Range->second.trueLineNumber),
                static_cast<unsigned>(Range->first.line),
                static_cast<unsigned>(Range->second.line),
                presumedPath(Range->first),
                0};
  ExtentVisitor V{Parsing.allCooked(), Main, std::nullopt};
  parser::Walk(Node, V);
  return V.Result;
}

template <typename T> const char *Instrumenter::charEnd(const T &Node) const {
  CharRangeVisitor Chars;
  parser::Walk(Node, Chars);
  return Chars.End;
}

std::optional<unsigned> Instrumenter::includingLine(const char *Cooked) const {
  const auto Range = Parsing.allCooked().GetProvenanceRange(parser::CharBlock{Cooked, 1});
  if (!Range)
    return std::nullopt;
  const parser::AllSources &Sources = Parsing.allCooked().allSources();
  if (Sources.GetSourceFile(Range->start()) == &Main)
    return std::nullopt;
  std::size_t Offset = 0;
  if (Sources.GetSourceFile(Range->start(), &Offset, /*topLevel=*/true) != &Main)
    return std::nullopt;
  return static_cast<unsigned>(Main.GetSourcePosition(Offset).trueLineNumber);
}

void Instrumenter::splitAfterLoop(const char *LoopEnd) {
  if (!LoopEnd)
    return;
  // The loop's last character, found as a one-character block.
  const auto S = span(parser::CharBlock{LoopEnd - 1, 1});
  if (!S)
    return;
  const std::size_t LineBegin = lineStart(S->Last);
  std::size_t LineEnd = Text.find('\n', LineBegin);
  if (LineEnd == std::string::npos)
    LineEnd = Text.size();
  // Fixed form ignores what lies past column 72.
  if (Fixed)
    LineEnd = std::min(LineEnd, LineBegin + FixedFormColumns);
  std::size_t At = S->EndOffset;
  bool Separated = false;
  while (At < LineEnd &&
         (Text[At] == ' ' || Text[At] == '\t' || Text[At] == ';' || Text[At] == '\r')) {
    Separated = Separated || Text[At] == ';';
    ++At;
  }
  // Nothing after the loop but blanks or a comment; or a continuation the
  // next line carries on, which cannot be moved alone.
  if (!Separated || At >= LineEnd || Text[At] == '!' || Text[At] == '&' || LineTails.count(S->Last))
    return;
  LineTails[S->Last] = At;
  // The separator goes: the loop's line ends with the loop.
  InlineEdits.push_back({S->EndOffset, At - S->EndOffset, ""});
  // After the end code of this construct (keys 2 * Depth and above), before
  // that of any construct around it (lower keys; ties go to the tail).
  Insertions.push_back({S->Last + 1, /*Close=*/true, 2 * Depth - 1, Sequence++, {}, S->Last});
}

std::string Instrumenter::lineText(unsigned Line) const {
  const std::size_t Begin = lineStart(Line);
  const std::size_t End = Text.find('\n', Begin);
  return Text.substr(Begin, End == std::string::npos ? std::string::npos : End - Begin);
}

unsigned Instrumenter::nextSignificantLine(unsigned Line) const {
  for (; Line <= LineCount; ++Line) {
    const std::string L = lineText(Line);
    const std::size_t N = L.find_first_not_of(" \t\r");
    if (N == std::string::npos)
      continue;
    const bool FixedComment =
        Fixed && N == 0 && (L[0] == 'c' || L[0] == 'C' || L[0] == '*' || L[0] == '!');
    const bool Comment = FixedComment || L[N] == '!';
    // A directive sentinel (`!$`, `c$`, `*$`) makes a comment line code.
    if (Comment && !(N + 1 < L.size() && L[N + 1] == '$'))
      continue;
    return Line;
  }
  return 0;
}

namespace {
/// A loop bound that takes no time to evaluate: a literal or a plain name
/// (no parentheses: `f(x)` may be a function reference).
bool isNameOrLiteral(const parser::ScalarExpr &Bound) {
  const parser::Expr &E = Bound.thing.value();
  if (std::holds_alternative<parser::LiteralConstant>(E.u))
    return true;
  const auto *D = std::get_if<Fortran::common::Indirection<parser::Designator>>(&E.u);
  if (!D)
    return false;
  const auto *Ref = std::get_if<parser::DataRef>(&D->value().u);
  return Ref && std::holds_alternative<parser::Name>(Ref->u);
}
} // namespace

bool Instrumenter::repeatsOneConstruct(const parser::DoConstruct &X) {
  const auto &Control = std::get<std::optional<parser::LoopControl>>(
      std::get<parser::Statement<parser::NonLabelDoStmt>>(X.t).statement.t);
  const auto *Bounds = Control ? std::get_if<parser::LoopControl::Bounds>(&Control->u) : nullptr;
  if (!Bounds || !isNameOrLiteral(Bounds->lower) || !isNameOrLiteral(Bounds->upper) ||
      (Bounds->step && !isNameOrLiteral(*Bounds->step)))
    return false;
  const parser::Block &Body = std::get<parser::Block>(X.t);
  if (Body.size() != 1)
    return false;
  const auto *Exec = std::get_if<parser::ExecutableConstruct>(&Body.front().u);
  return Exec &&
         std::holds_alternative<Fortran::common::Indirection<parser::OpenMPConstruct>>(Exec->u);
}

std::string Instrumenter::lineIndent(unsigned Line) const {
  if (Line == 0 || Line > LineCount)
    return "";
  const std::string L = lineText(Line);
  const std::size_t N = L.find_first_not_of(" \t");
  return N == std::string::npos ? "" : L.substr(0, N);
}

void Instrumenter::enterUnit(const parser::SpecificationPart &Spec, std::optional<Span> Header,
                             const parser::ExecutionPart &Exec, unsigned ExecutionEnd) {
  Unit U;
  U.ExecutionEnd = ExecutionEnd;
  std::optional<Span> SpecLines = extent(Spec);
  const std::optional<Span> ExecLines = extent(Exec);
  // Declarations an INCLUDE line brings (`include "omp_lib.h"`) end on that
  // line: the unit's declarations go after it, not before.
  if (const char *End = charEnd(Spec))
    if (const auto Line = includingLine(End - 1)) {
      if (!SpecLines)
        SpecLines = Span{*Line, *Line, 0, 0, {}, 0};
      else if (*Line > SpecLines->Last)
        SpecLines->Last = *Line;
    }
  if (SpecLines && (!ExecLines || SpecLines->Last < ExecLines->First))
    U.DeclarationBoundary = SpecLines->Last + 1;
  else if (SpecLines && ExecLines)
    U.DeclarationBoundary = ExecLines->First;
  else if (Header)
    U.DeclarationBoundary = Header->Last + 1;
  else if (ExecLines)
    U.DeclarationBoundary = ExecLines->First;
  else
    U.DeclarationBoundary = 1;
  U.Indent = ExecLines ? lineIndent(ExecLines->First) : "  ";
  U.FirstLine = Header      ? Header->First
                : SpecLines ? SpecLines->First
                : ExecLines ? ExecLines->First
                            : U.DeclarationBoundary;
  Units.push_back(std::move(U));
  UnitStack.push_back(Units.size() - 1);
}

void Instrumenter::mainProgram(const parser::MainProgram &X) {
  Unit &U = Units[UnitStack.back()];
  // POMP_Init first thing, POMP_Finalize at the end (and before each stop).
  insert(U.DeclarationBoundary, /*Close=*/false, -1,
         formatStatement("call POMP_Init()", Fixed, Fixed ? "" : U.Indent));
  // Execution ends at `contains` when there are internal subprograms.
  std::optional<Span> End;
  if (const auto &Internal = std::get<std::optional<parser::InternalSubprogramPart>>(X.t))
    End = extent(*Internal);
  else
    End = span(std::get<parser::Statement<parser::EndProgramStmt>>(X.t).source);
  if (End)
    insert(End->First, /*Close=*/true, -1,
           formatStatement("call POMP_Finalize()", Fixed, Fixed ? "" : U.Indent));
}

/// Whether the body of D is device code: the target constructs but those
/// whose body stays on the host (target data) or that have none.
bool runsOnDevice(Directive D) {
  switch (D) {
  case Directive::OMPD_target_data:
  case Directive::OMPD_target_enter_data:
  case Directive::OMPD_target_exit_data:
  case Directive::OMPD_target_update:
    return false;
  default:
    return llvm::omp::getOpenMPDirectiveName(D).starts_with("target");
  }
}

/// Whether code strictly inside a construct may ask for the thread number,
/// given whether the code around it may: OpenMP forbids runtime calls
/// strictly inside teams, simd and loop regions; a parallel region nested in
/// them allows them again.
bool threadIdInside(Directive D, bool Outer) {
  bool Available = Outer;
  switch (D) {
  case Directive::OMPD_parallel:
  case Directive::OMPD_parallel_do:
  case Directive::OMPD_parallel_sections:
  case Directive::OMPD_parallel_workshare:
  case Directive::OMPD_parallel_masked:
  case Directive::OMPD_parallel_master:
    Available = true;
    break;
  case Directive::OMPD_teams:
  case Directive::OMPD_simd:
  case Directive::OMPD_do_simd:
  case Directive::OMPD_parallel_do_simd:
  case Directive::OMPD_loop:
  case Directive::OMPD_teams_distribute:
  case Directive::OMPD_teams_distribute_simd:
  case Directive::OMPD_distribute_simd:
    Available = false;
    break;
  default:
    break;
  }
  return Available;
}

/// Constructs whose body threads run each for itself (a team, a league,
/// a task): what the body sets must be private to them.
static bool privatizes(Directive D) {
  const llvm::StringRef Name = llvm::omp::getOpenMPDirectiveName(D);
  return Name.contains("parallel") || Name.contains("teams") || Name == "task" ||
         Name.starts_with("taskloop");
}

void Instrumenter::enterBody(Directive D) {
  const bool Available = threadIdInside(D, ThreadIdStack.back());
  ThreadIdStack.push_back(Available);
  TargetStack.push_back(runsOnDevice(D));
  if (TargetStack.back())
    ++TargetDepth;
  if (PendingBody)
    Bodies.push_back({PendingBody->first, PendingBody->second, Available});
  PrivatizingStack.push_back(PendingBody && privatizes(D) ? PendingBody->first : 0);
  PendingBody.reset();
  // A split combined construct is two levels: parallel, then worksharing.
  const int Steps =
      D == Directive::OMPD_parallel_do || D == Directive::OMPD_parallel_do_simd ||
              D == Directive::OMPD_parallel_sections || D == Directive::OMPD_parallel_workshare ||
              D == Directive::OMPD_parallel_masked || D == Directive::OMPD_parallel_master
          ? 2
          : 1;
  Depth += Steps;
  DepthSteps.push_back(Steps);
}

void Instrumenter::addClause(const Span &D, const std::string &Clause) {
  const std::string Last = lineText(D.Last);
  const std::size_t Limit = Fixed ? FixedFormColumns : FreeFormColumns;
  // A directive may get several clauses (the context's firstprivate, the
  // handles' shared): those already added count, and once one went to a
  // continuation line the others follow it there.
  // (Looked up by line and offset: a scan of every edit per clause was quadratic.)
  if (const auto It = Continuations.find(D.Last + 1); It != Continuations.end()) {
    Insertion &I = Insertions[It->second];
    if (I.Lines.size() == 1 && I.Lines.back().size() + 1 + Clause.size() <= Limit) {
      I.Lines.back() += " " + Clause;
      return;
    }
  }
  // What edits on the line added before the first clause (an `if` or
  // `num_threads` argument replaced by its variable) counts, read once per
  // directive; the clauses added since are counted as they are added.
  const auto [At, First] = AddedAt.try_emplace(D.EndOffset, 0);
  std::size_t &Added = At->second;
  if (First)
    for (const InlineEdit &E : InlineEdits)
      if (E.Offset >= lineStart(D.Last) && E.Offset <= D.EndOffset && E.Text.size() > E.Length)
        Added += E.Text.size() - E.Length;
  const std::size_t Column = D.EndOffset - lineStart(D.Last) + Added;
  // On the directive's line when it fits, else on a continuation line.
  if (Column + 1 + Clause.size() <= Limit) {
    InlineEdits.push_back({D.EndOffset, 0, " " + Clause});
    Added += Clause.size() + 1;
    return;
  }
  if (!Fixed) {
    InlineEdits.push_back({D.EndOffset, 0, " &"});
    Added += 2;
  }
  const std::string Sentinel = Fixed ? Last.substr(0, FixedSentinelColumns) : "!$omp";
  Continuations.emplace(D.Last + 1, Insertions.size());
  insert(D.Last + 1, /*Close=*/false, ContinuationDepth,
         {(Fixed ? "" : lineIndent(D.Last)) + Sentinel + "& " + Clause});
}

/// Clause facts and values a Fortran directive's clauses give.
struct FortranClauses {
  inst::model::ClauseFacts Facts;
  const parser::ScalarLogicalExpr *If = nullptr;
  const parser::ScalarIntExpr *NumThreads = nullptr;
  const parser::ScalarIntExpr *Chunk = nullptr;
  const parser::ScalarIntExpr *Device = nullptr; ///< a device number (not `ancestor`)
  bool HasDefault = false;
  bool DefaultShared = false;
  std::string Schedule;
};

/// The OpenMP clause kind of a parse-tree clause alternative.
template <typename A> llvm::omp::Clause clauseKindOf() {
#define GEN_FLANG_CLAUSE_PARSER_KIND_MAP
#include "llvm/Frontend/OpenMP/OMP.inc"
  return llvm::omp::Clause::OMPC_unknown;
}

llvm::omp::Clause clauseKind(const parser::OmpClause &Clause) {
  return std::visit([](const auto &X) { return clauseKindOf<std::decay_t<decltype(X)>>(); },
                    Clause.u);
}

void readClauses(const parser::OmpClauseList *List, FortranClauses &C, ctc::RegionDescriptor &R,
                 const ClauseFilter &Keep = nullptr) {
  if (!List)
    return;
  for (const parser::OmpClause &Clause : List->v) {
    if (Keep && !Keep(Clause))
      continue;
    std::visit(
        [&](const auto &X) {
          using T = std::decay_t<decltype(X)>;
          if constexpr (std::is_same_v<T, parser::OmpClause::If>) {
            const auto &Modifier =
                std::get<std::optional<parser::OmpIfClause::DirectiveNameModifier>>(X.v.t);
            using M = parser::OmpIfClause::DirectiveNameModifier;
            if (!Modifier || *Modifier == M::Parallel || *Modifier == M::Task) {
              C.If = &std::get<parser::ScalarLogicalExpr>(X.v.t);
              C.Facts.HasIf = true;
            }
            R.HasIf = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::NumThreads>) {
            C.NumThreads = &X.v;
            C.Facts.HasNumThreads = true;
            R.HasNumThreads = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Nowait>) {
            C.Facts.HasNowait = true;
            R.HasNowait = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Copyprivate>) {
            C.Facts.HasCopyprivate = true;
            R.HasCopyprivate = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Firstprivate>) {
            R.HasFirstprivate = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Lastprivate>) {
            R.HasLastprivate = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Reduction>) {
            R.HasReduction = true;
            const auto &Modifier =
                std::get<std::optional<parser::OmpReductionClause::ReductionModifier>>(X.v.t);
            if (Modifier && *Modifier == parser::OmpReductionClause::ReductionModifier::Task)
              C.Facts.HasTaskReduction = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Copyin>) {
            R.HasCopyin = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Ordered>) {
            R.HasOrdered = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Untied>) {
            R.HasUntied = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Collapse>) {
            R.HasCollapse = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Depend>) {
            R.HasDepend = true;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Device>) {
            const auto &Modifier =
                std::get<std::optional<parser::OmpDeviceClause::DeviceModifier>>(X.v.t);
            if (!Modifier || *Modifier == parser::OmpDeviceClause::DeviceModifier::Device_Num)
              C.Device = &std::get<parser::ScalarIntExpr>(X.v.t);
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Default>) {
            C.HasDefault = true;
            C.DefaultShared = X.v.v == parser::OmpDefaultClause::Type::Shared;
          } else if constexpr (std::is_same_v<T, parser::OmpClause::Schedule>) {
            using S = parser::OmpScheduleClause::ScheduleType;
            switch (std::get<S>(X.v.t)) {
            case S::Static:
              C.Schedule = "static";
              break;
            case S::Dynamic:
              C.Schedule = "dynamic";
              break;
            case S::Guided:
              C.Schedule = "guided";
              break;
            case S::Auto:
              C.Schedule = "auto";
              break;
            case S::Runtime:
              C.Schedule = "runtime";
              break;
            }
            R.Schedule = C.Schedule;
            if (const auto &Chunk = std::get<std::optional<parser::ScalarIntExpr>>(X.v.t))
              C.Chunk = &*Chunk;
          }
        },
        Clause.u);
  }
}

/// True when a block holds a cancel or cancellation point directive.
struct CancellationVisitor {
  bool Found = false;
  bool Pre(const parser::OpenMPCancelConstruct &) {
    Found = true;
    return false;
  }
  bool Pre(const parser::OpenMPCancellationPointConstruct &) {
    Found = true;
    return false;
  }
  template <typename T> bool Pre(const T &) { return !Found; }
  template <typename T> void Post(const T &) {}
};

/// The expression inside the wrappers of a scalar, integer or logical one.
const parser::Expr &expr(const parser::Expr &E);
template <typename T> const parser::Expr &expr(const Fortran::common::Indirection<T> &I);
template <typename T> const parser::Expr &expr(const parser::Scalar<T> &S);
template <typename T> const parser::Expr &expr(const parser::Integer<T> &S);
template <typename T> const parser::Expr &expr(const parser::Logical<T> &S);
const parser::Expr &expr(const parser::Expr &E) { return E; }
template <typename T> const parser::Expr &expr(const Fortran::common::Indirection<T> &I) {
  return expr(I.value());
}
template <typename T> const parser::Expr &expr(const parser::Scalar<T> &S) { return expr(S.thing); }
template <typename T> const parser::Expr &expr(const parser::Integer<T> &S) {
  return expr(S.thing);
}
template <typename T> const parser::Expr &expr(const parser::Logical<T> &S) {
  return expr(S.thing);
}

/// The source text of a parse-tree expression (its cooked characters).
template <typename T> std::optional<parser::CharBlock> sourceOf(const T &E) {
  const parser::CharBlock Source = expr(E).source;
  return Source.empty() ? std::nullopt : std::optional<parser::CharBlock>(Source);
}

bool Instrumenter::instrumentSplit(const Construct &C) {
  struct Split {
    Directive Combined, Inner;
    const char *Spelling;
    /// The combined kind where the model has no entry for the combined
    /// directive (C's split handlers decide those).
    std::optional<ctc::RegionKind> Kind;
  };
  static const Split Splits[] = {
      {Directive::OMPD_parallel_do, Directive::OMPD_do, "do", std::nullopt},
      {Directive::OMPD_parallel_do_simd, Directive::OMPD_do_simd, "do simd", std::nullopt},
      {Directive::OMPD_parallel_sections, Directive::OMPD_sections, "sections", std::nullopt},
      {Directive::OMPD_parallel_workshare, Directive::OMPD_workshare, "workshare", std::nullopt},
      {Directive::OMPD_parallel_masked, Directive::OMPD_masked, "masked",
       ctc::RegionKind::ParallelMasked},
      {Directive::OMPD_parallel_master, Directive::OMPD_master, "master",
       ctc::RegionKind::ParallelMaster},
  };
  const Split *S = nullptr;
  for (const Split &Candidate : Splits)
    if (Candidate.Combined == C.Kind)
      S = &Candidate;
  const int Level = Levels[inst::eventInfo(Event::Parallel_fork).Group];
  if (!S || !C.Begin || !C.End || !C.BeginClauses ||
      !(inst::eventInfo(Event::Parallel_fork).LevelMask & (1u << Level)))
    return false;
  // Each clause goes to the half the model gives it for the combined
  // construct; an if without a modifier or with `parallel:` to the team.
  const Directive Inner = S->Inner;
  auto ToInner = [Inner](const parser::OmpClause &Clause) {
    if (const auto *If = std::get_if<parser::OmpClause::If>(&Clause.u)) {
      const auto &Modifier =
          std::get<std::optional<parser::OmpIfClause::DirectiveNameModifier>>(If->v.t);
      return Modifier && *Modifier == parser::OmpIfClause::DirectiveNameModifier::Simd;
    }
    return inst::model::splitClauseGoesToWorksharing(clauseKind(Clause), Inner);
  };
  const inst::model::ConstructSpec *Combined = inst::model::specFor(C.Kind);
  const inst::model::ConstructSpec *InnerSpec = inst::model::specFor(Inner);
  if ((!Combined && !S->Kind) || !InnerSpec)
    return false;
  const ctc::RegionKind CombinedKind = Combined ? Combined->Kind : *S->Kind;
  Construct Outer = C;
  Outer.Kind = Directive::OMPD_parallel;
  Outer.Split = Construct::Half::Outer;
  Outer.KindOverride = CombinedKind;
  Outer.Filter = [ToInner](const parser::OmpClause &Clause) { return !ToInner(Clause); };
  Outer.InnerHasBarrier = InnerSpec->ImplicitBarrier;
  Outer.Body = nullptr;
  Outer.Sections = nullptr;
  Construct InnerHalf = C;
  InnerHalf.Kind = Inner;
  InnerHalf.Split = Construct::Half::Inner;
  InnerHalf.Filter = ToInner;
  InnerHalf.InnerSpelling = S->Spelling;
  instrument(Outer);
  instrument(InnerHalf);
  return true;
}

void Instrumenter::instrument(const Construct &C) {
  // `!$pomp` directives before the construct steer it (as `#pragma pomp` in C); a level
  // without `file` applies to this construct only.
  PendingBody.reset();
  if (C.Begin) {
    applyPompDirectives(C.Begin->First);
    PendingBody = std::make_pair(C.Begin->First, C.End ? C.End->Last : C.Begin->Last);
  }
  if (Instrumenting)
    instrumentConstruct(C);
  for (const auto &[Group, Level] : SavedLevels)
    Levels[Group] = Level;
  SavedLevels.clear();
}

void Instrumenter::applyPompDirectives(unsigned BeforeLine) {
  for (; NextPomp < Pomp.Directives.size() && Pomp.Directives[NextPomp].Line < BeforeLine;
       ++NextPomp) {
    const PompLine &P = Pomp.Directives[NextPomp];
    if (!P.Directive)
      continue;
    switch (P.Directive->What) {
    case inst::model::PompDirective::Kind::NoInstrument:
      Instrumenting = false;
      break;
    case inst::model::PompDirective::Kind::Instrument:
      Instrumenting = true;
      break;
    case inst::model::PompDirective::Kind::Level:
      if (!P.Directive->WholeFile)
        SavedLevels.push_back({P.Directive->Group, Levels[P.Directive->Group]});
      Levels[P.Directive->Group] = P.Directive->Level;
      break;
    default:
      break;
    }
  }
}

void Instrumenter::instrumentConstruct(const Construct &C) {
  // Device code calls no host routine: the target construct's warning
  // already says that nothing inside it is instrumented.
  if (TargetDepth > 0)
    return;
  if (C.Split == Construct::Half::None && instrumentSplit(C))
    return;
  // The privates the second walk adds (PrivatizingStack), also to a
  // construct that is not instrumented itself: its body's may be.
  const std::string ExtraPrivate =
      C.Begin && C.Split != Construct::Half::Inner ? extraPrivateClause(C.Begin->First) : "";
  const auto addPrivateAlone = [&] {
    if (!ExtraPrivate.empty() && C.Split == Construct::Half::None)
      addClause(*C.Begin, ExtraPrivate);
  };
  const inst::model::ConstructSpec *Spec = inst::model::specFor(C.Kind);
  if (!Spec) {
    addPrivateAlone();
    // Never silently: a construct the model has no plan for is named.
    if (C.Begin && C.Kind != Directive::OMPD_section && C.Kind != Directive::OMPD_scan)
      Warnings += FileName + ":" + std::to_string(C.Begin->First) + ": warning: OpenMP '" +
                  llvm::omp::getOpenMPDirectiveName(C.Kind).str() +
                  "' construct is not instrumented: the Fortran front end has no plan for it" +
                  (runsOnDevice(C.Kind) ? " (nor for the constructs inside it: device code)" : "") +
                  "\n";
    return;
  }
  if (!C.Begin) {
    Warnings += FileName + ": warning: an OpenMP construct outside the file (included or "
                           "from a macro) is not instrumented\n";
    return;
  }
  ctc::RegionDescriptor R;
  R.Kind = C.KindOverride ? *C.KindOverride : Spec->Kind;
  R.Type = std::string(ctc::regionKindSpelling(R.Kind));
  R.File = C.Begin->PresumedPath.empty() ? FileName : C.Begin->PresumedPath;
  R.StartLines = ctc::LineRange{C.Begin->PresumedFirst, C.Begin->PresumedLast};
  if (C.EndIsLoop)
    R.EndLines = ctc::LineRange{C.End->PresumedLast, C.End->PresumedLast};
  else if (C.End)
    R.EndLines = ctc::LineRange{C.End->PresumedFirst, C.End->PresumedLast};
  else
    R.EndLines = R.StartLines;
  R.Name = C.Name;
  R.Function = enclosingFunction();
  FortranClauses Clauses;
  // The CTC describes every clause; a split half's facts come from its own.
  {
    FortranClauses All;
    readClauses(C.BeginClauses, All, R);
    readClauses(C.EndClauses, All, R);
    if (C.Split == Construct::Half::None)
      Clauses = All;
  }
  if (C.Split != Construct::Half::None) {
    ctc::RegionDescriptor Unused;
    readClauses(C.BeginClauses, Clauses, Unused, C.Filter);
    if (C.Split == Construct::Half::Inner)
      readClauses(C.EndClauses, Clauses, Unused);
  }
  Clauses.Facts.Standalone = C.Standalone;
  if (C.CancelIf) {
    Clauses.If = C.CancelIf;
    Clauses.Facts.HasIf = true;
    R.HasIf = true;
  }
  {
    CancellationVisitor V;
    if (C.Body)
      parser::Walk(*C.Body, V);
    if (C.Sections)
      parser::Walk(*C.Sections, V);
    if (C.Loop)
      parser::Walk(*C.Loop, V);
    Clauses.Facts.ContainsCancellation = V.Found;
  }
  Plan P = inst::model::planConstruct(*Spec, Clauses.Facts, [this](Event E) { return enabled(E); });
  // The worksharing half shows its implicit barrier; the team's join
  // barrier right after it is not shown again (as in C's split).
  if (C.Split == Construct::Half::Outer && C.InnerHasBarrier) {
    P.BlockEnd.erase(
        std::remove_if(P.BlockEnd.begin(), P.BlockEnd.end(),
                       [](const Step &S) { return S.R == inst::model::Region::ImplicitBarrier; }),
        P.BlockEnd.end());
    P.UsesBarrierHandle = false;
  }
  // The worksharing half of a split construct always gets its directive.
  if ((!P.Instrumented && C.Split != Construct::Half::Inner) || UnitStack.empty()) {
    addPrivateAlone();
    return;
  }
  // A construct whose end is unknown cannot get code after it.
  if ((!P.After.empty() || !P.BlockEnd.empty()) && !C.End && !C.Standalone) {
    addPrivateAlone();
    Warnings += FileName + ":" + std::to_string(C.Begin->First) +
                (C.SharedEnd ? ": warning: OpenMP loop construct whose loop ends on the line of an "
                               "enclosing loop (a shared DO termination) is not instrumented\n"
                             : ": warning: OpenMP construct without a known end is not "
                               "instrumented\n");
    return;
  }
  Unit &U = Units[UnitStack.back()];
  unsigned H = 0, B = 0;
  // The enter may take the time of the exit or begin right before it (the
  // split halves are not marked, as in C).
  const bool Whole = C.Split == Construct::Half::None;
  const auto Repeated = RepeatedConstructs.find(C.Begin->First);
  const bool RepeatedByLoop =
      Whole && Repeated != RepeatedConstructs.end() && C.End && !C.EndIsLoop && P.endsWithExit();
  R.AfterConstruct = Whole && P.startsWithEnter() &&
                     (LinesAfterEvents.count(C.Begin->First) != 0 || RepeatedByLoop);
  // The statement after the loop follows the construct's last exit (or,
  // after no iteration, the event before the loop).
  if (RepeatedByLoop)
    LinesAfterEvents.insert(nextSignificantLine(Repeated->second + 1));
  if (Whole && C.End && !C.EndIsLoop && P.blockBeginsWithBegin())
    LinesAfterEvents.insert(nextSignificantLine(C.Begin->Last + 1));
  if (P.Instrumented) {
    U.UsesHandles = true;
    ++Constructs;
    CtcStrings.push_back(ctc::writeDescriptor(R));
    H = static_cast<unsigned>(CtcStrings.size());
  }
  if (P.UsesBarrierHandle) {
    ctc::RegionDescriptor Barrier = R;
    Barrier.Kind = ctc::RegionKind::ImplicitBarrier;
    Barrier.Type = std::string(ctc::regionKindSpelling(Barrier.Kind));
    Barrier.Name.clear();
    Barrier.AfterConstruct = false;
    CtcStrings.push_back(ctc::writeDescriptor(Barrier));
    B = static_cast<unsigned>(CtcStrings.size());
  }

  const bool TidAvailable = ThreadIdStack.back();
  std::string Context, If = "-1", NumThreads = "-1";
  std::vector<std::string> Prologue; // statements before the Before steps
  if (P.ContextName) {
    Context = std::string("pomp_") + P.ContextName + "_" + std::to_string(H);
    U.Locals.push_back("integer(kind=8) " + Context);
    notePrivate(Context);
  }
  // An argument continued over lines cannot be replaced in place: the
  // directive is rebuilt with the variables (as the split's parallel half is),
  // so that the argument is evaluated once, before the directive.
  bool Rebuild = false;
  auto evaluate = [&](const parser::CharBlock &Source, const std::string &Variable,
                      const std::string &Value, const std::string &ClauseText) {
    const auto S = span(Source);
    U.Locals.push_back("integer(kind=4) " + Variable);
    notePrivate(Variable);
    Prologue.push_back(Variable + " = " + Value);
    const bool CanRebuild = C.Split == Construct::Half::None && C.BeginClauses && !C.CancelIf;
    if ((!S || S->First != S->Last) && CanRebuild)
      Rebuild = true;
    if (S && S->First == S->Last && C.Split != Construct::Half::Outer) {
      const std::size_t Begin = lineStart(S->First);
      const auto Range = Parsing.allCooked().GetSourcePositionRange(Source);
      const std::size_t From = Begin + static_cast<std::size_t>(Range->first.column) - 1;
      // A variable longer than the argument may push the line past its
      // last column (fixed form: 72): then the directive is rebuilt.
      const std::size_t Grown = lineText(S->First).size() + ClauseText.size();
      if (CanRebuild &&
          Grown > (Fixed ? FixedFormColumns : FreeFormColumns) + (S->EndOffset - From))
        Rebuild = true;
      else
        InlineEdits.push_back({From, S->EndOffset - From, ClauseText});
    }
  };
  if (P.EvaluateIf && Clauses.If) {
    const auto Source = sourceOf(*Clauses.If);
    const std::string Var = "pomp_if_" + std::to_string(H);
    if (Source) {
      const std::string Original(Source->begin(), Source->size());
      evaluate(*Source, Var, "merge(1, 0, " + Original + ")", Var + " .ne. 0");
      If = Var;
    }
  }
  if (P.EvaluateNumThreads && Clauses.NumThreads) {
    const auto Source = sourceOf(*Clauses.NumThreads);
    const std::string Var = "pomp_num_threads_" + std::to_string(H);
    if (Source) {
      const std::string Original(Source->begin(), Source->size());
      evaluate(*Source, Var, Original, Var);
      NumThreads = Var;
    }
  }

  // Loop run-time context: the DO statement's bounds where they may be
  // evaluated again.
  std::string Chunk = "-1_8", Init = "0_8", Final = "0_8", Incr = "0_8";
  if (Clauses.Chunk && reEvaluable(*Clauses.Chunk))
    if (const auto S = sourceOf(*Clauses.Chunk))
      Chunk = "int(" + std::string(S->begin(), S->size()) + ", 8)";
  if (C.Loop)
    if (const auto &Control = C.Loop->GetLoopControl())
      if (const auto *Bounds = std::get_if<parser::LoopControl::Bounds>(&Control->u)) {
        auto text = [](const auto &E) {
          const auto S = sourceOf(E);
          return "int(" + std::string(S->begin(), S->size()) + ", 8)";
        };
        if (reEvaluable(Bounds->lower) && sourceOf(Bounds->lower))
          Init = text(Bounds->lower);
        if (reEvaluable(Bounds->upper) && sourceOf(Bounds->upper))
          Final = text(Bounds->upper);
        if (!Bounds->step)
          Incr = "1_8";
        else if (reEvaluable(*Bounds->step) && sourceOf(*Bounds->step))
          Incr = text(*Bounds->step);
      }

  unsigned Section = 0;
  auto arg = [&](Arg A, inst::model::Region Region) -> std::string {
    const unsigned Handle = Region == inst::model::Region::Construct ? H : B;
    switch (A) {
    case Arg::HandleFirst:
    case Arg::Handle:
      return handleinit::fortranHandle(Handle);
    case Arg::ThreadId:
      if (!TidAvailable || !Opts.ThreadIds)
        return "-1";
      U.UsesThreadId = true;
      return "pomp_tid()";
    case Arg::TeamThreadId:
      if (!Opts.ThreadIds)
        return "-1";
      U.UsesThreadId = true;
      return "pomp_tid()";
    case Arg::NotAvailable:
      return "-1";
    case Arg::If:
      return If;
    case Arg::NumThreads:
      return NumThreads;
    case Arg::ContextOut:
    case Arg::Context:
      return Context;
    case Arg::Ctc:
      return handleinit::fortranStringLiteral(CtcStrings[Handle - 1]);
    case Arg::SectionNumber:
      return std::to_string(Section);
    case Arg::ChunkSize:
      return Chunk;
    case Arg::InitIter:
      return Init;
    case Arg::FinalIter:
      return Final;
    case Arg::Increment:
      return Incr;
    case Arg::Device:
      // The device clause's number where reading it again is harmless (as in C).
      if (Clauses.Device && reEvaluable(*Clauses.Device))
        if (const auto S = sourceOf(*Clauses.Device))
          return "int(" + std::string(S->begin(), S->size()) + ", 4)";
      return "-1";
    }
    return "-1";
  };
  auto lines = [&](const std::vector<Step> &Steps, unsigned Near) {
    std::vector<std::string> Out;
    for (const Step &S : Steps) {
      std::vector<std::string> L;
      if (S.K == Step::Kind::BarrierDirective) {
        L = directiveLines("!$omp barrier", Near);
      } else {
        std::string Call = "call " + std::string(inst::eventInfo(S.E).Routine) + "(";
        for (std::size_t I = 0; I < S.Args.size(); ++I)
          Call += (I ? ", " : "") + arg(S.Args[I], S.R);
        L = statementLines(Call + ")", Near);
      }
      Out.insert(Out.end(), L.begin(), L.end());
    }
    return Out;
  };

  const int Key = 2 * (Depth + (C.Split == Construct::Half::Inner ? 1 : 0));
  const unsigned BeginLine = C.Begin->First;
  // Before the directive: helper values, then the steps.
  {
    std::vector<std::string> Before;
    for (const std::string &S : Prologue) {
      const auto L = statementLines(S, BeginLine);
      Before.insert(Before.end(), L.begin(), L.end());
    }
    const auto L = lines(P.Before, BeginLine);
    Before.insert(Before.end(), L.begin(), L.end());
    if (C.Split == Construct::Half::Inner) {
      // The worksharing half's directive follows its Before code, after
      // the parallel half's block begin.
      std::string Directive = "!$omp " + C.InnerSpelling;
      for (const parser::OmpClause &Clause : C.BeginClauses->v)
        if (C.Filter(Clause))
          appendClauseOnce(Directive, Clause.source.ToString());
      const auto D = directiveLines(Directive, BeginLine);
      Before.insert(Before.end(), D.begin(), D.end());
      insert(C.Begin->Last + 1, false, Key, std::move(Before));
    } else if (!Before.empty()) {
      insert(BeginLine, false, Key, std::move(Before));
    }
  }
  if (C.Split == Construct::Half::Outer) {
    // The directive's lines become the parallel half's directive.
    std::string Directive = "!$omp parallel";
    for (const parser::OmpClause &Clause : C.BeginClauses->v) {
      if (!C.Filter(Clause))
        continue;
      const llvm::omp::Clause Kind = clauseKind(Clause);
      if (Kind == llvm::omp::Clause::OMPC_if && If != "-1")
        Directive += " if(" + If + " .ne. 0)";
      else if (Kind == llvm::omp::Clause::OMPC_num_threads && NumThreads != "-1")
        Directive += " num_threads(" + NumThreads + ")";
      else
        appendClauseOnce(Directive, Clause.source.ToString());
    }
    if (P.ContextFirstprivate)
      Directive += " firstprivate(" + Context + ")";
    if (!ExtraPrivate.empty())
      Directive += " " + ExtraPrivate;
    if (Clauses.HasDefault) {
      Directive += " shared(/" + std::string(CommonPlaceholder) + "/)";
      // Under default(none|private|firstprivate) what the worksharing half
      // reduces or copies in or out must be shared by the team (as in C).
      ObjectNames Moved;
      for (const parser::OmpClause &Clause : C.BeginClauses->v) {
        const llvm::omp::Clause Kind = clauseKind(Clause);
        if (!C.Filter(Clause) && (Kind == llvm::omp::Clause::OMPC_reduction ||
                                  Kind == llvm::omp::Clause::OMPC_lastprivate ||
                                  Kind == llvm::omp::Clause::OMPC_linear ||
                                  Kind == llvm::omp::Clause::OMPC_firstprivate))
          parser::Walk(Clause, Moved);
      }
      if (!Moved.Names.empty() && !Clauses.DefaultShared) {
        std::string List;
        for (const std::string &N : Moved.Names)
          List += (List.empty() ? "" : ", ") + N;
        Directive += " shared(" + List + ")";
      }
    }
    replaceLines(C.Begin->First, C.Begin->Last, directiveLines(Directive, BeginLine));
  }
  // Clauses added to the directive (or to the directive rebuilt).
  std::vector<std::string> Added;
  if (P.ContextFirstprivate && C.Split == Construct::Half::None)
    Added.push_back("firstprivate(" + Context + ")");
  if (!ExtraPrivate.empty() && C.Split == Construct::Half::None)
    Added.push_back(ExtraPrivate);
  if (Clauses.HasDefault && C.Split == Construct::Half::None &&
      (P.ContextFirstprivate || P.hasBlockCode()))
    Added.push_back("shared(/" + std::string(CommonPlaceholder) + "/)");
  if (Rebuild) {
    std::string Directive = "!$omp " + llvm::omp::getOpenMPDirectiveName(C.Kind).str();
    for (const parser::OmpClause &Clause : C.BeginClauses->v) {
      const auto *IfClause = std::get_if<parser::OmpClause::If>(&Clause.u);
      const auto *NumThreadsClause = std::get_if<parser::OmpClause::NumThreads>(&Clause.u);
      if (IfClause && If != "-1" &&
          &std::get<parser::ScalarLogicalExpr>(IfClause->v.t) == Clauses.If)
        Directive += " if(" + If + " .ne. 0)";
      else if (NumThreadsClause && NumThreads != "-1" && &NumThreadsClause->v == Clauses.NumThreads)
        Directive += " num_threads(" + NumThreads + ")";
      else
        Directive += " " + Clause.source.ToString();
    }
    for (const std::string &A : Added)
      Directive += " " + A;
    if (Fixed) {
      // Fixed form: the directive name, then one continuation line per clause, each within
      // column 72.
      std::vector<std::string> Lines{"!$omp " + llvm::omp::getOpenMPDirectiveName(C.Kind).str()};
      std::size_t At = Lines.front().size();
      while (At < Directive.size()) {
        std::size_t Next = Directive.find(' ', At + 1);
        // A clause's text has blanks of its own: break only before a clause name.
        while (Next != std::string::npos && Next + 1 < Directive.size() &&
               !std::isalpha(static_cast<unsigned char>(Directive[Next + 1])))
          Next = Directive.find(' ', Next + 1);
        Lines.push_back("!$omp&" + Directive.substr(At, Next == std::string::npos
                                                            ? std::string::npos
                                                            : Next - At));
        At = Next == std::string::npos ? Directive.size() : Next;
      }
      replaceLines(C.Begin->First, C.Begin->Last, Lines);
    } else {
      replaceLines(C.Begin->First, C.Begin->Last, directiveLines(Directive, BeginLine));
    }
  } else {
    for (const std::string &A : Added)
      addClause(*C.Begin, A);
  }
  // Block begin and end.
  if (C.Split == Construct::Half::Outer && C.End) {
    // Block end after the worksharing half's end, then the team's end.
    insert(C.Begin->Last + 1, false, Key + 1, lines(P.BlockBegin, C.Begin->Last + 1));
    auto End = lines(P.BlockEnd, C.End->Last);
    const auto D = directiveLines("!$omp end parallel", C.End->Last);
    End.insert(End.end(), D.begin(), D.end());
    insert(C.End->Last + 1, true, Key + 1, std::move(End));
  } else if (P.hasBlockCode() && C.End && C.Begin->Last + 1 == C.End->First) {
    // An empty body: its begin and end code at one boundary, in this order
    // (apart, the end would close before the begin opens).
    auto Both = lines(P.BlockBegin, C.End->First);
    const auto End = lines(P.BlockEnd, C.End->First);
    Both.insert(Both.end(), End.begin(), End.end());
    insert(C.End->First, false, Key + 1, std::move(Both));
  } else if (P.hasBlockCode() && C.End) {
    insert(C.Begin->Last + 1, false, Key + 1, lines(P.BlockBegin, C.Begin->Last + 1));
    insert(C.End->First, true, Key + 1, lines(P.BlockEnd, C.End->First));
  }
  // Sections: begin and end in every section block.
  if (!P.SectionBegin.empty() && C.Sections) {
    for (const parser::OpenMPConstruct &S : C.Sections->v) {
      const auto *Sec = std::get_if<parser::OpenMPSectionConstruct>(&S.u);
      if (!Sec)
        continue;
      ++Section;
      const auto Lines = extent(Sec->v);
      if (!Lines)
        continue;
      insert(Lines->First, false, Key + 1, lines(P.SectionBegin, Lines->First));
      insert(Lines->Last + 1, true, Key + 1, lines(P.SectionEnd, Lines->Last));
    }
  }
  // nowait: on the end directive, or on an `end do` added after the loop.
  std::vector<std::string> After;
  if (C.Split == Construct::Half::Inner && C.End && !C.EndIsLoop) {
    // `end parallel do` becomes the worksharing half's end.
    replaceLines(C.End->First, C.End->Last,
                 directiveLines("!$omp end " + C.InnerSpelling + (P.AddNowait ? " nowait" : ""),
                                C.End->First));
  } else if (P.AddNowait) {
    if (C.EndIsLoop) {
      std::string EndName = C.Kind == Directive::OMPD_do_simd ? "end do simd" : "end do";
      const auto L = directiveLines("!$omp " + EndName + " nowait", C.End->Last);
      After.insert(After.end(), L.begin(), L.end());
    } else if (C.End) {
      addClause(*C.End, "nowait");
    }
  }
  {
    const unsigned AfterLine = C.End ? C.End->Last + 1 : C.Begin->Last + 1;
    const auto L = lines(P.After, AfterLine - 1);
    After.insert(After.end(), L.begin(), L.end());
    if (!After.empty())
      insert(AfterLine, true, Key, std::move(After));
    if (Whole && C.End && !C.EndIsLoop && P.endsWithExit())
      LinesAfterEvents.insert(nextSignificantLine(C.End->Last + 1));
  }
}

std::string Instrumenter::labelLine(parser::Label Label, const std::string &Indent) const {
  const std::string L = std::to_string(Label);
  if (Fixed)
    return std::string(FixedSentinelColumns > L.size() ? FixedSentinelColumns - L.size() : 0, ' ') +
           L + " continue";
  return Indent + L + " continue";
}

void Instrumenter::removeLabel(unsigned Line) {
  const std::size_t Begin = lineStart(Line);
  std::size_t At = Begin;
  while (At < Text.size() && (Text[At] == ' ' || Text[At] == '\t'))
    ++At;
  std::size_t End = At;
  while (End < Text.size() && std::isdigit(static_cast<unsigned char>(Text[End])))
    ++End;
  if (End > At)
    InlineEdits.push_back({At, End - At, std::string(End - At, ' ')});
}

template <typename U, typename E>
void Instrumenter::functionRegion(const U &X, parser::CharBlock HeaderSource,
                                  const std::string &Name,
                                  const std::list<parser::PrefixSpec> *Prefixes,
                                  const parser::Statement<E> &End) {
  if (!FunctionFilter || UnitStack.empty())
    return;
  std::string Group;
  for (const std::string &S : Scopes)
    Group += (Group.empty() ? "" : "::") + S;
  const std::string Qualified = Group.empty() ? Name : Group + "::" + Name;
  if (!FunctionFilter->match(Qualified) || (FunctionExclude && FunctionExclude->match(Qualified)))
    return;
  const std::optional<Span> Header = span(HeaderSource);
  const std::optional<Span> EndLines = span(End.source);
  // Never silently: a procedure the filter selects but that is left alone is named.
  auto skip = [&](unsigned Line, const std::string &Why) {
    Warnings += FileName + ":" + std::to_string(Line) + ": warning: procedure '" + Qualified +
                "' is not instrumented (--functions): " + Why + "\n";
  };
  if (!Header || !EndLines) {
    Warnings += FileName + ": warning: procedure '" + Qualified +
                "' is not instrumented (--functions): it is not in the file itself (an "
                "INCLUDE file or a macro)\n";
    return;
  }
  if (!Prefixes) {
    skip(Header->First, "a separate module procedure ('module procedure') takes its "
                        "characteristics, pure or not, from its interface");
    return;
  }
  bool Pure = false, Elemental = false, Impure = false;
  for (const parser::PrefixSpec &P : *Prefixes) {
    Pure = Pure || std::holds_alternative<parser::PrefixSpec::Pure>(P.u);
    Elemental = Elemental || std::holds_alternative<parser::PrefixSpec::Elemental>(P.u);
    Impure = Impure || std::holds_alternative<parser::PrefixSpec::Impure>(P.u);
  }
  if ((Pure || Elemental) && !Impure) {
    skip(Header->First, std::string(Pure ? "it is pure" : "it is elemental, so pure") +
                            " (a pure procedure may call no impure one)");
    return;
  }
  {
    ProcedureBlockers Blockers;
    parser::Walk(std::get<parser::SpecificationPart>(X.t), Blockers);
    parser::Walk(std::get<parser::ExecutionPart>(X.t), Blockers);
    if (Blockers.Reason) {
      skip(Header->First, Blockers.Reason);
      return;
    }
  }
  const Plan P = inst::model::planFunction([this](Event Ev) { return enabled(Ev); });
  if (!P.Instrumented)
    return;
  Unit &Un = Units[UnitStack.back()];
  const unsigned H = static_cast<unsigned>(CtcStrings.size()) + 1;
  const std::string Variable = "pomp_fret_" + std::to_string(H);
  auto calls = [&](const std::vector<Step> &Steps) {
    std::vector<std::string> Out;
    for (const Step &S : Steps) {
      std::string Call = "call " + std::string(inst::eventInfo(S.E).Routine) + "(";
      for (std::size_t I = 0; I < S.Args.size(); ++I) {
        std::string A;
        switch (S.Args[I]) {
        case Arg::HandleFirst:
        case Arg::Handle:
          A = handleinit::fortranHandle(H);
          break;
        case Arg::Ctc:
          A = handleinit::fortranStringLiteral(CtcStrings[H - 1]);
          break;
        case Arg::ThreadId:
        case Arg::TeamThreadId:
          A = Opts.ThreadIds ? "pomp_tid()" : "-1";
          break;
        default:
          A = "-1";
          break;
        }
        Call += (I ? ", " : "") + A;
      }
      Out.push_back(Call + ")");
    }
    return Out;
  };

  // Every way out is decided before anything is emitted: the procedure is
  // instrumented whole or not at all.
  struct Placed {
    unsigned Line;
    std::vector<std::string> Statements; ///< lines of their own before the line
    std::optional<parser::Label> MovedLabel;
    std::optional<InlineEdit> Edit; ///< in the line: the calls, or the IF's condition
  };
  std::vector<Placed> Places;
  bool UsesVariable = false;
  /// The label of the Function_end before the end statement, which the
  /// returns of labelled IF statements jump to (the largest label unused).
  constexpr parser::Label MaxLabel = 99999;
  std::optional<parser::Label> ExitLabel;
  if (!P.BlockEnd.empty()) {
    ProcedureExits Exits;
    parser::Walk(std::get<parser::ExecutionPart>(X.t), Exits);
    {
      // FORMAT statements of the specification part and the end statement have labels too.
      ProcedureExits Specification;
      parser::Walk(std::get<parser::SpecificationPart>(X.t), Specification);
      Exits.Labels.insert(Specification.Labels.begin(), Specification.Labels.end());
      if (End.label)
        Exits.Labels.insert(*End.label);
    }
    for (const ProcedureExits::Exit &Ex : Exits.Exits) {
      const std::optional<Span> S = span(Ex.Statement->source);
      if (!S) {
        skip(Header->First, "a way out of it is not in the file itself (an INCLUDE file or a "
                            "macro)");
        return;
      }
      const auto Range = Parsing.allCooked().GetSourcePositionRange(Ex.Statement->source);
      const std::size_t Start =
          lineStart(S->First) + static_cast<std::size_t>(Range->first.column) - 1;
      // First on its line: only blanks and its label before it.
      bool First = true;
      for (std::size_t I = lineStart(S->First); I < Start && First; ++I)
        First =
            Text[I] == ' ' || Text[I] == '\t' || std::isdigit(static_cast<unsigned char>(Text[I]));
      std::string Condition;
      bool Reevaluable = true;
      std::optional<Span> ConditionLines;
      parser::CharBlock ConditionSource;
      if (Ex.Condition) {
        const auto Source = sourceOf(*Ex.Condition);
        if (!Source) {
          skip(S->First, "the condition of the IF statement that leaves it cannot be read");
          return;
        }
        ConditionSource = *Source;
        Condition = Source->ToString();
        Reevaluable = reEvaluable(*Ex.Condition);
        ConditionLines = span(*Source);
      }
      Placed Pl;
      Pl.Line = S->First;
      const std::vector<std::string> Ends = calls(P.BlockEnd);
      if (!First) {
        // After another statement on the line (`x = 1; return`): the calls go in the line.
        if (!Reevaluable) {
          skip(S->First, "an IF statement that leaves it after another statement on its line "
                         "has a condition with function references (it cannot be evaluated "
                         "twice)");
          return;
        }
        std::string Inline;
        for (const std::string &C : Ends)
          Inline += (Ex.Condition ? "if (" + Condition + ") " : std::string()) + C + "; ";
        const std::size_t Limit = Fixed ? FixedFormColumns : FreeFormColumns;
        if (lineText(S->First).size() + Inline.size() > Limit) {
          skip(S->First, "the line that leaves it would pass column " + std::to_string(Limit) +
                             " with Function_end added to it");
          return;
        }
        Pl.Edit = InlineEdit{Start, 0, Inline};
      } else if (Ex.Condition) {
        if (Ex.Statement->label) {
          // Moving the label would change which statement ends a DO loop or is jumped to:
          // the `return` becomes a jump to the Function_end before the end statement.
          const std::optional<Span> InnerLines = span(Ex.Inner->source);
          if (!Ex.PlainReturn || !InnerLines || InnerLines->First != InnerLines->Last) {
            skip(S->First, "a labelled IF statement leaves it by stop or an alternate return");
            return;
          }
          if (!ExitLabel) {
            parser::Label L = MaxLabel;
            while (L > 0 && Exits.Labels.count(L))
              --L;
            ExitLabel = L;
          }
          const auto IRange = Parsing.allCooked().GetSourcePositionRange(Ex.Inner->source);
          const std::size_t From =
              lineStart(InnerLines->First) + static_cast<std::size_t>(IRange->first.column) - 1;
          const std::string Jump = "goto " + std::to_string(*ExitLabel);
          const std::size_t Limit = Fixed ? FixedFormColumns : FreeFormColumns;
          if (lineText(InnerLines->First).size() + Jump.size() - (InnerLines->EndOffset - From) >
              Limit) {
            skip(S->First, "the labelled IF statement that leaves it would pass column " +
                               std::to_string(Limit) + " as a jump to Function_end");
            return;
          }
          Pl.Edit = InlineEdit{From, InnerLines->EndOffset - From, Jump};
        } else if (Reevaluable) {
          for (const std::string &C : Ends)
            Pl.Statements.push_back("if (" + Condition + ") " + C);
        } else if (ConditionLines && ConditionLines->First == ConditionLines->Last) {
          // Evaluated once, into a variable that the IF statement then tests.
          UsesVariable = true;
          Pl.Statements.push_back(Variable + " = " + Condition);
          for (const std::string &C : Ends)
            Pl.Statements.push_back("if (" + Variable + ") " + C);
          const auto CRange = Parsing.allCooked().GetSourcePositionRange(ConditionSource);
          const std::size_t From =
              lineStart(ConditionLines->First) + static_cast<std::size_t>(CRange->first.column) - 1;
          Pl.Edit = InlineEdit{From, ConditionLines->EndOffset - From, Variable};
        } else {
          skip(S->First, "the condition of an IF statement that leaves it has function "
                         "references and is continued over lines");
          return;
        }
      } else {
        // A plain return or stop: a jump to its label must reach the calls first.
        Pl.MovedLabel = Ex.Statement->label;
        Pl.Statements = Ends;
      }
      Places.push_back(std::move(Pl));
    }
  }

  ctc::RegionDescriptor R;
  R.Kind = P.Kind;
  R.Type = std::string(ctc::regionKindSpelling(R.Kind));
  R.Name = Name;
  R.Group = Group;
  R.File = Header->PresumedPath.empty() ? FileName : Header->PresumedPath;
  R.StartLines = ctc::LineRange{Header->PresumedFirst, Header->PresumedLast};
  R.EndLines = ctc::LineRange{EndLines->PresumedFirst, EndLines->PresumedLast};
  CtcStrings.push_back(ctc::writeDescriptor(R));
  Un.UsesHandles = true;
  Un.UsesThreadId = Un.UsesThreadId || Opts.ThreadIds;
  if (UsesVariable)
    Un.Locals.push_back("logical " + Variable);

  // In the procedure's indentation (free form), wherever they go.
  auto format = [&](const std::vector<std::string> &Statements) {
    std::vector<std::string> Lines;
    for (const std::string &St : Statements) {
      const auto L = formatStatement(St, Fixed, Fixed ? "" : Un.Indent);
      Lines.insert(Lines.end(), L.begin(), L.end());
    }
    return Lines;
  };
  // Begin first in the execution part (after the unit's declarations); the
  // end before the end statement (or `contains`), after whatever closes there.
  std::vector<std::string> Begin = format(calls(P.BlockBegin));
  std::vector<std::string> EndCode;
  if (End.label) {
    EndCode.push_back(labelLine(*End.label, Un.Indent));
    removeLabel(EndLines->First);
  }
  auto EndCalls = format(calls(P.BlockEnd));
  if (ExitLabel && !EndCalls.empty()) {
    // The first end call carries the label the jumps go to.
    const std::string L = std::to_string(*ExitLabel);
    std::string &First = EndCalls.front();
    if (Fixed)
      First.replace(0, L.size(), L);
    else
      First = Un.Indent + L + " " + First.substr(Un.Indent.size());
  }
  EndCode.insert(EndCode.end(), EndCalls.begin(), EndCalls.end());
  if (Un.DeclarationBoundary >= Un.ExecutionEnd) {
    // No execution part: begin and end in one block.
    Begin.insert(Begin.end(), EndCode.begin(), EndCode.end());
    insert(Un.ExecutionEnd, /*Close=*/false, -1, std::move(Begin));
  } else {
    insert(Un.DeclarationBoundary, /*Close=*/false, -1, std::move(Begin));
    if (!EndCode.empty())
      insert(Un.ExecutionEnd, /*Close=*/true, -1, std::move(EndCode));
  }
  for (Placed &Pl : Places) {
    std::vector<std::string> Lines;
    if (Pl.MovedLabel) {
      Lines.push_back(labelLine(*Pl.MovedLabel, Un.Indent));
      removeLabel(Pl.Line);
    }
    const auto L = format(Pl.Statements);
    Lines.insert(Lines.end(), L.begin(), L.end());
    if (!Lines.empty())
      insert(Pl.Line, /*Close=*/false, -1, std::move(Lines));
    if (Pl.Edit)
      InlineEdits.push_back(*Pl.Edit);
  }
  ++Functions;
}

void Instrumenter::apiCallSite(const parser::Call &Call, bool Function) {
  const auto *Name = std::get_if<parser::Name>(&std::get<parser::ProcedureDesignator>(Call.t).u);
  if (!Name || InClauses > 0 || UnitStack.empty())
    return;
  const inst::model::WrappedRoutine *R = inst::model::findApiRoutine(Name->ToString());
  if (!R)
    return;
  if (const auto S = span(Name->source))
    applyPompDirectives(S->First);
  if (!Instrumenting ||
      !inst::model::apiCallInstrumented(*R, [this](Event E) { return enabled(E); }))
    return;
  ApiSites.push_back({R, Name->source, Function,
                      !std::get<std::list<parser::ActualArgSpec>>(Call.t).empty(), UnitStack.back(),
                      enclosingFunction()});
}

void Instrumenter::apiCalls() {
  std::map<unsigned, std::size_t> Growth; // per line: characters added
  for (const ApiCallSite &Site : ApiSites) {
    if (Defined.count(std::string(Site.Routine->Name)))
      continue; // the file's own procedure of that name
    const auto Range = Parsing.allCooked().GetSourcePositionRange(Site.Name);
    if (!Range || &*Range->first.sourceFile != &Main)
      continue;
    const unsigned Line = static_cast<unsigned>(Range->first.trueLineNumber);
    const std::size_t At = lineStart(Line) + static_cast<std::size_t>(Range->first.column) - 1;
    // The name as written (not from a macro, not split over lines).
    const std::string_view Routine = Site.Routine->Name;
    if (At + Routine.size() > Text.size())
      continue;
    bool Same = true;
    for (std::size_t I = 0; I < Routine.size() && Same; ++I)
      Same = std::tolower(static_cast<unsigned char>(Text[At + I])) == Routine[I];
    if (!Same)
      continue;
    std::size_t Paren = At + Routine.size();
    while (Paren < Text.size() && (Text[Paren] == ' ' || Text[Paren] == '\t'))
      ++Paren;
    const bool HasParen = Paren < Text.size() && Text[Paren] == '(';
    const std::string Wrapper =
        inst::model::apiWrapperName(*Site.Routine, [this](Event E) { return enabled(E); });
    std::string Replacement = Wrapper;
    unsigned H = 0;
    if (!Site.Routine->Always) {
      ctc::RegionDescriptor D;
      D.Kind = ctc::RegionKind::ApiCall;
      D.Type = std::string(ctc::regionKindSpelling(D.Kind));
      D.Name = std::string(Routine);
      D.Function = Site.EnclosingFunction;
      const parser::SourcePosition Pos = Main.GetSourcePosition(lineStart(Line));
      const std::string Presumed = presumedPath(Pos);
      D.File = Presumed.empty() ? FileName : Presumed;
      D.StartLines =
          ctc::LineRange{static_cast<unsigned>(Pos.line), static_cast<unsigned>(Pos.line)};
      D.EndLines = D.StartLines;
      H = static_cast<unsigned>(CtcStrings.size()) + 1;
      Replacement += "(" + handleinit::fortranHandle(H) + ", pomp_c" + std::to_string(H) +
                     (Site.HasArguments ? ", " : "");
      if (!HasParen)
        Replacement += ")";
      const std::size_t Length = HasParen ? Paren + 1 - At : Routine.size();
      const std::size_t Limit = Fixed ? FixedFormColumns : FreeFormColumns;
      std::size_t &Grown = Growth[Line];
      if (lineText(Line).size() + Grown + Replacement.size() - Length > Limit) {
        Warnings += FileName + ":" + std::to_string(Line) + ": warning: call of '" +
                    std::string(Routine) +
                    "' is not instrumented: its wrapper does not fit in the line\n";
        continue;
      }
      Grown += Replacement.size() - Length;
      CtcStrings.push_back(ctc::writeDescriptor(D));
      InlineEdits.push_back({At, Length, Replacement});
    } else {
      InlineEdits.push_back({At, Routine.size(), Wrapper});
    }
    Unit &U = Units[Site.Unit];
    if (H) {
      U.UsesHandles = true;
      U.Locals.push_back("character(len=*), parameter :: pomp_c" + std::to_string(H) + " = " +
                         handleinit::fortranStringLiteral(CtcStrings[H - 1]));
    }
    if (Site.Function && !Site.Routine->FortranResult.empty()) {
      const std::string Declaration = std::string(Site.Routine->FortranResult) + " " + Wrapper;
      if (std::find(U.Locals.begin(), U.Locals.end(), Declaration) == U.Locals.end())
        U.Locals.push_back(Declaration);
    }
  }
}

bool Instrumenter::threadIdAvailableAt(unsigned Line) const {
  // Bodies nest: the innermost holding the line started last.
  const BodyLines *Inner = nullptr;
  for (const BodyLines &B : Bodies)
    if (B.First <= Line && Line <= B.Last && (!Inner || B.First >= Inner->First))
      Inner = &B;
  return Inner ? Inner->ThreadIdAvailable : ThreadIdStack.front();
}

Unit *Instrumenter::unitAt(unsigned Line) {
  Unit *Inner = nullptr;
  for (Unit &U : Units)
    if (U.FirstLine <= Line && Line < U.ExecutionEnd && (!Inner || U.FirstLine >= Inner->FirstLine))
      Inner = &U;
  // Inside a unit but before its execution part (or after it, in a host's
  // internal subprograms' part): no statement may go there.
  if (Inner && Line < Inner->DeclarationBoundary)
    return nullptr;
  return Inner;
}

bool Instrumenter::pompDirectives(std::string &Errors) {
  using Kind = inst::model::PompDirective::Kind;
  auto error = [&](unsigned Line, const std::string &Message) {
    Errors += FileName + ":" + std::to_string(Line) + ": error: " + Message + "\n";
  };
  inst::model::UserRegionMatcher Regions(/*CaseInsensitive=*/true);
  for (std::size_t I = 0; I < Pomp.Directives.size(); ++I) {
    const PompLine &P = Pomp.Directives[I];
    if (!P.Directive) {
      error(P.Line, "malformed '!$pomp' directive: " + P.Error);
      continue;
    }
    const inst::model::PompDirective &D = *P.Directive;
    const inst::model::PompDirectivePlan Plan =
        inst::model::planPompDirective(D.What, [this](Event E) { return enabled(E); });
    if (!Plan.ControlRoutine && !Plan.NewHandle && D.What != Kind::RegionEnd &&
        D.What != Kind::RegionAltEnd)
      continue; // a level or noinstrument/instrument: applied by the walk
    Unit *U = unitAt(P.Line);
    if (!U) {
      error(P.Line, "'!$pomp' directive outside the execution part of a program unit: it "
                    "becomes a call statement");
      continue;
    }
    unsigned H = 0;
    if (Plan.NewHandle) {
      ctc::RegionDescriptor R;
      R.Kind = ctc::RegionKind::UserRegion;
      R.Type = std::string(ctc::regionKindSpelling(R.Kind));
      R.Name = D.Name;
      const parser::SourcePosition At = Main.GetSourcePosition(lineStart(P.Line));
      const std::string Presumed = presumedPath(At);
      R.File = Presumed.empty() ? FileName : Presumed;
      const unsigned Line = static_cast<unsigned>(At.line);
      R.StartLines = ctc::LineRange{Line, Line};
      R.EndLines = R.StartLines;
      CtcStrings.push_back(ctc::writeDescriptor(R));
      H = static_cast<unsigned>(CtcStrings.size());
      if (D.What == Kind::RegionBegin)
        Regions.begin(D.Name, H, I);
    } else if (D.What == Kind::RegionEnd || D.What == Kind::RegionAltEnd) {
      std::string Message;
      const std::optional<unsigned> Begin = Regions.end(D, Message);
      if (!Begin) {
        error(P.Line, Message);
        continue;
      }
      H = *Begin;
    }
    std::vector<std::string> Statements;
    if (Plan.ControlRoutine)
      Statements.push_back("call " + std::string(Plan.ControlRoutine) + "()");
    const bool Tid = Opts.ThreadIds && threadIdAvailableAt(P.Line);
    for (const Step &S : Plan.Steps) {
      std::string Call = "call " + std::string(inst::eventInfo(S.E).Routine) + "(";
      for (std::size_t A = 0; A < S.Args.size(); ++A) {
        std::string Value;
        switch (S.Args[A]) {
        case Arg::HandleFirst:
        case Arg::Handle:
          U->UsesHandles = true;
          Value = handleinit::fortranHandle(H);
          break;
        case Arg::Ctc:
          Value = handleinit::fortranStringLiteral(CtcStrings[H - 1]);
          break;
        default:
          U->UsesThreadId = U->UsesThreadId || Tid;
          Value = Tid ? "pomp_tid()" : "-1";
          break;
        }
        Call += (A ? ", " : "") + Value;
      }
      Statements.push_back(Call + ")");
    }
    // After the directive, which stays as a comment; before whatever the
    // next line opens or closes.
    std::vector<std::string> Lines;
    for (const std::string &S : Statements) {
      const auto L = statementLines(S, P.Line);
      Lines.insert(Lines.end(), L.begin(), L.end());
    }
    if (!Lines.empty())
      insert(P.Line + 1, /*Close=*/true, PompDirectiveDepth, std::move(Lines));
  }
  for (const inst::model::UserRegionMatcher::Open &R : Regions.unclosed())
    error(Pomp.Directives[R.Where].Line, "user region '" + R.Name + "' is never ended");
  // `!P$` lines become Fortran lines: the sentinel becomes three blanks.
  for (const ConditionalSentinel &S : Pomp.Sentinels)
    InlineEdits.push_back({lineStart(S.Line) + S.Column, 3, "   "});
  return Errors.empty();
}

std::string Instrumenter::finish() {
  const std::string FileId = handleinit::makeFileId(FileName, [&] {
    std::string Salt;
    for (const std::string &S : CtcStrings)
      Salt += S;
    return Salt;
  }());
  const std::string Common = handleinit::fortranCommonBlock(FileId);
  const unsigned Count = static_cast<unsigned>(CtcStrings.size());

  // Declarations of every unit that uses handles.
  for (const Unit &U : Units) {
    if (!U.UsesHandles && U.Locals.empty())
      continue;
    std::vector<std::string> Statements = handleinit::fortranHandleDeclarations(FileId, Count);
    for (const std::string &L : U.Locals)
      Statements.push_back(L);
    if (U.UsesThreadId) {
      // A private name bound to the runtime's C entry point: no clash with
      // the user's `use omp_lib` or its absence.
      Statements.push_back("interface");
      Statements.push_back("integer(4) function pomp_tid() bind(C, name=\"omp_get_thread_num\")");
      Statements.push_back("end function");
      Statements.push_back("end interface");
    }
    std::vector<std::string> Lines;
    for (const std::string &S : Statements) {
      const auto L = formatStatement(S, Fixed, Fixed ? "" : U.Indent);
      Lines.insert(Lines.end(), L.begin(), L.end());
    }
    insert(U.DeclarationBoundary, false, -2, std::move(Lines));
  }

  // Each original line with the inline edits; an edit that spans lines
  // (a replaced directive) lands on its first line and leaves the others
  // empty.
  std::sort(InlineEdits.begin(), InlineEdits.end(),
            [](const InlineEdit &A, const InlineEdit &B) { return A.Offset < B.Offset; });
  std::vector<std::size_t> Starts(LineCount + 1, Text.size());
  for (unsigned L = 0; L < LineCount; ++L)
    Starts[L] = lineStart(L + 1);
  auto lineOf = [&](std::size_t Offset) -> unsigned {
    const auto It = std::upper_bound(Starts.begin(), Starts.begin() + LineCount, Offset);
    return It == Starts.begin() ? 0 : static_cast<unsigned>(It - Starts.begin() - 1);
  };
  std::vector<std::string> Piece(LineCount);
  // A split line's rest (LineTails), with its edits.
  std::vector<std::string> Tail(LineCount);
  auto pieceAt = [&](std::size_t Offset, unsigned L) -> std::string & {
    const auto It = LineTails.find(L + 1);
    return It != LineTails.end() && Offset >= It->second ? Tail[L] : Piece[L];
  };
  std::size_t At = 0;
  auto copyTo = [&](std::size_t End) {
    while (At < End) {
      const unsigned L = lineOf(At);
      std::size_t Stop = std::min(End, Starts[L + 1]);
      const auto It = LineTails.find(L + 1);
      if (It != LineTails.end() && At < It->second && Stop > It->second)
        Stop = It->second;
      pieceAt(At, L).append(Text, At, Stop - At);
      At = Stop;
    }
  };
  for (const InlineEdit &E : InlineEdits) {
    if (E.Offset < At || LineCount == 0)
      continue; // overlapping edits: keep the first
    copyTo(E.Offset);
    const unsigned L = lineOf(E.Offset);
    pieceAt(E.Offset, L) += E.Text;
    At = E.Offset + E.Length;
    if (At < Text.size() && lineOf(At) != L && At != Starts[lineOf(At)]) {
      const std::size_t Stop = Starts[lineOf(At) + 1];
      Piece[L].append(Text, At, Stop - At);
      At = Stop;
    }
  }
  copyTo(Text.size());

  for (Insertion &I : Insertions)
    if (const auto It = MovedBoundaries.find(I.Boundary); It != MovedBoundaries.end())
      I.Boundary = It->second;
  // Insertions at line boundaries, in nesting order.
  std::sort(Insertions.begin(), Insertions.end(), [](const Insertion &A, const Insertion &B) {
    if (A.Boundary != B.Boundary)
      return A.Boundary < B.Boundary;
    // A directive's continuation lines come right after it, even before
    // the code that closes an empty construct (`end parallel` next line).
    if ((A.Depth == ContinuationDepth) != (B.Depth == ContinuationDepth))
      return A.Depth == ContinuationDepth;
    if (A.Close != B.Close)
      return A.Close; // what closes comes before what opens
    if (A.Depth != B.Depth)
      return A.Close ? A.Depth > B.Depth : A.Depth < B.Depth;
    if ((A.TailOf != 0) != (B.TailOf != 0))
      return A.TailOf != 0;
    return A.Sequence < B.Sequence;
  });
  auto marker = [&](unsigned Line) {
    // The line's presumed place: a preprocessed input's own markers keep naming the user's
    // file and lines after ours.
    const parser::SourcePosition At = Main.GetSourcePosition(Main.GetLineStartOffset(Line));
    const std::string Presumed = presumedPath(At);
    return Presumed.empty()
               ? "# " + std::to_string(Line) + " " + lineMarkerFileName(FileName) + "\n"
               : "# " + std::to_string(At.line) + " " + lineMarkerFileName(Presumed) + "\n";
  };
  std::string Out;
  Out.reserve(Text.size() + Insertions.size() * 80);
  std::size_t Next = 0;
  bool MarkerPending = false;
  for (unsigned Line = 1; Line <= LineCount + 1; ++Line) {
    bool Inserted = false;
    for (; Next < Insertions.size() && Insertions[Next].Boundary == Line; ++Next) {
      if (!Out.empty() && Out.back() != '\n')
        Out += '\n';
      if (const unsigned Of = Insertions[Next].TailOf) {
        // The rest of a split line under a marker with its own line (the
        // lines after it follow on without one); in fixed form at its own
        // columns, so that what lay past column 72 still does.
        std::string Rest = Tail[Of - 1];
        const std::size_t First = Rest.find_first_not_of(" \t");
        if (First == std::string::npos)
          continue;
        Rest.erase(0, First);
        std::string Lead = lineIndent(Of);
        if (Fixed) {
          const std::size_t Begin = lineStart(Of);
          Lead = Text.substr(Begin, LineTails[Of] - Begin);
          for (char &Ch : Lead)
            Ch = Ch == '\t' ? '\t' : ' ';
        }
        if (Opts.LineDirectives)
          Out += marker(Of);
        Out += Lead + Rest;
        Inserted = false;
        MarkerPending = false;
        continue;
      }
      for (const std::string &L : Insertions[Next].Lines) {
        Out += L;
        Out += '\n';
        Inserted = true;
      }
    }
    if (Line > LineCount)
      break;
    // A line emptied by a replacement gets no marker: the next one does.
    MarkerPending = MarkerPending || Inserted;
    if (Piece[Line - 1].empty())
      continue;
    if (MarkerPending && Opts.LineDirectives)
      Out += marker(Line);
    MarkerPending = false;
    Out += Piece[Line - 1];
  }
  // The file's init subroutine, after every program unit.
  if (!Out.empty() && Out.back() != '\n')
    Out += '\n';
  handleinit::FileHandles Handles{FileId, CtcStrings, {}, {}};
  for (const std::string &S : handleinit::fortranFileInit(Handles))
    for (const std::string &L : formatStatement(S, Fixed, ""))
      Out += L + "\n";
  // The common block's name is known only now.
  for (std::size_t At = Out.find(CommonPlaceholder); At != std::string::npos;
       At = Out.find(CommonPlaceholder, At))
    Out.replace(At, CommonPlaceholder.size(), Common);
  return Out;
}

/// Compiler flags that change how the file is read.
struct ReadFlags {
  bool Fixed = false;
  bool Preprocess = false;
  std::vector<std::string> IncludeDirs;
  std::vector<parser::Options::Predefinition> Defines;
};

ReadFlags readFlags(const std::string &Path, const std::vector<std::string> &Flags) {
  ReadFlags R;
  R.Fixed = isFixedFormSource(Path);
  R.Preprocess = isPreprocessedSuffix(Path);
  for (std::size_t I = 0; I < Flags.size(); ++I) {
    const std::string &F = Flags[I];
    auto value = [&](std::string_view Prefix) -> std::optional<std::string> {
      if (F == Prefix) {
        if (I + 1 < Flags.size())
          return Flags[++I];
        return std::nullopt;
      }
      if (F.compare(0, Prefix.size(), Prefix) == 0)
        return F.substr(Prefix.size());
      return std::nullopt;
    };
    if (F == "-ffixed-form")
      R.Fixed = true;
    else if (F == "-ffree-form")
      R.Fixed = false;
    else if (F == "-cpp")
      R.Preprocess = true;
    else if (F == "-nocpp")
      R.Preprocess = false;
    else if (auto D = value("-D")) {
      const std::size_t Eq = D->find('=');
      if (Eq == std::string::npos)
        R.Defines.emplace_back(*D, "1");
      else
        R.Defines.emplace_back(D->substr(0, Eq), D->substr(Eq + 1));
    } else if (auto U = value("-U")) {
      R.Defines.emplace_back(*U, std::nullopt);
    } else if (auto Dir = value("-I")) {
      R.IncludeDirs.push_back(*Dir);
    }
  }
  return R;
}

/// A fatal message of Flang's about the main file: its line, its text and
/// the lines of its contexts (innermost first).
struct ParseError {
  unsigned Line = 0;
  std::string Text;
  std::vector<unsigned> ContextLines;
};

/// The main file's line a message points at, 0 when it is elsewhere.
unsigned mainFileLine(const parser::Message &M, const parser::AllCookedSources &Cooked,
                      const parser::SourceFile &Main) {
  const std::optional<parser::ProvenanceRange> Range = M.GetProvenanceRange(Cooked);
  if (!Range)
    return 0;
  const std::optional<parser::SourcePosition> Position =
      Cooked.allSources().GetSourcePosition(Range->start());
  if (!Position || &*Position->sourceFile != &Main)
    return 0;
  return static_cast<unsigned>(Position->trueLineNumber);
}

void collectErrors(parser::Messages &Messages, const parser::AllCookedSources &Cooked,
                   const parser::SourceFile &Main, std::vector<ParseError> &Out) {
  for (const parser::Message &M : Messages.messages()) {
    if (!M.IsFatal())
      continue;
    ParseError E;
    E.Line = mainFileLine(M, Cooked, Main);
    E.Text = M.ToString();
    for (parser::Message::Reference A = M.attachment(); A; A = A->attachment())
      E.ContextLines.push_back(mainFileLine(*A, Cooked, Main));
    Out.push_back(std::move(E));
  }
}

/// One parse and instrumentation of a file. Hidden directives are parsed
/// from a copy (HiddenPath) whose text is the original's with those lines
/// turned into comments; Original is then the text the output is made of.
struct Attempt {
  std::string Path;                      ///< the file's name, in CTCs, warnings and markers
  std::string ParsePath;                 ///< the file Flang reads
  const std::string *Original = nullptr; ///< non-null: the file's own text
  std::map<unsigned, unsigned> Moves;    ///< see Instrumenter::moveInsertions
  std::map<unsigned, Directive> Loops;   ///< see Instrumenter::hiddenLoops
  /// Filled in: the file's text as Flang read it, and its parse errors.
  std::string Content;
  std::vector<ParseError> ParseErrors;
};

/// Instruments once; false with the errors in Errors (and, when Flang's
/// prescanner or parser rejected the file, A.ParseErrors).
bool instrumentOnce(Attempt &A, const ReadFlags &Flags, const Options &Opts, Result &Out,
                    std::string &Errors) {
  const std::string &Path = A.Path;
  parser::AllSources Sources;
  parser::AllCookedSources Cooked(Sources);
  parser::Options PO;
  PO.isFixedForm = Flags.Fixed;
  PO.features.Enable(Fortran::common::LanguageFeature::OpenMP);
  PO.searchDirectories = Flags.IncludeDirs;
  // A copy lies in another directory: the original's is searched first, as
  // the directory of the including file is.
  if (A.ParsePath != Path) {
    llvm::SmallString<128> Dir(Path);
    llvm::sys::path::remove_filename(Dir);
    PO.searchDirectories.insert(PO.searchDirectories.begin(), Dir.empty() ? "." : Dir.str().str());
  }
  // After the user's directories, the compiler's own: `include 'omp_lib.h'`
  // (the OpenMP specification's include file) is found there.
  PO.searchDirectories.push_back(POMP_FLANG_INTRINSIC_INCLUDE_DIR);
  // The compiler's own predefinitions for OpenMP code with -fopenmp, and the
  // paper's _POMP, as for C.
  if (Flags.Preprocess) {
    PO.predefinitions.emplace_back("_OPENMP", "201511");
    PO.predefinitions.emplace_back("_POMP", std::to_string(POMP_API_VERSION));
  }
  for (const auto &D : Flags.Defines)
    PO.predefinitions.push_back(D);

  parser::Parsing Parsing(Cooked);
  const parser::SourceFile *Main = Parsing.Prescan(A.ParsePath, PO);
  std::string Messages;
  llvm::raw_string_ostream MessageStream(Messages);
  if (Main) {
    const auto Content = Main->content();
    A.Content.assign(Content.data(), Content.size());
  }
  if (!Main || Parsing.messages().AnyFatalError()) {
    Parsing.messages().Emit(MessageStream, Cooked);
    // Flang's messages say why (a missing INCLUDE file, ...) at their file:line.
    Errors = Main ? MessageStream.str()
                  : "ompinst: error: cannot read '" + Path + "'\n" + MessageStream.str();
    if (Main)
      collectErrors(Parsing.messages(), Cooked, *Main, A.ParseErrors);
    return false;
  }
  // What Parsing::Parse does, without its parsing log, and first with the
  // messages of failed alternatives deferred (not built): a quarter of the
  // parser's time goes into building, merging and dropping them. Only a
  // parse that fails or recovers from an error is done again with messages.
  const auto parse = [&](bool Defer, parser::Messages &Messages, bool &Whole, bool &Recovered) {
    parser::UserState State(Cooked, PO.features);
    State.set_instrumentedParse(false);
    parser::ParseState Parse(Parsing.cooked());
    Parse.set_inFixedForm(Flags.Fixed).set_userState(&State).set_deferMessages(Defer);
    std::optional<parser::Program> Program = parser::Parser<parser::Program>::Parse(Parse);
    Whole = Parse.IsAtEnd();
    Recovered = Parse.anyErrorRecovery();
    Messages = std::move(Parse.messages());
    return Program;
  };
  parser::Messages ParseMessages;
  bool Whole = false, Recovered = false;
  std::optional<parser::Program> Tree = parse(true, ParseMessages, Whole, Recovered);
  if (!Tree || !Whole || Recovered)
    Tree = parse(false, ParseMessages, Whole, Recovered);
  Parsing.messages().Annex(std::move(ParseMessages));
  if (!Tree || !Whole || Parsing.messages().AnyFatalError()) {
    Parsing.messages().Emit(MessageStream, Cooked);
    Errors = MessageStream.str();
    if (Errors.empty())
      Errors = Path + ": error: could not parse the file\n";
    collectErrors(Parsing.messages(), Cooked, *Main, A.ParseErrors);
    return false;
  }
  parser::CanonicalizeDo(*Tree);
  parser::Messages Canonical;
  Fortran::semantics::CanonicalizeOmp(Canonical, *Tree);
  if (Canonical.AnyFatalError()) {
    Canonical.Emit(MessageStream, Cooked);
    Errors = MessageStream.str();
    collectErrors(Canonical, Cooked, *Main, A.ParseErrors);
    return false;
  }
  std::optional<llvm::Regex> FunctionFilter, FunctionExclude;
  if (Opts.InstrumentFunctions) {
    // Fortran names are case-insensitive: Flang's cooked names are lower case.
    FunctionFilter.emplace(Opts.FunctionFilter.empty() ? ".*" : Opts.FunctionFilter,
                           llvm::Regex::IgnoreCase);
    if (!Opts.FunctionExclude.empty())
      FunctionExclude.emplace(Opts.FunctionExclude, llvm::Regex::IgnoreCase);
    std::string Error;
    if (!FunctionFilter->isValid(Error)) {
      Errors =
          "ompinst: error: invalid function filter '" + Opts.FunctionFilter + "': " + Error + "\n";
      return false;
    }
    if (FunctionExclude && !FunctionExclude->isValid(Error)) {
      Errors = "ompinst: error: invalid function exclude pattern '" + Opts.FunctionExclude +
               "': " + Error + "\n";
      return false;
    }
  }
  // A walk finds the variables enclosing constructs must make private only
  // after it wrote their directives; when there are any, a second walk of
  // the same tree (the same handles and names) adds them.
  std::map<unsigned, std::vector<std::string>> Privates;
  std::optional<Instrumenter> Walked;
  for (int Walk = 0; Walk < 2; ++Walk) {
    Instrumenter &I = Walked.emplace(Parsing, *Main, Opts, Path, Flags.Fixed,
                                     FunctionFilter ? &*FunctionFilter : nullptr,
                                     FunctionExclude ? &*FunctionExclude : nullptr);
    if (A.Original)
      I.useText(*A.Original);
    I.moveInsertions(A.Moves);
    I.hiddenLoops(A.Loops);
    I.addPrivates(Privates);
    parser::Walk(*Tree, I);
    if (Walk == 1 || I.neededPrivates().empty())
      break;
    Privates = I.neededPrivates();
  }
  Instrumenter &I = *Walked;
  if (!I.pompDirectives(Errors))
    return false;
  I.apiCalls();
  Out.Output = I.finish();
  // _POMP (paper section 3.7) holds where the compiler preprocesses the
  // output too, as ompinst defined it for the parse.
  if (Flags.Preprocess)
    Out.Output = "#ifndef _POMP\n#define _POMP " + std::to_string(POMP_API_VERSION) + "\n#endif\n" +
                 (Opts.LineDirectives ? "# 1 " + lineMarkerFileName(Path) + "\n" : "") + Out.Output;
  Out.ConstructsInstrumented = I.Constructs;
  Out.FunctionsInstrumented = I.Functions;
  Out.Warnings = I.Warnings;
  return true;
}

/// How often a file is parsed again with more directives hidden: a file
/// with a directive the prescanner rejects and another the parser rejects
/// needs two.
constexpr unsigned MaxHidingRounds = 3;

/// A directive hidden from the parse, for its warning.
struct Hidden {
  const DirectiveLines *Directive;
  std::string Why;
};

/// Picks the directives to hide after a failed parse: each begin directive
/// holding a line Flang reported an error on; only when there is none (the
/// error is found further on, as a strictly structured block's missing end
/// is at the `end program`), for errors on lines that are no directive, the
/// innermost begin directive among the error's contexts. Each with its
/// matching end directive. Ordinary statements and end directives are never
/// chosen by an error. Returns false when nothing new is hidden.
bool chooseHidden(const std::vector<ParseError> &ParseErrors,
                  const std::vector<DirectiveLines> &Directives, std::vector<Hidden> &Chosen) {
  bool Added = false;
  auto known = [&](const DirectiveLines *D) {
    return std::any_of(Chosen.begin(), Chosen.end(),
                       [&](const Hidden &H) { return H.Directive == D; });
  };
  auto choose = [&](const DirectiveLines *D, const std::string &Why) {
    if (!D || D->End || known(D))
      return;
    Chosen.push_back({D, "Flang 19's parser rejects it: " + Why});
    Added = true;
    if (const DirectiveLines *End = matchingEnd(Directives, *D); End && !known(End))
      Chosen.push_back({End, "it ends the directive hidden at line " + std::to_string(D->First)});
  };
  for (const ParseError &E : ParseErrors)
    choose(directiveAt(Directives, E.Line), E.Text);
  if (Added)
    return true;
  for (const ParseError &E : ParseErrors) {
    if (directiveAt(Directives, E.Line))
      continue;
    for (const unsigned Line : E.ContextLines)
      if (const DirectiveLines *C = directiveAt(Directives, Line); C && !C->End) {
        choose(C, E.Text + " at line " + std::to_string(E.Line));
        break;
      }
  }
  return Added;
}

/// A copy of a file in a fresh temporary directory, removed with it.
class TemporaryCopy {
public:
  ~TemporaryCopy() {
    if (!File.empty())
      llvm::sys::fs::remove(File);
    if (!Dir.empty())
      llvm::sys::fs::remove(Dir);
  }
  /// Writes Text under Path's file name; false if it cannot.
  bool write(const std::string &Path, const std::string &Text) {
    llvm::SmallString<128> D;
    if (llvm::sys::fs::createUniqueDirectory("ompinst-hidden", D))
      return false;
    Dir = D.str().str();
    llvm::SmallString<128> F(Dir);
    llvm::sys::path::append(F, llvm::sys::path::filename(Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(F, EC);
    if (EC)
      return false;
    File = F.str().str();
    OS << Text;
    OS.close();
    return !OS.has_error();
  }
  const std::string &path() const { return File; }

private:
  std::string Dir, File;
};

} // namespace

bool instrumentFile(const std::string &Path, const Options &Opts, Result &Out,
                    std::string &Errors) {
  const ReadFlags Flags = readFlags(Path, Opts.CompilerFlags);
  Attempt First;
  First.Path = First.ParsePath = Path;
  if (instrumentOnce(First, Flags, Opts, Out, Errors))
    return true;
  if (First.ParseErrors.empty() || First.Content.empty())
    return false;
  // Flang 19's parser rejects some directives that gfortran compiles (OpenMP
  // 5.x forms): hide those from the parse, instrument the rest, keep them in
  // the output as written, and say so. A failure after hiding reports the
  // file's own errors.
  const std::string FirstErrors = Errors;
  const std::vector<DirectiveLines> Directives = scanOmpDirectives(First.Content, Flags.Fixed);
  std::vector<Hidden> Chosen;
  std::vector<ParseError> ParseErrors = First.ParseErrors;
  for (unsigned Round = 0; Round < MaxHidingRounds; ++Round) {
    if (!chooseHidden(ParseErrors, Directives, Chosen))
      break;
    std::string Text = First.Content;
    for (const Hidden &H : Chosen)
      hideDirective(Text, *H.Directive);
    TemporaryCopy Copy;
    if (!Copy.write(Path, Text))
      break;
    Attempt Again;
    Again.Path = Path;
    Again.ParsePath = Copy.path();
    Again.Original = &First.Content;
    for (const Hidden &H : Chosen) {
      const bool HasEnd = std::any_of(Chosen.begin(), Chosen.end(), [&](const Hidden &E) {
        return E.Directive->End && E.Directive == matchingEnd(Directives, *H.Directive);
      });
      if (!takesNextStatement(*H.Directive, HasEnd))
        continue;
      const unsigned Next = nextStatementLine(First.Content, Flags.Fixed, H.Directive->Last);
      const auto It = Again.Moves.try_emplace(Next, H.Directive->First).first;
      It->second = std::min(It->second, H.Directive->First);
      const Directive Kind = llvm::omp::getOpenMPDirectiveKind(H.Directive->Name);
      if (llvm::omp::getDirectiveAssociation(Kind) == llvm::omp::Association::Loop)
        Again.Loops.emplace(Next, Kind);
    }
    std::string AgainErrors;
    if (instrumentOnce(Again, Flags, Opts, Out, AgainErrors)) {
      std::sort(Chosen.begin(), Chosen.end(), [](const Hidden &L, const Hidden &R) {
        return L.Directive->First < R.Directive->First;
      });
      std::string Said;
      for (const Hidden &H : Chosen)
        Said += Path + ":" + std::to_string(H.Directive->First) + ": warning: OpenMP directive '" +
                (H.Directive->End ? "end " : "") + H.Directive->Name +
                "' is not instrumented and was hidden from the parse (" + H.Why +
                "); the output keeps it as written\n";
      Out.HiddenWarnings = Said;
      Out.DirectivesHidden = static_cast<unsigned>(Chosen.size());
      return true;
    }
    ParseErrors = std::move(Again.ParseErrors);
  }
  Errors = FirstErrors;
  return false;
}

} // namespace pomp::fortran
