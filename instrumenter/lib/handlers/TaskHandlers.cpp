//===- TaskHandlers.cpp - task, taskloop -----------------------------------===//
///
/// \file
/// An explicit task becomes
///
///   { POMP_Context_t pomp_task_N; int pomp_if_N = !!(cond);
///     POMP_Task_create_enter(&pomp_handle_N, tid, pomp_if_N, &pomp_task_N, pomp_ctc_N);
///   #pragma omp task if(pomp_if_N) firstprivate(pomp_task_N)
///   { POMP_Task_begin(pomp_handle_N, tid, pomp_task_N); ... POMP_Task_end(pomp_handle_N, tid); }
///   POMP_Task_create_exit(pomp_handle_N, tid); }
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

namespace pomp::inst {

namespace {

/// `task`: creation in the encountering thread, execution wherever the
/// runtime runs it, linked by the task context.
class TaskHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Task_create_enter))
      return;
    const unsigned H = E.newHandle(ctc::RegionKind::Task);
    const std::string Tid = E.threadId();
    const std::string Context = E.local("task", H);
    std::string Declarations = " POMP_Context_t " + Context + ";";
    const std::string If = evaluateIfOnce(E, H, Declarations);
    E.appendClause("firstprivate(" + Context + ")");
    if (E.enabled(Event::Task_begin)) {
      E.blockBegin(ConstructEditor::call(Event::Task_begin, {E.handle(H), Tid, Context}));
      E.blockEnd(ConstructEditor::call(Event::Task_end, {E.handle(H), Tid}));
    }
    wrapConstruct(E,
                  Declarations.substr(1) + " " +
                      ConstructEditor::call(Event::Task_create_enter,
                                            {E.handleAddress(H), Tid, If, "&" + Context, E.ctc(H)}),
                  ConstructEditor::call(Event::Task_create_exit, {E.handle(H), Tid}));
  }
};

/// Every taskloop form: enter/exit in the encountering thread. Its tasks are
/// made by the runtime from the loop, so no source location marks their
/// begin and end (OMPT reports them).
class TaskloopHandler final : public ConstructHandler {
public:
  explicit TaskloopHandler(ctc::RegionKind Kind) : Kind(Kind) {}
  void instrument(ConstructEditor &E) const override {
    instrumentStandalone(E, Kind, Event::Taskloop_enter, Event::Taskloop_exit);
  }

private:
  ctc::RegionKind Kind;
};

} // namespace

std::unique_ptr<ConstructHandler> makeTaskHandler() { return std::make_unique<TaskHandler>(); }

std::unique_ptr<ConstructHandler> makeTaskloopHandler(ctc::RegionKind Kind) {
  return std::make_unique<TaskloopHandler>(Kind);
}

} // namespace pomp::inst
