//===- SyncHandlers.cpp - critical, master, masked, barrier, atomic, ... ---===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/OpenMPClause.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// Constructs with a structured block and no implicit barrier: critical,
/// ordered (block form), taskgroup.
class BlockSyncHandler final : public ConstructHandler {
public:
  BlockSyncHandler(ctc::RegionKind Kind, BlockEvents Events) : Kind(Kind), Events(Events) {}
  void instrument(ConstructEditor &E) const override {
    instrumentBlockConstruct(E, Kind, Events, /*HasImplicitBarrier=*/false);
  }

private:
  ctc::RegionKind Kind;
  BlockEvents Events;
};

/// `master` and `masked`: only the executing thread gets begin/end (paper
/// Table 3); masked passes the executing thread's number as the filter it
/// matched.
class MasterHandler final : public ConstructHandler {
public:
  explicit MasterHandler(bool Masked) : Masked(Masked) {}
  void instrument(ConstructEditor &E) const override {
    const Event Begin = Masked ? Event::Masked_begin : Event::Master_begin;
    const Event End = Masked ? Event::Masked_end : Event::Master_end;
    if (!E.enabled(Begin))
      return;
    const unsigned H = E.newHandle(Masked ? ctc::RegionKind::Masked : ctc::RegionKind::Master);
    const std::string Tid = E.threadId();
    if (Masked)
      E.blockBegin(ConstructEditor::call(Begin, {E.handleAddress(H), Tid, Tid, E.ctc(H)}));
    else
      E.blockBegin(ConstructEditor::call(Begin, {E.handleAddress(H), Tid, E.ctc(H)}));
    E.blockEnd(ConstructEditor::call(End, {E.handle(H), Tid}));
  }

private:
  bool Masked;
};

/// Standalone directives with an enter/exit pair: barrier, taskwait,
/// taskyield, standalone ordered (depend/doacross).
class StandaloneHandler final : public ConstructHandler {
public:
  StandaloneHandler(ctc::RegionKind Kind, Event Enter, Event Exit)
      : Kind(Kind), Enter(Enter), Exit(Exit) {}
  void instrument(ConstructEditor &E) const override { instrumentStandalone(E, Kind, Enter, Exit); }

private:
  ctc::RegionKind Kind;
  Event Enter, Exit;
};

/// `ordered`: block form like critical, standalone form (depend/doacross)
/// like a barrier.
class OrderedHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    if (E.directive().isStandaloneDirective())
      instrumentStandalone(E, ctc::RegionKind::Ordered, Event::Ordered_enter, Event::Ordered_exit);
    else
      instrumentBlockConstruct(
          E, ctc::RegionKind::Ordered,
          {Event::Ordered_enter, Event::Ordered_begin, Event::Ordered_end, Event::Ordered_exit},
          /*HasImplicitBarrier=*/false);
  }
};

/// Single events: atomic and flush after the construct (paper Table 3),
/// cancellation point before it (the thread may leave the region there).
class SingleEventHandler final : public ConstructHandler {
public:
  SingleEventHandler(ctc::RegionKind Kind, Event Single, EventPlacement Placement)
      : Kind(Kind), Single(Single), Placement(Placement) {}
  void instrument(ConstructEditor &E) const override {
    instrumentSingleEvent(E, Kind, Single, Placement);
  }

private:
  ctc::RegionKind Kind;
  Event Single;
  EventPlacement Placement;
};

/// `cancel`: the event goes before the directive, since an activated
/// cancellation leaves the region; its if clause is evaluated once.
class CancelHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Cancel_event))
      return;
    const unsigned H = E.newHandle(ctc::RegionKind::Cancel);
    std::string Declarations;
    const std::string If = evaluateIfOnce(E, H, Declarations);
    wrapConstruct(E,
                  (Declarations.empty() ? "" : Declarations.substr(1) + " ") +
                      ConstructEditor::call(Event::Cancel_event,
                                            {E.handleAddress(H), E.threadId(), If, E.ctc(H)}),
                  "");
  }
};

} // namespace

std::unique_ptr<ConstructHandler> makeCriticalHandler() {
  return std::make_unique<BlockSyncHandler>(
      ctc::RegionKind::Critical, BlockEvents{Event::Critical_enter, Event::Critical_begin,
                                             Event::Critical_end, Event::Critical_exit});
}

std::unique_ptr<ConstructHandler> makeTaskgroupHandler() {
  return std::make_unique<BlockSyncHandler>(
      ctc::RegionKind::Taskgroup, BlockEvents{Event::Taskgroup_enter, Event::Taskgroup_begin,
                                              Event::Taskgroup_end, Event::Taskgroup_exit});
}

std::unique_ptr<ConstructHandler> makeMasterHandler(bool Masked) {
  return std::make_unique<MasterHandler>(Masked);
}

std::unique_ptr<ConstructHandler> makeStandaloneHandler(ctc::RegionKind Kind, Event Enter,
                                                        Event Exit) {
  return std::make_unique<StandaloneHandler>(Kind, Enter, Exit);
}

std::unique_ptr<ConstructHandler> makeOrderedHandler() {
  return std::make_unique<OrderedHandler>();
}

std::unique_ptr<ConstructHandler> makeSingleEventHandler(ctc::RegionKind Kind, Event Single,
                                                         EventPlacement Placement) {
  return std::make_unique<SingleEventHandler>(Kind, Single, Placement);
}

std::unique_ptr<ConstructHandler> makeCancelHandler() { return std::make_unique<CancelHandler>(); }

} // namespace pomp::inst
