//===- WorkshareHandlers.cpp - sections, single, scope ---------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"

namespace pomp::inst {

using namespace clang;

namespace {

/// `sections`: enter/exit around, Section_begin/end inside every section
/// (numbered from 1 in source order), the implicit barrier made visible.
class SectionsHandler final : public ConstructHandler {
public:
  void instrument(ConstructEditor &E) const override {
    const bool EnterExit = E.enabled(Event::Sections_enter);
    const bool BeginEnd = E.enabled(Event::Section_begin);
    if (!EnterExit && !BeginEnd)
      return;
    const unsigned H = E.newHandle(ctc::RegionKind::Sections);
    const std::string Tid = E.threadId();
    if (BeginEnd)
      instrumentSectionBlocks(E, H);
    std::string After = implicitBarrier(E, /*ReplacesImplicitBarrier=*/true);
    if (EnterExit) {
      After += (After.empty() ? "" : " ") +
               ConstructEditor::call(Event::Sections_exit, {E.handle(H), Tid});
      wrapConstruct(
          E, ConstructEditor::call(Event::Sections_enter, {E.handleAddress(H), Tid, E.ctc(H)}),
          After);
    } else {
      wrapConstruct(E, "", After);
    }
  }
};

/// `single` and `scope`: enter/begin/end/exit with the implicit barrier made
/// visible (never for single copyprivate).
class BlockWorkshareHandler final : public ConstructHandler {
public:
  BlockWorkshareHandler(ctc::RegionKind Kind, BlockEvents Events) : Kind(Kind), Events(Events) {}
  void instrument(ConstructEditor &E) const override {
    instrumentBlockConstruct(E, Kind, Events, /*HasImplicitBarrier=*/true);
  }

private:
  ctc::RegionKind Kind;
  BlockEvents Events;
};

} // namespace

void instrumentSectionBlocks(ConstructEditor &E, unsigned H) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(E.associatedStatement());
  if (!Body)
    return;
  const std::string Tid = E.threadId();
  unsigned Number = 0;
  for (const Stmt *Child : Body->body()) {
    // The first section's directive may be omitted: then the first
    // statement is the section's block.
    const Stmt *Block = Child;
    if (const auto *Section = dyn_cast<OMPSectionDirective>(Child))
      Block = Section->getAssociatedStmt();
    else if (Number > 0)
      continue;
    if (!Block)
      continue;
    ++Number;
    // One level deeper than the sections construct, so a construct nested
    // in the section nests inside these events.
    E.statementBegin(
        *Block,
        ConstructEditor::call(Event::Section_begin, {E.handle(H), std::to_string(Number), Tid}), 1);
    E.statementEnd(*Block, ConstructEditor::call(Event::Section_end, {E.handle(H), Tid}), 1);
  }
}

std::unique_ptr<ConstructHandler> makeSectionsHandler() {
  return std::make_unique<SectionsHandler>();
}

std::unique_ptr<ConstructHandler> makeSingleHandler() {
  return std::make_unique<BlockWorkshareHandler>(
      ctc::RegionKind::Single,
      BlockEvents{Event::Single_enter, Event::Single_begin, Event::Single_end, Event::Single_exit});
}

std::unique_ptr<ConstructHandler> makeScopeHandler() {
  return std::make_unique<BlockWorkshareHandler>(
      ctc::RegionKind::Scope,
      BlockEvents{Event::Scope_enter, Event::Scope_begin, Event::Scope_end, Event::Scope_exit});
}

} // namespace pomp::inst
