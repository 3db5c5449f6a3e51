//===- RegionDescriptor.cpp - CTC strings as region descriptors -----------===//
///
/// \file
/// The meaning of the fields: which keys are known, how their values are
/// spelled, the region kinds of `type`. The structure of the string is
/// Ctc.cpp's business (FieldScanner.h).
///
//===----------------------------------------------------------------------===//

#include "FieldScanner.h"

#include "pomp/ctc/Ctc.h"

#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::ctc {
namespace {

constexpr std::string_view KindSpellings[] = {
#define POMP_CTC_REGION_KIND(Enumerator, Spelling) Spelling,
#include "pomp/ctc/RegionKinds.def"
};
static_assert(std::size(KindSpellings) == static_cast<std::size_t>(RegionKind::Unknown),
              "one spelling per RegionKind but Unknown");

/// The paper's Appendix A calls a parallel region "preregion"; readers accept
/// it so that strings written after the paper's example still work.
constexpr std::string_view PaperParallelSpelling = "preregion";

using TextMember = std::string RegionDescriptor::*;
using LinesMember = std::optional<LineRange> RegionDescriptor::*;
using FlagMember = bool RegionDescriptor::*;

/// A key this library knows and the descriptor member holding its value;
/// exactly one of the three member pointers is set.
struct KnownKey {
  std::string_view Key;
  TextMember Text = nullptr;
  LinesMember Lines = nullptr;
  FlagMember Flag = nullptr;
};

/// Every known key, in the order writeDescriptor writes them: what the
/// construct is and where it is first, then its clause facts in the order of
/// RegionDescriptor's members, then its enclosing function.
constexpr KnownKey KnownKeys[] = {
    {"type", &RegionDescriptor::Type},
    {"name", &RegionDescriptor::Name},
    {"group", &RegionDescriptor::Group},
    {"file", &RegionDescriptor::File},
    {"slines", nullptr, &RegionDescriptor::StartLines},
    {"elines", nullptr, &RegionDescriptor::EndLines},
    {"schedule", &RegionDescriptor::Schedule},
    {"hasFirstprivate", nullptr, nullptr, &RegionDescriptor::HasFirstprivate},
    {"hasLastprivate", nullptr, nullptr, &RegionDescriptor::HasLastprivate},
    {"hasReduction", nullptr, nullptr, &RegionDescriptor::HasReduction},
    {"hasNowait", nullptr, nullptr, &RegionDescriptor::HasNowait},
    {"hasCopyin", nullptr, nullptr, &RegionDescriptor::HasCopyin},
    {"hasCopyprivate", nullptr, nullptr, &RegionDescriptor::HasCopyprivate},
    {"hasOrdered", nullptr, nullptr, &RegionDescriptor::HasOrdered},
    {"hasIf", nullptr, nullptr, &RegionDescriptor::HasIf},
    {"hasNumThreads", nullptr, nullptr, &RegionDescriptor::HasNumThreads},
    {"hasUntied", nullptr, nullptr, &RegionDescriptor::HasUntied},
    {"hasCollapse", nullptr, nullptr, &RegionDescriptor::HasCollapse},
    {"hasDepend", nullptr, nullptr, &RegionDescriptor::HasDepend},
    {"directiveFree", nullptr, nullptr, &RegionDescriptor::DirectiveFree},
    {"afterConstruct", nullptr, nullptr, &RegionDescriptor::AfterConstruct},
    // Where the construct is in the program rather than what it is: last, so
    // that readers that predate it keep it as an unknown key at the end.
    {"function", &RegionDescriptor::Function},
};
constexpr std::size_t KnownKeyCount = std::size(KnownKeys);
constexpr std::size_t NotFound = static_cast<std::size_t>(-1);

constexpr std::string_view TypeKey = "type";
constexpr std::string_view FlagFalse = "0";
constexpr std::string_view FlagTrue = "1";
constexpr char LineSeparator = ',';
constexpr unsigned DecimalBase = 10;
constexpr std::uint64_t MaxLine = std::numeric_limits<unsigned>::max();

std::size_t findKnownKey(std::string_view Key) {
  for (std::size_t I = 0; I < KnownKeyCount; ++I)
    if (KnownKeys[I].Key == Key)
      return I;
  return NotFound;
}

bool isDigit(char C) { return C >= '0' && C <= '9'; }

/// Reads the values of line ranges, "first,last", reporting errors at the
/// offset of the offending byte. Escapes only produce '*' and '\', which are
/// never valid here, so every byte before the first bad one sits at
/// ValueOffset + its index in the unescaped value.
class LineRangeReader {
public:
  LineRangeReader(std::string_view Key, std::string_view Value, std::size_t ValueOffset)
      : Key(Key), Value(Value), ValueOffset(ValueOffset) {}

