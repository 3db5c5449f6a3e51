//===- CtcFieldsTest.cpp - Structure of CTC strings -----------------------===//
///
/// \file
/// parseFields, writeFields and escapeValue: the paper's strings, the length
/// prefix, field syntax, escapes, and every structural error with its exact
/// offset. Suite names start with "ctc" so that `ctest -R ctc` selects them.
///
//===----------------------------------------------------------------------===//

#include "CtcTestSupport.h"

#include "pomp/ctc/Ctc.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

namespace pomp::ctc {
namespace {

using test::failsAt;
using test::wrap;

/// The paper's Appendix A string, whose count leaves out the outer stars.
constexpr std::string_view AppendixA = "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**";
/// The same string with the inclusive count that writers use.
constexpr std::string_view AppendixAInclusive =
    "53*type=preregion*file=demo.c*slines=7,8*elines=12,12**";

const std::vector<Field> AppendixAFields = {
    {"type", "preregion"}, {"file", "demo.c"}, {"slines", "7,8"}, {"elines", "12,12"}};

Expected<std::vector<Field>> parsed(std::string_view Ctc) { return parseFields(Ctc); }

//===--- The paper's own strings -------------------------------------------===//

TEST(ctcPaper, ShortestStringHasNoFields) {
  Expected<std::vector<Field>> Fields = parseFields("2**");
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_TRUE(Fields->empty());
}

TEST(ctcPaper, AppendixACountWithoutOuterStars) {
  Expected<std::vector<Field>> Fields = parseFields(AppendixA);
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, AppendixAFields);
}

TEST(ctcPaper, AppendixAInclusiveCount) {
  Expected<std::vector<Field>> Fields = parseFields(AppendixAInclusive);
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, AppendixAFields);
}

TEST(ctcPaper, WritersUseTheInclusiveCount) {
  EXPECT_EQ(writeFields({}), "2**");
  EXPECT_EQ(writeFields(AppendixAFields), AppendixAInclusive);
}

TEST(ctcPaper, AppendixACountOfNoFieldsIsZero) {
  Expected<std::vector<Field>> Fields = parseFields("0**");
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_TRUE(Fields->empty());
}

TEST(ctcPaper, OtherCountsOfAppendixAFail) {
  EXPECT_TRUE(failsAt("52*type=preregion*file=demo.c*slines=7,8*elines=12,12**", 0,
                      "declared length 52 does not match the actual length 53"));
  EXPECT_TRUE(failsAt("52*type=preregion*file=demo.c*slines=7,8*elines=12,12**", 0,
                      "51 without the outer stars is also accepted"));
  EXPECT_TRUE(failsAt("50*type=preregion*file=demo.c*slines=7,8*elines=12,12**", 0,
                      "declared length 50 does not match the actual length 53"));
  EXPECT_TRUE(failsAt("54*type=preregion*file=demo.c*slines=7,8*elines=12,12**", 0,
                      "declared length 54 does not match the actual length 53"));
}

//===--- Length prefix ------------------------------------------------------===//

TEST(ctcLength, EmptyInput) { EXPECT_TRUE(failsAt("", 0, "empty input")); }

TEST(ctcLength, MissingLength) {
  EXPECT_TRUE(failsAt("*type=for**", 0, "expected the decimal length at the start, found '*'"));
  EXPECT_TRUE(failsAt("abc", 0, "expected the decimal length at the start, found 'a'"));
}

TEST(ctcLength, SignsAndSpacesAreNotDigits) {
  EXPECT_TRUE(failsAt("+2**", 0, "found '+'"));
  EXPECT_TRUE(failsAt("-2**", 0, "found '-'"));
  EXPECT_TRUE(failsAt(" 2**", 0, "found ' '"));
  EXPECT_TRUE(failsAt(std::string("\0"
                                  "2**",
                                  4),
                      0, "found a NUL byte"));
  EXPECT_TRUE(failsAt("\xff"
                      "2**",
                      0, "found byte 0xff"));
}

TEST(ctcLength, MissingStarAfterLength) {
  EXPECT_TRUE(failsAt("2", 1, "expected '*' after the length, found the end of the input"));
  EXPECT_TRUE(failsAt("53", 2, "expected '*' after the length, found the end of the input"));
  EXPECT_TRUE(failsAt("2x**", 1, "expected '*' after the length, found 'x'"));
  EXPECT_TRUE(failsAt("2 **", 1, "expected '*' after the length, found ' '"));
  EXPECT_TRUE(failsAt(std::string("7\0*a=b**", 8), 1, "found a NUL byte"));
}

