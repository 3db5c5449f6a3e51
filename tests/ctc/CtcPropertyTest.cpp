//===- CtcPropertyTest.cpp - Randomized CTC round trips and robustness ----===//
///
/// \file
/// Property tests with fixed seeds, so that a failure reproduces: written
/// descriptors read back equal, and mutated strings (truncated, flipped,
/// NUL-injected, duplicated) never crash the reader and fail at a plausible
/// offset, or at the exact offset where the mutation makes that predictable.
///
//===----------------------------------------------------------------------===//

#include "CtcTestSupport.h"

#include "pomp/ctc/Ctc.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace pomp::ctc {
namespace {

using test::printable;

constexpr std::uint64_t Seed = 20021015;
constexpr std::size_t RoundTripIterations = 20000;
constexpr std::size_t FieldListIterations = 10000;
constexpr std::size_t MutationSeeds = 300;
constexpr std::size_t MutationsPerSeed = 60;
constexpr std::size_t GarbageIterations = 50000;
constexpr unsigned Percent = 100;
constexpr unsigned ByteValues = 256;
constexpr std::size_t DecimalDigits = 10;

/// Random choices from mt19937_64, whose output the standard fixes; the
/// standard distributions are avoided because their results differ between
/// standard libraries, and a seed must mean the same inputs everywhere.
class Random {
public:
  explicit Random(std::uint64_t Seed) : Engine(Seed) {}
  std::size_t below(std::size_t Bound) { return static_cast<std::size_t>(Engine() % Bound); }
  bool chance(unsigned InPercent) { return below(Percent) < InPercent; }
  template <typename T, std::size_t N> const T &pick(const T (&Items)[N]) {
    return Items[below(N)];
  }

private:
  std::mt19937_64 Engine;
};

const std::vector<std::string> KnownKeys = {
    "type",          "file",      "slines",          "elines",         "name",
    "group",         "schedule",  "hasFirstprivate", "hasLastprivate", "hasReduction",
    "hasNowait",     "hasCopyin", "hasCopyprivate",  "hasOrdered",     "hasIf",
    "hasNumThreads", "hasUntied", "hasCollapse",     "hasDepend",      "directiveFree",
    "afterConstruct"};

bool isKnownKey(std::string_view Key) {
  return std::find(KnownKeys.begin(), KnownKeys.end(), Key) != KnownKeys.end();
}

/// Pieces of values, grouped so that each kind of byte comes up often.
constexpr std::string_view PlainPieces[] = {"a", "b", "z", "Q", "0",     "9",
                                            "_", ".", "/", "-", "demo.c"};
/// Written as escapes.
constexpr std::string_view EscapedPieces[] = {"*", "**", "\\", "\\\\", "\\*"};
/// Separators and keys of the format, plain inside a value.
constexpr std::string_view LookalikePieces[] = {" ",     "  ",  "=",          ",",   ":",
                                                "type=", "2**", "slines=7,8", "*a=", "preregion"};
/// Control bytes, UTF-8, and bytes that are not UTF-8.
constexpr std::string_view BinaryPieces[] = {
    "\t",   "\n",  "\x01", "\x7f", "\xc3\xbc", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80",
    "\x80", "\xff"};
constexpr char KeyChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";
/// Unknown keys that look like known ones: keys are case-sensitive.
constexpr std::string_view KnownLookalikes[] = {"Type", "FILE", "hasif", "slines_", "Name", "x"};

constexpr std::size_t MaxTextPieces = 12;
constexpr std::size_t PieceGroups = 4;
constexpr std::size_t MaxKeySize = 12;
constexpr std::size_t MaxExtraFields = 4;

std::string randomText(Random &R, std::size_t MaxPieces = MaxTextPieces) {
  std::string Text;
  for (std::size_t I = R.below(MaxPieces + 1); I > 0; --I)
    switch (R.below(PieceGroups)) {
    case 0:
      Text += R.pick(PlainPieces);
      break;
    case 1:
      Text += R.pick(EscapedPieces);
      break;
    case 2:
      Text += R.pick(LookalikePieces);
      break;
    default:
      Text += R.pick(BinaryPieces);
      break;
    }
  return Text;
}

std::string randomUnknownKey(Random &R) {
  constexpr unsigned LookalikePercent = 20;
  if (R.chance(LookalikePercent))
    return std::string(R.pick(KnownLookalikes));
  std::string Key;
  do {
    Key.clear();
    for (std::size_t I = 1 + R.below(MaxKeySize); I > 0; --I)
      Key += KeyChars[R.below(sizeof(KeyChars) - 1)];
  } while (isKnownKey(Key));
  return Key;
}

std::optional<LineRange> randomLines(Random &R) {
  constexpr unsigned PresentPercent = 70;
  if (!R.chance(PresentPercent))
    return std::nullopt;
  constexpr unsigned Max = std::numeric_limits<unsigned>::max();
  constexpr unsigned Firsts[] = {0, 1, 7, 99, 100, 12345, Max - 1, Max};
  constexpr unsigned SmallSpan = 50;
  const unsigned First =
      R.chance(Percent / 2) ? R.pick(Firsts) : static_cast<unsigned>(R.below(Max));
  const unsigned Room = Max - First;
  const unsigned Span = R.chance(Percent / 2)
                            ? static_cast<unsigned>(R.below(SmallSpan))
                            : static_cast<unsigned>(R.below(std::size_t{Room} + 1));
  return LineRange{First, First + (Span > Room ? Room : Span)};
}

RegionDescriptor randomDescriptor(Random &R) {
  constexpr auto KindCount = static_cast<std::size_t>(RegionKind::Unknown);
  constexpr unsigned TextPercent = 70;
  constexpr unsigned FlagPercent = 30;
  constexpr std::size_t TypeChoices = 10;
  RegionDescriptor D;
  switch (R.below(TypeChoices)) {
  case 0: // the paper's spelling
    D.Type = "preregion";
    D.Kind = RegionKind::Parallel;
    break;
  case 1: // no type at all
    break;
  case 2: // a type this reader does not know
    D.Type = randomText(R);
    D.Kind = regionKindFromSpelling(D.Type);
    break;
  default: {
    D.Kind = static_cast<RegionKind>(R.below(KindCount));
    D.Type = std::string(regionKindSpelling(D.Kind));
    break;
  }
  }
  if (R.chance(TextPercent))
    D.File = randomText(R);
  if (R.chance(TextPercent / 2))
    D.Name = randomText(R);
  if (R.chance(TextPercent / 2))
    D.Group = randomText(R);
  if (R.chance(TextPercent / 2))
    D.Schedule = randomText(R);
  D.StartLines = randomLines(R);
  D.EndLines = randomLines(R);
  for (bool *Flag :
       {&D.HasFirstprivate, &D.HasLastprivate, &D.HasReduction, &D.HasNowait, &D.HasCopyin,
        &D.HasCopyprivate, &D.HasOrdered, &D.HasIf, &D.HasNumThreads, &D.HasUntied, &D.HasCollapse,
        &D.HasDepend, &D.DirectiveFree, &D.AfterConstruct})
    *Flag = R.chance(FlagPercent);
  for (std::size_t I = R.below(MaxExtraFields + 1); I > 0; --I)
    D.ExtraFields.push_back(Field{randomUnknownKey(R), randomText(R)});
  return D;
}

/// The same string with the Appendix A count (two less) in front.
std::string withPaperCount(const std::string &Ctc) {
  constexpr std::size_t OuterStars = 2;
  const std::size_t Star = Ctc.find('*');
  return std::to_string(std::stoul(Ctc.substr(0, Star)) - OuterStars) + Ctc.substr(Star);
}

TEST(ctcRoundTrip, RandomDescriptors) {
  Random R(Seed);
  std::size_t WithEscapes = 0, WithUnknownType = 0, WithExtras = 0, WithHighBytes = 0;
  std::set<RegionKind> Kinds;
  for (std::size_t I = 0; I < RoundTripIterations; ++I) {
    const RegionDescriptor D = randomDescriptor(R);
    const std::string Ctc = writeDescriptor(D);
    Expected<RegionDescriptor> Parsed = parseDescriptor(Ctc);
    ASSERT_TRUE(Parsed) << I << ": " << printable(Ctc) << ": " << Parsed.error().message();
    ASSERT_TRUE(*Parsed == D) << I << ": " << printable(Ctc) << " reads back as "
                              << printable(writeDescriptor(*Parsed));
    ASSERT_EQ(writeDescriptor(*Parsed), Ctc) << I;

    // The Appendix A count reads the same.
    Parsed = parseDescriptor(withPaperCount(Ctc));
    ASSERT_TRUE(Parsed) << I << ": " << printable(withPaperCount(Ctc)) << ": "
                        << Parsed.error().message();
    ASSERT_TRUE(*Parsed == D) << I << ": " << printable(Ctc);

    // The fields layer agrees.
    Expected<std::vector<Field>> Fields = parseFields(Ctc);
    ASSERT_TRUE(Fields) << I << ": " << Fields.error().message();
    ASSERT_EQ(writeFields(*Fields), Ctc) << I;

    WithEscapes += Ctc.find('\\') != std::string::npos;
    WithUnknownType += D.Kind == RegionKind::Unknown && !D.Type.empty();
    WithExtras += !D.ExtraFields.empty();
    WithHighBytes += Ctc.find('\xc3') != std::string::npos;
    Kinds.insert(D.Kind);
  }
  // The generator covers what the round trip is meant to exercise.
  constexpr std::size_t Tenth = RoundTripIterations / 10;
  EXPECT_GT(WithEscapes, Tenth);
  EXPECT_GT(WithUnknownType, RoundTripIterations / 20);
  EXPECT_GT(WithExtras, Tenth);
  EXPECT_GT(WithHighBytes, Tenth);
  EXPECT_EQ(Kinds.size(), static_cast<std::size_t>(RegionKind::Unknown) + 1);
}

TEST(ctcRoundTrip, RandomFieldLists) {
  Random R(Seed + 1);
  constexpr std::size_t MaxFields = 8;
  constexpr unsigned KnownKeyPercent = 30;
  for (std::size_t I = 0; I < FieldListIterations; ++I) {
    std::vector<Field> Fields;
    for (std::size_t N = R.below(MaxFields + 1); N > 0; --N) {
      // Known keys too, and repeated: parseFields does not care.
      std::string Key =
          R.chance(KnownKeyPercent) ? KnownKeys[R.below(KnownKeys.size())] : randomUnknownKey(R);
      Fields.push_back(Field{std::move(Key), randomText(R)});
    }
    const std::string Ctc = writeFields(Fields);
    Expected<std::vector<Field>> Parsed = parseFields(Ctc);
    ASSERT_TRUE(Parsed) << I << ": " << printable(Ctc) << ": " << Parsed.error().message();
    ASSERT_EQ(*Parsed, Fields) << I << ": " << printable(Ctc);
  }
}

//===--- Robustness ---------------------------------------------------------===//

/// What every input must satisfy: no crash (the sanitizer build checks the
/// memory side), errors inside the input with a reason, parseDescriptor
/// failing exactly like parseFields on broken structure, and whatever parses
/// writing back to something that reads the same.
::testing::AssertionResult readsSanely(std::string_view Input, bool &Accepted) {
  const Expected<std::vector<Field>> Fields = parseFields(Input);
  const Expected<RegionDescriptor> Descriptor = parseDescriptor(Input);
  Accepted = static_cast<bool>(Descriptor);
  if (!Fields) {
    const ParseError &Error = Fields.error();
    if (Error.Offset > Input.size() || Error.Reason.empty())
      return ::testing::AssertionFailure() << printable(Input) << ": " << Error.message();
    if (Descriptor || Descriptor.error().Offset != Error.Offset ||
        Descriptor.error().Reason != Error.Reason)
      return ::testing::AssertionFailure()
             << printable(Input) << ": parseDescriptor disagrees with " << Error.message();
    return ::testing::AssertionSuccess();
  }
  const Expected<std::vector<Field>> Again = parseFields(writeFields(*Fields));
  if (!Again || *Again != *Fields)
    return ::testing::AssertionFailure() << printable(Input) << ": fields do not round-trip";
  if (!Descriptor) {
    if (Descriptor.error().Offset > Input.size() || Descriptor.error().Reason.empty())
      return ::testing::AssertionFailure()
             << printable(Input) << ": " << Descriptor.error().message();
    return ::testing::AssertionSuccess();
  }
  const Expected<RegionDescriptor> Reread = parseDescriptor(writeDescriptor(*Descriptor));
  if (!Reread || *Reread != *Descriptor)
    return ::testing::AssertionFailure() << printable(Input) << ": descriptor does not round-trip";
  return ::testing::AssertionSuccess();
}

std::vector<std::string> validSeeds() {
  std::vector<std::string> Seeds = {
      "2**", "0**", "51*type=preregion*file=demo.c*slines=7,8*elines=12,12**",
      "53*type=preregion*file=demo.c*slines=7,8*elines=12,12**", "9*a=\\\\\\***"};
  Random R(Seed + 2);
  while (Seeds.size() < MutationSeeds)
    Seeds.push_back(writeDescriptor(randomDescriptor(R)));
  return Seeds;
}

TEST(ctcRobustness, EveryProperPrefixFailsAtItsEnd) {
  std::size_t Checked = 0;
  for (const std::string &Valid : validSeeds()) {
    ASSERT_TRUE(parseFields(Valid)) << printable(Valid);
    for (std::size_t Size = 0; Size < Valid.size(); ++Size) {
      const std::string_view Prefix = std::string_view(Valid).substr(0, Size);
      const Expected<std::vector<Field>> Fields = parseFields(Prefix);
      ASSERT_FALSE(Fields) << printable(Prefix);
      const ParseError &Error = Fields.error();
      // The reader runs out of input where the prefix ends, or one byte
      // before it when the prefix ends inside an escape.
      const bool AtEnd = Error.Offset == Size;
      const bool InEscape = Error.Offset + 1 == Size && Prefix.back() == '\\' &&
                            Error.Reason.find("truncated escape") != std::string::npos;
      ASSERT_TRUE(AtEnd || InEscape) << printable(Prefix) << ": " << Error.message();
      ++Checked;
    }
  }
  EXPECT_GT(Checked, MutationSeeds);
}

TEST(ctcRobustness, NulFailsExactlyWhereItIsInserted) {
  for (const std::string &Valid : validSeeds()) {
    for (std::size_t At = 0; At <= Valid.size(); ++At) {
      std::string Mutated = Valid;
      Mutated.insert(At, 1, '\0');
      const Expected<std::vector<Field>> Fields = parseFields(Mutated);
      ASSERT_FALSE(Fields) << printable(Mutated);
      EXPECT_EQ(Fields.error().Offset, At)
          << printable(Mutated) << ": " << Fields.error().message();
      ASSERT_NE(Fields.error().Reason.find("NUL byte"), std::string::npos)
          << printable(Mutated) << ": " << Fields.error().message();
      bool Accepted = true;
      ASSERT_TRUE(readsSanely(Mutated, Accepted));
    }
  }
}

TEST(ctcRobustness, AnythingAfterTheTerminatorFailsThere) {
  Random R(Seed + 3);
  for (const std::string &Valid : validSeeds()) {
    std::string Suffix = randomText(R);
    if (Suffix.empty())
      Suffix = "*";
    for (const std::string &Mutated : {Valid + Valid, Valid + Suffix}) {
      const Expected<std::vector<Field>> Fields = parseFields(Mutated);
      ASSERT_FALSE(Fields) << printable(Mutated);
      EXPECT_EQ(Fields.error().Offset, Valid.size()) << printable(Mutated);
      EXPECT_NE(Fields.error().Reason.find("after the terminating \"**\""), std::string::npos)
          << Fields.error().message();
    }
  }
}

/// One random edit of \p Text: the mutations a fuzzer starts with.
std::string mutate(Random &R, std::string Text) {
  constexpr char Specials[] = {'*', '\\', '=', ',', '0', '9', '\0', ' ', 'x'};
  constexpr std::size_t MutationKinds = 7;
  constexpr std::size_t MaxSlice = 16;
  const std::size_t Size = Text.size();
  switch (R.below(MutationKinds)) {
  case 0: // flip a byte to any value
    if (Size)
      Text[R.below(Size)] = static_cast<char>(R.below(ByteValues));
    break;
  case 1: // insert a byte that means something to the reader
    Text.insert(R.below(Size + 1), 1, R.pick(Specials));
    break;
  case 2: // delete a byte
    if (Size)
      Text.erase(R.below(Size), 1);
    break;
  case 3: // truncate
    Text.resize(R.below(Size + 1));
    break;
  case 4: { // duplicate a slice in place
    const std::size_t From = R.below(Size + 1);
    const std::string Slice = Text.substr(From, R.below(MaxSlice + 1));
    Text.insert(From, Slice);
    break;
  }
  case 5: // swap two bytes
    if (Size)
      std::swap(Text[R.below(Size)], Text[R.below(Size)]);
    break;
  default: // change the first digit of the length
    if (Size)
      Text[0] = static_cast<char>('0' + R.below(DecimalDigits));
    break;
  }
  return Text;
}

TEST(ctcRobustness, MutatedStringsNeverBreakTheReader) {
  Random R(Seed + 4);
  std::size_t Accepted = 0, Rejected = 0;
  constexpr std::size_t MaxStackedMutations = 4;
  for (const std::string &Valid : validSeeds()) {
    for (std::size_t I = 0; I < MutationsPerSeed; ++I) {
      std::string Mutated = Valid;
      for (std::size_t N = 1 + R.below(MaxStackedMutations); N > 0; --N)
        Mutated = mutate(R, std::move(Mutated));
      bool Ok = false;
      ASSERT_TRUE(readsSanely(Mutated, Ok));
      (Ok ? Accepted : Rejected) += 1;
    }
  }
  // Both outcomes occur: the mutations reach past the first checks.
  EXPECT_GT(Accepted, MutationSeeds);
  EXPECT_GT(Rejected, MutationSeeds * MutationsPerSeed / 2);
}

TEST(ctcRobustness, GarbageWithAPlausibleLength) {
  // Bodies of structure bytes behind the length they would need, so that the
  // reader gets past the prefix and into fields and escapes.
  constexpr char Alphabet[] = {'*', '*', '*', '\\', '=', '=', 'a', 'k', '1', ',', '\0', '\xff'};
  constexpr std::size_t MaxBody = 24;
  Random R(Seed + 5);
  std::size_t Accepted = 0;
  for (std::size_t I = 0; I < GarbageIterations; ++I) {
    std::string Body = "*";
    for (std::size_t N = R.below(MaxBody + 1); N > 0; --N)
      Body += R.pick(Alphabet);
    Body += "*";
    const std::string Input = std::to_string(Body.size()) + Body;
    bool Ok = false;
    ASSERT_TRUE(readsSanely(Input, Ok));
    Accepted += Ok;
  }
  EXPECT_GT(Accepted, GarbageIterations / 100);
}

} // namespace
} // namespace pomp::ctc
