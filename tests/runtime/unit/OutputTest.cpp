//===- OutputTest.cpp - JSON, text and the experiment directory -----------===//

#include "CoreTestSupport.h"

#include "core/Json.h"
#include "core/Output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace pomp::rt::test {
namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// The names in a directory, sorted, without "." and "..".
std::vector<std::string> listDirectory(const std::string &Dir) {
  std::vector<std::string> Names;
  if (DIR *D = ::opendir(Dir.c_str())) {
    while (const dirent *E = ::readdir(D))
      if (std::string_view(E->d_name) != "." && std::string_view(E->d_name) != "..")
        Names.emplace_back(E->d_name);
    ::closedir(D);
  }
  std::sort(Names.begin(), Names.end());
  return Names;
}

/// Removes a directory the test made and what it holds (no subdirectories).
void removeTree(const std::string &Dir) {
  for (const std::string &Name : listDirectory(Dir))
    ::unlink((Dir + "/" + Name).c_str());
  ::rmdir(Dir.c_str());
}

/// A fresh directory under the test's temporary directory.
std::string scratchDirectory(const std::string &Name) {
  const char *Base = std::getenv("TMPDIR");
  std::string Dir = std::string(Base && *Base ? Base : "/tmp") + "/pomp-output-test-" +
                    std::to_string(::getpid()) + "-" + Name;
  return Dir;
}

TEST(JsonWriterTest, WritesNestedValuesAndEscapes) {
  JsonWriter W;
  W.beginObject();
  W.key("s").value("a\"b\\c\n\x01");
  W.key("n").value(std::uint64_t(42));
  W.key("neg").value(std::int64_t(-3));
  W.key("d").value(0.5);
  W.key("nan").value(0.0 / 0.0);
  W.key("list").beginArray().value(true).null().endArray();
  W.endObject();
  EXPECT_EQ(W.text(), "{\"s\": \"a\\\"b\\\\c\\n\\u0001\", \"n\": 42, \"neg\": -3, \"d\": 0.5, "
                      "\"nan\": null, \"list\": [true, null]}");
}

TEST(JsonWriterTest, KeepsUtf8AndReplacesWhatIsNot) {
  EXPECT_EQ(JsonWriter::escape("gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80"),
            "gr\xc3\xbc\xc3\x9f \xe2\x82\xac \xf0\x9f\x98\x80");
  // Latin-1, an overlong encoding, a surrogate, a cut sequence.
  EXPECT_EQ(JsonWriter::escape("caf\xe9"), "caf\\ufffd");
  EXPECT_EQ(JsonWriter::escape("\xc0\xaf"), "\\ufffd\\ufffd");
  EXPECT_EQ(JsonWriter::escape("\xed\xa0\x80"), "\\ufffd\\ufffd\\ufffd");
  EXPECT_EQ(JsonWriter::escape("x\xe2\x82"), "x\\ufffd\\ufffd");
}

TEST(JsonWriterTest, LineBreaksIndentByDepth) {
  JsonWriter W;
  W.beginObject().breakLine().key("a").beginArray();
  W.breakLine().value(1);
  W.breakLine().value(2);
  W.breakLine().endArray().breakLine().endObject();
  EXPECT_EQ(W.text(), "{\n  \"a\": [\n    1,\n    2\n  ]\n}");
}

TEST(ExperimentDirectoryTest, NeverReusesADirectory) {
  const std::string Scratch = scratchDirectory("claim");
  const std::string Base = Scratch + "/parent/exp";
  std::string Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base) << Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base + "-1") << Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base + "-2") << Error;
  for (const char *Suffix : {"", "-1", "-2"})
    ::rmdir((Base + Suffix).c_str());
  ::rmdir((Scratch + "/parent").c_str());
  ::rmdir(Scratch.c_str());
}

TEST(ExperimentDirectoryTest, UnwritablePathGivesAReason) {
  const std::string File = scratchDirectory("file");
  std::ofstream(File) << "x";
  std::string Error;
  EXPECT_EQ(claimDirectory(File + "/exp", Error), "");
  EXPECT_NE(Error.find("cannot create directory"), std::string::npos) << Error;
  EXPECT_NE(Error.find("Not a directory"), std::string::npos) << Error;
  std::remove(File.c_str());
}

