//===- Html.cpp - The report as one HTML page -----------------------------===//

#include "pomp/report/Html.h"

#include <nlohmann/json.hpp>

namespace pomp::report {
namespace {

/// Pixels a call-path level is indented by in tree mode.
constexpr int IndentPixels = 14;

const char *const Style = R"css(
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; }
p.meta, p.note { color: #555; margin: 0.3em 0; }
div.warning { border: 2px solid #c60; background: #fff4e5; padding: 0.3em 0.8em; margin: 0.6em 0; }
table.report { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.report th, table.report td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; }
table.report th { background: #f3f3f3; text-align: left; white-space: nowrap; }
table.report.sortable th { cursor: pointer; user-select: none; }
table.report th.sorted-desc::after { content: " \25BE"; }
table.report th.sorted-asc::after { content: " \25B4"; }
table.report td.num { text-align: right; white-space: nowrap; }
table.report tr.wait td.region { color: #a0522d; }
table.report tbody tr:hover { background: #f7f7ff; }
#timeline svg { width: 100%; height: auto; border: 1px solid #ddd; background: #fff; }
#timeline text { font: 11px system-ui, sans-serif; fill: #333; }
#timeline text.interval-label { font-size: 10px; fill: #111; pointer-events: none; }
#timeline rect.interval { stroke: #fff; stroke-width: 0.3; }
#timeline rect.interval:hover { stroke: #000; stroke-width: 1; }
#timeline line.tick { stroke: #ccc; }
)css";

/// Sorts the table on a click on a header (numbers largest first, text
/// alphabetically; a second click reverses) and on `#sort=<key>` at load.
/// Draws the timeline from the JSON in #timeline-data.
const char *const Script = R"js(
(function () {
  'use strict';
  var table = document.getElementById('regions');
  function cellValue(row, index, numeric) {
    var cell = row.cells[index];
    return numeric ? parseFloat(cell.getAttribute('data-value')) : cell.textContent;
  }
  function sortBy(th, descending) {
    var index = th.cellIndex, numeric = th.getAttribute('data-type') === 'num';
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, index, numeric), y = cellValue(b, index, numeric);
      var order = numeric ? x - y : (x < y ? -1 : x > y ? 1 : 0);
      if (descending) order = -order;
      return order || (+a.getAttribute('data-order') - +b.getAttribute('data-order'));
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) {
      c.classList.remove('sorted-asc', 'sorted-desc');
    });
    th.classList.add(descending ? 'sorted-desc' : 'sorted-asc');
    table.setAttribute('data-sorted-by', th.getAttribute('data-key'));
  }
  if (table && table.getAttribute('data-tree') !== 'yes') {
    table.classList.add('sortable');
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.addEventListener('click', function () {
        var numeric = th.getAttribute('data-type') === 'num';
        var descending = th.classList.contains('sorted-desc') ? false :
                         th.classList.contains('sorted-asc') ? true : numeric;
        sortBy(th, descending);
      });
    });
    var wanted = /(?:^#|&)sort=([a-z_]+)/.exec(location.hash);
    if (wanted) {
      var th = table.querySelector('th[data-key="' + wanted[1] + '"]');
      if (th) sortBy(th, th.getAttribute('data-type') === 'num');
    }
  }

  var dataNode = document.getElementById('timeline-data');
  var holder = document.getElementById('timeline');
  if (!dataNode || !holder) return;
  var data = JSON.parse(dataNode.textContent);
  var SVG = 'http://www.w3.org/2000/svg';
  var width = 1200, labelWidth = 170, plotWidth = width - labelWidth - 10;
  var rowHeight = 14, laneGap = 10, axisHeight = 24, charWidth = 6;
  var end = Math.max(data.end_ns, 1);
  function el(name, attrs, parent) {
    var e = document.createElementNS(SVG, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function duration(ns) {
    if (ns >= 1e9) return (ns / 1e9).toFixed(3) + ' s';
    if (ns >= 1e6) return (ns / 1e6).toFixed(3) + ' ms';
    if (ns >= 1e3) return (ns / 1e3).toFixed(3) + ' \u00b5s';
    return ns + ' ns';
  }
  function color(region) {
    return 'hsl(' + ((region * 137.508) % 360).toFixed(1) + ',60%,62%)';
  }
  var height = axisHeight;
  data.lanes.forEach(function (lane) { height += (lane.max_depth + 1) * rowHeight + laneGap; });
  var svg = el('svg', {viewBox: '0 0 ' + width + ' ' + height, 'data-lanes': data.lanes.length});
  var ticks = 5;
  for (var t = 0; t <= ticks; ++t) {
    var x = labelWidth + plotWidth * t / ticks;
    el('line', {'class': 'tick', x1: x, x2: x, y1: axisHeight - 6, y2: height}, svg);
    el('text', {x: x, y: axisHeight - 10, 'text-anchor': t === 0 ? 'start' : 'end'}, svg)
        .textContent = duration(Math.round(end * t / ticks));
  }
  var y = axisHeight;
  data.lanes.forEach(function (lane) {
    var g = el('g', {'class': 'lane', 'data-location': lane.location, 'data-name': lane.name,
                     'data-shown': lane.iv.length, 'data-total': lane.total}, svg);
    el('text', {'class': 'lane-label', x: 4, y: y + rowHeight - 3}, g).textContent = lane.name;
    lane.iv.forEach(function (iv) {
      var region = data.regions[iv[3]];
      var rect = el('rect', {'class': 'interval', 'data-region': region.name,
                             x: (labelWidth + plotWidth * iv[0] / end).toFixed(2),
                             y: y + iv[2] * rowHeight,
                             width: Math.max(plotWidth * iv[1] / end, 0.5).toFixed(2),
                             height: rowHeight - 1, fill: color(iv[3])}, g);
      var tip = region.name + ' \u2014 ' + duration(iv[1]) + ' (depth ' + iv[2] + ')' +
                (region.file ? ' ' + region.file + ':' + region.line : '');
      el('title', {}, rect).textContent = tip;
      // A name inside the rectangle where it fits; the tooltip has it anyway.
      var fits = Math.floor((plotWidth * iv[1] / end - 4) / charWidth);
      if (fits >= 3) {
        var label = el('text', {'class': 'interval-label', x: +rect.getAttribute('x') + 2,
                                y: y + iv[2] * rowHeight + rowHeight - 4}, g);
        label.textContent = region.name.length <= fits ? region.name :
                            region.name.slice(0, fits - 1) + '\u2026';
      }
    });
    y += (lane.max_depth + 1) * rowHeight + laneGap;
  });
  holder.appendChild(svg);
})();
)js";

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
    Lanes.push_back({{"location", L.Location},
                     {"name", L.Name},
                     {"total", L.TotalIntervals},
                     {"max_depth", L.MaxDepth},
                     {"iv", std::move(Intervals)}});
  }
  const json Data = {
      {"end_ns", T.EndNs}, {"regions", std::move(Regions)}, {"lanes", std::move(Lanes)}};
  const std::string Text = Data.dump(-1, ' ', false, json::error_handler_t::replace);
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
              std::to_string(T.Limits.IntervalsPerLane) + " per location).";
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

} // namespace

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
  H += "<style>" + std::string(Style) + "</style>\n</head>\n<body>\n";
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
  H += Page.Table.Tree ? "<h2>Call paths</h2>\n" : "<h2>Regions</h2>\n";
  H += "<p class=\"note\">" +
       escapeHtml(
           std::string(Page.Table.Tree ? "Call-path nodes" : "Summed over threads and call paths") +
           "; " + Page.Table.Selection + ". Click a column header to sort.") +
       "</p>\n";
  H += renderTableHtml(Page);
  std::string Anomalies;
  for (const auto &[Name, Count] : P.Anomalies)
    if (Count != 0)
      Anomalies += " " + Name + "=" + std::to_string(Count);
  H += "<p class=\"note\" id=\"anomalies\">anomalies:" +
       escapeHtml(Anomalies.empty() ? std::string(" none") : Anomalies) + "</p>\n";

  H += "<h2>Timeline</h2>\n";
  if (Page.Trace) {
    H += timelineNotes(*Page.Trace);
    H += "<div id=\"timeline\"></div>\n";
    H += "<script type=\"application/json\" id=\"timeline-data\">" + timelineJson(*Page.Trace) +
         "</script>\n";
  } else {
    H += "<p class=\"note\" id=\"no-timeline\">" + escapeHtml(Page.TraceNote) + "</p>\n";
  }
  H += "<script>" + std::string(Script) + "</script>\n</body>\n</html>\n";
  return H;
}

} // namespace pomp::report
