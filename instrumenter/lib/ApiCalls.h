//===- ApiCalls.h - OpenMP API calls through POMP wrappers ------*- C++ -*-===//
///
/// \file
/// Calls of the OpenMP lock routines and of the routines of the paper's
/// Table 8 become calls of the wrappers in pomp_omp_wrappers.h, which call the
/// real routine and emit its events (paper section 3.4). A routine whose
/// address is taken instead of called is replaced by a per-site function
/// with the routine's own signature, so calls through the pointer are
/// measured too.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_INSTRUMENTER_APICALLS_H
#define POMP_INSTRUMENTER_APICALLS_H

#include <string>

namespace clang {
class ASTContext;
} // namespace clang

namespace pomp::inst {

class FileInstrumentation;

/// Rewrites the OpenMP API uses of the main file. Returns the definitions of
/// the per-site functions for taken addresses ("" when there are none);
/// *UsesWrappers tells whether the file needs pomp_omp_wrappers.h.
std::string instrumentApiCalls(clang::ASTContext &Context, FileInstrumentation &File,
                               bool &UsesWrappers);

} // namespace pomp::inst

#endif // POMP_INSTRUMENTER_APICALLS_H
