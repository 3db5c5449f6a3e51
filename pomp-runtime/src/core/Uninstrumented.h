//===- core/Uninstrumented.h - Source files not instrumented ----*- C++ -*-===//
///
/// \file
/// The source files that ompcc compiled without instrumentation: each one's
/// constructor reports it through POMP_Note_uninstrumented() (usually before
/// main, before the library initialises; also from a library loaded later),
/// and finalisation lists them in the profile and in the summary, so that a
/// profile with holes says where they are.
///
/// The list is constant-initialised (an atomic pointer), so a note arriving
/// before this library's own static constructors ran (a static link) is kept.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_UNINSTRUMENTED_H
#define POMP_RUNTIME_CORE_UNINSTRUMENTED_H

#include <string>
#include <vector>

namespace pomp::rt {

/// One source file compiled without instrumentation, and why.
struct UninstrumentedFile {
  std::string File;
  std::string Reason;

  bool operator<(const UninstrumentedFile &O) const {
    return File != O.File ? File < O.File : Reason < O.Reason;
  }
  bool operator==(const UninstrumentedFile &O) const {
    return File == O.File && Reason == O.Reason;
  }
};

/// Records a file; the strings are copied (the caller may be unloaded).
/// Safe from any thread, in every phase, before any initialisation; false
/// when out of memory.
bool noteUninstrumented(const char *File, const char *Reason);

/// The files noted so far, sorted by file, each once.
std::vector<UninstrumentedFile> uninstrumentedFiles();

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_UNINSTRUMENTED_H