TEST(ctcLength, LeadingZerosAreRejected) {
  EXPECT_TRUE(failsAt("02**", 0, "length \"02\" has a leading zero"));
  EXPECT_TRUE(failsAt("00**", 0, "length \"00\" has a leading zero"));
  EXPECT_TRUE(
      failsAt("053*type=preregion*file=demo.c*slines=7,8*elines=12,12**", 0, "leading zero"));
}

TEST(ctcLength, MoreDigitsThanTheMaximumNeeds) {
  // MaxCtcLength (65536) has 5 digits: the sixth digit is the error.
  EXPECT_TRUE(failsAt("123456**", 5, "length has more than 5 digits"));
  EXPECT_TRUE(failsAt("18446744073709551617**", 5, "more than 5 digits"));
  EXPECT_TRUE(failsAt("99999999999999999999999999999999", 5, "more than 5 digits"));
}

TEST(ctcLength, DeclaredLengthAboveTheMaximum) {
  EXPECT_TRUE(
      failsAt("99999**", 0, "declared length 99999 exceeds the maximum CTC length of 65536"));
  EXPECT_TRUE(failsAt("65537**", 0, "declared length 65537 exceeds the maximum"));
  // At the maximum the value is plausible and only the count is wrong.
  EXPECT_TRUE(failsAt("65536**", 0, "declared length 65536 does not match the actual length 2"));
}

TEST(ctcLength, MismatchNamesBothNumbers) {
  EXPECT_TRUE(failsAt("3**", 0, "declared length 3 does not match the actual length 2"));
  EXPECT_TRUE(failsAt("1**", 0, "declared length 1 does not match the actual length 2"));
  EXPECT_TRUE(failsAt("6*a=bc**", 0, "declared length 6 does not match the actual length 7"));
  EXPECT_TRUE(failsAt("4*a=bc**", 0, "declared length 4 does not match the actual length 7"));
  // Both accepted counts of the same string.
  EXPECT_TRUE(parsed("7*a=bc**"));
  EXPECT_TRUE(parsed("5*a=bc**"));
}

TEST(ctcLength, InputOfExactlyTheMaximumSizeParses) {
  // 5 digits + "*k=" + value + "**" = MaxCtcLength bytes.
  constexpr std::size_t Overhead = 10;
  const std::vector<Field> Fields = {{"k", std::string(MaxCtcLength - Overhead, 'x')}};
  const std::string Ctc = writeFields(Fields);
  ASSERT_EQ(Ctc.size(), MaxCtcLength);
  EXPECT_EQ(Ctc.substr(0, 6), "65531*");
  Expected<std::vector<Field>> Parsed = parseFields(Ctc);
  ASSERT_TRUE(Parsed) << Parsed.error().message();
  EXPECT_EQ(*Parsed, Fields);
}

TEST(ctcLength, InputLongerThanTheMaximumIsRejectedUpFront) {
  constexpr std::size_t Overhead = 10;
  const std::string Ctc = writeFields({{"k", std::string(MaxCtcLength - Overhead + 1, 'x')}});
  ASSERT_EQ(Ctc.size(), MaxCtcLength + 1);
  EXPECT_TRUE(failsAt(Ctc, MaxCtcLength,
                      "input is 65537 bytes, longer than the maximum CTC length of 65536"));
  // A megabyte of garbage is refused before it is scanned.
  constexpr std::size_t Megabyte = 1 << 20;
  EXPECT_TRUE(failsAt(std::string(Megabyte, '7'), MaxCtcLength, "longer than the maximum"));
}

TEST(ctcLength, WrittenCountsCrossDigitBoundaries) {
  // "*a=" + value + "**" is the value's size plus 5.
  EXPECT_EQ(writeFields({{"a", "xxxx"}}), "9*a=xxxx**");
  EXPECT_EQ(writeFields({{"a", "xxxxx"}}), "10*a=xxxxx**");
  EXPECT_EQ(writeFields({{"a", std::string(94, 'y')}}).substr(0, 3), "99*");
  EXPECT_EQ(writeFields({{"a", std::string(95, 'y')}}).substr(0, 4), "100*");
  for (std::size_t Size : {4, 5, 94, 95, 994, 995}) {
    const std::vector<Field> Fields = {{"a", std::string(Size, 'y')}};
    Expected<std::vector<Field>> Parsed = parseFields(writeFields(Fields));
    ASSERT_TRUE(Parsed) << Size << ": " << Parsed.error().message();
    EXPECT_EQ(*Parsed, Fields);
  }
}

