//===- Tool.cpp - The pomp-report command ---------------------------------===//

#include "pomp/report/Tool.h"

#include "pomp/report/AtomicFile.h"
#include "pomp/report/Html.h"
#include "pomp/report/Job.h"
#include "pomp/report/Loader.h"
#include "pomp/report/Table.h"

#include <cerrno>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sys/stat.h>

namespace pomp::report {
namespace {

/// Options that take a value, as `--name=value` or `--name value`.
bool takesValue(const std::string &Name) {
  return Name == "--sort" || Name == "--filter" || Name == "--top" || Name == "--metric" ||
         Name == "--html" || Name == "--trace" || Name == "--timeline-limit" || Name == "--format" ||
         Name == "--rank";
}

/// A count: digits only, no sign, no overflow.
std::optional<std::size_t> parseCount(const std::string &Text) {
  if (Text.empty() || Text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  errno = 0;
  char *End = nullptr;
  const unsigned long long V = std::strtoull(Text.c_str(), &End, 10);
  if (errno == ERANGE || V > std::numeric_limits<std::size_t>::max())
    return std::nullopt;
  return static_cast<std::size_t>(V);
}

bool applyValue(const std::string &Name, const std::string &Value, Options &O, std::string &Error) {
  if (Name == "--sort") {
    // Which keys apply depends on whether two runs are given: checked when
    // the whole command line is read.
    O.SortText = Value;
  } else if (Name == "--filter") {
    try {
      O.Select.Filter = std::regex(Value, std::regex::ECMAScript);
    } catch (const std::regex_error &E) {
      Error = "--filter='" + Value + "' is not a valid regular expression: " + E.what();
      return false;
    }
    O.FilterText = Value;
  } else if (Name == "--top") {
    const std::optional<std::size_t> N = parseCount(Value);
    if (!N || *N == 0) {
      Error = "--top needs a positive number, not '" + Value + "'";
      return false;
    }
    O.Select.Top = *N;
  } else if (Name == "--metric") {
    if (Value == "excl")
      O.Metric = ThreadMetric::Exclusive;
    else if (Value == "incl")
      O.Metric = ThreadMetric::Inclusive;
    else {
      Error = "unknown metric '" + Value + "' (expected excl or incl)";
      return false;
    }
  } else if (Name == "--html" || Name == "--trace") {
    if (Value.empty()) {
      Error = Name + " needs a file name";
      return false;
    }
    (Name == "--html" ? O.HtmlPath : O.TracePath) = Value;
  } else if (Name == "--format") {
    if (Value == "table")
      O.Export.reset();
    else if (const std::optional<ExportFormat> F = parseExportFormat(Value))
      O.Export = F;
    else {
      Error = "unknown format '" + Value + "' (expected table, folded or hatchet)";
      return false;
    }
  } else if (Name == "--rank") {
    const std::optional<std::size_t> N = parseCount(Value);
    if (!N || *N > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      Error = "--rank needs a rank number, not '" + Value + "'";
      return false;
    }
    O.Rank = static_cast<int>(*N);
  } else if (Name == "--timeline-limit") {
    const std::optional<std::size_t> N = parseCount(Value);
    if (!N || *N == 0) {
      Error = "--timeline-limit needs a positive number, not '" + Value + "'";
      return false;
    }
    O.Limits.IntervalsPerLane = *N;
  }
  return true;
}

std::string selectionText(const Options &O, std::size_t Shown, std::size_t Total) {
  std::string Text = std::string("sorted by ") + sortKeyName(O.Select.Sort);
  if (O.Select.Filter)
    Text += ", filter /" + O.FilterText + "/";
  if (O.Select.Top != 0)
    Text += ", top " + std::to_string(O.Select.Top);
  Text += "; " + std::to_string(Shown) + " of " + std::to_string(Total) +
          (O.Tree ? " call-path nodes" : " rows");
  return Text;
}

bool exists(const std::string &Path) {
  struct stat Info {};
  return ::stat(Path.c_str(), &Info) == 0;
}

/// The experiment directory of a profile path: the path itself, or the
/// directory holding a profile.json given as a file.
std::string experimentDirOf(const std::string &Path) {
  struct stat Info {};
  if (::stat(Path.c_str(), &Info) == 0 && S_ISDIR(Info.st_mode))
    return Path;
  const std::size_t Slash = Path.rfind('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

/// Writes the page of the run at Experiment; with Compare, the page of run B
/// with the comparison of both runs.
int writeHtml(const Options &O, const std::string &Experiment, const Profile &P,
              const std::vector<Row> &Rows, const TableOptions &Table, std::ostream &Out,
              std::ostream &Err, const Comparison *Compare = nullptr) {
  HtmlPage Page;
  Page.P = &P;
  Page.Rows = Rows;
  Page.Table = Table;
  Page.ExperimentPath = Experiment;
  Page.Compare = Compare;
  Page.SourceBaseDir = experimentDirOf(Experiment);
  Timeline Trace;
  const std::string Anchor =
      O.TracePath.empty() ? traceAnchorIn(experimentDirOf(Experiment)) : O.TracePath;
  if (!O.TracePath.empty() || exists(Anchor)) {
    std::string Error;
    if (readTimeline(Anchor, O.Limits, Trace, Error)) {
      Page.Trace = &Trace;
    } else if (!O.TracePath.empty()) {
      Err << "pomp-report: error: " << Error << "\n";
      return ExitError;
    } else {
      // The table is still worth having when the experiment's trace is broken.
      Err << "pomp-report: warning: " << Error << "; the page has no timeline\n";
      Page.TraceNote = "No timeline: " + Error + ".";
    }
  } else {
    Page.TraceNote = "No timeline: there is no OTF2 trace at " + Anchor + ".";
  }
  std::string Error;
  if (!writeFileAtomically(O.HtmlPath, renderHtml(Page), Error)) {
    Err << "pomp-report: error: " << Error << "\n";
    return ExitError;
  }
  // With --json, stdout is the JSON alone.
  std::ostream &Note = O.Json ? Err : Out;
  Note << "pomp-report: wrote " << O.HtmlPath << ": " << Rows.size() << " rows";
  if (Page.Trace)
    Note << ", timeline of " << Trace.Lanes.size() << " locations";
  if (Compare)
    Note << ", comparison of " << Compare->Rows.size() << " rows";
  Note << "\n";
  return ExitOk;
}

/// The job view: every region over ranks and threads.
int runJobReport(const Options &O, std::ostream &Out, std::ostream &Err) {
  Job J;
  std::string Error;
  if (!loadJob(O.Experiment, J, Error)) {
    Err << "pomp-report: error: " << Error << "\n";
    return ExitError;
  }
  for (const int Rank : J.missingRanks())
    Err << "pomp-report: warning: rank " << Rank << " of " << J.Size
        << " is missing: " << J.Parts[static_cast<std::size_t>(Rank)].Missing << "\n";
  if (J.missingRanks().size() == J.Parts.size()) {
    Err << "pomp-report: error: no rank of the job in " << O.Experiment << " has a profile\n";
    return ExitError;
  }
  const std::vector<JobRow> Rows = jobRows(J, O.Select);
  if (O.Json)
    writeJobJson(Out, J, Rows);
  if (!O.HtmlPath.empty()) {
    if (!writeFileAtomically(O.HtmlPath, renderJobHtml(J, Rows), Error)) {
      Err << "pomp-report: error: " << Error << "\n";
      return ExitError;
    }
    (O.Json ? Err : Out) << "pomp-report: wrote " << O.HtmlPath << ": " << Rows.size()
                         << " rows over " << J.Size << " ranks\n";
    return ExitOk;
  }
  if (!O.Json)
    writeJobTable(Out, J, Rows);
  return ExitOk;
}

} // namespace

std::string usageText() {
  return "usage: pomp-report [options] <experiment-dir | profile.json>\n"
         "       pomp-report [options] <run A> <run B>\n"
         "Shows the profile libpomp wrote, or compares two runs region by region "
         "(docs/REPORT.md).\n"
         "  --sort=KEY          order rows by excl (default), incl, calls, imbalance, wait, name\n"
         "  --filter=REGEX      only rows whose region matches (ECMAScript; a word matches as a "
         "substring)\n"
         "  --top=N             at most N rows (with --tree: the N best nodes and their paths)\n"
         "  --tree              call paths instead of regions summed over call paths\n"
         "  --threads           a line per thread under every row\n"
         "  --metric=excl|incl  per-thread time in the min/avg/max columns (default excl)\n"
         "  --json              print the rows as JSON\n"
         "  --html=FILE         write one self-contained HTML page: table and, with an OTF2\n"
         "                      trace, a timeline\n"
         "  --trace=FILE        the trace's anchor file (default <dir>/trace/traces.otf2)\n"
         "  --timeline-limit=N  region visits drawn per location, the longest (default " +
         std::to_string(TimelineLimits::DefaultIntervalsPerLane) +
         ")\n"
         "  --format=FORMAT     table (default); folded: folded stacks for flame graphs\n"
         "                      (flamegraph.pl, speedscope); hatchet: Hatchet's literal\n"
         "                      format (GraphFrame.from_literal); the whole call-path tree\n"
         "  --version           the toolkit's version\n"
         "Two runs: rows are regions (--tree: call paths) matched by construct, name and source\n"
         "location, with time in A and B (--metric), diff = B - A and ratio = B / A;\n"
         "  --sort=KEY          diff (default, largest change first), ratio, a, b, name\n"
         "  --html=FILE         run B's page with the comparison\n"
         "  --rank=N            of an MPI job's directory (docs/MPI.md): rank N's part alone\n"
         "                      (without it: every region over ranks and threads)\n"
         "  -h, --help          this text\n"
         "Exit status: 0 done, 1 the input or the output failed, 2 usage error.\n"
         "Documentation: man pomp-report, <prefix>/share/doc/pomp/REPORT.md (installed),\n"
         "docs/REPORT.md.\n";
}

bool parseArguments(const std::vector<std::string> &Args, Options &Out, std::string &Error) {
  Options O;
  bool OptionsEnded = false;
  for (std::size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (OptionsEnded || A.empty() || A[0] != '-' || A == "-") {
      if (!O.Other.empty()) {
        Error = "at most two experiment directories (run A and run B), not also '" + A + "'";
        return false;
      }
      (O.Experiment.empty() ? O.Experiment : O.Other) = A;
      continue;
    }
    if (A == "--") {
      OptionsEnded = true;
      continue;
    }
    if (A == "-h" || A == "--help") {
      O.Help = true;
      continue;
    }
    if (A == "--version") {
      O.Version = true;
      continue;
    }
    const std::size_t Equals = A.find('=');
    const std::string Name = A.substr(0, Equals);
    if (takesValue(Name)) {
      std::string Value;
      if (Equals != std::string::npos) {
        Value = A.substr(Equals + 1);
      } else if (I + 1 < Args.size()) {
        Value = Args[++I];
      } else {
        Error = Name + " needs a value";
        return false;
      }
      if (!applyValue(Name, Value, O, Error))
        return false;
      continue;
    }
    bool *Flag = Name == "--tree"      ? &O.Tree
                 : Name == "--threads" ? &O.Threads
                 : Name == "--json"    ? &O.Json
                                       : nullptr;
    if (!Flag) {
      Error = "unknown option '" + A + "'";
      return false;
    }
    if (Equals != std::string::npos) {
      Error = Name + " takes no value";
      return false;
    }
    *Flag = true;
  }
  if (O.Export && (O.Json || !O.HtmlPath.empty() || O.Tree || O.Threads)) {
    Error = "--format=folded and --format=hatchet export the whole tree and cannot be combined "
            "with --json, --html, --tree or --threads";
    return false;
  }
  if (O.Experiment.empty() && !O.Help && !O.Version) {
    Error = "no experiment directory given";
    return false;
  }
  if (!O.SortText.empty()) {
    if (!O.Other.empty()) {
      const std::optional<CompareSort> Key = parseCompareSort(O.SortText);
      if (!Key) {
        Error = "unknown sort key '" + O.SortText +
                "' for two runs (expected diff, ratio, a, b or name)";
        return false;
      }
      O.CompareBy = *Key;
    } else {
      const std::optional<SortKey> Key = parseSortKey(O.SortText);
      if (!Key) {
        Error = "unknown sort key '" + O.SortText +
                "' (expected excl, incl, calls, imbalance, wait or name)";
        return false;
      }
      O.Select.Sort = *Key;
    }
  }
  if (!O.Other.empty() && O.Threads) {
    Error = "--threads shows one run; it does not apply to two runs compared";
    return false;
  }
  Out = std::move(O);
  return true;
}

static int runCompare(const Options &O, std::ostream &Out, std::ostream &Err) {
  Profile A, B;
  std::string Error;
  if (!loadProfile(O.Experiment, A, Error) || !loadProfile(O.Other, B, Error)) {
    Err << "pomp-report: error: " << Error << "\n";
    return ExitError;
  }
  Comparison C;
  C.A = &A;
  C.B = &B;
  C.PathA = O.Experiment;
  C.PathB = O.Other;
  C.Tree = O.Tree;
  C.Metric = O.Metric;
  std::vector<CompareRow> All = compareProfiles(A, B, O.Tree, O.Metric);
  const std::size_t Total = All.size();
  C.Rows = selectCompared(std::move(All), O.Select.Filter, O.CompareBy, O.Select.Top);
  C.Selection = std::string("sorted by ") + compareSortName(O.CompareBy);
  if (O.Select.Filter)
    C.Selection += ", filter /" + O.FilterText + "/";
  if (O.Select.Top != 0)
    C.Selection += ", top " + std::to_string(O.Select.Top);
  C.Selection += "; " + std::to_string(C.Rows.size()) + " of " + std::to_string(Total) +
                 (O.Tree ? " call paths" : " regions");
  if (O.Json)
    writeCompareJson(Out, C);
  if (!O.HtmlPath.empty()) {
    // The page is run B's, with the comparison on top.
    std::vector<Row> Rows =
        O.Tree ? selectTree(treeRows(B), Selection{}) : selectFlat(flatRows(B), Selection{});
    TableOptions Table;
    Table.Tree = O.Tree;
    Table.Metric = O.Metric;
    Table.Selection = "run B; sorted by excl; " + std::to_string(Rows.size()) +
                      (O.Tree ? " call-path nodes" : " regions");
    return writeHtml(O, O.Other, B, Rows, Table, Out, Err, &C);
  }
  if (!O.Json)
    writeCompareTable(Out, C);
  return ExitOk;
}

int runReport(const Options &O, std::ostream &Out, std::ostream &Err) {
  if (O.Help) {
    Out << usageText();
    return ExitOk;
  }
  if (O.Version) {
    Out << "pomp-report (POMP toolkit) " << POMP_TOOLKIT_VERSION << "\n";
    return ExitOk;
  }
  if (!O.Other.empty())
    return runCompare(O, Out, Err);
  // An MPI job's directory (docs/MPI.md): the job view, or one rank's part.
  if (isJobDirectory(O.Experiment)) {
    if (O.Rank) {
      Options Part = O;
      Part.Rank.reset();
      Part.Experiment = O.Experiment + "/rank-" + std::to_string(*O.Rank);
      if (!exists(Part.Experiment + "/profile.json")) {
        Err << "pomp-report: error: rank " << *O.Rank << " has no profile in " << O.Experiment
            << " (see job.json: a rank outside the job, or one that died)\n";
        return ExitError;
      }
      return runReport(Part, Out, Err);
    }
    return runJobReport(O, Out, Err);
  }
  if (O.Rank) {
    Err << "pomp-report: error: --rank needs an MPI job's directory (with job.json); '"
        << O.Experiment << "' is one program's\n";
    return ExitUsage;
  }
  Profile P;
  std::string Error;
  if (!loadProfile(O.Experiment, P, Error)) {
    Err << "pomp-report: error: " << Error << "\n";
    return ExitError;
  }
  if (O.Export) {
    if (*O.Export == ExportFormat::Folded)
      writeFolded(Out, P);
    else
      writeHatchet(Out, P);
    return ExitOk;
  }
  std::vector<Row> All = O.Tree ? treeRows(P) : flatRows(P);
  const std::size_t Total = All.size();
  // Moved: a tree has a row per node, as large as the profile itself.
  const std::vector<Row> Rows =
      O.Tree ? selectTree(std::move(All), O.Select) : selectFlat(std::move(All), O.Select);
  TableOptions Table;
  Table.Tree = O.Tree;
  Table.Threads = O.Threads;
  Table.Metric = O.Metric;
  Table.Selection = selectionText(O, Rows.size(), Total);
  if (O.Json)
    writeJson(Out, P, Rows, Table);
  if (!O.HtmlPath.empty())
    return writeHtml(O, O.Experiment, P, Rows, Table, Out, Err);
  if (!O.Json)
    writeTable(Out, P, Rows, Table);
  return ExitOk;
}

} // namespace pomp::report
