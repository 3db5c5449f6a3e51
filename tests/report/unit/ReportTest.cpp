//===- ReportTest.cpp - The report library --------------------------------===//

#include "pomp/report/AtomicFile.h"
#include "pomp/report/Html.h"
#include "pomp/report/Loader.h"
#include "pomp/report/Rows.h"
#include "pomp/report/Table.h"
#include "pomp/report/Tool.h"
#include "pomp/report/Trace.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <dirent.h>
#include <fstream>
#include <ftw.h>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pomp::report {
namespace {

/// A small profile: a parallel region of two threads with a recursive
/// function on thread 0 and a barrier on both.
///
///   parallel (t0: incl 100, excl 10)
///     parallel body (t0: 90/20, t1: 60/20)
///       function body "rec" (t0: 50/30)
///         function body "rec" (t0: 2 visits, 20/20)
///       barrier, wait (t0: 20/20, t1: 40/40)
const char *const Sample = R"json({
"schema": "pomp-profile", "version": 1, "program": "t", "pid": 7,
"start_time": "2026-01-02T03:04:05Z", "duration_ns": 1000, "future_field": {"x": 1},
"threads": [{"index": 0, "events": 10}, {"index": 1, "events": 4}],
"regions": [
 {"id": 1, "type": "parallel", "label": "parallel", "name": "", "file": "t.c", "location": "t.c:1"},
 {"id": 2, "type": "function", "label": "function rec", "name": "rec", "file": "t.c", "location": "t.c:5"},
 {"id": 3, "type": "barrier", "label": "barrier", "name": "", "file": "t.c", "location": "t.c:9"}],
"nodes": [
 {"id": 0, "parent": null, "depth": 0, "region": null, "event": null, "construct": "program", "kind": "root",
  "visits": 0, "inclusive_ns": 0, "exclusive_ns": 0, "per_thread": []},
 {"id": 1, "parent": 0, "region": 1, "event": "Parallel_enter", "construct": "parallel", "kind": "work",
  "visits": 1, "inclusive_ns": 100, "exclusive_ns": 10,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 100, "exclusive_ns": 10}]},
 {"id": 2, "parent": 1, "region": 1, "event": "Parallel_begin", "construct": "parallel body", "kind": "work",
  "visits": 2, "inclusive_ns": 150, "exclusive_ns": 40,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 90, "exclusive_ns": 20},
                 {"thread": 1, "visits": 1, "inclusive_ns": 60, "exclusive_ns": 20}]},
 {"id": 3, "parent": 2, "region": 2, "event": "Function_begin", "construct": "function body", "kind": "work",
  "visits": 1, "inclusive_ns": 50, "exclusive_ns": 30,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 50, "exclusive_ns": 30}]},
 {"id": 4, "parent": 3, "region": 2, "event": "Function_begin", "construct": "function body", "kind": "work",
  "visits": 2, "inclusive_ns": 20, "exclusive_ns": 20,
  "per_thread": [{"thread": 0, "visits": 2, "inclusive_ns": 20, "exclusive_ns": 20}]},
 {"id": 5, "parent": 2, "region": 3, "event": "Barrier_enter", "construct": "barrier", "kind": "wait",
  "visits": 2, "inclusive_ns": 60, "exclusive_ns": 60,
  "per_thread": [{"thread": 0, "visits": 1, "inclusive_ns": 20, "exclusive_ns": 20},
                 {"thread": 1, "visits": 1, "inclusive_ns": 40, "exclusive_ns": 40}]}],
"anomalies": {"unmatched_close": 0, "open_at_finalize": 2}
})json";

Profile sample() {
  Profile P;
  std::string Error;
  EXPECT_TRUE(parseProfile(Sample, "sample.json", P, Error)) << Error;
  return P;
}

/// The sample with one piece of text replaced, to make it wrong.
std::string sampleWith(const std::string &From, const std::string &To) {
  std::string Text = Sample;
  const std::size_t At = Text.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  if (At != std::string::npos)
    Text.replace(At, From.size(), To);
  return Text;
}

std::string parseError(const std::string &Text) {
  Profile P;
  std::string Error;
  EXPECT_FALSE(parseProfile(Text, "p.json", P, Error));
  return Error;
}