TEST(ExperimentDirectoryTest, FilesAreWrittenCompletely) {
  std::string Error;
  const std::string Dir = claimDirectory(scratchDirectory("write"), Error);
  ASSERT_FALSE(Dir.empty()) << Error;
  ASSERT_TRUE(writeFileAtomically(Dir, "f.txt", "hello\n", Error)) << Error;
  ASSERT_TRUE(writeFileAtomically(Dir, "f.txt", "again\n", Error)) << Error;
  EXPECT_EQ(readFile(Dir + "/f.txt"), "again\n");
  EXPECT_EQ(listDirectory(Dir), std::vector<std::string>{"f.txt"})
      << "no temporary file is left behind";
  removeTree(Dir);
}

// Issue 13, item 7: a link planted where libpomp used to put its temporary file
// (.NAME.tmp.<pid>) or at the file's own name must not make it write another file.
TEST(ExperimentDirectoryTest, PlantedLinksAreNeverWrittenThrough) {
  std::string Error;
  const std::string Dir = claimDirectory(scratchDirectory("plant"), Error);
  ASSERT_FALSE(Dir.empty()) << Error;
  const std::string Victim = scratchDirectory("victim");
  {
    std::ofstream Out(Victim);
    Out << "victim\n";
  }
  const std::string OldTemporary = Dir + "/.profile.json.tmp." + std::to_string(::getpid());
  ASSERT_EQ(::symlink(Victim.c_str(), OldTemporary.c_str()), 0);
  ASSERT_EQ(::symlink(Victim.c_str(), (Dir + "/profile.json").c_str()), 0);
  ASSERT_TRUE(writeFileAtomically(Dir, "profile.json", "{}\n", Error)) << Error;
  EXPECT_EQ(readFile(Victim), "victim\n");
  struct stat Final;
  ASSERT_EQ(::lstat((Dir + "/profile.json").c_str(), &Final), 0);
  EXPECT_TRUE(S_ISREG(Final.st_mode)) << "the link was replaced, not followed";
  EXPECT_EQ(readFile(Dir + "/profile.json"), "{}\n");
  removeTree(Dir);
  ::unlink(Victim.c_str());
}

// The experiment directory lets nobody but its owner add files, whatever the umask; files get
// 0666 less the umask, never more.
TEST(ExperimentDirectoryTest, ModesAreNoWiderThanTheUmaskAllows) {
  const mode_t Saved = ::umask(002);
  std::string Error;
  const std::string Dir = claimDirectory(scratchDirectory("modes"), Error);
  const bool Written = !Dir.empty() && writeFileAtomically(Dir, "f.txt", "x", Error);
  ::umask(Saved);
  ASSERT_TRUE(Written) << Error;
  struct stat D, F;
  ASSERT_EQ(::stat(Dir.c_str(), &D), 0);
  ASSERT_EQ(::stat((Dir + "/f.txt").c_str(), &F), 0);
  EXPECT_EQ(D.st_mode & 07777, 0755u);
  EXPECT_EQ(F.st_mode & 07777, 0664u);
  removeTree(Dir);
}

TEST(ExperimentDirectoryTest, TreesAreRemovedWithoutFollowingLinks) {
  // An incomplete trace is removed with pomp::rt::removeTree: never what a
  // link in it points to.
  const std::string Dir = scratchDirectory("tree");
  const std::string Outside = scratchDirectory("outside");
  std::string Error;
  ASSERT_EQ(::mkdir(Outside.c_str(), 0700), 0);
  ASSERT_TRUE(writeFileAtomically(Outside, "kept.txt", "x", Error)) << Error;
  ASSERT_EQ(::mkdir(Dir.c_str(), 0700), 0);
  ASSERT_EQ(::mkdir((Dir + "/traces").c_str(), 0700), 0);
  ASSERT_TRUE(writeFileAtomically(Dir + "/traces", "0.evt", "events", Error)) << Error;
  ASSERT_EQ(::symlink(Outside.c_str(), (Dir + "/traces/link").c_str()), 0);
  EXPECT_TRUE(pomp::rt::removeTree(Dir));
  struct stat Info;
  EXPECT_NE(::lstat(Dir.c_str(), &Info), 0);
  EXPECT_EQ(readFile(Outside + "/kept.txt"), "x");
  EXPECT_TRUE(pomp::rt::removeTree(Dir)) << "a tree that is gone is removed";
  removeTree(Outside);
}

/// Profiles of a fresh core written as JSON and text.
class ProfileOutputTest : public CoreFixture {};