//===--- Field syntax -------------------------------------------------------===//

TEST(ctcFieldSyntax, FieldWithoutEquals) {
  EXPECT_TRUE(failsAt("5*type**", 6, "field \"type\" has no '='"));
  EXPECT_TRUE(failsAt(wrap("type=for*nowait*"), 18, "field \"nowait\" has no '='"));
}

TEST(ctcFieldSyntax, EmptyKey) {
  EXPECT_TRUE(failsAt("4*=x**", 2, "empty key before '='"));
  EXPECT_TRUE(failsAt(wrap("a=b*=c*"), 6, "empty key"));
}

TEST(ctcFieldSyntax, KeyCharactersOutsideTheKeyAlphabet) {
  EXPECT_TRUE(failsAt("9*ty-e=x**", 4, "key character '-' is not a letter, digit or '_'"));
  EXPECT_TRUE(failsAt("8*a b=c**", 3, "key character ' '"));
  EXPECT_TRUE(failsAt("8*t\xc3\xa9=x**", 3, "key character byte 0xc3"));
  EXPECT_TRUE(failsAt("7*a\\=b**", 3,
                      "key character '\\' is not a letter, digit or '_' (keys are "
                      "not escaped)"));
  EXPECT_TRUE(failsAt(std::string("7*a\0=b**", 8), 3, "embedded NUL byte"));
}

TEST(ctcFieldSyntax, KeyAlphabet) {
  Expected<std::vector<Field>> Fields = parseFields(wrap("azAZ09_=v*_=w*9=x*"));
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"azAZ09_", "v"}, {"_", "w"}, {"9", "x"}}));
}

TEST(ctcFieldSyntax, ValuesMayHoldEqualsCommasSpacesAndAnyNonNulByte) {
  const std::string Value = "a=b, c\t\n\x01\x7f\xc3\xbc\xff";
  Expected<std::vector<Field>> Fields = parseFields(wrap("v=" + Value + "*"));
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"v", Value}}));
}

TEST(ctcFieldSyntax, EmptyValue) {
  Expected<std::vector<Field>> Fields = parseFields("5*a=**");
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"a", ""}}));
  EXPECT_EQ(writeFields(*Fields), "5*a=**");
}

TEST(ctcFieldSyntax, RepeatedKeysAreKeptInOrder) {
  // parseFields only reads the structure; which keys may repeat is
  // parseDescriptor's business.
  Expected<std::vector<Field>> Fields = parseFields("10*a=1*a=2**");
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"a", "1"}, {"a", "2"}}));
}

TEST(ctcFieldSyntax, Unterminated) {
  EXPECT_TRUE(failsAt("2*", 2, "input ends before the terminating \"**\""));
  EXPECT_TRUE(failsAt("9*type", 6, "terminating \"**\""));
  EXPECT_TRUE(failsAt("9*type=", 7, "terminating \"**\""));
  EXPECT_TRUE(failsAt("9*type=for", 10, "terminating \"**\""));
  EXPECT_TRUE(failsAt("12*type=for*", 12, "terminating \"**\""));
  EXPECT_TRUE(failsAt("9*type=for\\*", 12, "terminating \"**\""));
}

TEST(ctcFieldSyntax, EmbeddedNul) {
  EXPECT_TRUE(failsAt(std::string("7*a=b\0c**", 9), 5, "embedded NUL byte"));
  EXPECT_TRUE(failsAt(std::string("8*a=\\\0c**", 9), 5, "embedded NUL byte"));
  EXPECT_TRUE(failsAt(std::string("2**\0", 4), 3, "a NUL byte after the terminating \"**\""));
}