  std::optional<ParseError> read(LineRange &Range) {
    if (std::optional<ParseError> Error = readLine("first", Range.First))
      return Error;
    if (Index == Value.size() || Value[Index] != LineSeparator)
      return fail(Index, "expected ',' after the first line, found " + found());
    ++Index;
    if (std::optional<ParseError> Error = readLine("last", Range.Last))
      return Error;
    if (Index != Value.size())
      return fail(Index, "expected the end of the value after the last line, found " + found());
    if (Range.First > Range.Last)
      return fail(0, "first line " + std::to_string(Range.First) + " is after last line " +
                         std::to_string(Range.Last));
    return std::nullopt;
  }

private:
  std::optional<ParseError> readLine(const char *Which, unsigned &Line) {
    const std::size_t Start = Index;
    if (Index == Value.size() || !isDigit(Value[Index]))
      return fail(Index, std::string("expected the ") + Which + " line number, found " + found());
    std::uint64_t Number = 0;
    for (; Index < Value.size() && isDigit(Value[Index]); ++Index) {
      Number = Number * DecimalBase + static_cast<std::uint64_t>(Value[Index] - '0');
      if (Number > MaxLine)
        return fail(Start, std::string("the ") + Which + " line number is larger than " +
                               std::to_string(MaxLine));
    }
    // One spelling per number, as for the length prefix.
    if (Index - Start > 1 && Value[Start] == '0')
      return fail(Start, std::string("the ") + Which + " line number has a leading zero");
    Line = static_cast<unsigned>(Number);
    return std::nullopt;
  }

  std::string found() const {
    return Index == Value.size() ? "the end of the value" : detail::describeByte(Value[Index]);
  }

  ParseError fail(std::size_t At, const std::string &Reason) const {
    return ParseError{ValueOffset + At, std::string(Key) + ": " + Reason};
  }

  std::string_view Key;
  std::string_view Value;
  std::size_t ValueOffset;
  std::size_t Index = 0;
};

} // namespace

std::string_view regionKindSpelling(RegionKind Kind) {
  const auto Index = static_cast<std::size_t>(Kind);
  return Index < std::size(KindSpellings) ? KindSpellings[Index] : std::string_view();
}

RegionKind regionKindFromSpelling(std::string_view Spelling) {
  for (std::size_t I = 0; I < std::size(KindSpellings); ++I)
    if (KindSpellings[I] == Spelling)
      return static_cast<RegionKind>(I);
  if (Spelling == PaperParallelSpelling)
    return RegionKind::Parallel;
  return RegionKind::Unknown;
}

bool operator==(const RegionDescriptor &A, const RegionDescriptor &B) {
  if (A.Kind != B.Kind || A.ExtraFields != B.ExtraFields)
    return false;
  for (const KnownKey &Known : KnownKeys) {
    if (Known.Text && A.*Known.Text != B.*Known.Text)
      return false;
    if (Known.Lines && !(A.*Known.Lines == B.*Known.Lines))
      return false;
    if (Known.Flag && A.*Known.Flag != B.*Known.Flag)
      return false;
  }
  return true;
}

std::string writeDescriptor(const RegionDescriptor &Descriptor) {
  std::vector<Field> Fields;
  Fields.reserve(KnownKeyCount + Descriptor.ExtraFields.size());
  for (const KnownKey &Known : KnownKeys) {
    std::string Value;
    if (Known.Text) {
      Value = Descriptor.*Known.Text;
      // A caller that only set Kind still gets its type written.
      if (Known.Key == TypeKey && Value.empty())
        Value = std::string(regionKindSpelling(Descriptor.Kind));
    } else if (Known.Lines) {
      if (const std::optional<LineRange> &Range = Descriptor.*Known.Lines)
        Value = std::to_string(Range->First) + LineSeparator + std::to_string(Range->Last);
    } else if (Descriptor.*Known.Flag) {
      Value = FlagTrue;
    }
    if (!Value.empty())
      Fields.push_back(Field{std::string(Known.Key), std::move(Value)});
  }
  for (const Field &Extra : Descriptor.ExtraFields) {
    assert(findKnownKey(Extra.Key) == NotFound &&
           "a known key in ExtraFields would be written twice");
    Fields.push_back(Extra);
  }
  return writeFields(Fields);
}

Expected<RegionDescriptor> parseDescriptor(std::string_view Ctc) {
  std::vector<Field> Fields;
  std::vector<detail::FieldOffsets> Offsets;
  if (std::optional<ParseError> Error = detail::scanFields(Ctc, Fields, &Offsets))
    return std::move(*Error);

  RegionDescriptor Descriptor;
  std::array<std::size_t, KnownKeyCount> SeenAt;
  SeenAt.fill(NotFound);
  for (std::size_t I = 0; I < Fields.size(); ++I) {
    Field &F = Fields[I];
    const detail::FieldOffsets &At = Offsets[I];
    const std::size_t Known = findKnownKey(F.Key);
    if (Known == NotFound) {
      // Kept in order, twice if given twice: this reader cannot know whether
      // a newer writer's key may repeat.
      Descriptor.ExtraFields.push_back(std::move(F));
      continue;
    }
    if (SeenAt[Known] != NotFound)
      return ParseError{At.Key, "duplicate key " + detail::quoteForMessage(F.Key) +
                                    " (first given at offset " + std::to_string(SeenAt[Known]) +
                                    ")"};
    SeenAt[Known] = At.Key;

    const KnownKey &Key = KnownKeys[Known];
    if (Key.Text) {
      Descriptor.*Key.Text = std::move(F.Value);
    } else if (Key.Lines) {
      LineRange Range;
      if (std::optional<ParseError> Error = LineRangeReader(Key.Key, F.Value, At.Value).read(Range))
        return std::move(*Error);
      Descriptor.*Key.Lines = Range;
    } else if (F.Value == FlagTrue || F.Value == FlagFalse) {
      Descriptor.*Key.Flag = F.Value == FlagTrue;
    } else {
      return ParseError{At.Value, std::string(Key.Key) + " must be 0 or 1, found " +
                                      detail::quoteForMessage(F.Value)};
    }
  }
  Descriptor.Kind = regionKindFromSpelling(Descriptor.Type);
  return Descriptor;
}

} // namespace pomp::ctc