/// A fresh, empty directory for one test.
std::string scratchDirectory(const std::string &Name) {
  const char *Base = std::getenv("TMPDIR");
  const std::string Dir = std::string(Base && *Base ? Base : "/tmp") + "/pomp-report-test-" +
                          std::to_string(::getpid()) + "-" + Name;
  ::mkdir(Dir.c_str(), 0700);
  return Dir;
}

/// Removes every scratch directory of this process when the tests end: tests
/// leave nothing in the temporary directory.
class ScratchCleanup : public ::testing::Environment {
public:
  void TearDown() override {
    const char *Base = std::getenv("TMPDIR");
    const std::string Parent = Base && *Base ? Base : "/tmp";
    const std::string Prefix = "pomp-report-test-" + std::to_string(::getpid()) + "-";
    std::vector<std::string> Mine;
    if (DIR *D = ::opendir(Parent.c_str())) {
      while (const dirent *E = ::readdir(D))
        if (std::string(E->d_name).rfind(Prefix, 0) == 0)
          Mine.push_back(Parent + "/" + E->d_name);
      ::closedir(D);
    }
    for (const std::string &Dir : Mine)
      ::nftw(
          Dir.c_str(),
          [](const char *Path, const struct stat *, int, FTW *) {
            ::remove(Path);
            return 0;
          },
          NoOpenDescriptors, FTW_DEPTH | FTW_PHYS);
  }

private:
  static constexpr int NoOpenDescriptors = 16;
};
const ::testing::Environment *const Cleanup =
    ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

std::vector<std::string> filesIn(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = ::opendir(Dir.c_str())) {
    while (const dirent *E = ::readdir(D))
      if (std::string(E->d_name) != "." && std::string(E->d_name) != "..")
        Names.push_back(E->d_name);
    ::closedir(D);
  }
  return Names;
}

TEST(LoaderTest, ReadsTheProfileAndIgnoresUnknownFields) {
  const Profile P = sample();
  EXPECT_EQ(P.Program, "t");
  EXPECT_EQ(P.Pid, 7);
  EXPECT_EQ(P.DurationNs, 1000u);
  EXPECT_EQ(P.Threads.size(), 2u);
  ASSERT_EQ(P.Nodes.size(), 6u);
  EXPECT_EQ(P.Nodes[4].Depth, 4u);
  EXPECT_EQ(P.Nodes[2].Children, (std::vector<std::uint32_t>{3, 5}));
  EXPECT_EQ(P.Nodes[5].Kind, NodeKind::Wait);
  EXPECT_EQ(P.title(P.Nodes[3]), "function body \"rec\" @t.c:5");
  EXPECT_EQ(P.title(P.Nodes[2]), "parallel body @t.c:1");
  ASSERT_EQ(P.Anomalies.size(), 2u);
  EXPECT_EQ(P.Anomalies[1].first, "unmatched_close");
}

TEST(LoaderTest, NamesTheFileAndTheFieldOfEveryProblem) {
  EXPECT_EQ(parseError("{\"schema\": "),
            "p.json: invalid JSON: parse error at line 1, column 12: syntax error while parsing "
            "value - unexpected end of input; expected '[', '{', or a literal");
  EXPECT_EQ(parseError("[1]"), "p.json: /: expected an object, found array");
  EXPECT_EQ(parseError(sampleWith("\"pomp-profile\"", "\"other\"")),
            "p.json: /schema: \"other\" is not a libpomp profile (expected \"pomp-profile\")");
  EXPECT_EQ(parseError(sampleWith("\"version\": 1", "\"version\": 3")),
            "p.json: /version: version 3 is newer than this pomp-report reads (2)");
  EXPECT_EQ(parseError(sampleWith("\"pid\": 7,", "")), "p.json: /pid: missing");
  EXPECT_EQ(parseError(sampleWith("\"thread\": 1,", "\"thread\": \"1\",")),
            "p.json: /nodes/2/per_thread/1/thread: expected a non-negative integer, found string");
  EXPECT_EQ(parseError(sampleWith("\"visits\": 2, \"inclusive_ns\": 150", "\"visits\": -2, "
                                                                          "\"inclusive_ns\": 150")),
            "p.json: /nodes/2/visits: expected a non-negative integer, found number");
  EXPECT_EQ(parseError(sampleWith("\"id\": 5, \"parent\": 2", "\"id\": 5, \"parent\": 7")),
            "p.json: /nodes/5/parent: parent 7 does not come before the node (the tree is "
            "written in pre-order)");
  EXPECT_EQ(parseError(sampleWith("\"parent\": 2, \"region\": 3", "\"parent\": 2, \"region\": 9")),
            "p.json: /nodes/5/region: region 9 is not in /regions");
  EXPECT_EQ(parseError(sampleWith("\"kind\": \"wait\"", "\"kind\": \"idle\"")),
            "p.json: /nodes/5/kind: unknown kind \"idle\" (expected work, wait, event or root)");
  EXPECT_EQ(parseError(sampleWith("{\"id\": 2, \"type\"", "{\"id\": 1, \"type\"")),
            "p.json: /regions/1/id: region 1 is defined twice");
  EXPECT_EQ(parseError(sampleWith("\"open_at_finalize\": 2", "\"open_at_finalize\": true")),
            "p.json: /anomalies/open_at_finalize: expected a non-negative integer, found boolean");
}

