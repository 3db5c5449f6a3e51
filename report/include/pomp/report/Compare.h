//===- pomp/report/Compare.h - Two runs compared ----------------*- C++ -*-===//
///
/// \file
/// `pomp-report A B`: the time of every region in run A and in run B, their
/// difference (B - A) and ratio (B / A), regions matched by identity, never by
/// handle number: the same source construct gets another handle when another
/// file was linked first, or in a run that registered its regions in another
/// order. A region's identity is what the program's source says about it: the
/// CTC type, the construct (the opening event: `parallel` and `parallel body`
/// stay apart), the name and the source location; in tree mode the identities
/// of the whole call path from the program's root (docs/REPORT.md, "Two runs").
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_COMPARE_H
#define POMP_REPORT_COMPARE_H

#include "pomp/report/Profile.h"
#include "pomp/report/Rows.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

namespace pomp::report {

/// Which runs a compared row occurs in.
enum class Presence { Both, OnlyA, OnlyB };

/// "both", "only A", "only B".
const char *presenceName(Presence P);

/// One region (or call path) in both runs.
struct CompareRow {
  std::string Key;      ///< the identity the runs were matched by
  std::string Title;    ///< for people; a call path's titles joined by " > "
  std::string Location; ///< of the region (the path's last)
  NodeKind Kind = NodeKind::Work;
  Presence In = Presence::Both;
  /// The compared time (exclusive or inclusive, summed over threads).
  std::uint64_t ANs = 0, BNs = 0;
  std::uint64_t AVisits = 0, BVisits = 0;
  std::uint64_t AInclusiveNs = 0, BInclusiveNs = 0;
  std::uint64_t AExclusiveNs = 0, BExclusiveNs = 0;
  /// Order of first appearance (A's rows first), for ties.
  std::size_t Order = 0;

  /// B - A in nanoseconds.
  std::int64_t diffNs() const;
  /// B / A; none when A is 0 (a region only in B, or one A never spent time in).
  std::optional<double> ratio() const;
};

/// How compared rows are ordered: `diff` the largest change either way first,
/// `ratio` the largest B / A first (regions new in B before all, regions gone
/// in B after all), `a` and `b` the largest time first, `name` alphabetically.
enum class CompareSort { Diff, Ratio, A, B, Name };

/// `diff`, `ratio`, `a`, `b`, `name`.
std::optional<CompareSort> parseCompareSort(const std::string &Text);
const char *compareSortName(CompareSort Key);

/// A region's identity in a profile, independent of its handle number.
std::string regionIdentity(const Profile &P, const Node &N);

/// Every region (Tree: every call path) of A and B, matched by identity;
/// several rows of one run with the same identity (copies of one construct)
/// are summed. The order is A's, then what only B has.
std::vector<CompareRow> compareProfiles(const Profile &A, const Profile &B, bool Tree,
                                        ThreadMetric Metric);

/// The rows whose title matches Filter, sorted, at most Top (0: all).
std::vector<CompareRow> selectCompared(std::vector<CompareRow> Rows,
                                       const std::optional<std::regex> &Filter, CompareSort Sort,
                                       std::size_t Top);

/// What a comparison shows, for the renderers.
struct Comparison {
  const Profile *A = nullptr;
  const Profile *B = nullptr;
  std::string PathA, PathB;
  bool Tree = false;
  ThreadMetric Metric = ThreadMetric::Exclusive;
  std::vector<CompareRow> Rows;
  /// "sorted by diff; 7 of 7 regions".
  std::string Selection;
};

/// Counts of the shown rows: in both runs, only in A, only in B.
struct PresenceCounts {
  std::size_t Both = 0, OnlyA = 0, OnlyB = 0;
};
PresenceCounts countPresence(const std::vector<CompareRow> &Rows);

/// The comparison as text.
void writeCompareTable(std::ostream &Out, const Comparison &C);
/// The comparison as one JSON object (docs/REPORT.md, "Two runs compared").
void writeCompareJson(std::ostream &Out, const Comparison &C);
/// The comparison as an HTML section (table and notes), for the page.
std::string renderCompareHtml(const Comparison &C);

} // namespace pomp::report

#endif // POMP_REPORT_COMPARE_H
