//===- TargetHandlers.cpp - the target family, error -----------------------===//
///
/// \file
/// Target constructs get events on the host around the construct and nothing
/// inside: their bodies are device code.
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/OpenMPClause.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// The device number a target directive names, when reading it again is
/// harmless; -1 (the default device) otherwise.
std::string deviceNumber(const ConstructEditor &E) {
  const auto *Device = E.clause<OMPDeviceClause>();
  if (!Device || !Device->getDevice())
    return NotAvailable32;
  const Expr *Number = Device->getDevice();
  if (Number->HasSideEffects(E.file().context()) || Number->isValueDependent())
    return NotAvailable32;
  return "(int)(" + E.expressionText(*Number) + ")";
}

/// `target` and its combined forms, `target data`: enter/exit on the host.
class TargetRegionHandler final : public ConstructHandler {
public:
  TargetRegionHandler(ctc::RegionKind Kind, Event Enter, Event Exit)
      : Kind(Kind), Enter(Enter), Exit(Exit) {}
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Enter))
      return;
    const unsigned H = E.newHandle(Kind);
    const std::string Tid = E.threadId();
    wrapConstruct(
        E, ConstructEditor::call(Enter, {E.handleAddress(H), Tid, deviceNumber(E), E.ctc(H)}),
        ConstructEditor::call(Exit, {E.handle(H), Tid}));
  }

private:
  ctc::RegionKind Kind;
  Event Enter, Exit;
};

/// `target enter data`, `target exit data`, `target update`: one event after.
class TargetDataEventHandler final : public ConstructHandler {
public:
  explicit TargetDataEventHandler(ctc::RegionKind Kind) : Kind(Kind) {}
  void instrument(ConstructEditor &E) const override {
    if (!E.enabled(Event::Target_data_event))
      return;
    const unsigned H = E.newHandle(Kind);
    wrapConstruct(E, "",
                  ConstructEditor::call(Event::Target_data_event, {E.handleAddress(H), E.threadId(),
                                                                   deviceNumber(E), E.ctc(H)}));
  }

private:
  ctc::RegionKind Kind;
};

/// `error at(execution)`: an event before the message; at(compilation)
/// never runs.
class ErrorHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    const auto *At = E.clause<OMPAtClause>();
    if (!At || At->getAtKind() != OMPC_AT_execution || !E.enabled(Event::Error_event))
      return;
    const auto *Severity = E.clause<OMPSeverityClause>();
    const bool Fatal = !Severity || Severity->getSeverityKind() == OMPC_SEVERITY_fatal;
    const unsigned H = E.newHandle(ctc::RegionKind::Error);
    wrapConstruct(E,
                  ConstructEditor::call(Event::Error_event, {E.handleAddress(H), E.threadId(),
                                                             Fatal ? "1" : "0", E.ctc(H)}),
                  "");
  }
};

} // namespace

std::unique_ptr<ConstructHandler> makeTargetRegionHandler(ctc::RegionKind Kind) {
  return Kind == ctc::RegionKind::TargetData
             ? std::make_unique<TargetRegionHandler>(Kind, Event::Target_data_enter,
                                                     Event::Target_data_exit)
             : std::make_unique<TargetRegionHandler>(Kind, Event::Target_enter, Event::Target_exit);
}

std::unique_ptr<ConstructHandler> makeTargetDataEventHandler(ctc::RegionKind Kind) {
  return std::make_unique<TargetDataEventHandler>(Kind);
}

std::unique_ptr<ConstructHandler> makeErrorHandler() { return std::make_unique<ErrorHandler>(); }

} // namespace pomp::inst
