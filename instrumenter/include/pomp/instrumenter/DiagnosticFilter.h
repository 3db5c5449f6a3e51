//===- pomp/instrumenter/DiagnosticFilter.h - A client in front of a client -*- C++ -*-===//
///
/// \file
/// The base of ompinst's diagnostic consumers that sit in front of a parse's
/// or a compile's own client (IgnoredDirectiveParts, PreambleLoadErrors, the
/// clang plugin's): each decides in HandleDiagnostic what to keep for itself
/// and passes the rest on.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_DIAGNOSTICFILTER_H
#define POMP_INSTRUMENTER_DIAGNOSTICFILTER_H

#include "clang/Basic/Diagnostic.h"

#include <memory>
#include <utility>

namespace pomp::inst {

/// Wraps a DiagnosticsEngine's client: every call but HandleDiagnostic goes
/// on to it unchanged; a subclass calls passOn() for the diagnostics it does
/// not keep, which are then counted and shown as without the filter.
class DiagnosticFilter : public clang::DiagnosticConsumer {
public:
  void BeginSourceFile(const clang::LangOptions &Lang, const clang::Preprocessor *PP) override {
    Next.BeginSourceFile(Lang, PP);
  }
  void EndSourceFile() override { Next.EndSourceFile(); }
  void finish() override { Next.finish(); }
  void clear() override {
    DiagnosticConsumer::clear();
    Next.clear();
  }
  bool IncludeInDiagnosticCounts() const override { return Next.IncludeInDiagnosticCounts(); }

protected:
  /// Takes Diags' client over (its ownership too, when Diags had it).
  explicit DiagnosticFilter(clang::DiagnosticsEngine &Diags)
      : Next(*Diags.getClient()), Owned(Diags.takeClient()) {}
  /// In front of Next, which the caller keeps.
  explicit DiagnosticFilter(clang::DiagnosticConsumer &Next) : Next(Next) {}

  void passOn(clang::DiagnosticsEngine::Level Level, const clang::Diagnostic &Info) {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    Next.HandleDiagnostic(Level, Info);
  }

private:
  clang::DiagnosticConsumer &Next;
  std::unique_ptr<clang::DiagnosticConsumer> Owned;
};

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_DIAGNOSTICFILTER_H
