//===- BriefCode.h - Code that runs in a few nanoseconds, and loops of it -===//
///
/// \file
/// libpomp's enter of a construct takes the time of the exit (or begin) just
/// before it instead of reading the clock again when the instrumenter marks
/// it `afterConstruct` (docs/INSTRUMENTER.md, "Constructs one after another").
/// The mark is right when whatever runs between the two events is brief: it
/// calls nothing (no function, operator, constructor or destructor), loops
/// nowhere and jumps nowhere but out, so that it takes a few nanoseconds
/// whatever its values. This file decides that from the AST, and which
/// plain loops repeat their body's constructs with only brief code between
/// the last one's exit and the first one's next enter.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_BRIEFCODE_H
#define POMP_INSTRUMENTER_BRIEFCODE_H

#include "clang/AST/StmtOpenMP.h"

#include <optional>

namespace pomp::inst {

/// Whether S runs briefly: only expressions and declarations of scalars
/// without calls, conditionals, `break` and `return`. Conservative: anything
/// it does not know is not brief (a type-dependent expression may become an
/// operator call when the template is instantiated).
bool isBriefStatement(const clang::Stmt &S);

/// A plain loop (`for`, `while`, `do`) whose body repeats constructs with
/// only brief code between the exit of the last one and the next enter of
/// the first one: its initialisation, condition and increment are brief,
/// the statements of its body before First and after Last are too, nothing
/// in its body jumps back to the loop's head (`continue`) or into the body
/// (a label, a case of an enclosing switch), and no variable of the body has
/// a destructor or cleanup that would run between two iterations.
struct RepeatingLoop {
  /// The body's first and last statements that are not brief; the same
  /// directive when the body holds one construct.
  const clang::OMPExecutableDirective *First = nullptr;
  const clang::OMPExecutableDirective *Last = nullptr;
  /// Whether a `break` of the loop may leave it between First and Last, so
  /// that the last event before the statement after the loop need not be
  /// Last's.
  bool BreaksBetween = false;
};

/// The shape of Loop when it is a RepeatingLoop. Loop must be a plain loop
/// statement of a function body, not one a loop directive applies to (whose
/// iterations the runtime hands out between them).
std::optional<RepeatingLoop> repeatingLoop(const clang::Stmt &Loop,
                                           const clang::ASTContext &Context);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_BRIEFCODE_H
