//===- OutputTest.cpp - JSON, text and the experiment directory -----------===//

#include "CoreTestSupport.h"

#include "core/Json.h"
#include "core/Output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace pomp::rt::test {
namespace {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
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
  const std::string Base = scratchDirectory("claim") + "/parent/exp";
  std::string Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base) << Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base + "-1") << Error;
  EXPECT_EQ(claimDirectory(Base, Error), Base + "-2") << Error;
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
  EXPECT_NE(::access((Dir + "/.f.txt.tmp." + std::to_string(::getpid())).c_str(), F_OK), 0)
      << "no temporary file is left behind";
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
  EXPECT_NE(Json.find("\"schema\": \"pomp-profile\", \"version\": 1"), std::string::npos);
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
}

} // namespace
} // namespace pomp::rt::test
