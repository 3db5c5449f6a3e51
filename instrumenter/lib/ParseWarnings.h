//===- ParseWarnings.h - The instrumentation parse judges no warnings ------===//
///
/// \file
/// ompinst's parse leaves the user's warnings to the compiler, which sees
/// the output. parseArguments gives it -w, which silences warnings but not
/// the ones Clang makes errors by default (implicit function declarations,
/// implicit int, int-conversion, ...): gcc 12 accepts those as warnings,
/// and a parse that stops at one would leave a file that gcc builds
/// uninstrumented. -Wno-everything silences them too, but it sets each of
/// Clang's thousands of warnings apart (DiagnosticsEngine::setSeverityForAll),
/// a quarter of a served parse of a small file (issue 15, session 18).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_PARSEWARNINGS_H
#define POMP_INSTRUMENTER_PARSEWARNINGS_H

#include "clang/Basic/Diagnostic.h"

namespace pomp::inst {

/// Maps the warnings and extensions that are errors by default to ignored
/// in Diags' current state: with -w, the parse then reports no warning of
/// the user's code in any form, as under -Wno-everything. Called before the
/// parse (and before a precompiled preamble loads, whose build calls it too:
/// a PCH carries its diagnostic mappings).
void ignoreDefaultErrorWarnings(clang::DiagnosticsEngine &Diags);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_PARSEWARNINGS_H