TEST(LoaderTest, ReportsTheSameFirstProblemWhereverTheNodesStand) {
  // The nodes are read while the file is parsed: a syntax error after a
  // broken node still comes first, as when the whole document was parsed
  // before any check.
  std::string Broken = sampleWith("\"kind\": \"wait\"", "\"kind\": \"idle\"");
  Broken.replace(Broken.rfind('}'), 1, "]");
  EXPECT_EQ(parseError(Broken).rfind("p.json: invalid JSON: parse error at line ", 0), 0u)
      << parseError(Broken);
  // A problem of the header is found before any node's.
  EXPECT_EQ(parseError(sampleWith("\"duration_ns\": 1000", "\"duration_ns\": -1")),
            "p.json: /duration_ns: expected a non-negative integer, found number");
  // Nodes written before the regions they name (not libpomp's order) are read
  // from the whole document, with the same result.
  const std::string Whole(Sample);
  const std::size_t NodesAt = Whole.find("\"nodes\"");
  const std::string Nodes = Whole.substr(NodesAt, Whole.find("\"anomalies\"") - NodesAt);
  std::string Moved = sampleWith(Nodes, "");
  Moved.insert(Moved.find("\"threads\""), Nodes);
  Profile P;
  std::string Error;
  ASSERT_TRUE(parseProfile(Moved, "moved.json", P, Error)) << Error;
  const Profile Expected = sample();
  ASSERT_EQ(P.Nodes.size(), Expected.Nodes.size());
  for (std::size_t I = 0; I < P.Nodes.size(); ++I) {
    EXPECT_EQ(P.Nodes[I].Event, Expected.Nodes[I].Event);
    EXPECT_EQ(P.Nodes[I].Children, Expected.Nodes[I].Children);
    EXPECT_EQ(P.Nodes[I].PerThread.size(), Expected.Nodes[I].PerThread.size());
  }
  EXPECT_EQ(parseError(sampleWith(Nodes, "\"nodes\": [],")),
            "p.json: /nodes: no nodes: the program root is missing");
}

TEST(LoaderTest, ExplainsAMissingDirectoryOrProfile) {
  Profile P;
  std::string Error;
  EXPECT_FALSE(loadProfile("/nonexistent/exp", P, Error));
  EXPECT_EQ(Error, "cannot open '/nonexistent/exp': No such file or directory");
  const std::string Empty = scratchDirectory("empty");
  EXPECT_FALSE(loadProfile(Empty, P, Error));
  EXPECT_EQ(Error, "'" + Empty +
                       "' has no profile.json (No such file or directory): not an experiment "
                       "directory of libpomp");
  std::ofstream(Empty + "/profile.json") << Sample;
  EXPECT_TRUE(loadProfile(Empty, P, Error)) << Error;
  EXPECT_TRUE(loadProfile(Empty + "/profile.json", P, Error)) << Error;
}

