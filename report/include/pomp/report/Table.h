//===- pomp/report/Table.h - The report as text and JSON --------*- C++ -*-===//
///
/// \file
/// Renders chosen rows as a table for people and as JSON for scripts. Numbers
/// are printed with profile.txt's formats (seconds with six decimals, the
/// imbalance as a percentage with one), so that a row reads the same here, in
/// profile.txt and in libpomp's summary on stderr.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_TABLE_H
#define POMP_REPORT_TABLE_H

#include "pomp/report/Profile.h"
#include "pomp/report/Rows.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace pomp::report {

/// How the rows are laid out.
struct TableOptions {
  bool Tree = false;    ///< rows are call-path nodes, indented by depth
  bool Threads = false; ///< a line per thread under every row
  ThreadMetric Metric = ThreadMetric::Exclusive;
  /// One line on how the rows were chosen: "sorted by excl; 4 of 4 rows".
  std::string Selection;
};

/// "regions: 6 registered, 5 entered, 1 never entered ...": why the header's
/// region count and the table's rows differ (a region has a row per part).
std::string regionCounts(const Profile &P);

/// The directory all absolute source paths of the profile's regions share
/// ("/home/me/lulesh/"), "" when there is none but "/"; tables show paths
/// relative to it, the JSON keeps them whole.
std::string commonRoot(const Profile &P);
/// Title with "@<Root>" shortened to "@".
std::string shortTitle(const std::string &Title, const std::string &Root);

/// The lines `command:`, `settings:` and `host: ...` of profile.txt's header,
/// "" for a profile without `run`.
std::string runSummary(const RunMetadata &M);

/// "waiting: 0.051 s, 26.2% of the threads' time (4 threads x 0.048 s)": the
/// exclusive time of the `wait` nodes and its share of duration x threads, as
/// profile.txt says it.
std::string waitingSummary(const Profile &P);

/// Seconds as profile.txt prints them ("%.6f").
std::string formatSeconds(std::uint64_t Ns);
/// An imbalance as profile.txt prints it ("33.2%").
std::string formatPercent(double Fraction);

/// The warning line about the profile's uninstrumented source files ("" when
/// there are none), shared by the text and the HTML page.
std::string uninstrumentedWarning(const Profile &P);

/// The header, the rows and the anomalies as text.
std::string renderTable(const Profile &P, const std::vector<Row> &Rows, const TableOptions &O);
/// The same written to Out as it is made: a tree's table is as large as the
/// profile.
void writeTable(std::ostream &Out, const Profile &P, const std::vector<Row> &Rows,
                const TableOptions &O);

/// The rows as one JSON object (docs/REPORT.md, "--json").
std::string renderJson(const Profile &P, const std::vector<Row> &Rows, const TableOptions &O);
/// The same written to Out row by row.
void writeJson(std::ostream &Out, const Profile &P, const std::vector<Row> &Rows,
               const TableOptions &O);

} // namespace pomp::report

#endif // POMP_REPORT_TABLE_H
