//===- LoopHandlers.cpp - for, simd, loop, distribute ----------------------===//
///
/// \file
/// A loop construct becomes
///
///   { POMP_Loop_enter(&pomp_handle_N, tid, chunk, first, last, incr, pomp_ctc_N);
///   #pragma omp for ... nowait
///   for (...) ...
///     <implicit barrier made visible> POMP_Loop_exit(pomp_handle_N, tid); }
///
/// Nothing is inserted inside the loop: a simd body must stay free of calls,
/// and iteration events are only for the Loop group's iteration levels.
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

namespace pomp::inst {

namespace {

/// Loops of every kind; Barrier says whether the construct ends in an
/// implicit barrier that nowait may remove.
class LoopHandler final : public ConstructHandler {
public:
  LoopHandler(ctc::RegionKind Kind, bool Barrier) : Kind(Kind), Barrier(Barrier) {}

  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Loop_enter))
      return;
    const unsigned H = E.newHandle(Kind);
    const std::string Tid = E.threadId();
    const LoopContext Loop = loopContext(E);
    std::string After = Barrier ? implicitBarrier(E, /*ReplacesImplicitBarrier=*/true) : "";
    After +=
        (After.empty() ? "" : " ") + ConstructEditor::call(Event::Loop_exit, {E.handle(H), Tid});
    wrapConstruct(E,
                  ConstructEditor::call(Event::Loop_enter,
                                        {E.handleAddress(H), Tid, Loop.ChunkSize, Loop.InitIter,
                                         Loop.FinalIter, Loop.Increment, E.ctc(H)}),
                  After);
  }

private:
  ctc::RegionKind Kind;
  bool Barrier;
};

} // namespace

std::unique_ptr<ConstructHandler> makeLoopHandler(ctc::RegionKind Kind, bool HasImplicitBarrier) {
  return std::make_unique<LoopHandler>(Kind, HasImplicitBarrier);
}

} // namespace pomp::inst