TEST(RowsTest, SumsRegionsOverCallPathsCountingRecursionOnce) {
  const std::vector<Row> Rows = flatRows(sample());
  ASSERT_EQ(Rows.size(), 4u);
  // profile.txt's order: exclusive time, largest first.
  EXPECT_EQ(Rows[0].Title, "barrier @t.c:9");
  EXPECT_EQ(Rows[1].Title, "function body \"rec\" @t.c:5");
  EXPECT_EQ(Rows[2].Title, "parallel body @t.c:1");
  EXPECT_EQ(Rows[3].Title, "parallel @t.c:1");

  const Row &Rec = Rows[1];
  EXPECT_EQ(Rec.Visits, 3u);
  EXPECT_EQ(Rec.ExclusiveNs, 50u);
  EXPECT_EQ(Rec.InclusiveNs, 50u) << "the nested call is inside the outer one";
  EXPECT_EQ(Rec.Threads, 1u);
  EXPECT_EQ(Rec.Name, "rec");
  EXPECT_EQ(Rec.Location, "t.c:5");

  const Row &Barrier = Rows[0];
  EXPECT_EQ(Barrier.Kind, NodeKind::Wait);
  EXPECT_EQ(Barrier.WaitNs, 60u);
  EXPECT_DOUBLE_EQ(Barrier.Imbalance, 0.0) << "a barrier has no work of its own";
  EXPECT_EQ(Barrier.threadMin(ThreadMetric::Exclusive), 20u);
  EXPECT_DOUBLE_EQ(Barrier.threadMean(ThreadMetric::Exclusive), 30.0);
  EXPECT_EQ(Barrier.threadMax(ThreadMetric::Exclusive), 40u);

  // Waiting below a region counts in its wait column, also other threads'.
  EXPECT_EQ(Rows[2].WaitNs, 60u);
  EXPECT_EQ(Rows[3].WaitNs, 60u);
  ASSERT_EQ(Rows[3].PerThread.size(), 1u) << "only threads that visited get a line";
  EXPECT_EQ(Rows[3].PerThread[0].WaitNs, 20u);
  // Imbalance is of the work: inclusive 90 and 60 without the waits 20 and 40.
  EXPECT_DOUBLE_EQ(Rows[2].Imbalance, (70.0 - 45.0) / 70.0);
}

TEST(RowsTest, ImbalanceIsZeroForOneThreadOrNoTime) {
  EXPECT_EQ(imbalanceOf({}), 0.0);
  EXPECT_EQ(imbalanceOf({5}), 0.0);
  EXPECT_EQ(imbalanceOf({0, 0}), 0.0);
  EXPECT_DOUBLE_EQ(imbalanceOf({10, 30}), 1.0 / 3.0);
}

TEST(RowsTest, SortsFiltersAndCuts) {
  const std::vector<Row> Rows = flatRows(sample());
  auto Titles = [](const std::vector<Row> &Shown) {
    std::vector<std::string> T;
    for (const Row &R : Shown)
      T.push_back(R.Title);
    return T;
  };
  Selection S;
  S.Sort = SortKey::Visits;
  // Equal visits (2 and 2) keep profile.txt's order, by first node.
  EXPECT_EQ(Titles(selectFlat(Rows, S)),
            (std::vector<std::string>{"function body \"rec\" @t.c:5", "parallel body @t.c:1",
                                      "barrier @t.c:9", "parallel @t.c:1"}));
  S.Sort = SortKey::Name;
  S.Top = 2;
  EXPECT_EQ(Titles(selectFlat(Rows, S)),
            (std::vector<std::string>{"barrier @t.c:9", "function body \"rec\" @t.c:5"}));
  S.Sort = SortKey::Inclusive;
  S.Top = 0;
  S.Filter = std::regex("^parallel");
  EXPECT_EQ(Titles(selectFlat(Rows, S)),
            (std::vector<std::string>{"parallel body @t.c:1", "parallel @t.c:1"}));
  S.Filter.reset();
  S.Sort = SortKey::Wait;
  EXPECT_EQ(Titles(selectFlat(Rows, S)).front(), "parallel @t.c:1");
  S.Sort = SortKey::Imbalance;
  EXPECT_EQ(Titles(selectFlat(Rows, S)).front(), "parallel body @t.c:1")
      << "barriers never top the imbalance";
}

TEST(RowsTest, TreeKeepsTheAncestorsOfWhatItShows) {
  const Profile P = sample();
  const std::vector<Row> Rows = treeRows(P);
  ASSERT_EQ(Rows.size(), 5u);
  EXPECT_EQ(Rows[3].Depth, 3u);
  EXPECT_EQ(Rows[3].InclusiveNs, 20u);
  Selection S;
  S.Filter = std::regex("rec");
  S.Top = 1;
  std::vector<Row> Shown = selectTree(Rows, S);
  ASSERT_EQ(Shown.size(), 3u);
  EXPECT_EQ(Shown[0].Title, "parallel @t.c:1");
  EXPECT_EQ(Shown[1].Title, "parallel body @t.c:1");
  EXPECT_EQ(Shown[2].FirstNode, 3u) << "the outer call has the larger exclusive time";
  // Siblings follow the sort key: the barrier (60) before the function (30).
  Shown = selectTree(Rows, Selection{});
  ASSERT_EQ(Shown.size(), 5u);
  EXPECT_EQ(Shown[2].Title, "barrier @t.c:9");
}

