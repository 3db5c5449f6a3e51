//===- trace/Otf2Trace.h - The OTF2 trace writer ----------------*- C++ -*-===//
///
/// \file
/// Writes <experiment dir>/trace/traces.otf2 (docs/TRACE_FORMAT.md): one
/// location per thread, written only by that thread into an OTF2 event buffer
/// of bounded size that OTF2 flushes to disk whenever it is full, and the
/// global definitions (system tree, process, threads, regions, clock) at
/// finalisation.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_OTF2TRACE_H
#define POMP_RUNTIME_TRACE_OTF2TRACE_H

#include "trace/Trace.h"

#include <memory>
#include <string>

namespace pomp::rt {

/// Opens the OTF2 archive in Directory/trace. nullptr and the reason when
/// libotf2 cannot be loaded or the archive cannot be created.
std::unique_ptr<TraceSink> openOtf2Trace(const TraceSettings &Settings,
                                         const std::string &Directory, std::string &Error);

/// Where the archive's anchor file is, relative to the experiment directory.
inline constexpr const char *Otf2AnchorPath = "trace/traces.otf2";

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_OTF2TRACE_H
