//===- CtcDescriptorTest.cpp - CTC strings as region descriptors ----------===//
///
/// \file
/// parseDescriptor and writeDescriptor: known keys, line ranges, flags,
/// duplicates, unknown keys, region kinds, the writer's fixed order, and the
/// value errors with their exact offsets.
///
//===----------------------------------------------------------------------===//

#include "CtcTestSupport.h"

#include "pomp/ctc/Ctc.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <set>
#include <string>
#include <vector>

namespace pomp::ctc {
namespace {

using test::descriptorFailsAt;
using test::failsAt;
using test::printable;
using test::wrap;

/// The clause flags and their keys, written out here independently of the
/// library's own table, in RegionDescriptor's declaration order.
struct FlagCase {
  const char *Key;
  bool RegionDescriptor::*Member;
};
const FlagCase Flags[] = {
    {"hasFirstprivate", &RegionDescriptor::HasFirstprivate},
    {"hasLastprivate", &RegionDescriptor::HasLastprivate},
    {"hasReduction", &RegionDescriptor::HasReduction},
    {"hasNowait", &RegionDescriptor::HasNowait},
    {"hasCopyin", &RegionDescriptor::HasCopyin},
    {"hasCopyprivate", &RegionDescriptor::HasCopyprivate},
    {"hasOrdered", &RegionDescriptor::HasOrdered},
    {"hasIf", &RegionDescriptor::HasIf},
    {"hasNumThreads", &RegionDescriptor::HasNumThreads},
    {"hasUntied", &RegionDescriptor::HasUntied},
    {"hasCollapse", &RegionDescriptor::HasCollapse},
    {"hasDepend", &RegionDescriptor::HasDepend},
    {"directiveFree", &RegionDescriptor::DirectiveFree},
    {"afterConstruct", &RegionDescriptor::AfterConstruct},
};

const std::string MaxLine = std::to_string(std::numeric_limits<unsigned>::max());

RegionDescriptor appendixADescriptor() {
  RegionDescriptor D;
  D.Type = "preregion";
  D.Kind = RegionKind::Parallel;
  D.File = "demo.c";
  D.StartLines = LineRange{7, 8};
  D.EndLines = LineRange{12, 12};
  return D;
}

/// Parses \p Ctc, failing the test with the error if it does not parse.
RegionDescriptor mustParse(std::string_view Ctc) {
  Expected<RegionDescriptor> D = parseDescriptor(Ctc);
  EXPECT_TRUE(D) << printable(Ctc) << ": " << D.error().message();
  return D ? *D : RegionDescriptor();
}

//===--- The paper's string -------------------------------------------------===//

TEST(ctcDescriptor, ReadsAppendixAWithEitherCount) {
  EXPECT_EQ(mustParse("51*type=preregion*file=demo.c*slines=7,8*elines=12,12**"),
            appendixADescriptor());
  EXPECT_EQ(mustParse("53*type=preregion*file=demo.c*slines=7,8*elines=12,12**"),
            appendixADescriptor());
}

TEST(ctcDescriptor, WritesAppendixAWithTheInclusiveCount) {
  EXPECT_EQ(writeDescriptor(appendixADescriptor()),
            "53*type=preregion*file=demo.c*slines=7,8*elines=12,12**");
}

TEST(ctcDescriptor, EmptyDescriptorIsTheShortestString) {
  EXPECT_EQ(writeDescriptor(RegionDescriptor()), "2**");
  EXPECT_EQ(mustParse("2**"), RegionDescriptor());
}

//===--- Writer -------------------------------------------------------------===//

TEST(ctcDescriptor, WritesKnownKeysInFixedOrderThenExtras) {
  RegionDescriptor D;
  D.Type = "parallelfor";
  D.Kind = RegionKind::ParallelFor;
  D.Name = "n";
  D.Group = "g";
  D.File = "f.c";
  D.StartLines = LineRange{3, 4};
  D.EndLines = LineRange{9, 9};
  D.Schedule = "dynamic";
  for (const FlagCase &Flag : Flags)
    D.*Flag.Member = true;
  D.ExtraFields = {{"zz", "1"}, {"aa", "x*y"}};
  const std::string Body = "type=parallelfor*name=n*group=g*file=f.c*slines=3,4*elines=9,9*"
                           "schedule=dynamic*hasFirstprivate=1*hasLastprivate=1*hasReduction=1*"
                           "hasNowait=1*hasCopyin=1*hasCopyprivate=1*hasOrdered=1*hasIf=1*"
                           "hasNumThreads=1*hasUntied=1*hasCollapse=1*hasDepend=1*"
                           "directiveFree=1*afterConstruct=1*zz=1*aa=x\\*y*";
  EXPECT_EQ(writeDescriptor(D), "294*" + Body + "*");
  EXPECT_EQ(mustParse(writeDescriptor(D)), D);
}

// The enclosing function (issue 16) comes after the clause facts, before unknown keys: a reader
// that predates it keeps it as the first unknown key.
TEST(ctcDescriptor, FunctionIsWrittenAfterTheFlagsAndRoundTrips) {
  RegionDescriptor D;
  D.Type = "for";
  D.Kind = RegionKind::For;
  D.File = "f.c";
  D.HasNowait = true;
  D.Function = "grid::Solver::relax";
  D.ExtraFields = {{"zz", "1"}};
  EXPECT_EQ(writeDescriptor(D),
            wrap("type=for*file=f.c*hasNowait=1*function=grid::Solver::relax*zz=1*"));
  EXPECT_EQ(mustParse(writeDescriptor(D)), D);
  EXPECT_EQ(mustParse(wrap("function=f*type=for*")).Function, "f");
  EXPECT_TRUE(mustParse(wrap("function=f*type=for*")).ExtraFields.empty());
}

TEST(ctcDescriptor, ReadingDoesNotDependOnFieldOrder) {
  const RegionDescriptor D =
      mustParse(wrap("elines=12,12*hasNowait=1*x=1*file=demo.c*slines=7,8*type=for*"));
  EXPECT_EQ(writeDescriptor(D),
            wrap("type=for*file=demo.c*slines=7,8*elines=12,12*hasNowait=1*x=1*"));
}

TEST(ctcDescriptor, WriterOmitsEmptyFalseAndAbsentFields) {
  RegionDescriptor D;
  D.Type = "barrier";
  D.Kind = RegionKind::Barrier;
  EXPECT_EQ(writeDescriptor(D), "15*type=barrier**");
}

TEST(ctcDescriptor, WriterSpellsTheKindWhenTypeIsEmpty) {
  RegionDescriptor D;
  D.Kind = RegionKind::Critical;
  D.Name = "lock";
  EXPECT_EQ(writeDescriptor(D), "26*type=critical*name=lock**");
}

TEST(ctcDescriptor, WriterEscapesValues) {
  RegionDescriptor D;
  D.File = "dir\\a*b.c";
  D.Name = "*";
  EXPECT_EQ(writeDescriptor(D), "27*name=\\**file=dir\\\\a\\*b.c**");
  EXPECT_EQ(mustParse(writeDescriptor(D)), D);
}

//===--- Text fields --------------------------------------------------------===//

TEST(ctcDescriptor, TextFields) {
  const RegionDescriptor D =
      mustParse(wrap("type=critical*name=operator==*group=ns::C*file=my dir/\xc3\xbc.c*"
                     "schedule=monotonic:dynamic*"));
  EXPECT_EQ(D.Type, "critical");
  EXPECT_EQ(D.Kind, RegionKind::Critical);
  EXPECT_EQ(D.Name, "operator==");
  EXPECT_EQ(D.Group, "ns::C");
  EXPECT_EQ(D.File, "my dir/\xc3\xbc.c");
  EXPECT_EQ(D.Schedule, "monotonic:dynamic");
  EXPECT_FALSE(D.StartLines);
  EXPECT_FALSE(D.EndLines);
  EXPECT_TRUE(D.ExtraFields.empty());
}

TEST(ctcDescriptor, UnknownTypeKeepsItsSpelling) {
  const RegionDescriptor D = mustParse(wrap("type=frobnicate*"));
  EXPECT_EQ(D.Type, "frobnicate");
  EXPECT_EQ(D.Kind, RegionKind::Unknown);
  EXPECT_EQ(writeDescriptor(D), wrap("type=frobnicate*"));
}

TEST(ctcDescriptor, EmptyTypeIsUnknown) {
  const RegionDescriptor D = mustParse(wrap("type=*"));
  EXPECT_EQ(D.Type, "");
  EXPECT_EQ(D.Kind, RegionKind::Unknown);
}

TEST(ctcDescriptor, PaperSpellingOfParallel) {
  const RegionDescriptor D = mustParse(wrap("type=preregion*"));
  EXPECT_EQ(D.Type, "preregion");
  EXPECT_EQ(D.Kind, RegionKind::Parallel);
}

//===--- Flags --------------------------------------------------------------===//

TEST(ctcDescriptor, EachFlagKeySetsItsOwnMember) {
  for (const FlagCase &Flag : Flags) {
    SCOPED_TRACE(Flag.Key);
    RegionDescriptor Expected;
    Expected.*Flag.Member = true;
    const std::string Ctc = wrap(std::string(Flag.Key) + "=1*");
    EXPECT_EQ(mustParse(Ctc), Expected);
    EXPECT_EQ(writeDescriptor(Expected), Ctc);
    EXPECT_EQ(mustParse(wrap(std::string(Flag.Key) + "=0*")), RegionDescriptor());
  }
}

TEST(ctcDescriptor, FlagsAreExactlyZeroOrOne) {
  EXPECT_TRUE(
      descriptorFailsAt("16*hasNowait=yes**", 13, "hasNowait must be 0 or 1, found \"yes\""));
  for (const char *Bad : {"", "2", "true", "01", "00", " 1", "1 ", "-1", "+1", "\\*"}) {
    for (const FlagCase &Flag : Flags) {
      const std::string Ctc = wrap("type=for*" + std::string(Flag.Key) + "=" + Bad + "*");
      const std::size_t ValueOffset = Ctc.rfind('=') + 1;
      EXPECT_TRUE(
          descriptorFailsAt(Ctc, ValueOffset, std::string(Flag.Key) + " must be 0 or 1, found"));
    }
  }
}

TEST(ctcDescriptor, LongBadValuesAreCutInMessages) {
  const std::string Ctc = wrap("hasIf=" + std::string(1000, 'x') + "*");
  Expected<RegionDescriptor> D = parseDescriptor(Ctc);
  ASSERT_FALSE(D);
  EXPECT_EQ(D.error().Reason,
            "hasIf must be 0 or 1, found \"" + std::string(40, 'x') + "\"... (1000 bytes)");
}

//===--- Line ranges --------------------------------------------------------===//

TEST(ctcDescriptor, LineRanges) {
  const RegionDescriptor D = mustParse(wrap("slines=0,0*elines=1," + MaxLine + "*"));
  EXPECT_EQ(D.StartLines, (LineRange{0, 0}));
  EXPECT_EQ(D.EndLines, (LineRange{1, std::numeric_limits<unsigned>::max()}));
  EXPECT_EQ(
      mustParse(wrap("slines=" + MaxLine + "," + MaxLine + "*")).StartLines,
      (LineRange{std::numeric_limits<unsigned>::max(), std::numeric_limits<unsigned>::max()}));
  EXPECT_EQ(mustParse(wrap("elines=12,12*")).EndLines, (LineRange{12, 12}));
}

/// A line range value \p Raw (as written, escapes included) fails at
/// \p Index bytes into the value with \p Reason.
::testing::AssertionResult rangeFailsAt(const std::string &Key, const std::string &Raw,
                                        std::size_t Index, const std::string &Reason) {
  const std::string Ctc = wrap("type=for*" + Key + "=" + Raw + "*");
  const std::size_t ValueOffset = Ctc.find(Key + "=") + Key.size() + 1;
  return descriptorFailsAt(Ctc, ValueOffset + Index, Key + ": " + Reason);
}

TEST(ctcDescriptor, LineRangeErrors) {
  EXPECT_TRUE(
      descriptorFailsAt("13*slines=7,x**", 12, "slines: expected the last line number, found 'x'"));
  EXPECT_TRUE(
      rangeFailsAt("slines", "", 0, "expected the first line number, found the end of the value"));
  EXPECT_TRUE(rangeFailsAt("slines", "7", 1,
                           "expected ',' after the first line, found the end of the value"));
  EXPECT_TRUE(
      rangeFailsAt("slines", "7,", 2, "expected the last line number, found the end of the value"));
  EXPECT_TRUE(rangeFailsAt("slines", ",8", 0, "expected the first line number, found ','"));
  EXPECT_TRUE(rangeFailsAt("slines", "+7,8", 0, "expected the first line number, found '+'"));
  EXPECT_TRUE(rangeFailsAt("slines", "7,-8", 2, "expected the last line number, found '-'"));
  EXPECT_TRUE(rangeFailsAt("slines", " 7,8", 0, "expected the first line number, found ' '"));
  EXPECT_TRUE(rangeFailsAt("slines", "7 ,8", 1, "expected ',' after the first line, found ' '"));
  EXPECT_TRUE(rangeFailsAt("slines", "7, 8", 2, "expected the last line number, found ' '"));
  EXPECT_TRUE(rangeFailsAt("slines", "7,8 ", 3,
                           "expected the end of the value after the last line, found ' '"));
  EXPECT_TRUE(rangeFailsAt("slines", "7,8,9", 3,
                           "expected the end of the value after the last line, found ','"));
  EXPECT_TRUE(rangeFailsAt("slines", "7;8", 1, "expected ',' after the first line, found ';'"));
  EXPECT_TRUE(rangeFailsAt("slines", "7.0,8", 1, "expected ',' after the first line, found '.'"));
  EXPECT_TRUE(rangeFailsAt("slines", "4294967296,4294967296", 0,
                           "the first line number is larger than " + MaxLine));
  EXPECT_TRUE(rangeFailsAt("slines", "1,99999999999999999999999", 2,
                           "the last line number is larger than " + MaxLine));
  EXPECT_TRUE(rangeFailsAt("slines", "8,7", 0, "first line 8 is after last line 7"));
  EXPECT_TRUE(rangeFailsAt("slines", "07,8", 0, "the first line number has a leading zero"));
  EXPECT_TRUE(rangeFailsAt("slines", "7,08", 2, "the last line number has a leading zero"));
  // An escaped '*' is reported at its backslash.
  EXPECT_TRUE(rangeFailsAt("slines", "7\\*,8", 1, "expected ',' after the first line, found '*'"));
  EXPECT_TRUE(rangeFailsAt("elines", "5", 1, "expected ',' after the first line"));
  EXPECT_TRUE(rangeFailsAt("elines", "12,11", 0, "first line 12 is after last line 11"));
}

//===--- Keys ---------------------------------------------------------------===//

TEST(ctcDescriptor, KnownKeyTwiceIsAnError) {
  EXPECT_TRUE(descriptorFailsAt("20*type=for*type=for**", 12,
                                "duplicate key \"type\" (first given at offset 3)"));
  const std::vector<std::pair<std::string, std::string>> KnownKeys = {
      {"type", "for"},   {"name", "x"},     {"group", "g"},        {"file", "a.c"},
      {"slines", "1,2"}, {"elines", "3,4"}, {"schedule", "static"}};
  std::vector<std::pair<std::string, std::string>> AllKeys = KnownKeys;
  for (const FlagCase &Flag : Flags)
    AllKeys.emplace_back(Flag.Key, "0");
  ASSERT_EQ(AllKeys.size(), 21u);
  for (const auto &[Key, Value] : AllKeys) {
    const std::string Field = Key + "=" + Value + "*";
    const std::string Ctc = wrap("x=1*" + Field + "y=2*" + Field);
    const std::size_t First = Ctc.find(Field);
    const std::size_t Second = Ctc.rfind(Field);
    EXPECT_TRUE(descriptorFailsAt(Ctc, Second,
                                  "duplicate key \"" + Key + "\" (first given at offset " +
                                      std::to_string(First) + ")"));
  }
}

TEST(ctcDescriptor, UnknownKeysAreKeptInOrderEvenTwice) {
  const RegionDescriptor D = mustParse(wrap("zeta=1*type=for*alpha=x\\*y*zeta=2*Type=single*"));
  EXPECT_EQ(D.Kind, RegionKind::For);
  EXPECT_EQ(
      D.ExtraFields,
      (std::vector<Field>{{"zeta", "1"}, {"alpha", "x*y"}, {"zeta", "2"}, {"Type", "single"}}));
  EXPECT_EQ(writeDescriptor(D), wrap("type=for*zeta=1*alpha=x\\*y*zeta=2*Type=single*"));
}

TEST(ctcDescriptor, FirstValueErrorInFieldOrderWins) {
  EXPECT_TRUE(descriptorFailsAt("21*hasIf=2*slines=9,1**", 9, "hasIf must be 0 or 1"));
  EXPECT_TRUE(descriptorFailsAt("21*slines=9,1*hasIf=2**", 10, "slines: first line 9"));
}

TEST(ctcDescriptor, StructureErrorsWinOverValueErrors) {
  // The bad flag comes first, but the string as a whole is broken.
  EXPECT_TRUE(failsAt("23*hasIf=2*slines=9,1*", 22, "terminating"));
  EXPECT_TRUE(failsAt("19*hasIf=2*a b=c**", 12, "key character ' '"));
  EXPECT_TRUE(failsAt("99*hasIf=2**", 0, "declared length 99"));
}

//===--- Region kinds -------------------------------------------------------===//

TEST(ctcRegionKind, Spellings) {
  EXPECT_EQ(regionKindSpelling(RegionKind::Parallel), "parallel");
  EXPECT_EQ(regionKindSpelling(RegionKind::ParallelFor), "parallelfor");
  EXPECT_EQ(regionKindSpelling(RegionKind::ImplicitBarrier), "implicitbarrier");
  EXPECT_EQ(regionKindSpelling(RegionKind::CancellationPoint), "cancellationpoint");
  EXPECT_EQ(regionKindSpelling(RegionKind::UserRegion), "userregion");
  EXPECT_EQ(regionKindSpelling(RegionKind::Function), "function");
  EXPECT_EQ(regionKindSpelling(RegionKind::Unknown), "");
}

TEST(ctcRegionKind, FromSpelling) {
  EXPECT_EQ(regionKindFromSpelling("parallel"), RegionKind::Parallel);
  EXPECT_EQ(regionKindFromSpelling("preregion"), RegionKind::Parallel);
  EXPECT_EQ(regionKindFromSpelling("taskloopsimd"), RegionKind::TaskloopSimd);
  EXPECT_EQ(regionKindFromSpelling("function"), RegionKind::Function);
  EXPECT_EQ(regionKindFromSpelling(""), RegionKind::Unknown);
  EXPECT_EQ(regionKindFromSpelling("Parallel"), RegionKind::Unknown);
  EXPECT_EQ(regionKindFromSpelling("parallel for"), RegionKind::Unknown);
  EXPECT_EQ(regionKindFromSpelling("parallelfo"), RegionKind::Unknown);
}

TEST(ctcRegionKind, EveryKindRoundTrips) {
  constexpr auto KindCount = static_cast<std::size_t>(RegionKind::Unknown);
  std::set<std::string, std::less<>> Seen;
  for (std::size_t I = 0; I < KindCount; ++I) {
    const auto Kind = static_cast<RegionKind>(I);
    const std::string Spelling(regionKindSpelling(Kind));
    SCOPED_TRACE(Spelling);
    ASSERT_FALSE(Spelling.empty());
    EXPECT_EQ(Spelling.find(' '), std::string::npos);
    EXPECT_TRUE(Seen.insert(Spelling).second) << "spelled twice";
    EXPECT_EQ(regionKindFromSpelling(Spelling), Kind);
    RegionDescriptor D;
    D.Type = Spelling;
    D.Kind = Kind;
    EXPECT_EQ(writeDescriptor(D), wrap("type=" + Spelling + "*"));
    EXPECT_EQ(mustParse(writeDescriptor(D)), D);
  }
  EXPECT_EQ(Seen.size(), KindCount);
}

//===--- Equality -----------------------------------------------------------===//

TEST(ctcDescriptor, EqualityLooksAtEveryMember) {
  const RegionDescriptor Base = appendixADescriptor();
  std::vector<std::function<void(RegionDescriptor &)>> Changes = {
      [](RegionDescriptor &D) { D.Type = "parallel"; },
      [](RegionDescriptor &D) { D.Kind = RegionKind::For; },
      [](RegionDescriptor &D) { D.File = "demo.cpp"; },
      [](RegionDescriptor &D) {
        D.StartLines = LineRange{7, 9};
      },
      [](RegionDescriptor &D) { D.StartLines.reset(); },
      [](RegionDescriptor &D) {
        D.EndLines = LineRange{11, 12};
      },
      [](RegionDescriptor &D) { D.Name = "n"; },
      [](RegionDescriptor &D) { D.Group = "g"; },
      [](RegionDescriptor &D) { D.Schedule = "static"; },
      [](RegionDescriptor &D) {
        D.ExtraFields.push_back({"k", "v"});
      },
  };
  for (const FlagCase &Flag : Flags)
    Changes.push_back([Member = Flag.Member](RegionDescriptor &D) { D.*Member = true; });
  EXPECT_EQ(Base, appendixADescriptor());
  for (std::size_t I = 0; I < Changes.size(); ++I) {
    RegionDescriptor Changed = Base;
    Changes[I](Changed);
    EXPECT_NE(Changed, Base) << "change " << I;
    EXPECT_FALSE(Changed == Base) << "change " << I;
  }
}

} // namespace
} // namespace pomp::ctc
