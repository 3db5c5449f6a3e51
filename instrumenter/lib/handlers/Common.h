//===- Common.h - Shapes shared by several construct handlers ---*- C++ -*-===//
///
/// \file
/// Small building blocks several handlers need: evaluating an if or
/// num_threads clause once, making an implicit barrier visible, loop run-time
/// context. Each handler stays a short description of its construct.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_HANDLERS_COMMON_H
#define POMP_INSTRUMENTER_HANDLERS_COMMON_H

#include "../ConstructEditor.h"
#include "pomp/model/ConstructModel.h"

#include <functional>
#include <utility>

#include <string>

namespace pomp::inst {

/// "Not available" values of the run-time context (paper section 3.3 table).
inline constexpr const char *NotAvailable32 = "-1";
inline constexpr const char *NotAvailableChunk = "-1";
inline constexpr const char *NotAvailableIter = "0";

/// If the directive has an if clause (for directive name Modifier, or none),
/// declares `int <var> = !!(<condition>);` in Declarations, replaces the
/// condition by the variable and returns the variable; else returns "-1".
std::string evaluateIfOnce(ConstructEditor &E, unsigned Handle, std::string &Declarations);

/// The same for num_threads: `int <var> = (int)(<expr>);`.
std::string evaluateNumThreadsOnce(ConstructEditor &E, unsigned Handle, std::string &Declarations);

/// The if clause that applies to the directive's own (parallel, task or
/// cancel) construct, or null.
const clang::OMPIfClause *ifClauseFor(const clang::OMPExecutableDirective &D);

/// The source text of a clause's argument: between Open (its '(' or a
/// modifier's ':') and the clause's closing ')' at Close.
std::string clauseArgument(const ConstructEditor &E, clang::SourceLocation Open,
                           clang::SourceLocation Close);

/// The clause facts of a directive, the construct model's input.
model::ClauseFacts clauseFacts(const ConstructEditor &E);

/// True when S contains a cancel or cancellation point construct: OpenMP
/// forbids nowait on the construct they cancel.
bool containsCancellation(const clang::Stmt *S);

/// Whether the implicit barrier at the end of a worksharing construct can be
/// shown as nowait + an explicit barrier (model::canShowImplicitBarrier).
bool canShowImplicitBarrier(const ConstructEditor &E);

/// The condition under which the explicit barrier standing for a team's join
/// barrier runs, and the events after it: `if (POMP_Join_barrier_needed(C))`
/// with the team's fork context C (pomplib.h). With Result, the answer is
/// also stored in that int variable, for a later condition of the same team
/// (joinBarrierAnswered): `if ((R = POMP_Join_barrier_needed(C)))`.
std::string joinBarrierCondition(const std::string &Context, const std::string &Result = "");

/// A second condition of the same team, from the Result the first stored: the
/// routine's answer is a function of the context, and a second question
/// records nothing (pomplib.h), so one call per thread does, and costs the
/// compile one call less (docs/PERFORMANCE.md, session 9).
std::string joinBarrierAnswered(const std::string &Result);

/// The code that stands in for an implicit barrier: Implicit_barrier_enter,
/// an explicit barrier, Implicit_barrier_exit (allocates the handle), with
/// the thread number Tid. With the team's fork context JoinContext, the
/// barrier stands for the join barrier: it and Implicit_barrier_exit are
/// under joinBarrierCondition() (storing its answer in JoinResult, if
/// given), whose block the caller closes after the events that must be
/// skipped with them.
std::string implicitBarrierCode(ConstructEditor &E, const std::string &Tid,
                                const std::string &JoinContext = "",
                                const std::string &JoinResult = "");

/// Section_begin/end inside every section of a sections construct (numbered
/// from 1 in source order; the first section's directive may be omitted).
void instrumentSectionBlocks(ConstructEditor &E, unsigned Handle);
/// The same with the begin and end code of section Number from Code.
void instrumentSectionBlocks(
    ConstructEditor &E,
    const std::function<std::pair<std::string, std::string>(unsigned Number)> &Code);

/// Loop run-time context (paper section 3.3): chunk size, first and last
/// iteration, increment, each as a C expression or its "not available" value.
struct LoopContext {
  std::string ChunkSize = NotAvailableChunk;
  std::string InitIter = NotAvailableIter;
  std::string FinalIter = NotAvailableIter;
  std::string Increment = NotAvailableIter;
};
LoopContext loopContext(const ConstructEditor &E);

/// Puts Before on lines of its own before the directive and After right
/// after the construct, inside braces that make the whole a single statement
/// again (the construct may be the unbraced body of an if or a loop).
void wrapConstruct(ConstructEditor &E, const std::string &Before, const std::string &After);

/// Lists the file's handles that the construct uses inside a region with a
/// non-shared default clause (see InstrumentAction).
std::string sharedClauseFor(const FileInstrumentation &File, unsigned FirstHandle,
                            unsigned LastHandle);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_HANDLERS_COMMON_H
