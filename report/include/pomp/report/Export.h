//===- pomp/report/Export.h - The profile for other viewers -----*- C++ -*-===//
///
/// \file
/// The call-path tree of a profile in the formats of existing viewers
/// (docs/REPORT.md, "Exports"): folded stacks for flame graphs (Brendan
/// Gregg's flamegraph.pl, speedscope, inferno) and the literal format of LLNL's
/// Hatchet (`GraphFrame.from_literal`). Both take the whole tree; the table's
/// selection options do not apply.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_EXPORT_H
#define POMP_REPORT_EXPORT_H

#include "pomp/report/Profile.h"

#include <optional>
#include <ostream>
#include <string>

namespace pomp::report {

/// The formats `--format` names besides the table.
enum class ExportFormat { Folded, Hatchet };

/// `folded`, `hatchet`; nullopt for anything else.
std::optional<ExportFormat> parseExportFormat(const std::string &Text);

/// One line per call-path node with exclusive time: the titles from the
/// outermost region down to the node joined by ';', a space and the node's
/// exclusive nanoseconds summed over threads. Titles have every ';' replaced
/// by ',' (the separator) and line breaks by spaces. Lines are in the tree's
/// pre-order; nodes without exclusive time are left out.
void writeFolded(std::ostream &Out, const Profile &P);

/// Hatchet's literal format: a JSON list holding one root, `program`, whose
/// nodes each have `frame` (`name`: the title, `type`: the construct),
/// `metrics` (`time (inc)` and `time` in seconds summed over threads,
/// `visits`, `threads`) and `children`.
void writeHatchet(std::ostream &Out, const Profile &P);

} // namespace pomp::report

#endif // POMP_REPORT_EXPORT_H