/// --json writes its rows one by one into the rest of the document: the text
/// is the one a dump of the whole document gives, with rows and without.
TEST(TableTest, JsonRowByRowIsTheDocumentsDump) {
  const Profile P = sample();
  for (const bool Tree : {false, true}) {
    TableOptions O;
    O.Tree = Tree;
    O.Threads = true;
    O.Selection = "a selection that says \"rows\": [] and\nbreaks";
    std::vector<Row> Rows = Tree ? treeRows(P) : flatRows(P);
    for (int Round = 0; Round < 2; ++Round) {
      const std::string Text = renderJson(P, Rows, O);
      const nlohmann::ordered_json Document = nlohmann::ordered_json::parse(Text);
      EXPECT_EQ(Text, Document.dump(1) + "\n");
      EXPECT_EQ(Document["rows"].size(), Rows.size());
      std::ostringstream Written;
      writeJson(Written, P, Rows, O);
      EXPECT_EQ(Written.str(), Text);
      Rows.clear();
    }
  }
}

TEST(TableTest, PrintsNumbersAsProfileTxtDoes) {
  EXPECT_EQ(formatSeconds(7399123), "0.007399");
  EXPECT_EQ(formatSeconds(7399600), "0.007400");
  EXPECT_EQ(formatPercent(0.33249), "33.2%");
  const Profile P = sample();
  TableOptions O;
  O.Selection = "sorted by excl";
  const std::string Text = renderTable(P, flatRows(P), O);
  EXPECT_NE(Text.find("      0.000000       0.000000            2       2   0.000000   0.000000 "
                      "  0.000000      0.0%     0.000000 wait  barrier @t.c:9\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("anomalies: open_at_finalize=2\n"), std::string::npos) << Text;
}

TEST(HtmlTest, EscapesTextAndNeedsNoExternalAsset) {
  EXPECT_EQ(escapeHtml("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  Profile P = sample();
  P.Regions[2].Name = "</script><b>";
  HtmlPage Page;
  Page.P = &P;
  Page.Rows = flatRows(P);
  Page.TraceNote = "No timeline.";
  Timeline T;
  T.Regions.push_back({"</script>", "t.c", 1});
  T.Lanes.push_back({0, "thread 0", {{0, 10, 0, 0}}, 1, 0, 0, 0, 0, {}, 0});
  T.EndNs = 10;
  Page.Trace = &T;
  const std::string Html = renderHtml(Page);
  EXPECT_EQ(Html.find("<b>"), std::string::npos);
  EXPECT_NE(Html.find("function body &quot;&lt;/script&gt;&lt;b&gt;&quot;"), std::string::npos);
  // The script element ends once, where the page ends it.
  std::size_t Ends = 0;
  for (std::size_t At = Html.find("</script>"); At != std::string::npos;
       At = Html.find("</script>", At + 1))
    ++Ends;
  EXPECT_EQ(Ends, 3u) << "the timeline data, the profile data and the page script";
  for (const char *External : {"<link", " src=", " href=", "@import", "url("})
    EXPECT_EQ(Html.find(External), std::string::npos) << External;
}

TEST(AtomicFileTest, WritesWholeFilesAndExplainsFailures) {
  const std::string Dir = scratchDirectory("atomic");
  std::string Error;
  ASSERT_TRUE(writeFileAtomically(Dir + "/out.html", "first", Error)) << Error;
  ASSERT_TRUE(writeFileAtomically(Dir + "/out.html", "second", Error)) << Error;
  std::ifstream In(Dir + "/out.html");
  std::stringstream S;
  S << In.rdbuf();
  EXPECT_EQ(S.str(), "second");
  EXPECT_EQ(filesIn(Dir), std::vector<std::string>{"out.html"}) << "no temporary file is left";
  EXPECT_FALSE(writeFileAtomically(Dir + "/missing/out.html", "x", Error));
  EXPECT_EQ(Error, "cannot write '" + Dir + "/missing/out.html': No such file or directory");
  ::mkdir((Dir + "/sub").c_str(), 0700);
  EXPECT_FALSE(writeFileAtomically(Dir + "/sub", "x", Error)) << "a directory is not replaced";
  EXPECT_EQ(filesIn(Dir).size(), 2u);
}

TEST(TraceTest, ExplainsAMissingOrBrokenArchive) {
  Timeline T;
  std::string Error;
  EXPECT_FALSE(readTimeline("/nonexistent/traces.otf2", {}, T, Error));
  EXPECT_EQ(Error, "cannot read OTF2 trace '/nonexistent/traces.otf2': No such file or directory");
  const std::string Dir = scratchDirectory("trace");
  std::ofstream(Dir + "/traces.otf2") << "not an archive\n";
  EXPECT_FALSE(readTimeline(Dir + "/traces.otf2", {}, T, Error));
  EXPECT_EQ(Error.rfind("cannot read OTF2 trace '" + Dir + "/traces.otf2': ", 0), 0u) << Error;
  EXPECT_EQ(traceAnchorIn("exp/"), "exp/trace/traces.otf2");
  EXPECT_EQ(traceAnchorIn("exp"), "exp/trace/traces.otf2");
}

TEST(OptionsTest, ReadsEveryOption) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parseArguments({"--sort=wait", "--filter", "par", "--top=3", "--tree", "--threads",
                              "--json", "--metric=incl", "--html", "r.html", "--trace=t.otf2",
                              "--timeline-limit=5", "exp"},
                             O, Error))
      << Error;
  EXPECT_EQ(O.Select.Sort, SortKey::Wait);
  EXPECT_TRUE(O.Select.Filter.has_value());
  EXPECT_EQ(O.Select.Top, 3u);
  EXPECT_TRUE(O.Tree && O.Threads && O.Json);
  EXPECT_EQ(O.Metric, ThreadMetric::Inclusive);
  EXPECT_EQ(O.HtmlPath, "r.html");
  EXPECT_EQ(O.TracePath, "t.otf2");
  EXPECT_EQ(O.Limits.IntervalsPerLane, 5u);
  EXPECT_EQ(O.Experiment, "exp");
  ASSERT_TRUE(parseArguments({"--", "-odd-name"}, O, Error)) << Error;
  EXPECT_EQ(O.Experiment, "-odd-name");
}

TEST(OptionsTest, RejectsWhatItDoesNotKnowInOneSentence) {
  auto Fails = [](std::vector<std::string> Args) {
    Options O;
    std::string Error;
    EXPECT_FALSE(parseArguments(Args, O, Error));
    return Error;
  };
  EXPECT_EQ(Fails({}), "no experiment directory given");
  EXPECT_EQ(Fails({"--frobnicate", "exp"}), "unknown option '--frobnicate'");
  EXPECT_EQ(Fails({"--sort=size", "exp"}),
            "unknown sort key 'size' (expected excl, incl, calls, imbalance, wait or name)");
  EXPECT_EQ(Fails({"--top=0", "exp"}), "--top needs a positive number, not '0'");
  EXPECT_EQ(Fails({"--top=-1", "exp"}), "--top needs a positive number, not '-1'");
  EXPECT_EQ(Fails({"--top=99999999999999999999999", "exp"}),
            "--top needs a positive number, not '99999999999999999999999'");
  EXPECT_EQ(Fails({"exp", "--html"}), "--html needs a value");
  EXPECT_EQ(Fails({"--tree=yes", "exp"}), "--tree takes no value");
  EXPECT_EQ(Fails({"--metric=both", "exp"}), "unknown metric 'both' (expected excl or incl)");
  EXPECT_EQ(Fails({"a", "b", "c"}),
            "at most two experiment directories (run A and run B), not also 'c'");
  EXPECT_EQ(Fails({"--filter=(", "exp"}).rfind("--filter='(' is not a valid regular expression", 0),
            0u);
}

TEST(ToolTest, ReportsLoadErrorsOnStderrWithStatusOne) {
  Options O;
  std::string Error;
  ASSERT_TRUE(parseArguments({"/nonexistent/exp"}, O, Error));
  std::ostringstream Out, Err;
  EXPECT_EQ(runReport(O, Out, Err), ExitError);
  EXPECT_EQ(Out.str(), "");
  EXPECT_EQ(Err.str(),
            "pomp-report: error: cannot open '/nonexistent/exp': No such file or directory\n");
}

} // namespace
} // namespace pomp::report
