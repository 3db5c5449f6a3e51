//===- Compare.cpp - Two runs compared ------------------------------------===//

#include "pomp/report/Compare.h"

#include "pomp/report/Html.h"
#include "pomp/report/Table.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <unordered_map>

namespace pomp::report {
namespace {

/// Separates the parts of an identity and the levels of a call path: a
/// character no name or file name of a CTC string holds.
constexpr char IdentitySeparator = '\x1f';
constexpr char PathSeparator = '\x1e';

/// Spellings of the sort keys, indexed by CompareSort.
constexpr const char *CompareSortNames[] = {"diff", "ratio", "a", "b", "name"};
static_assert(std::size(CompareSortNames) == static_cast<std::size_t>(CompareSort::Name) + 1,
              "one spelling per sort key");

/// A row while both runs are summed into it.
struct Builder {
  std::vector<CompareRow> Rows;
  std::unordered_map<std::string, std::size_t> IndexOfKey;

  void add(bool IsA, const std::string &Key, const std::string &Title, const std::string &Location,
           NodeKind Kind, std::uint64_t Visits, std::uint64_t Inclusive, std::uint64_t Exclusive) {
    auto [It, New] = IndexOfKey.emplace(Key, Rows.size());
    if (New) {
      CompareRow R;
      R.Key = Key;
      R.Title = Title;
      R.Location = Location;
      R.Kind = Kind;
      R.In = IsA ? Presence::OnlyA : Presence::OnlyB;
      R.Order = Rows.size();
      Rows.push_back(std::move(R));
    }
    CompareRow &R = Rows[It->second];
    if (!IsA && R.In == Presence::OnlyA)
      R.In = Presence::Both;
    (IsA ? R.AVisits : R.BVisits) += Visits;
    (IsA ? R.AInclusiveNs : R.BInclusiveNs) += Inclusive;
    (IsA ? R.AExclusiveNs : R.BExclusiveNs) += Exclusive;
  }
};

void addFlat(Builder &B, const Profile &P, bool IsA) {
  for (const Row &R : flatRows(P))
    B.add(IsA, regionIdentity(P, P.Nodes[R.FirstNode]), R.Title, R.Location, R.Kind, R.Visits,
          R.InclusiveNs, R.ExclusiveNs);
}

void addTree(Builder &B, const Profile &P, bool IsA) {
  // Pre-order: a parent's key and title are made before its children's.
  std::vector<std::string> Keys(P.Nodes.size()), Titles(P.Nodes.size());
  for (std::size_t I = 1; I < P.Nodes.size(); ++I) {
    const Node &N = P.Nodes[I];
    const bool Top = N.Parent == 0 || N.Parent == Node::NoParent;
    Keys[I] = (Top ? std::string() : Keys[N.Parent] + PathSeparator) + regionIdentity(P, N);
    Titles[I] = (Top ? std::string() : Titles[N.Parent] + " > ") + P.title(N);
    const Region *R = P.regionOf(N);
    B.add(IsA, Keys[I], Titles[I], R ? R->Location : std::string(), N.Kind, N.Visits, N.InclusiveNs,
          N.ExclusiveNs);
  }
}

std::string number(const char *Format, double Value) {
  char Buffer[64];
  std::snprintf(Buffer, sizeof Buffer, Format, Value);
  return Buffer;
}

std::string signedSeconds(std::int64_t Ns) {
  return (Ns >= 0 ? "+" : "-") + formatSeconds(static_cast<std::uint64_t>(Ns >= 0 ? Ns : -Ns));
}

std::string ratioText(const CompareRow &R) {
  if (R.In == Presence::OnlyA)
    return "only A";
  if (R.In == Presence::OnlyB)
    return "only B";
  const std::optional<double> Ratio = R.ratio();
  return Ratio ? number("%.2fx", *Ratio) : "-";
}

/// Text right-aligned in Width columns, and at least one space before it, so
/// that a wide value (a ratio of 12730.79x) never runs into its neighbour.
std::string padLeft(const std::string &Text, std::size_t Width) {
  return Text.size() >= Width ? " " + Text : std::string(Width - Text.size(), ' ') + Text;
}

const char *metricName(ThreadMetric M) {
  return M == ThreadMetric::Exclusive ? "exclusive" : "inclusive";
}

std::string runLine(const Profile &P, const std::string &Path) {
  return P.Program + " (pid " + std::to_string(P.Pid) + "), started " + P.StartTime + ", " +
         formatSeconds(P.DurationNs) + " s, " + std::to_string(P.Threads.size()) +
         " threads: " + Path;
}

std::string presenceSummary(const Comparison &C) {
  const PresenceCounts N = countPresence(C.Rows);
  return std::to_string(N.Both) + " in both runs, " + std::to_string(N.OnlyA) + " only in A, " +
         std::to_string(N.OnlyB) + " only in B";
}

} // namespace

const char *presenceName(Presence P) {
  switch (P) {
  case Presence::Both:
    return "both";
  case Presence::OnlyA:
    return "only A";
  case Presence::OnlyB:
    return "only B";
  }
  return "both";
}

std::int64_t CompareRow::diffNs() const {
  return static_cast<std::int64_t>(BNs) - static_cast<std::int64_t>(ANs);
}

std::optional<double> CompareRow::ratio() const {
  if (ANs == 0)
    return std::nullopt;
  return static_cast<double>(BNs) / static_cast<double>(ANs);
}

std::optional<CompareSort> parseCompareSort(const std::string &Text) {
  for (std::size_t I = 0; I < std::size(CompareSortNames); ++I)
    if (Text == CompareSortNames[I])
      return static_cast<CompareSort>(I);
  return std::nullopt;
}

const char *compareSortName(CompareSort Key) {
  return CompareSortNames[static_cast<std::size_t>(Key)];
}

std::string regionIdentity(const Profile &P, const Node &N) {
  std::string Id;
  const Region *R = P.regionOf(N);
  Id += R ? R->Type : std::string();
  Id += IdentitySeparator;
  Id += N.Event;
  Id += IdentitySeparator;
  Id += R ? R->Name : std::string();
  Id += IdentitySeparator;
  Id += R ? R->Location : std::string();
  return Id;
}

std::vector<CompareRow> compareProfiles(const Profile &A, const Profile &B, bool Tree,
                                        ThreadMetric Metric) {
  Builder Build;
  (Tree ? addTree : addFlat)(Build, A, true);
  (Tree ? addTree : addFlat)(Build, B, false);
  for (CompareRow &R : Build.Rows) {
    const bool Exclusive = Metric == ThreadMetric::Exclusive;
    R.ANs = Exclusive ? R.AExclusiveNs : R.AInclusiveNs;
    R.BNs = Exclusive ? R.BExclusiveNs : R.BInclusiveNs;
  }
  return std::move(Build.Rows);
}

std::vector<CompareRow> selectCompared(std::vector<CompareRow> Rows,
                                       const std::optional<std::regex> &Filter, CompareSort Sort,
                                       std::size_t Top) {
  if (Filter)
    Rows.erase(
        std::remove_if(Rows.begin(), Rows.end(),
                       [&](const CompareRow &R) { return !std::regex_search(R.Title, *Filter); }),
        Rows.end());
  // A rank for the ratio: new in B (infinitely more) first, then by ratio,
  // then rows with no time in A but present in both, then rows gone in B.
  auto RatioRank = [](const CompareRow &R) {
    if (R.In == Presence::OnlyB)
      return std::make_pair(3, 0.0);
    if (R.In == Presence::OnlyA)
      return std::make_pair(0, 0.0);
    const std::optional<double> Ratio = R.ratio();
    return Ratio ? std::make_pair(2, *Ratio) : std::make_pair(1, 0.0);
  };
  auto Before = [&](const CompareRow &X, const CompareRow &Y) {
    auto Larger = [&](auto U, auto V) { return U != V ? U > V : X.Order < Y.Order; };
    switch (Sort) {
    case CompareSort::Diff: {
      const std::int64_t DX = X.diffNs(), DY = Y.diffNs();
      return Larger(DX < 0 ? -DX : DX, DY < 0 ? -DY : DY);
    }
    case CompareSort::Ratio:
      return Larger(RatioRank(X), RatioRank(Y));
    case CompareSort::A:
      return Larger(X.ANs, Y.ANs);
    case CompareSort::B:
      return Larger(X.BNs, Y.BNs);
    case CompareSort::Name:
      return X.Title != Y.Title ? X.Title < Y.Title : X.Order < Y.Order;
    }
    return X.Order < Y.Order;
  };
  std::sort(Rows.begin(), Rows.end(), Before);
  if (Top != 0 && Rows.size() > Top)
    Rows.resize(Top);
  return Rows;
}

PresenceCounts countPresence(const std::vector<CompareRow> &Rows) {
  PresenceCounts N;
  for (const CompareRow &R : Rows)
    ++(R.In == Presence::Both ? N.Both : R.In == Presence::OnlyA ? N.OnlyA : N.OnlyB);
  return N;
}

namespace {
/// The directory both runs' source paths share ("" when none but "/"): the
/// text table shows paths relative to it, as the single-run table does.
std::string sharedRoot(const Comparison &C) {
  const std::string A = commonRoot(*C.A), B = commonRoot(*C.B);
  if (A.empty() || B.empty())
    return A.empty() ? B : A;
  std::size_t Same = 0;
  while (Same < A.size() && Same < B.size() && A[Same] == B[Same])
    ++Same;
  const std::string Root = A.substr(0, A.rfind('/', Same == 0 ? 0 : Same - 1) + 1);
  return Root == "/" ? std::string() : Root;
}

/// Every "@<root>" of a title (a call path has one per node) as "@".
std::string withoutRoot(std::string Title, const std::string &Root) {
  if (Root.empty())
    return Title;
  const std::string Full = "@" + Root;
  for (std::size_t At = Title.find(Full); At != std::string::npos; At = Title.find(Full, At + 1))
    Title.erase(At + 1, Root.size());
  return Title;
}
} // namespace

void writeCompareTable(std::ostream &Out, const Comparison &C) {
  Out << "POMP comparison of two runs: " << metricName(C.Metric)
      << " time summed over threads, diff = B - A, ratio = B / A\n";
  Out << "A: " << runLine(*C.A, C.PathA) << "\n";
  Out << "B: " << runLine(*C.B, C.PathB) << "\n";
  const std::string Root = sharedRoot(C);
  if (!Root.empty())
    Out << "paths: relative to " << Root << " (full paths in --json)\n";
  Out << C.Selection << "; " << presenceSummary(C) << "\n\n";
  constexpr std::size_t TimeWidth = 14, RatioWidth = 9, VisitsWidth = 12;
  Out << padLeft("A[s]", TimeWidth) << padLeft("B[s]", TimeWidth) << padLeft("diff[s]", TimeWidth)
      << padLeft("ratio", RatioWidth) << padLeft("visits A", VisitsWidth)
      << padLeft("visits B", VisitsWidth) << "  " << (C.Tree ? "call path" : "region") << "\n";
  for (const CompareRow &R : C.Rows) {
    Out << padLeft(R.In == Presence::OnlyB ? "-" : formatSeconds(R.ANs), TimeWidth)
        << padLeft(R.In == Presence::OnlyA ? "-" : formatSeconds(R.BNs), TimeWidth)
        << padLeft(signedSeconds(R.diffNs()), TimeWidth) << padLeft(ratioText(R), RatioWidth)
        << padLeft(R.In == Presence::OnlyB ? "-" : std::to_string(R.AVisits), VisitsWidth)
        << padLeft(R.In == Presence::OnlyA ? "-" : std::to_string(R.BVisits), VisitsWidth) << "  "
        << withoutRoot(R.Title, Root) << "\n";
  }
}

void writeCompareJson(std::ostream &Out, const Comparison &C) {
  using json = nlohmann::ordered_json;
  auto Run = [](const Profile &P, const std::string &Path) {
    return json{{"path", Path},
                {"program", P.Program},
                {"pid", P.Pid},
                {"start_time", P.StartTime},
                {"duration_ns", P.DurationNs},
                {"threads", P.Threads.size()}};
  };
  json Rows = json::array();
  for (const CompareRow &R : C.Rows) {
    const std::optional<double> Ratio = R.ratio();
    Rows.push_back({{"title", R.Title},
                    {"location", R.Location},
                    {"kind", kindName(R.Kind)},
                    {"in", R.In == Presence::Both    ? "both"
                           : R.In == Presence::OnlyA ? "a"
                                                     : "b"},
                    {"a_ns", R.ANs},
                    {"b_ns", R.BNs},
                    {"diff_ns", R.diffNs()},
                    {"ratio", Ratio && R.In == Presence::Both ? json(*Ratio) : json(nullptr)},
                    {"a_visits", R.AVisits},
                    {"b_visits", R.BVisits},
                    {"a_inclusive_ns", R.AInclusiveNs},
                    {"b_inclusive_ns", R.BInclusiveNs},
                    {"a_exclusive_ns", R.AExclusiveNs},
                    {"b_exclusive_ns", R.BExclusiveNs}});
  }
  const PresenceCounts N = countPresence(C.Rows);
  const json Doc = {{"schema", "pomp-report-compare"},
                    {"version", 1},
                    {"a", Run(*C.A, C.PathA)},
                    {"b", Run(*C.B, C.PathB)},
                    {"mode", C.Tree ? "tree" : "regions"},
                    {"metric", metricName(C.Metric)},
                    {"selection", C.Selection},
                    {"counts", {{"both", N.Both}, {"only_a", N.OnlyA}, {"only_b", N.OnlyB}}},
                    {"rows", std::move(Rows)}};
  Out << Doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

std::string renderCompareHtml(const Comparison &C) {
  std::string H;
  H += "<p class=\"meta\">A: " + escapeHtml(runLine(*C.A, C.PathA)) +
       "<br>B: " + escapeHtml(runLine(*C.B, C.PathB)) + "</p>\n";
  H += "<p class=\"note\">" +
       escapeHtml(std::string(metricName(C.Metric)) +
                  " time summed over threads, diff = B - A, ratio = B / A; " + C.Selection + "; " +
                  presenceSummary(C) + ". Click a column header to sort.") +
       "</p>\n";
  H += "<table id=\"compare\" class=\"report\">\n<thead><tr>"
       "<th data-key=\"name\" data-type=\"text\">" +
       std::string(C.Tree ? "call path" : "region") +
       "</th><th data-key=\"a\" data-type=\"num\">A [s]</th>"
       "<th data-key=\"b\" data-type=\"num\">B [s]</th>"
       "<th data-key=\"diff\" data-type=\"num\">diff [s]</th>"
       "<th data-key=\"ratio\" data-type=\"num\">ratio</th>"
       "<th data-key=\"bar\" data-type=\"num\">change</th>"
       "<th data-key=\"visits_a\" data-type=\"num\">visits A</th>"
       "<th data-key=\"visits_b\" data-type=\"num\">visits B</th></tr></thead>\n<tbody>\n";
  std::uint64_t Largest = 1;
  for (const CompareRow &R : C.Rows)
    Largest = std::max(Largest, std::max(R.ANs, R.BNs));
  constexpr double BarPercent = 100.0;
  std::size_t Order = 0;
  for (const CompareRow &R : C.Rows) {
    const std::optional<double> Ratio = R.ratio();
    const char *Class = R.In == Presence::OnlyA   ? "only-a"
                        : R.In == Presence::OnlyB ? "only-b"
                        : R.diffNs() > 0          ? "slower"
                                                  : "faster";
    H += "<tr data-order=\"" + std::to_string(Order++) + "\" class=\"" + Class + "\">";
    H += "<td class=\"region\">" + escapeHtml(R.Title) + "</td>";
    auto Num = [&](const std::string &Shown, const std::string &Value) {
      H += "<td class=\"num\" data-value=\"" + Value + "\">" + escapeHtml(Shown) + "</td>";
    };
    Num(R.In == Presence::OnlyB ? "-" : formatSeconds(R.ANs), std::to_string(R.ANs));
    Num(R.In == Presence::OnlyA ? "-" : formatSeconds(R.BNs), std::to_string(R.BNs));
    Num(signedSeconds(R.diffNs()), std::to_string(R.diffNs()));
    Num(ratioText(R), R.In == Presence::OnlyB ? "1e300" : number("%.6g", Ratio.value_or(0.0)));
    // A bar per run, scaled to the largest time of the table.
    H += "<td class=\"bars\" data-value=\"" + std::to_string(R.diffNs()) +
         "\"><div class=\"bar a\" style=\"width:" +
         number("%.1f", BarPercent * static_cast<double>(R.ANs) / static_cast<double>(Largest)) +
         "%\"></div><div class=\"bar b\" style=\"width:" +
         number("%.1f", BarPercent * static_cast<double>(R.BNs) / static_cast<double>(Largest)) +
         "%\"></div></td>";
    Num(R.In == Presence::OnlyB ? "-" : std::to_string(R.AVisits), std::to_string(R.AVisits));
    Num(R.In == Presence::OnlyA ? "-" : std::to_string(R.BVisits), std::to_string(R.BVisits));
    H += "</tr>\n";
  }
  H += "</tbody>\n</table>\n";
  return H;
}

} // namespace pomp::report
