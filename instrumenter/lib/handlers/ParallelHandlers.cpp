//===- ParallelHandlers.cpp - parallel and teams ---------------------------===//
///
/// \file
/// A parallel region becomes (paper Appendix A, with the nesting context of
/// SPEC.md):
///
///   { POMP_Context_t pomp_ctx_N; int pomp_if_N = !!(cond);
///     POMP_Parallel_fork(&pomp_handle_N, tid, num_threads, pomp_if_N, &pomp_ctx_N, pomp_ctc_N);
///   #pragma omp parallel if(pomp_if_N) firstprivate(pomp_ctx_N)
///   { POMP_Parallel_begin_forked(pomp_handle_N, tid, pomp_ctx_N);
///     ...block...
///     <implicit barrier made visible> POMP_Parallel_end(pomp_handle_N, tid); }
///   POMP_Parallel_exit(pomp_handle_N, tid); }
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/OpenMPClause.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// `parallel`: fork/begin/end/exit with the forking thread's context passed
/// in as a firstprivate variable.
class ParallelHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Parallel_fork))
      return;
    const unsigned H = E.newHandle(ctc::RegionKind::Parallel);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("ctx", H);
    std::string Declarations = " POMP_Context_t " + Context + ";";
    const std::string If = evaluateIfOnce(E, H, Declarations);
    const std::string NumThreads = evaluateNumThreadsOnce(E, H, Declarations);
    const std::string Fork = ConstructEditor::call(
        Event::Parallel_fork, {E.handleAddress(H), Tid, NumThreads, If, "&" + Context, E.ctc(H)});
    E.appendClause("firstprivate(" + Context + ")");
    // Fork and exit run where the directive is (maybe strictly in teams);
    // the rest inside the new team.
    const std::string TeamTid = ConstructEditor::threadIdInParallel();
    std::string Begin;
    std::string End =
        E.enabled(Event::Implicit_barrier_enter) ? implicitBarrierCode(E, TeamTid) : "";
    if (E.enabled(Event::Parallel_begin_forked)) {
      Begin = ConstructEditor::call(Event::Parallel_begin_forked, {E.handle(H), TeamTid, Context});
      End += (End.empty() ? "" : " ") +
             ConstructEditor::call(Event::Parallel_end, {E.handle(H), TeamTid});
    }
    // Begin and end code go in pairs: an unbraced block gets its braces from
    // both, even when only the barrier is shown.
    if (!End.empty()) {
      E.blockBegin(Begin);
      E.blockEnd(End);
    }
    wrapConstruct(E, Declarations.substr(1) + " " + Fork,
                  ConstructEditor::call(Event::Parallel_exit, {E.handle(H), Tid}));
  }
};

/// Combined constructs that start with `parallel` and are not split (parallel
/// master taskloop, and split candidates with allocate clauses): the team's
/// fork and join around the construct.
class CombinedParallelHandler final : public ConstructHandler {
public:
  explicit CombinedParallelHandler(ctc::RegionKind Kind) : Kind(Kind) {}
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Parallel_fork))
      return;
    const unsigned H = E.newHandle(Kind);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("ctx", H);
    std::string Declarations = " POMP_Context_t " + Context + ";";
    const std::string If = evaluateIfOnce(E, H, Declarations);
    const std::string NumThreads = evaluateNumThreadsOnce(E, H, Declarations);
    wrapConstruct(
        E,
        Declarations.substr(1) + " " +
            ConstructEditor::call(Event::Parallel_fork, {E.handleAddress(H), Tid, NumThreads, If,
                                                         "&" + Context, E.ctc(H)}),
        ConstructEditor::call(Event::Parallel_exit, {E.handle(H), Tid}));
  }

private:
  ctc::RegionKind Kind;
};

/// Host `teams`: like parallel, a league of teams forks from the
/// encountering thread.
class TeamsHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Teams_enter))
      return;
    const unsigned H = E.newHandle(ctc::RegionKind::Teams);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("ctx", H);
    const std::string Enter =
        ConstructEditor::call(Event::Teams_enter, {E.handleAddress(H), Tid, NotAvailable32,
                                                   NotAvailable32, "&" + Context, E.ctc(H)});
    E.appendClause("firstprivate(" + Context + ")");
    // OpenMP forbids runtime calls strictly inside a teams region.
    if (E.enabled(Event::Teams_begin)) {
      E.blockBegin(
          ConstructEditor::call(Event::Teams_begin, {E.handle(H), NotAvailable32, Context}));
      E.blockEnd(ConstructEditor::call(Event::Teams_end, {E.handle(H), NotAvailable32}));
    }
    wrapConstruct(E, "POMP_Context_t " + Context + "; " + Enter,
                  ConstructEditor::call(Event::Teams_exit, {E.handle(H), Tid}));
  }
};

/// Host `teams distribute ...` and `teams loop`: there is no place inside
/// the teams region outside its loop, so only enter and exit around it.
class CombinedTeamsHandler final : public ConstructHandler {
public:
  explicit CombinedTeamsHandler(ctc::RegionKind Kind) : Kind(Kind) {}
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Teams_enter))
      return;
    const unsigned H = E.newHandle(Kind);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("ctx", H);
    wrapConstruct(
        E,
        "POMP_Context_t " + Context + "; " +
            ConstructEditor::call(Event::Teams_enter, {E.handleAddress(H), Tid, NotAvailable32,
                                                       NotAvailable32, "&" + Context, E.ctc(H)}),
        ConstructEditor::call(Event::Teams_exit, {E.handle(H), Tid}));
  }

private:
  ctc::RegionKind Kind;
};

} // namespace

std::unique_ptr<ConstructHandler> makeCombinedTeamsHandler(ctc::RegionKind Kind) {
  return std::make_unique<CombinedTeamsHandler>(Kind);
}

std::unique_ptr<ConstructHandler> makeParallelHandler() {
  return std::make_unique<ParallelHandler>();
}

std::unique_ptr<ConstructHandler> makeCombinedParallelHandler(ctc::RegionKind Kind) {
  return std::make_unique<CombinedParallelHandler>(Kind);
}

std::unique_ptr<ConstructHandler> makeTeamsHandler() { return std::make_unique<TeamsHandler>(); }

} // namespace pomp::inst
