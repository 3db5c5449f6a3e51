//===- ModelHandler.cpp - C/C++ spelling of the shared construct model -----===//
///
/// \file
/// The construct handler of every directive kind the language-neutral model
/// (instrumenter/model) plans: it reads the clause facts from Clang's AST,
/// asks the model what the construct becomes and spells the plan in C at
/// the ConstructEditor's places. The Fortran front end spells the same plans
/// (instrumenter/fortran).
///
//===----------------------------------------------------------------------===//
#include "Common.h"
#include "Handlers.h"

#include "clang/AST/OpenMPClause.h"

#include <algorithm>
#include <optional>

namespace pomp::inst {

using namespace clang;
using model::Arg;
using model::Step;

namespace {

/// The values a plan's symbolic arguments take for one construct.
struct Spelling {
  explicit Spelling(const ConstructEditor &E) : E(E) {}
  const ConstructEditor &E;
  unsigned Construct = 0;
  unsigned Barrier = 0;
  std::string Context;
  std::string If = NotAvailable32;
  std::string NumThreads = NotAvailable32;
  std::optional<LoopContext> Loop;
  unsigned Section = 0;

  std::string arg(Arg A, model::Region R) {
    const unsigned H = R == model::Region::Construct ? Construct : Barrier;
    switch (A) {
    case Arg::HandleFirst:
      return E.handleAddress(H);
    case Arg::Handle:
      return E.handle(H);
    case Arg::ThreadId:
      return E.threadId();
    case Arg::TeamThreadId:
      return E.threadIdInParallel();
    case Arg::NotAvailable:
      return NotAvailable32;
    case Arg::If:
      return If;
    case Arg::NumThreads:
      return NumThreads;
    case Arg::ContextOut:
      // steps() spells the call as the form that returns the context.
      return Context;
    case Arg::Context:
      return Context;
    case Arg::Ctc:
      return E.ctc(H);
    case Arg::SectionNumber:
      return std::to_string(Section);
    case Arg::ChunkSize:
      return loop().ChunkSize;
    case Arg::InitIter:
      return loop().InitIter;
    case Arg::FinalIter:
      return loop().FinalIter;
    case Arg::Increment:
      return loop().Increment;
    case Arg::Device:
      // The target family has handlers of its own (TargetHandlers.cpp).
      return NotAvailable32;
    }
    return NotAvailable32;
  }

  const LoopContext &loop() {
    if (!Loop)
      Loop = loopContext(E);
    return *Loop;
  }

  /// Steps as C: calls separated by a space, the barrier on a line of its own.
  /// SkippableJoin: the barrier and what follows it under the run-time
  /// condition of Plan::JoinBarrierSkippable.
  std::string steps(const std::vector<Step> &Steps, bool SkippableJoin = false) {
    std::string Text;
    bool AfterDirective = false;
    bool Conditional = false;
    for (const Step &S : Steps) {
      if (S.K == Step::Kind::BarrierDirective) {
        if (SkippableJoin) {
          Text += (Text.empty() ? "" : " ") + joinBarrierCondition(Context) + " {";
          Conditional = true;
        }
        Text += "\n#pragma omp barrier\n";
        AfterDirective = true;
        continue;
      }
      if (!Text.empty() && !AfterDirective)
        Text += ' ';
      AfterDirective = false;
      // An event that hands out a context returns it (ConstructEditor::contextCall).
      const bool ReturnsContext =
          std::find(S.Args.begin(), S.Args.end(), Arg::ContextOut) != S.Args.end();
      std::vector<std::string> Args;
      for (const Arg A : S.Args)
        if (A != Arg::ContextOut)
          Args.push_back(arg(A, S.R));
      Text += ReturnsContext ? ConstructEditor::contextCall(S.E, Context, Args)
                             : ConstructEditor::call(S.E, Args);
    }
    if (Conditional)
      Text += " }";
    return Text;
  }
};

/// Instruments a directive as the model plans it.
class ModelHandler final : public ConstructHandler {
public:
  explicit ModelHandler(const model::ConstructSpec &Spec) : Spec(Spec) {}

  void instrument(ConstructEditor &E) const override {
    const model::Plan P =
        model::planConstruct(Spec, clauseFacts(E), [&E](Event Ev) { return E.enabled(Ev); });
    if (!P.Instrumented)
      return;
    Spelling S(E);
    ctc::RegionDescriptor Descriptor = E.describe(P.Kind);
    // Nothing runs between the previous construct's exit and this enter: the
    // enter may take that exit's time (docs/INSTRUMENTER.md, "Constructs one
    // after another").
    Descriptor.AfterConstruct = E.followsExit() && P.startsWithEnter();
    S.Construct = E.newHandle(Descriptor);
    if (P.startsWithEnter())
      E.noteStartsWithEnter(S.Construct);
    if (P.UsesBarrierHandle)
      S.Barrier = E.newHandle(ctc::RegionKind::ImplicitBarrier);
    std::string Declarations;
    if (P.ContextName) {
      S.Context = E.local(P.ContextName, S.Construct);
      Declarations = " POMP_Context_t " + S.Context + ";";
    }
    if (P.EvaluateIf)
      S.If = evaluateIfOnce(E, S.Construct, Declarations);
    if (P.EvaluateNumThreads)
      S.NumThreads = evaluateNumThreadsOnce(E, S.Construct, Declarations);
    if (P.ContextFirstprivate)
      E.appendClause("firstprivate(" + S.Context + ")");
    if (!P.SectionBegin.empty())
      instrumentSectionBlocks(E, [&](unsigned Number) {
        S.Section = Number;
        return std::make_pair(S.steps(P.SectionBegin), S.steps(P.SectionEnd));
      });
    if (P.hasBlockCode()) {
      E.blockBegin(S.steps(P.BlockBegin));
      E.blockEnd(S.steps(P.BlockEnd, P.JoinBarrierSkippable && !S.Context.empty()));
    }
    if (P.AddNowait)
      E.appendClause("nowait");
    std::string Before = S.steps(P.Before);
    if (!Declarations.empty())
      Before = Declarations.substr(1) + (Before.empty() ? "" : " " + Before);
    wrapConstruct(E, Before, S.steps(P.After));
    if (P.endsWithExit())
      E.noteEndsWithExit();
    if (P.blockBeginsWithBegin())
      E.noteBlockBeginsWithBegin();
  }

private:
  model::ConstructSpec Spec;
};

} // namespace

std::unique_ptr<ConstructHandler> makeModelHandler(const model::ConstructSpec &Spec) {
  return std::make_unique<ModelHandler>(Spec);
}

std::unique_ptr<ConstructHandler> makeCombinedParallelHandler(ctc::RegionKind Kind) {
  return makeModelHandler({model::Shape::CombinedParallel, Kind});
}

} // namespace pomp::inst
