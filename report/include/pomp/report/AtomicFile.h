//===- pomp/report/AtomicFile.h - Writing a file all or nothing -*- C++ -*-===//
///
/// \file
/// Writes a file through a temporary name in the same directory and rename(),
/// so a reader (a browser reloading the page) never sees half a report and a
/// failed write leaves an older report in place.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_ATOMICFILE_H
#define POMP_REPORT_ATOMICFILE_H

#include <string>
#include <string_view>

namespace pomp::report {

/// Writes Contents to Path. On failure returns false, removes the temporary
/// file and sets Error to "cannot write '<Path>': <reason>".
bool writeFileAtomically(const std::string &Path, std::string_view Contents, std::string &Error);

} // namespace pomp::report

#endif // POMP_REPORT_ATOMICFILE_H