TEST_F(ProfileOutputTest, JsonHasOneLinePerNodeAndEveryRegion) {
  const RegionId Par = region("type=parallel*file=demo.c*slines=7,8*elines=12,12");
  const RegionId Bar = region("type=barrier*file=demo.c*slines=10,10");
  ThreadState &T = *C.attachThread();
  C.enter(T, Par, EventId::Parallel_begin, 0);
  C.enter(T, Bar, EventId::Barrier_enter, 10);
  C.leave(T, Bar, EventId::Barrier_exit, 30);
  C.leave(T, Par, EventId::Parallel_end, 100);
  const Profile P = C.collect(200, OneNsPerTick);
  RunInfo Run;
  Run.Program = "demo";
  const std::string Json = profileJson(P, Regions, Run);
  EXPECT_NE(Json.find("\"schema\": \"pomp-profile\", \"version\": 2"), std::string::npos);
  EXPECT_NE(
      Json.find("{\"id\": 1, \"type\": \"parallel\", \"label\": \"parallel\", \"name\": \"\", "
                "\"file\": \"demo.c\", \"start_lines\": [7, 8], \"end_lines\": [12, 12], "
                "\"location\": \"demo.c:7\""),
      std::string::npos)
      << Json;
  EXPECT_NE(Json.find("{\"id\": 1, \"parent\": 0, \"depth\": 1, \"region\": 1, \"event\": "
                      "\"Parallel_begin\", \"construct\": \"parallel body\", \"kind\": \"work\", "
                      "\"visits\": 1, \"inclusive_ns\": 100, \"exclusive_ns\": 80"),
            std::string::npos)
      << Json;
  EXPECT_NE(Json.find("\"construct\": \"barrier\", \"kind\": \"wait\", \"visits\": 1, "
                      "\"inclusive_ns\": 20"),
            std::string::npos)
      << Json;

  const std::string Text = profileText(P, Regions, Run);
  EXPECT_NE(Text.find("parallel body @demo.c:7"), std::string::npos) << Text;
  EXPECT_NE(Text.find("anomalies: none"), std::string::npos) << Text;
  EXPECT_NE(Json.find("\"traces\": []"), std::string::npos) << Json;
}

/// A schedule(static) loop whose four threads work 10, 20, 30 and 40 ns and then wait in the
/// loop's implicit barrier until 50 ns: instrumented code has the barrier inside the loop's
/// enter/exit pair, the OMPT adapter has it after the loop. The loop's imbalance is that of the
/// work in both: (40 - 25) / 40; the barrier has none of its own.
void imbalancedLoop(Core &C, RegionId Par, RegionId Loop, RegionId Barrier, bool BarrierInLoop) {
  ThreadState &Master = *C.attachThread();
  std::vector<ThreadState *> Team = {&Master, C.attachThread(), C.attachThread(), C.attachThread()};
  Node *Fork = C.enter(Master, Par, EventId::Parallel_fork, 0);
  const POMP_Context_t Ctx = Core::contextOf(Fork);
  constexpr Tick Start = 10, WorkUnit = 10, End = 50;
  for (std::size_t I = 0; I < Team.size(); ++I) {
    ThreadState &T = *Team[I];
    const Tick Done = Start + WorkUnit * (I + 1);
    C.enter(T, Par, EventId::Parallel_begin_forked, 5, C.forkParent(T, Ctx));
    C.enter(T, Loop, EventId::Loop_enter, Start);
    if (!BarrierInLoop)
      C.leave(T, Loop, EventId::Loop_exit, Done);
    C.enter(T, Barrier, EventId::Implicit_barrier_enter, Done);
    C.leave(T, Barrier, EventId::Implicit_barrier_exit, End);
    if (BarrierInLoop)
      C.leave(T, Loop, EventId::Loop_exit, End);
    C.leave(T, Par, EventId::Parallel_end, End + 5);
  }
  C.leave(Master, Par, EventId::Parallel_exit, End + WorkUnit);
}

