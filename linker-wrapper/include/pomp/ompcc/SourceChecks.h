//===- pomp/ompcc/SourceChecks.h - What needs instrumenting -------*- C++ -*-===//
///
/// \file
/// Two cheap decisions ompcc makes before running ompinst: whether a source
/// can need instrumentation at all, and whether a command is a build
/// system's probe (configure's conftest, CMake's try_compile), which must
/// see the real compiler exactly.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_SOURCECHECKS_H
#define POMP_OMPCC_SOURCECHECKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <cstddef>
#include <optional>
#include <string>

namespace pomp::ompcc {

/// Whether the text of a source file may hold something ompinst rewrites:
/// an identifier `omp` or `pomp` (the pragmas), `_Pragma`, `main` (which
/// gets POMP_Init/POMP_Finalize) or one starting with `omp_` (OpenMP API
/// calls). A file with none of them would come out of ompinst unchanged but
/// for an empty init function, so it is compiled as it is, at the plain
/// compiler's speed. Comments and strings are not skipped: a mention there
/// only costs the instrumentation of a file that did not need it.
bool mayNeedInstrumentation(llvm::StringRef Text);

/// The same decision for a Fortran source (free or fixed form), by words
/// that cannot be avoided: a `$` (the sentinels !$omp, c$omp, *$omp, !$pomp,
/// !P$ and conditional lines !$), `omp_` (OpenMP API calls), `program` (the
/// main program gets POMP_Init/POMP_Finalize) or `include` (an included file
/// may hold any of them), in any case.
bool mayNeedFortranInstrumentation(llvm::StringRef Text);

/// Whether a source or one of the project's headers it includes may need
/// instrumentation (mayNeedInstrumentation): ompinst instruments the
/// constructs of the project's own headers (docs/INSTRUMENTER.md), so a
/// file whose own text holds no OpenMP but which includes a header that
/// does must be instrumented too. `#include` lines are followed through the
/// including file's directory and IncludeDirectories (the command's -I and
/// -iquote directories), each header read at most once; what they do not
/// find is a system header and not read.
bool mayNeedInstrumentationWithHeaders(llvm::StringRef SourcePath, llvm::StringRef Text,
                                       llvm::ArrayRef<std::string> IncludeDirectories);

/// Whether Text writes an OpenMP directive in the attribute syntax: the
/// identifier `omp` followed by `::` (`omp::directive`, `omp::sequence`),
/// or `using omp :`. Comments are not skipped, as for
/// mayNeedInstrumentation: a mention there only costs a question to the
/// compiler.
bool mentionsOpenMPAttributes(llvm::StringRef Text);

/// mentionsOpenMPAttributes for a source and the project's headers it
/// includes, followed as by mayNeedInstrumentationWithHeaders.
bool mentionsOpenMPAttributesWithHeaders(llvm::StringRef SourcePath, llvm::StringRef Text,
                                         llvm::ArrayRef<std::string> IncludeDirectories);

/// The end of a source's `#include` block, the part a compile beside the
/// instrumentation reads while ompinst runs (docs/OMPCC.md, "With gcc"):
/// the offset just past the line break of the last `#include` or `#import`
/// outside any `#if` among the directives, comments and
/// blank lines the file starts with. nullopt when there is none. It stops,
/// keeping what it found, at anything it does not read exactly: the first
/// other text, a `#pragma` that mentions `omp` (ompinst may rewrite it), a
/// line continued with a backslash, a comment that does not end on its
/// directive's line, an `#endif` without its `#if`. The instrumented text's
/// shares this part with the source unless ompinst edited it, which the
/// caller checks.
std::optional<std::size_t> includeBlockEnd(llvm::StringRef Text);

/// Whether a command is a probe of a build system, recognised by names the
/// build systems fix: autoconf's and libtool's `conftest.*`, a path below
/// CMake's try_compile directories (`CMakeFiles/CMakeScratch`,
/// `CMakeFiles/CMakeTmp`) or compiler identification (`CMakeFiles/<version>/
/// CompilerId<lang>`), CMake's `cmTC_*` targets, Meson's `meson-private`.
/// Paths are the command's inputs and output; WorkingDirectory is where it
/// runs.
bool isBuildSystemProbe(llvm::ArrayRef<std::string> Paths, llvm::StringRef WorkingDirectory);

} // namespace pomp::ompcc

#endif // POMP_OMPCC_SOURCECHECKS_H
