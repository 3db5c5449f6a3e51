//===- pomp/model/ConstructModel.h - What each construct becomes -*- C++ -*-===//
///
/// \file
/// The language-neutral construct model shared by ompinst's C/C++ and
/// Fortran front ends: for an OpenMP directive kind (llvm::omp::Directive,
/// which Clang and Flang both use) and the clause facts a front end read from
/// its parse, planConstruct() says what the construct becomes:
///
/// - the POMP event calls at each place (before the directive, at the begin
///   and end of its structured block, after the construct, in every section)
///   with symbolic arguments (handle, thread number, context, if value, ...);
/// - the implicit barrier made visible (nowait added, an explicit barrier
///   between Implicit_barrier_enter/exit, with a handle of its own);
/// - the helper variables: a context passed to the new team or task as a
///   firstprivate variable, if/num_threads values evaluated once;
/// - the CTC `type` (RegionKind) of the construct.
///
/// A front end only parses and spells: it renders each Step in its language
/// at the place the plan says (C: instrumenter/lib/handlers/ModelRenderer,
/// Fortran: instrumenter/fortran). docs/INSTRUMENTER.md's table "What each
/// construct becomes" is this file's prose.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_MODEL_CONSTRUCTMODEL_H
#define POMP_MODEL_CONSTRUCTMODEL_H

#include "pomp/ctc/Ctc.h"
#include "pomp/model/Events.h"

#include "llvm/Frontend/OpenMP/OMPConstants.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace pomp::inst::model {

/// The symbolic arguments of an event call; each front end spells them.
enum class Arg : std::uint8_t {
  HandleFirst,   ///< the region's first event: the handle by reference, bound lazily
  Handle,        ///< later events: the handle (by value in C)
  ThreadId,      ///< thread number where the directive is (or "not available")
  TeamThreadId,  ///< thread number inside the new team (always available)
  NotAvailable,  ///< the paper's -1
  If,            ///< the if clause's value, evaluated once before the directive, or -1
  NumThreads,    ///< the num_threads clause's value, evaluated once, or -1
  ContextOut,    ///< the context variable, which the event writes (C: the call returns it)
  Context,       ///< the context variable's value, inside the team or task
  Ctc,           ///< the region's CTC string
  SectionNumber, ///< 1-based number of the section, in source order
  ChunkSize,     ///< loop run-time context (paper section 3.3), or not available
  InitIter,
  FinalIter,
  Increment,
  Device, ///< a target construct's device clause, or not available (the default device)
};

/// Which region a step belongs to: the construct's own, or the implicit
/// barrier made visible, which has a handle of its own (allocated right
/// after the construct's).
enum class Region : std::uint8_t { Construct, ImplicitBarrier };

/// One thing to emit at a place: an event call, or the explicit barrier
/// directive standing in for an implicit one.
struct Step {
  enum class Kind : std::uint8_t { Call, BarrierDirective };
  Kind K = Kind::Call;
  Event E{};
  Region R = Region::Construct;
  std::vector<Arg> Args;
};

/// What a front end read about the directive, the input of planning.
struct ClauseFacts {
  bool HasIf = false;         ///< an if clause that applies to this construct
  bool HasNumThreads = false; ///< a num_threads clause
  bool HasNowait = false;     ///< nowait (Fortran: on the end directive too)
  bool HasCopyprivate = false;
  bool HasTaskReduction = false;     ///< reduction(task, ...): needs the implicit barrier
  bool ContainsCancellation = false; ///< a cancel or cancellation point inside
  bool Standalone = false;           ///< the standalone form (ordered depend/doacross)
};

/// What a construct becomes: the output of planning.
struct Plan {
  /// False: the construct stays as it is (its events are off at this level).
  bool Instrumented = false;
  ctc::RegionKind Kind = ctc::RegionKind::Unknown;
  /// Steps at each place, in order.
  std::vector<Step> Before, BlockBegin, BlockEnd, After;
  /// Steps at the begin and end of every section of a sections construct.
  std::vector<Step> SectionBegin, SectionEnd;
  /// Declare a context variable (named after ContextName and the handle)
  /// before the directive; pass it to the team or task as firstprivate when
  /// ContextFirstprivate.
  const char *ContextName = nullptr;
  bool ContextFirstprivate = false;
  /// Evaluate the if / num_threads argument once into a variable before the
  /// directive, and put the variable in the clause.
  bool EvaluateIf = false;
  bool EvaluateNumThreads = false;
  /// Add nowait to the construct: an explicit barrier follows it.
  bool AddNowait = false;
  /// Whether some step uses the implicit barrier's handle.
  bool UsesBarrierHandle = false;
  /// The explicit barrier in BlockEnd stands for the team's join barrier: it
  /// and the steps after it run only when POMP_Join_barrier_needed(context)
  /// says so (with OMPT merged, the runtime's join closes their regions).
  /// A front end that does not spell the condition keeps them unconditional.
  bool JoinBarrierSkippable = false;
  /// Whether the construct's block gets begin and end code (then both are
  /// emitted, even when one is empty: a C block gets its braces from both).
  bool hasBlockCode() const { return !BlockBegin.empty() || !BlockEnd.empty(); }
  /// Whether the code before the directive starts with the call of the
  /// construct's enter event: no if or num_threads value is evaluated first.
  /// Its arguments may still be the instrumentation's own (a thread number)
  /// or a loop's bounds, which the front ends spell only when they have no
  /// side effects. Such a construct may start at the time of the event before
  /// it (ctc::RegionDescriptor::AfterConstruct).
  bool startsWithEnter() const;
  /// Whether the code at the start of the construct's block ends with the
  /// call of a begin event: a construct first in the block may start at the
  /// begin's time.
  bool blockBeginsWithBegin() const;
  /// Whether the code after the directive ends with the call of an exit
  /// event: a construct right after this one may start at the exit's time.
  bool endsWithExit() const;
};