TEST(ctcFieldSyntax, CharactersAfterTheTerminator) {
  EXPECT_TRUE(failsAt("2**x", 3, "1 unexpected byte after the terminating \"**\""));
  EXPECT_TRUE(failsAt("2***", 3, "1 unexpected byte after"));
  // Fortran's blank fill must be cut by the caller.
  EXPECT_TRUE(failsAt("2**   ", 3, "3 unexpected bytes after"));
  EXPECT_TRUE(failsAt("7*a=bc**7*a=bc**", 8, "8 unexpected bytes after"));
}

//===--- Escapes ------------------------------------------------------------===//

TEST(ctcEscape, EscapeValue) {
  EXPECT_EQ(escapeValue(""), "");
  EXPECT_EQ(escapeValue("plain.c"), "plain.c");
  EXPECT_EQ(escapeValue("*"), "\\*");
  EXPECT_EQ(escapeValue("\\"), "\\\\");
  EXPECT_EQ(escapeValue("a*b\\c"), "a\\*b\\\\c");
  EXPECT_EQ(escapeValue("\\*"), "\\\\\\*");
  EXPECT_EQ(escapeValue("**"), "\\*\\*");
}

TEST(ctcEscape, WrittenValuesAreEscapedAndCounted) {
  EXPECT_EQ(writeFields({{"file", "*"}}), "10*file=\\***");
  EXPECT_EQ(writeFields({{"v", "**"}}), "9*v=\\*\\***");
  EXPECT_EQ(writeFields({{"a", "\\"}}), "7*a=\\\\**");
}

TEST(ctcEscape, ReadingUnescapes) {
  Expected<std::vector<Field>> Fields = parseFields("9*a=\\\\\\***");
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"a", "\\*"}}));
  Fields = parseFields(wrap("file=C:\\\\dir\\\\a\\*b.c*"));
  ASSERT_TRUE(Fields) << Fields.error().message();
  EXPECT_EQ(*Fields, (std::vector<Field>{{"file", "C:\\dir\\a*b.c"}}));
}

TEST(ctcEscape, TruncatedEscape) {
  EXPECT_TRUE(failsAt("9*file=a\\", 8, "truncated escape: '\\' at the end of the input"));
  EXPECT_TRUE(failsAt("9*file=\\\\\\", 9, "truncated escape"));
}

TEST(ctcEscape, InvalidEscape) {
  EXPECT_TRUE(
      failsAt("12*file=a\\x**", 9,
              "invalid escape '\\' followed by 'x'; only \"\\*\" and \"\\\\\" are escapes"));
  EXPECT_TRUE(failsAt("12*file=a\\n**", 9, "invalid escape '\\' followed by 'n'"));
  EXPECT_TRUE(failsAt("12*file=a\\=**", 9, "invalid escape '\\' followed by '='"));
  EXPECT_TRUE(failsAt("12*file=\\\\\\ **", 10, "invalid escape '\\' followed by ' '"));
}

TEST(ctcEscape, ValuesOfStarsAndBackslashesOnlyRoundTrip) {
  // Every string over {'*', '\'} up to MaxSize characters.
  constexpr std::size_t MaxSize = 8;
  std::size_t Checked = 0;
  for (std::size_t Size = 0; Size <= MaxSize; ++Size) {
    for (std::size_t Bits = 0; Bits < (std::size_t{1} << Size); ++Bits) {
      std::string Value;
      for (std::size_t I = 0; I < Size; ++I)
        Value += (Bits >> I) & 1 ? '*' : '\\';
      const std::vector<Field> Fields = {{"file", Value}, {"name", Value + Value}};
      const std::string Ctc = writeFields(Fields);
      Expected<std::vector<Field>> Parsed = parseFields(Ctc);
      ASSERT_TRUE(Parsed) << test::printable(Ctc) << ": " << Parsed.error().message();
      ASSERT_EQ(*Parsed, Fields) << test::printable(Ctc);
      ++Checked;
    }
  }
  EXPECT_EQ(Checked, (std::size_t{1} << (MaxSize + 1)) - 1);
}

//===--- Error type ---------------------------------------------------------===//

TEST(ctcParseError, MessageHasOffsetAndReason) {
  EXPECT_EQ((ParseError{12, "bad thing"}).message(), "offset 12: bad thing");
  Expected<std::vector<Field>> Fields = parseFields("2**x");
  ASSERT_FALSE(Fields);
  EXPECT_EQ(Fields.error().message(), "offset 3: 1 unexpected byte after the terminating \"**\"");
}

} // namespace
} // namespace pomp::ctc
