//===- Html.cpp - The report as one HTML page -----------------------------===//

#include "pomp/report/Html.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sys/stat.h>

namespace pomp::report {
namespace {

/// Pixels a call-path level is indented by in tree mode.
constexpr int IndentPixels = 14;

std::string seconds(std::uint64_t Ns) { return formatSeconds(Ns); }

std::string numberCell(const std::string &Shown, const std::string &Value) {
  return "<td class=\"num\" data-value=\"" + Value + "\">" + Shown + "</td>";
}

std::string numberCell(std::uint64_t Ns) { return numberCell(seconds(Ns), std::to_string(Ns)); }

/// The title without " @location": the page shows the location in a column.
std::string regionText(const Row &R) {
  const std::string Suffix = R.Location.empty() ? "" : " @" + R.Location;
  if (!Suffix.empty() && R.Title.size() >= Suffix.size() &&
      R.Title.compare(R.Title.size() - Suffix.size(), Suffix.size(), Suffix) == 0)
    return R.Title.substr(0, R.Title.size() - Suffix.size());
  return R.Title;
}

std::string renderTableHtml(const HtmlPage &Page) {
  const TableOptions &O = Page.Table;
  const char *Metric = O.Metric == ThreadMetric::Exclusive ? "exclusive" : "inclusive";
  std::string H;
  H += "<table id=\"regions\" class=\"report\" data-tree=\"";
  H += O.Tree ? "yes" : "no";
  H += "\">\n<thead><tr>";
  /// One column header: its sort key, whether it is numeric, its text and tooltip.
  struct Column {
    const char *Key;
    bool Numeric;
    std::string Text;
    std::string Tip;
  };
  const Column Columns[] = {
      {"name", false, O.Tree ? "call path" : "region", "construct and name"},
      {"location", false, "location", "source file and first line"},
      {"kind", false, "kind", "work, wait (barriers, locks, ...) or a single event"},
      {"calls", true, "visits", "times entered, summed over threads and call paths"},
      {"incl", true, "inclusive [s]", "time inside, summed over threads"},
      {"excl", true, "exclusive [s]", "time inside minus nested regions on the same thread"},
      {"min", true, "min [s]", std::string("smallest per-thread ") + Metric + " time"},
      {"avg", true, "avg [s]", std::string("mean per-thread ") + Metric + " time"},
      {"max", true, "max [s]", std::string("largest per-thread ") + Metric + " time"},
      {"threads", true, "threads", "threads whose inclusive times the imbalance compares"},
      {"imbalance", true, "imbalance", ImbalanceDefinition},
      {"wait", true, "wait [s]", "waiting time (barriers, locks, taskwait, critical entry) inside"},
  };
  for (const Column &C : Columns)
    H += std::string("<th data-key=\"") + C.Key + "\" data-type=\"" + (C.Numeric ? "num" : "text") +
         "\" title=\"" + escapeHtml(C.Tip) + "\">" + escapeHtml(C.Text) + "</th>";
  // Hardware counters (POMP_METRICS): exclusive and inclusive per counter, as
  // the text table has them; sort keys counter<i>_excl and counter<i>_incl.
  const std::vector<std::string> &Counters = Page.P->Metrics;
  for (std::size_t I = 0; I < Counters.size(); ++I)
    for (const char *Part : {"excl", "incl"})
      H += "<th data-key=\"counter" + std::to_string(I) + "_" + Part +
           "\" data-type=\"num\" class=\"counter\" title=\"" +
           escapeHtml(std::string(Part) == "excl"
                          ? "counted inside minus nested regions on the same thread"
                          : "counted inside, summed over threads") +
           "\">" + escapeHtml(Counters[I] + " " + Part) + "</th>";
  H += "</tr></thead>\n<tbody>\n";
  std::size_t Order = 0;
  for (const Row &R : Page.Rows) {
    H += "<tr data-order=\"" + std::to_string(Order++) + "\" data-node=\"" +
         std::to_string(R.FirstNode) + "\" class=\"" + kindName(R.Kind) + "\">";
    H += "<td class=\"region\"";
    if (O.Tree)
      H += " style=\"padding-left:" + std::to_string(IndentPixels * R.Depth + IndentPixels / 2) +
           "px\"";
    H += ">" + escapeHtml(regionText(R)) + "</td>";
    H += "<td>" + escapeHtml(R.Location) + "</td>";
    H += std::string("<td>") + kindName(R.Kind) + "</td>";
    H += numberCell(std::to_string(R.Visits), std::to_string(R.Visits));
    H += numberCell(R.InclusiveNs);
    H += numberCell(R.ExclusiveNs);
    H += numberCell(R.threadMin(O.Metric));
    const double Mean = R.threadMean(O.Metric);
    H += numberCell(formatSeconds(static_cast<std::uint64_t>(Mean + 0.5)),
                    std::to_string(static_cast<std::uint64_t>(Mean + 0.5)));
    H += numberCell(R.threadMax(O.Metric));
    H += numberCell(std::to_string(R.Threads), std::to_string(R.Threads));
    H += numberCell(formatPercent(R.Imbalance), std::to_string(R.Imbalance));
    H += numberCell(R.WaitNs);
    for (std::size_t I = 0; I < Counters.size(); ++I) {
      const std::uint64_t Exclusive = I < R.MetricExclusive.size() ? R.MetricExclusive[I] : 0;
      const std::uint64_t Inclusive = I < R.MetricInclusive.size() ? R.MetricInclusive[I] : 0;
      H += numberCell(std::to_string(Exclusive), std::to_string(Exclusive));
      H += numberCell(std::to_string(Inclusive), std::to_string(Inclusive));
    }
    H += "</tr>\n";
  }
  H += "</tbody>\n</table>\n";
  return H;
}

/// The timeline's data for the page's script; '<', '>' and '&' are escaped
/// so that no region name can end the script element.
std::string timelineJson(const Timeline &T) {
  using json = nlohmann::ordered_json;
  json Regions = json::array();
  for (const TraceRegion &R : T.Regions)
    Regions.push_back({{"name", R.Name}, {"file", R.File}, {"line", R.Line}});
  json Lanes = json::array();
  for (const Lane &L : T.Lanes) {
    json Intervals = json::array();
    for (const Interval &I : L.Intervals)
      Intervals.push_back({I.StartNs, I.DurationNs, I.Depth, I.Region});
    json Bins = json::array();
    for (const Bin &B : L.Bins)
      Bins.push_back({B.Index, B.Depth, B.BusyNs, B.Visits, B.Region, B.Run});
    Lanes.push_back({{"location", L.Location},
                     {"name", L.Name},
                     {"total", L.TotalIntervals},
                     {"max_depth", L.MaxDepth},
                     {"iv", std::move(Intervals)},
                     {"bin_ns", L.BinNs},
                     {"binned", L.BinnedVisits},
                     {"bins", std::move(Bins)}});
  }
  const json Data = {
      {"end_ns", T.EndNs}, {"regions", std::move(Regions)}, {"lanes", std::move(Lanes)}};
  return scriptSafeJson(Data.dump(-1, ' ', false, json::error_handler_t::replace));
}

std::string timelineNotes(const Timeline &T) {
  std::string H;
  H += "<p class=\"note\">" + escapeHtml(T.Path) + ": " + std::to_string(T.TotalLanes) +
       " locations, " + seconds(T.EndNs) + " s from the first to the last event.";
  if (T.Lanes.size() < T.TotalLanes)
    H += " Only the first " + std::to_string(T.Lanes.size()) + " locations are drawn.";
  H += "</p>\n";
  for (const Lane &L : T.Lanes) {
    std::string Note;
    if (L.Intervals.size() < L.TotalIntervals)
      Note += " drawn: the " + std::to_string(L.Intervals.size()) + " longest of " +
              std::to_string(L.TotalIntervals) + " region visits (at most " +
              std::to_string(T.Limits.IntervalsPerLane) + " per location); the other " +
              std::to_string(L.BinnedVisits) + " as the time they cover in stretches of " +
              seconds(L.BinNs) + " s.";
    if (L.UnmatchedLeaves != 0)
      Note += " " + std::to_string(L.UnmatchedLeaves) + " Leave events without an Enter.";
    if (L.OpenAtEnd != 0)
      Note += " " + std::to_string(L.OpenAtEnd) +
              " regions never left, drawn up to the location's last event.";
    if (!Note.empty())
      H += "<p class=\"note lane-note\">" + escapeHtml(L.Name) + ":" + escapeHtml(Note) + "</p>\n";
  }
  return H;
}

/// Lines of context the source view shows around a construct, the most lines
/// of one construct it embeds, and the most source text of one page: a page
/// of a large program stays small, the rest is named as not embedded.
constexpr std::uint32_t SourceContextLines = 3;
constexpr std::uint32_t MaxSnippetLines = 80;
constexpr std::size_t MaxSourceBytes = 2u << 20;
/// Rows of the heat map: the regions with the most exclusive time.
constexpr std::size_t HeatMapRows = 40;
/// Imbalance is embedded in thousandths, enough for a tooltip.
constexpr double PerMille = 1000.0;

/// A source file read at report time, or why it could not be.
struct SourceFile {
  std::string Path; ///< where it was found
  std::vector<std::string> Lines;
  std::string Problem; ///< "" when read
};

bool isRegularFile(const std::string &Path) {
  struct stat Info {};
  return ::stat(Path.c_str(), &Info) == 0 && S_ISREG(Info.st_mode);
}

/// Finds File as the profile names it: as given (absolute, or relative to the
/// current directory), then relative to the experiment directory and its parent.
SourceFile readSource(const std::string &File, const std::string &BaseDir) {
  SourceFile S;
  std::vector<std::string> Candidates = {File};
  if (!File.empty() && File[0] != '/' && !BaseDir.empty()) {
    Candidates.push_back(BaseDir + "/" + File);
    Candidates.push_back(BaseDir + "/../" + File);
  }
  for (const std::string &Path : Candidates) {
    if (!isRegularFile(Path))
      continue;
    std::ifstream In(Path);
    std::string Line;
    while (std::getline(In, Line))
      S.Lines.push_back(Line);
    if (In.bad())
      continue;
    S.Path = Path;
    return S;
  }
  S.Problem = "not readable at report time (looked for " + Candidates.front();
  for (std::size_t I = 1; I < Candidates.size(); ++I)
    S.Problem += ", " + Candidates[I];
  S.Problem += ")";
  return S;
}

/// The source lines of every region with a file and lines: {"<id>": {file,
/// first, lines, hl, more} or {file, missing}}.
nlohmann::ordered_json sourcesJson(const Profile &P, const std::string &BaseDir) {
  using json = nlohmann::ordered_json;
  std::map<std::string, SourceFile> Files;
  std::size_t Bytes = 0;
  json Sources = json::object();
  for (const auto &[Id, R] : P.Regions) {
    if (R.File.empty() || R.FirstLine == 0)
      continue;
    auto It = Files.find(R.File);
    if (It == Files.end())
      It = Files.emplace(R.File, readSource(R.File, BaseDir)).first;
    const SourceFile &F = It->second;
    json S = {{"file", F.Path.empty() ? R.File : F.Path}};
    if (!F.Problem.empty()) {
      S["missing"] = F.Problem;
    } else if (R.FirstLine > F.Lines.size()) {
      S["missing"] = "the file has " + std::to_string(F.Lines.size()) + " lines, not line " +
                     std::to_string(R.FirstLine) + " (changed since the run?)";
    } else if (Bytes > MaxSourceBytes) {
      S["missing"] = "not embedded: the page holds " + std::to_string(MaxSourceBytes >> 20) +
                     " MB of source already";
    } else {
      const std::uint32_t First =
          R.FirstLine > SourceContextLines ? R.FirstLine - SourceContextLines : 1;
      const std::uint32_t Wanted = R.LastLine + SourceContextLines;
      const std::uint32_t Last = std::min<std::uint32_t>(
          {Wanted, static_cast<std::uint32_t>(F.Lines.size()), First + MaxSnippetLines - 1});
      json Lines = json::array();
      for (std::uint32_t L = First; L <= Last; ++L) {
        Lines.push_back(F.Lines[L - 1]);
        Bytes += F.Lines[L - 1].size();
      }
      S["first"] = First;
      S["lines"] = std::move(Lines);
      S["hl"] = {R.FirstLine, R.LastLine};
      const std::uint32_t End = std::min<std::uint32_t>(Wanted, F.Lines.size());
      if (End > Last)
        S["more"] = End - Last;
    }
    Sources[std::to_string(Id)] = std::move(S);
  }
  return Sources;
}

/// The call tree the page's script draws: the nodes with the largest inclusive
/// time (at most Limit) and their ancestors, in pre-order, each as [parent
/// index, title index, region, kind, visits, inclusive, exclusive, threads,
/// imbalance in thousandths, hidden children, their inclusive time].
nlohmann::ordered_json treeJson(const Profile &P, std::size_t Limit) {
  using json = nlohmann::ordered_json;
  const std::size_t N = P.Nodes.size();
  std::vector<bool> Keep(N, N <= Limit + 1);
  if (N > Limit + 1) {
    std::vector<std::uint64_t> Inclusive;
    Inclusive.reserve(N);
    for (const Node &Nd : P.Nodes)
      Inclusive.push_back(Nd.InclusiveNs);
    std::nth_element(Inclusive.begin(), Inclusive.begin() + static_cast<std::ptrdiff_t>(Limit),
                     Inclusive.end(), std::greater<>());
    const std::uint64_t Threshold = Inclusive[Limit];
    std::size_t Kept = 0;
    // Pre-order: marking a node's ancestors stops at the first kept one.
    for (std::size_t I = 0; I < N && Kept < Limit; ++I)
      if (P.Nodes[I].InclusiveNs > Threshold)
        for (std::size_t At = I; At != Node::NoParent && !Keep[At]; At = P.Nodes[At].Parent) {
          Keep[At] = true;
          ++Kept;
        }
    Keep[0] = true;
  }
  std::vector<std::uint32_t> Index(N, 0);
  std::vector<std::uint64_t> HiddenCount(N, 0), HiddenNs(N, 0);
  for (std::size_t I = 1; I < N; ++I) {
    const Node &Nd = P.Nodes[I];
    if (!Keep[I] && Keep[Nd.Parent]) {
      ++HiddenCount[Nd.Parent];
      HiddenNs[Nd.Parent] += Nd.InclusiveNs;
    }
  }
  std::map<std::string, std::size_t> TitleIndex;
  json Titles = json::array();
  json Nodes = json::array();
  std::uint32_t Next = 0;
  for (std::size_t I = 0; I < N; ++I) {
    if (!Keep[I])
      continue;
    const Node &Nd = P.Nodes[I];
    Index[I] = Next++;
    const auto [It, New] = TitleIndex.emplace(P.pathTitle(Nd), TitleIndex.size());
    if (New)
      Titles.push_back(It->first);
    std::vector<std::uint64_t> Inclusive;
    for (const ThreadMetrics &M : Nd.PerThread)
      Inclusive.push_back(M.InclusiveNs);
    Nodes.push_back({Nd.Parent == Node::NoParent ? -1 : static_cast<std::int64_t>(Index[Nd.Parent]),
                     It->second, Nd.RegionId, kindName(Nd.Kind), Nd.Visits, Nd.InclusiveNs,
                     Nd.ExclusiveNs, Nd.PerThread.size(),
                     static_cast<std::int64_t>(imbalanceOf(Inclusive) * PerMille + 0.5),
                     HiddenCount[I], HiddenNs[I]});
  }
  return json{{"titles", std::move(Titles)}, {"nodes", std::move(Nodes)}};
}

/// The heat map: threads as columns, the regions with the most exclusive time
/// as rows, each thread's exclusive time in a cell.
nlohmann::ordered_json heatJson(const Profile &P) {
  using json = nlohmann::ordered_json;
  std::vector<Row> Rows = flatRows(P);
  if (Rows.size() > HeatMapRows)
    Rows.resize(HeatMapRows);
  json Threads = P.Threads;
  std::map<std::uint32_t, std::size_t> Column;
  for (std::size_t I = 0; I < P.Threads.size(); ++I)
    Column[P.Threads[I]] = I;
  json Out = json::array();
  for (const Row &R : Rows) {
    std::vector<std::uint64_t> Values(P.Threads.size(), 0);
    for (const ThreadShare &S : R.PerThread) {
      const auto It = Column.find(S.Thread);
      if (It != Column.end())
        Values[It->second] += S.ExclusiveNs;
    }
    const Node &First = P.Nodes[R.FirstNode];
    Out.push_back({{"title", R.Title}, {"region", First.RegionId}, {"v", std::move(Values)}});
  }
  return json{{"threads", std::move(Threads)}, {"rows", std::move(Out)}};
}

/// Everything the page's script needs from the profile.
std::string profileJson(const HtmlPage &Page) {
  using json = nlohmann::ordered_json;
  const Profile &P = *Page.P;
  json Regions = json::object();
  for (const auto &[Id, R] : P.Regions)
    Regions[std::to_string(Id)] = {{"label", R.Label}, {"location", R.Location}};
  // The counters of each region's parts (parallel, parallel body, ...) for
  // the region's detail, summed over threads and call paths as flat rows are.
  if (!P.Metrics.empty())
    for (const Row &R : flatRows(P)) {
      const std::string Id = std::to_string(P.Nodes[R.FirstNode].RegionId);
      if (!Regions.contains(Id))
        continue;
      std::vector<std::uint64_t> Exclusive = R.MetricExclusive, Inclusive = R.MetricInclusive;
      Exclusive.resize(P.Metrics.size(), 0);
      Inclusive.resize(P.Metrics.size(), 0);
      Regions[Id]["counters"].push_back(
          {{"construct", R.Construct}, {"excl", Exclusive}, {"incl", Inclusive}});
    }
  json Unavailable = json::array();
  for (const auto &[Name, Reason] : P.UnavailableMetrics)
    Unavailable.push_back({{"name", Name}, {"reason", Reason}});
  json RowRegions = json::object();
  for (const Row &R : Page.Rows)
    RowRegions[std::to_string(R.FirstNode)] = P.Nodes[R.FirstNode].RegionId;
  const json Data = {{"regions", std::move(Regions)},
                     {"metric_names", P.Metrics},
                     {"metrics_unavailable", std::move(Unavailable)},
                     {"row_regions", std::move(RowRegions)},
                     {"tree", treeJson(P, Page.TreeNodeLimit)},
                     {"heat", heatJson(P)},
                     {"sources", sourcesJson(P, Page.SourceBaseDir)}};
  return scriptSafeJson(Data.dump(-1, ' ', false, json::error_handler_t::replace));
}

} // namespace

std::string scriptSafeJson(const std::string &Text) {
  std::string Safe;
  Safe.reserve(Text.size());
  for (char C : Text) {
    if (C == '<')
      Safe += "\\u003c";
    else if (C == '>')
      Safe += "\\u003e";
    else if (C == '&')
      Safe += "\\u0026";
    else
      Safe += C;
  }
  return Safe;
}

std::string escapeHtml(std::string_view Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    case '\'':
      Out += "&#39;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::string renderHtml(const HtmlPage &Page) {
  const Profile &P = *Page.P;
  std::string H;
  H += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  H += "<meta name=\"generator\" content=\"pomp-report\">\n";
  H += "<title>POMP report: " + escapeHtml(P.Program) + "</title>\n";
  H += "<style>" + std::string(PageStyle) + "</style>\n</head>\n<body>\n";
  H += "<h1>POMP report of " + escapeHtml(P.Program) + "</h1>\n";
  H += "<p class=\"meta\">pid " + std::to_string(P.Pid) + ", started " + escapeHtml(P.StartTime) +
       ", " + seconds(P.DurationNs) + " s, " + std::to_string(P.Threads.size()) + " threads, " +
       std::to_string(P.Regions.size()) + " regions; experiment " +
       escapeHtml(Page.ExperimentPath) + "</p>\n";
  if (!P.Uninstrumented.empty()) {
    H += "<div class=\"warning\" id=\"uninstrumented\"><p>" + escapeHtml(uninstrumentedWarning(P)) +
         "</p>\n<ul>\n";
    for (const auto &[File, Reason] : P.Uninstrumented)
      H += "<li><code>" + escapeHtml(File) + "</code>: " + escapeHtml(Reason) + "</li>\n";
    H += "</ul></div>\n";
  }
  if (Page.Compare) {
    H += "<h2 id=\"compare-title\">Two runs compared</h2>\n";
    H += renderCompareHtml(*Page.Compare);
    H += "<p class=\"note\">The sections below show run B.</p>\n";
  }
  H += Page.Table.Tree ? "<h2>Call paths</h2>\n" : "<h2>Regions</h2>\n";
  H += "<p class=\"note\">" +
       escapeHtml(
           std::string(Page.Table.Tree ? "Call-path nodes" : "Summed over threads and call paths") +
           "; " + Page.Table.Selection + ". Click a column header to sort.") +
       "</p>\n";
  if (!P.Metrics.empty())
    H += "<p class=\"note\" id=\"counters-note\">Hardware counters (POMP_METRICS): exclusive "
         "and inclusive per counter, in the last columns and in a region's detail (Source).</p>\n";
  for (const auto &[Name, Reason] : P.UnavailableMetrics)
    H += "<p class=\"note counter-missing\">Not recorded: " + escapeHtml(Name) + " (" +
         escapeHtml(Reason) + ")</p>\n";
  H += renderTableHtml(Page);
  std::string Anomalies;
  for (const auto &[Name, Count] : P.Anomalies)
    if (Count != 0)
      Anomalies += " " + Name + "=" + std::to_string(Count);
  H += "<p class=\"note\" id=\"anomalies\">anomalies:" +
       escapeHtml(Anomalies.empty() ? std::string(" none") : Anomalies) + "</p>\n";

  H += "<h2>Call tree</h2>\n<p class=\"note\">Inclusive time summed over threads; click "
       "\u25B8 to expand a node, a name to see its source. <button type=\"button\" "
       "id=\"hot-path\">expand the hottest path</button> <button type=\"button\" "
       "id=\"collapse-all\">collapse all</button></p>\n<div id=\"calltree\"></div>\n";
  H += "<h2>Source</h2>\n<div id=\"source\"><p class=\"note\">Select a region in the call "
       "tree, the table or the timeline to see its source lines here.</p></div>\n";
  H += "<h2>Threads</h2>\n<p class=\"note\">Exclusive time of each thread (column) in the "
       "regions with the most exclusive time (rows); darker is more, scaled per row, so an "
       "uneven row is an imbalance.</p>\n<div id=\"heatmap\"></div>\n";
  H += "<h2>Timeline</h2>\n";
  if (Page.Trace) {
    H += timelineNotes(*Page.Trace);
    H += "<div id=\"timeline-controls\"><button type=\"button\" id=\"zoom-in\">+</button> "
         "<button type=\"button\" id=\"zoom-out\">\u2212</button> <button type=\"button\" "
         "id=\"zoom-reset\">whole run</button> <span class=\"note\">wheel: zoom, drag: pan, "
         "click: select</span></div>\n";
    H += "<div id=\"timeline\"></div>\n<div id=\"timeline-info\" class=\"note\"></div>\n"
         "<div id=\"legend\"></div>\n";
    H += "<script type=\"application/json\" id=\"timeline-data\">" + timelineJson(*Page.Trace) +
         "</script>\n";
  } else {
    H += "<p class=\"note\" id=\"no-timeline\">" + escapeHtml(Page.TraceNote) + "</p>\n";
  }
  H += "<script type=\"application/json\" id=\"profile-data\">" + profileJson(Page) + "</script>\n";
  H += "<script>" + std::string(PageScript) + "</script>\n</body>\n</html>\n";
  return H;
}

} // namespace pomp::report
