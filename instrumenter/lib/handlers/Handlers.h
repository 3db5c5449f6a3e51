//===- Handlers.h - One handler per OpenMP construct kind -------*- C++ -*-===//
///
/// \file
/// A construct handler recognises one kind of OpenMP directive and describes
/// its edits through a ConstructEditor, as clang-tidy's checks pair a matcher
/// with a rewrite. handlerFor() is the registry, keyed by directive kind.
/// docs/INSTRUMENTER.md lists what each construct becomes.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_HANDLERS_HANDLERS_H
#define POMP_INSTRUMENTER_HANDLERS_HANDLERS_H

#include "../Events.h"
#include "pomp/ctc/Ctc.h"
#include "pomp/model/ConstructModel.h"

#include "llvm/Frontend/OpenMP/OMPConstants.h"

#include <memory>

namespace clang {
class OMPExecutableDirective;
} // namespace clang

namespace pomp::inst {

class ConstructEditor;

/// Instruments one kind of OpenMP directive.
class ConstructHandler {
public:
  virtual ~ConstructHandler() = default;
  /// Describes the edits for the directive E is about.
  virtual void instrument(ConstructEditor &E) const = 0;
};

/// The handler of every directive kind the shared construct model plans
/// (instrumenter/model): it spells the model's plan in C.
std::unique_ptr<ConstructHandler> makeModelHandler(const model::ConstructSpec &Spec);

// Factories of the handlers of what the model leaves to the C front end.
/// Fork and join around a combined construct that is not split.
std::unique_ptr<ConstructHandler> makeCombinedParallelHandler(ctc::RegionKind Kind);
std::unique_ptr<ConstructHandler> makeSplitParallelHandler(ctc::RegionKind Kind);
std::unique_ptr<ConstructHandler> makeTargetRegionHandler(ctc::RegionKind Kind);
std::unique_ptr<ConstructHandler> makeTargetDataEventHandler(ctc::RegionKind Kind);
std::unique_ptr<ConstructHandler> makeErrorHandler();

/// The handler of a directive kind; null for directives that are left as
/// they are (declarative directives, loop transformations, device-only code).
const ConstructHandler *handlerFor(llvm::omp::Directive Kind);

/// Why an executable directive without a handler is not instrumented, for a
/// warning at its file:line; null when nothing is lost: it has a handler, it
/// is part of another construct (section, scan) or a loop transformation
/// whose loops the enclosing construct's events cover (tile, unroll, ...).
const char *notInstrumentedReason(llvm::omp::Directive Kind);

/// The directive kind the source spells: a `loop` Clang maps to `for`,
/// `simd` or `distribute` (by its binding) is still a `loop`.
llvm::omp::Directive sourceDirectiveKind(const clang::OMPExecutableDirective &D);

/// Whether code strictly inside the region of D (of source kind Kind) may
/// call the OpenMP runtime, given whether the code around D may. OpenMP
/// forbids it strictly inside teams and in loop, simd and order(concurrent)
/// regions; a parallel region nested in them allows it again.
bool threadIdAvailableInside(const clang::OMPExecutableDirective &D, llvm::omp::Directive Kind,
                             bool Outside);

/// True for directives whose body is device code: nothing is inserted inside.
bool isTargetDirective(llvm::omp::Directive Kind);

/// True for directives with a `default` clause whose constructs need the
/// file's handles listed as shared (see SharedHandles in InstrumentAction).
bool acceptsDefaultClause(llvm::omp::Directive Kind);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_HANDLERS_HANDLERS_H