/// The shapes of constructs; every directive kind maps to one.
enum class Shape : std::uint8_t {
  Parallel,         ///< fork / begin / end / exit, team context, barrier inside
  CombinedParallel, ///< fork / exit around a combined construct not split
  Teams,            ///< host teams: enter / begin / end / exit
  CombinedTeams,    ///< teams distribute ...: enter / exit
  Loop,             ///< Loop_enter with run-time context / Loop_exit
  Sections,         ///< enter / exit, Section_begin / end in every section
  Block,            ///< enter / begin / end / exit (single, critical, workshare, ...)
  Master,           ///< begin / end (master)
  Masked,           ///< begin / end with the filter (masked)
  Standalone,       ///< enter / exit around a standalone directive (barrier, taskwait)
  Ordered,          ///< Block, or Standalone for the depend/doacross form
  EventBefore,      ///< one event before (cancellation point)
  EventAfter,       ///< one event after (atomic, flush)
  Cancel,           ///< one event before, with the if value
  Task,             ///< create enter / begin / end / create exit, task context
  Taskloop,         ///< enter / exit in the encountering thread
  Target,           ///< enter / exit with the device on the host around target (data)
  TargetEvent,      ///< one event with the device after target enter/exit data, update
};

/// The model's entry for a directive kind.
struct ConstructSpec {
  Shape S;
  ctc::RegionKind Kind;
  /// Enter, Begin, End, Exit events of Block-like shapes (the one event of
  /// EventBefore/EventAfter in Enter).
  Event Enter{}, Begin{}, End{}, Exit{};
  /// A worksharing construct whose implicit barrier the plan makes visible.
  bool ImplicitBarrier = false;
  /// False where the structured block admits no calls (workshare: only
  /// array assignments, where, forall, ...): no begin and end events.
  bool BlockTakesCalls = true;
};

/// The entry for a directive kind the model knows and a front end need not
/// decide itself; null for kinds a front end handles on its own (split
/// combined constructs, error) or leaves alone. The target family is here
/// (host side: nothing inside a target region's device code is instrumented);
/// the C front end still decides it in its TargetHandlers.
const ConstructSpec *specFor(llvm::omp::Directive Kind);

/// Whether an event fires at the configured level.
using EnabledFn = std::function<bool(Event)>;

/// What a construct of Spec becomes, given its clause facts and the levels.
Plan planConstruct(const ConstructSpec &Spec, const ClauseFacts &Facts, const EnabledFn &Enabled);

/// Whether the implicit barrier at the end of a worksharing construct can be
/// shown as nowait + an explicit barrier: not with nowait already, not with
/// copyprivate (it needs its own barrier to broadcast), not with a task
/// reduction, not when the construct may be cancelled (a cancellable
/// construct may not be nowait).
bool canShowImplicitBarrier(const ClauseFacts &Facts, const EnabledFn &Enabled);

/// Splitting a combined `parallel <worksharing>` construct in two: whether a
/// clause of kind Clause goes to the worksharing half Inner (schedule,
/// ordered, collapse, lastprivate, linear, reduction, order, simd clauses,
/// filter, bind, when Inner takes them) or stays with the parallel half.
bool splitClauseGoesToWorksharing(llvm::omp::Clause Clause, llvm::omp::Directive Inner);

/// The three steps of an implicit barrier made visible, with thread number Tid.
std::vector<Step> implicitBarrierSteps(Arg Tid);

/// What an instrumented function or subroutine becomes (`--functions`, paper
/// Table 5): at level `user=event` Function_event first thing in its body
/// (BlockBegin only); at `user=beginend` Function_begin first thing and
/// Function_end (BlockEnd) on every way out: before each return, before the
/// end of the body and, in Fortran, before each `stop`. Kind is Function.
Plan planFunction(const EnabledFn &Enabled);

} // namespace pomp::inst::model

#endif // POMP_MODEL_CONSTRUCTMODEL_H
