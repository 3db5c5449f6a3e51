//===- pomp/report/Rows.h - The rows of the report --------------*- C++ -*-===//
///
/// \file
/// Turns the call-path tree into the rows the renderers show, and chooses and
/// orders them. A flat row is what libpomp's profile.txt calls a region: one
/// (region, event) pair summed over every call path it occurs on, so that
/// `parallel` and `parallel body` stay apart and the report's numbers are the
/// numbers of profile.txt and of the summary on stderr. A tree row is one node.
///
/// Recursion: where a region occurs inside an occurrence of itself, only the
/// outermost occurrence adds its inclusive and waiting time (as profile.txt
/// does), so no time is counted twice; visits and exclusive time always add.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_ROWS_H
#define POMP_REPORT_ROWS_H

#include "pomp/report/Profile.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace pomp::report {

/// One thread's part of a row.
struct ThreadShare {
  std::uint32_t Thread = 0;
  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  std::uint64_t WaitNs = 0;
};

/// Which per-thread time the min/avg/max columns show.
enum class ThreadMetric { Exclusive, Inclusive };

/// One line of the table: a (region, event) pair, or one node in tree mode.
struct Row {
  static constexpr std::uint32_t NoParent = Node::NoParent;

  /// The first node (in pre-order) the row covers: it names the row and
  /// breaks ties between equal keys the way profile.txt does.
  std::uint32_t FirstNode = 0;
  /// Tree mode: the node's parent node (NoParent at the top) and depth.
  std::uint32_t ParentNode = NoParent;
  std::uint32_t Depth = 0;

  std::string Title;     ///< libpomp's spelling: `user region "work" @demo.c:20`
  std::string Construct; ///< `user region`
  std::string Name;      ///< `work`, or ""
  std::string Location;  ///< `demo.c:20`, or ""
  NodeKind Kind = NodeKind::Work;

  std::uint64_t Visits = 0;
  std::uint64_t InclusiveNs = 0;
  std::uint64_t ExclusiveNs = 0;
  /// Waiting time in the row's regions: the exclusive time of `wait` nodes at
  /// or below them (a barrier's own time; the barriers inside a parallel body).
  std::uint64_t WaitNs = 0;
  /// Threads whose inclusive time the imbalance compares (profile.txt's
  /// `threads` column).
  std::size_t Threads = 0;
  /// (max - mean) / max of the threads' work (inclusive time without the
  /// waiting at and below the row's nodes), 0 for one thread and for waiting
  /// constructs (ImbalanceDefinition).
  double Imbalance = 0.0;
  /// Every thread that visited, by thread index.
  std::vector<ThreadShare> PerThread;
  /// Hardware counters (Profile::Metrics' order), summed as the times are.
  std::vector<std::uint64_t> MetricInclusive;
  std::vector<std::uint64_t> MetricExclusive;

  /// Smallest, mean and largest per-thread time over PerThread (0 when empty).
  std::uint64_t threadMin(ThreadMetric M) const;
  double threadMean(ThreadMetric M) const;
  std::uint64_t threadMax(ThreadMetric M) const;
};

/// What the imbalance column means, one spelling for the table, the JSON and
/// the page.
inline constexpr const char *ImbalanceDefinition =
    "(max - mean) / max of the threads' work: inclusive time without the waiting in it";

/// Imbalance of per-thread times as libpomp computes it:
/// (max - mean) / max, 0 with fewer than two values or no time.
double imbalanceOf(const std::vector<std::uint64_t> &PerThreadInclusive);

/// The (region, event) rows in profile.txt's order: exclusive time, largest
/// first, ties by first node.
std::vector<Row> flatRows(const Profile &P);

/// One row per node but the root, in pre-order.
std::vector<Row> treeRows(const Profile &P);

/// What a row is sorted by; every key but Name sorts largest first.
enum class SortKey { Exclusive, Inclusive, Visits, Imbalance, Wait, Name };

/// `excl`, `incl`, `calls`, `imbalance`, `wait`, `name`.
std::optional<SortKey> parseSortKey(const std::string &Text);
const char *sortKeyName(SortKey Key);

/// Which rows to show and in which order.
struct Selection {
  SortKey Sort = SortKey::Exclusive;
  /// Rows whose title matches (std::regex_search); none: every row.
  std::optional<std::regex> Filter;
  /// At most this many rows (their ancestors come along in tree mode); 0: all.
  std::size_t Top = 0;
};

/// Sorted, filtered and cut flat rows. Ties keep profile.txt's order.
std::vector<Row> selectFlat(std::vector<Row> Rows, const Selection &S);

/// The tree rows that match (and the Top best of them by the sort key), with
/// their ancestors so every shown path is whole, in pre-order with siblings
/// sorted by the key.
std::vector<Row> selectTree(std::vector<Row> Rows, const Selection &S);

} // namespace pomp::report

#endif // POMP_REPORT_ROWS_H
