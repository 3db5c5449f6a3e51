//===- pomp/report/Tool.h - The pomp-report command -------------*- C++ -*-===//
///
/// \file
/// The command line of pomp-report and what it does with it, as a library so
/// that the tests call the same code as the tool (docs/REPORT.md).
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_TOOL_H
#define POMP_REPORT_TOOL_H

#include "pomp/report/Export.h"
#include "pomp/report/Compare.h"
#include "pomp/report/Rows.h"
#include "pomp/report/Trace.h"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace pomp::report {

/// Exit statuses: done, the input or the output failed, the command line is wrong.
inline constexpr int ExitOk = 0;
inline constexpr int ExitError = 1;
inline constexpr int ExitUsage = 2;

/// Everything the command line says.
struct Options {
  std::string Experiment; ///< the experiment directory or a profile.json
  Selection Select;
  std::string FilterText; ///< as given, for the header
  std::string SortText;   ///< `--sort` as given: its keys depend on the number of runs
  bool Tree = false;
  bool Threads = false;
  bool Json = false;
  bool Help = false;
  bool Version = false;
  ThreadMetric Metric = ThreadMetric::Exclusive;
  std::string HtmlPath;  ///< "" for no page
  std::string TracePath; ///< "" for the experiment's own trace, if any
  TimelineLimits Limits;
  /// `--format=folded|hatchet`: the whole tree for another viewer instead of
  /// the table (Export.h); none for the table.
  std::optional<ExportFormat> Export;
  /// `pomp-report A B`: the second run, compared with Experiment (run A).
  std::string Other;
  CompareSort CompareBy = CompareSort::Diff;
  /// --rank=N: of an MPI job's directory, rank N's part alone (docs/MPI.md).
  std::optional<int> Rank;
};

/// The usage text `--help` prints.
std::string usageText();

/// Reads the arguments (without the program name). On a usage error returns
/// false and sets Error to one sentence.
bool parseArguments(const std::vector<std::string> &Args, Options &Out, std::string &Error);

/// Runs the report; returns the exit status. Results go to Out, messages
/// ("pomp-report: error: ...") to Err.
int runReport(const Options &O, std::ostream &Out, std::ostream &Err);

} // namespace pomp::report

#endif // POMP_REPORT_TOOL_H
