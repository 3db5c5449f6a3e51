//===- trace/ChromeTrace.h - Chrome trace event JSON ------------*- C++ -*-===//
///
/// \file
/// Writes <experiment dir>/trace.json in the Chrome trace event format, which
/// Perfetto (ui.perfetto.dev) and chrome://tracing open: a "B"/"E" pair per
/// region visit and an "i" event per single event, with pid, tid (the
/// thread's index) and ts in microseconds.
///
/// While the program runs each thread appends fixed-size binary records
/// (timestamp, node key, phase) to its own buffer and writes a full buffer to
/// a spill file of its own; finalisation converts the records to JSON with the
/// clock rate refined over the whole run and names from the region table.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_CHROMETRACE_H
#define POMP_RUNTIME_TRACE_CHROMETRACE_H

#include "trace/Trace.h"

#include <memory>
#include <string>

namespace pomp::rt {

/// Prepares Directory/trace.json. nullptr and the reason when the directory
/// cannot be written.
std::unique_ptr<TraceSink> openChromeTrace(const TraceSettings &Settings,
                                           const std::string &Directory, std::string &Error);

/// The file's name in the experiment directory.
inline constexpr const char *ChromeTraceName = "trace.json";

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_CHROMETRACE_H
