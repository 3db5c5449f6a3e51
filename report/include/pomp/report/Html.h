//===- pomp/report/Html.h - The report as one HTML page ---------*- C++ -*-===//
///
/// \file
/// Renders the report as one self-contained HTML page: inline CSS and script,
/// no external asset, so the file can be mailed, archived or opened offline.
/// The table is plain HTML (readable without script) that the page's script
/// makes sortable by clicking a header; `#sort=<column>` in the URL sorts it
/// at load. The script also builds a collapsible call tree, a heat map of
/// the threads' time per region and a source view of the selected region from
/// data embedded in the page, and with a trace draws a timeline on a canvas
/// that zooms and pans: one lane per location, a rectangle per region visit,
/// nested visits one row lower; visits narrower than a pixel and those beyond
/// the per-lane limit are drawn as the share of each pixel they cover, so
/// every visit is drawn at every zoom (docs/REPORT.md, "The HTML page").
///
//===----------------------------------------------------------------------===//
#ifndef POMP_REPORT_HTML_H
#define POMP_REPORT_HTML_H

#include "pomp/report/Compare.h"
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
  /// Two runs compared (this page is run B's), or nullptr.
  const Comparison *Compare = nullptr;
  /// Where relative source file names of the profile are also looked for
  /// (the experiment directory; the current directory is tried first).
  std::string SourceBaseDir;
  /// Call-tree nodes the page embeds: the largest by inclusive time and their
  /// ancestors; the rest are counted at their parents.
  static constexpr std::size_t DefaultTreeNodeLimit = 50000;
  std::size_t TreeNodeLimit = DefaultTreeNodeLimit;
};

/// The page's script and style (report/lib/PageScript.cpp).
extern const char *const PageScript;
extern const char *const PageStyle;

/// JSON text made safe inside a <script> element: no '<', '>' or '&'.
std::string scriptSafeJson(const std::string &Json);

/// Text made safe for HTML element content and attribute values.
std::string escapeHtml(std::string_view Text);

/// The whole page.
std::string renderHtml(const HtmlPage &Page);

} // namespace pomp::report

#endif // POMP_REPORT_HTML_H