TEST_F(ProfileOutputTest, ImbalanceIsOfTheWorkWithoutTheBarrierInEveryMode) {
  for (const bool BarrierInLoop : {true, false}) {
    RegionTable Table;
    Core Fresh(Table);
    const RegionId Par = Table.registerCtc(ctcString("type=parallel*file=t.c*slines=1,1")).Id;
    const RegionId Loop = Table.registerCtc(ctcString("type=for*file=t.c*slines=2,2")).Id;
    const RegionId Barrier = Table.registerCtc(ctcString("type=barrier*file=t.c*slines=3,3")).Id;
    imbalancedLoop(Fresh, Par, Loop, Barrier, BarrierInLoop);
    const Profile P = Fresh.collect(100, OneNsPerTick);
    RunInfo Run;
    Run.Program = "imbalance";
    Run.DurationNs = 100;
    const std::string Text = profileText(P, Table, Run);
    EXPECT_NE(Text.find("37.5% work  loop @t.c:2\n"), std::string::npos) << Text;
    // The body adds 5 ns before and after the loop on every thread: (50 - 35) / 50.
    EXPECT_NE(Text.find("30.0% work  parallel body @t.c:1\n"), std::string::npos) << Text;
    EXPECT_NE(Text.find("0.0% wait  implicit barrier @t.c:3\n"), std::string::npos) << Text;
    // Waiting 30 + 20 + 10 + 0 ns of 4 threads x 100 ns.
    EXPECT_NE(Text.find("waiting: 0.000000 s, 15.0% of the threads' time (4 threads x 0.000000 s)"),
              std::string::npos)
        << Text;
    const std::string Json = profileJson(P, Table, Run);
    EXPECT_NE(Json.find("\"construct\": \"loop\", \"kind\": \"work\""), std::string::npos);
    EXPECT_NE(Json.find("\"imbalance\": 0.375"), std::string::npos) << Json;
  }
}

TEST_F(ProfileOutputTest, AJumpOfTheClockIsRecordedAndSaid) {
  const Profile P = C.collect(200, OneNsPerTick);
  RunInfo Run;
  Run.Program = "demo";
  Run.Clock.Source = ClockSource::Tsc;
  Run.Clock.TicksPerNs = 2.45;
  Run.Clock.RateChange = -0.02;
  Run.Clock.Warning = "the TSC jumped";
  const std::string Json = profileJson(P, Regions, Run);
  EXPECT_NE(Json.find("\"rate_change\": -0.02, \"warning\": \"the TSC jumped\"}"),
            std::string::npos)
      << Json;
  const std::string Text = profileText(P, Regions, Run);
  EXPECT_NE(Text.find("\nwarning: the TSC jumped (-2.000 %)\n"), std::string::npos) << Text;

  Run.Clock.RateChange = 0.0001;
  Run.Clock.Warning = {};
  EXPECT_NE(profileJson(P, Regions, Run).find("\"rate_change\": 0.0001, \"warning\": \"\"}"),
            std::string::npos);
  EXPECT_EQ(profileText(P, Regions, Run).find("warning:"), std::string::npos);
}

TEST_F(ProfileOutputTest, IncompleteTracesAreRecordedWithTheirLostEvents) {
  const Profile P = C.collect(200, OneNsPerTick);
  RunInfo Run;
  Run.Program = "demo";
  TraceReport Failed;
  Failed.Format = "otf2";
  Failed.File = "trace/traces.otf2";
  Failed.Removed = true;
  Failed.Events = 2400024;
  Failed.Errno = ENOSPC;
  Failed.Failure = "trace/traces/1.evt";
  TraceReport Complete;
  Complete.Format = "chrome";
  Complete.File = "trace.json";
  Complete.Complete = true;
  Complete.Events = Complete.Written = 12;
  Run.Traces = {Failed, Complete};
  const std::string Json = profileJson(P, Regions, Run);
  EXPECT_NE(Json.find("{\"format\": \"otf2\", \"file\": \"trace/traces.otf2\", \"complete\": "
                      "false, \"removed\": true, \"events\": 2400024, \"events_written\": 0, "
                      "\"events_lost\": 2400024, \"error\": \"writing 'trace/traces/1.evt' "
                      "failed: No space left on device\"}"),
            std::string::npos)
      << Json;
  EXPECT_NE(Json.find("{\"format\": \"chrome\", \"file\": \"trace.json\", \"complete\": true, "
                      "\"removed\": false, \"events\": 12, \"events_written\": 12, "
                      "\"events_lost\": 0, \"error\": \"\"}"),
            std::string::npos)
      << Json;
  const std::string Text = profileText(P, Regions, Run);
  EXPECT_NE(Text.find("\nTRACE INCOMPLETE: trace/traces.otf2 (removed): writing "
                      "'trace/traces/1.evt' failed: No space left on device; 2400024 of 2400024 "
                      "events lost\n"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("trace.json"), std::string::npos) << "complete traces are not listed";
}

} // namespace
} // namespace pomp::rt::test
