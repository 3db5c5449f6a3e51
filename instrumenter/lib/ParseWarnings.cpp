//===- ParseWarnings.cpp - The instrumentation parse judges no warnings ----===//
#include "ParseWarnings.h"

#include "clang/Basic/DiagnosticIDs.h"

#include <vector>

namespace pomp::inst {

using namespace clang;

namespace {

/// The warnings and extensions that are errors by default: a few hundred of
/// Clang's diagnostics. Found at load time, so that the ompinst server's
/// children (instrumenter/server) inherit the list instead of each
/// searching Clang's whole table again (1 M instructions).
const std::vector<diag::kind> DefaultErrorWarnings = [] {
  std::vector<diag::kind> All;
  DiagnosticIDs::getAllDiagnostics(diag::Flavor::WarningOrError, All);
  std::vector<diag::kind> Found;
  for (const diag::kind ID : All)
    if (DiagnosticIDs::isBuiltinWarningOrExtension(ID) && DiagnosticIDs::isDefaultMappingAsError(ID))
      Found.push_back(ID);
  return Found;
}();

} // namespace

void ignoreDefaultErrorWarnings(DiagnosticsEngine &Diags) {
  for (const diag::kind ID : DefaultErrorWarnings)
    Diags.setSeverity(ID, diag::Severity::Ignored, SourceLocation());
}

} // namespace pomp::inst
