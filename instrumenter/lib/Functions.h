//===- Functions.h - Function_begin/end in function bodies ------*- C++ -*-===//
///
/// \file
/// Function instrumentation (paper section 3.5, Table 5): Function_begin at
/// the start of each selected function body and Function_end on every way
/// out — returns, falling off the end and, in C++, exceptions (an RAII guard
/// whose destructor emits the end event).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_FUNCTIONS_H
#define POMP_INSTRUMENTER_FUNCTIONS_H

namespace clang {
class ASTContext;
} // namespace clang

namespace pomp::inst {

class FileInstrumentation;

/// Instruments the function definitions of the main file whose qualified
/// names match the options' filter. Returns false (with a diagnostic) when
/// the filter is not a valid regular expression.
bool instrumentFunctions(clang::ASTContext &Context, FileInstrumentation &File);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_FUNCTIONS_H
