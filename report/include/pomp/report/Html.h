//===- pomp/report/Html.h - The report as one HTML page ---------*- C++ -*-===//
///
/// \file
/// Renders the report as one self-contained HTML page: inline CSS and script,
/// no external asset, so the file can be mailed, archived or opened offline.
/// The table is plain HTML (readable without script) that the page's script
/// makes sortable by clicking a header; `#sort=<column>` in the URL sorts it
/// at load. With a trace, the script draws a timeline as SVG from data
/// embedded in the page: one lane per location, a rectangle per region visit,
/// nested visits one row lower, a tooltip with name, duration and source.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_HTML_H
#define POMP_REPORT_HTML_H

#include "pomp/report/Profile.h"
#include "pomp/report/Rows.h"
#include "pomp/report/Table.h"
#include "pomp/report/Trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace pomp::report {

/// Everything one page shows.
struct HtmlPage {
  const Profile *P = nullptr;
  std::vector<Row> Rows;
  TableOptions Table;
  std::string ExperimentPath;
  /// The timeline, or nullptr; then TraceNote says why there is none.
  const Timeline *Trace = nullptr;
  std::string TraceNote;
};

/// Text made safe for HTML element content and attribute values.
std::string escapeHtml(std::string_view Text);

/// The whole page.
std::string renderHtml(const HtmlPage &Page);

} // namespace pomp::report

#endif // POMP_REPORT_HTML_H
