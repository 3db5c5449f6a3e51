//===- Ctc.cpp - Fields of compile-time context strings -------------------===//
///
/// \file
/// The structure of a CTC string: length prefix, `key=value` fields, escapes,
/// the terminating "**". One left-to-right pass, no regular expressions: the
/// runtime reads every string once at startup and the instrumenter writes
/// thousands, so both sides stay linear in the string's size.
///
//===----------------------------------------------------------------------===//

#include "FieldScanner.h"

#include "pomp/ctc/Ctc.h"

#include <cassert>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::ctc {
namespace {

constexpr char Star = '*';
constexpr char Equals = '=';
constexpr char Backslash = '\\';
constexpr char Nul = '\0';
constexpr unsigned DecimalBase = 10;

/// The first and last '*' are in the inclusive count and not in the count of
/// the paper's Appendix A example; readers accept both.
constexpr std::size_t OuterStars = 2;

constexpr std::size_t decimalDigits(std::size_t Value) {
  std::size_t Digits = 1;
  for (; Value >= DecimalBase; Value /= DecimalBase)
    ++Digits;
  return Digits;
}

/// A length with more digits than MaxCtcLength is absurd; stopping there also
/// keeps the accumulated value far from overflowing.
constexpr std::size_t MaxLengthDigits = decimalDigits(MaxCtcLength);

/// Error messages quote at most this many bytes of a value.
constexpr std::size_t MaxQuotedBytes = 40;

/// Printable ASCII, which error messages show as is.
constexpr unsigned char FirstPrintable = 0x20;
constexpr unsigned char LastPrintable = 0x7e;
constexpr char HexDigits[] = "0123456789abcdef";
constexpr unsigned HexDigitBits = 4;
constexpr unsigned char LowNibble = 0x0f;

bool isDigit(char C) { return C >= '0' && C <= '9'; }

bool isKeyChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || isDigit(C) || C == '_';
}

[[maybe_unused]] bool isValidKey(std::string_view Key) {
  if (Key.empty())
    return false;
  for (char C : Key)
    if (!isKeyChar(C))
      return false;
  return true;
}

void appendHexDigits(std::string &Out, unsigned char Byte) {
  Out += HexDigits[Byte >> HexDigitBits];
  Out += HexDigits[Byte & LowNibble];
}

ParseError error(std::size_t Offset, std::string Reason) { return {Offset, std::move(Reason)}; }

ParseError unterminated(std::size_t Offset) {
  return error(Offset, "input ends before the terminating \"**\"");
}

ParseError embeddedNul(std::size_t Offset) {
  return error(Offset, "embedded NUL byte (a CTC string is a C string)");
}

/// Bytes '*' and '\' that escapeValue writes as two bytes.
std::size_t escapedSize(std::string_view Value) {
  std::size_t Size = Value.size();
  for (char C : Value)
    if (C == Star || C == Backslash)
      ++Size;
  return Size;
}

void appendEscaped(std::string &Out, std::string_view Value) {
  for (char C : Value) {
    if (C == Star || C == Backslash)
      Out += Backslash;
    Out += C;
  }
}

} // namespace

std::string ParseError::message() const {
  return "offset " + std::to_string(Offset) + ": " + Reason;
}

namespace detail {

std::string describeByte(char Byte) {
  const auto Unsigned = static_cast<unsigned char>(Byte);
  if (Byte == Nul)
    return "a NUL byte";
  if (Unsigned >= FirstPrintable && Unsigned <= LastPrintable)
    return std::string("'") + Byte + "'";
  std::string Description = "byte 0x";
  appendHexDigits(Description, Unsigned);
  return Description;
}

std::string quoteForMessage(std::string_view Text) {
  std::string Quoted = "\"";
  const std::size_t Shown = Text.size() < MaxQuotedBytes ? Text.size() : MaxQuotedBytes;
  for (std::size_t I = 0; I < Shown; ++I) {
    const auto Byte = static_cast<unsigned char>(Text[I]);
    if (Byte >= FirstPrintable && Byte <= LastPrintable && Byte != '"' &&
        Byte != static_cast<unsigned char>(Backslash)) {
      Quoted += Text[I];
    } else {
      Quoted += "\\x";
      appendHexDigits(Quoted, Byte);
    }
  }
  Quoted += '"';
  if (Shown < Text.size())
    Quoted += "... (" + std::to_string(Text.size()) + " bytes)";
  return Quoted;
}

std::optional<ParseError> scanFields(std::string_view Ctc, std::vector<Field> &Fields,
                                     std::vector<FieldOffsets> *Offsets) {
  const std::size_t Size = Ctc.size();
  if (Size == 0)
    return error(0, "empty input: a CTC string starts with its length, as in \"2**\"");
  // Checked first so that nothing below scans or allocates more than the bound.
  if (Size > MaxCtcLength)
    return error(MaxCtcLength, "input is " + std::to_string(Size) +
                                   " bytes, longer than the maximum CTC length of " +
                                   std::to_string(MaxCtcLength));

  // <length>
  std::size_t Pos = 0;
  std::size_t Declared = 0;
  for (; Pos < Size && isDigit(Ctc[Pos]); ++Pos) {
    if (Pos == MaxLengthDigits)
      return error(Pos, "length has more than " + std::to_string(MaxLengthDigits) +
                            " digits; the maximum CTC length is " + std::to_string(MaxCtcLength));
    Declared = Declared * DecimalBase + static_cast<std::size_t>(Ctc[Pos] - '0');
  }
  if (Pos == 0)
    return error(0, "expected the decimal length at the start, found " + describeByte(Ctc[0]));
  // Writers never write leading zeros; refusing them keeps one spelling per
  // length ("0**" itself is the Appendix A count of "2**" and is accepted).
  if (Pos > 1 && Ctc[0] == '0')
    return error(0, "length \"" + std::string(Ctc.substr(0, Pos)) + "\" has a leading zero");
  if (Declared > MaxCtcLength)
    return error(0, "declared length " + std::to_string(Declared) +
                        " exceeds the maximum CTC length of " + std::to_string(MaxCtcLength));
  if (Pos == Size)
    return error(Pos, "expected '*' after the length, found the end of the input");
  if (Ctc[Pos] != Star)
    return error(Pos, "expected '*' after the length, found " + describeByte(Ctc[Pos]));
  const std::size_t FirstStar = Pos++;

  // *key=value ... until the empty field of the terminating "**".
  for (;;) {
    if (Pos == Size)
      return unterminated(Pos);
    if (Ctc[Pos] == Star)
      break;

    const std::size_t KeyStart = Pos;
    while (Pos < Size && isKeyChar(Ctc[Pos]))
      ++Pos;
    if (Pos == Size)
      return unterminated(Pos);
    if (Ctc[Pos] != Equals) {
      const char Bad = Ctc[Pos];
      if (Bad == Star)
        return error(Pos, "field " + quoteForMessage(Ctc.substr(KeyStart, Pos - KeyStart)) +
                              " has no '=' (a field is key=value)");
      if (Bad == Nul)
        return embeddedNul(Pos);
      return error(Pos, "key character " + describeByte(Bad) +
                            " is not a letter, digit or '_' (keys are not escaped)");
    }
    if (Pos == KeyStart)
      return error(Pos, "empty key before '='");
    std::string Key(Ctc.substr(KeyStart, Pos - KeyStart));

    const std::size_t ValueStart = ++Pos;
    std::string Value;
    for (;;) {
      // Copy runs of plain bytes at once; most values have no escape at all.
      const std::size_t RunStart = Pos;
      while (Pos < Size && Ctc[Pos] != Star && Ctc[Pos] != Backslash && Ctc[Pos] != Nul)
        ++Pos;
      Value.append(Ctc.data() + RunStart, Pos - RunStart);
      if (Pos == Size)
        return unterminated(Pos);
      if (Ctc[Pos] == Star)
        break;
      if (Ctc[Pos] == Nul)
        return embeddedNul(Pos);
      // A backslash: exactly "\*" or "\\".
      if (Pos + 1 == Size)
        return error(Pos, "truncated escape: '\\' at the end of the input");
      const char Escaped = Ctc[Pos + 1];
      if (Escaped == Nul)
        return embeddedNul(Pos + 1);
      if (Escaped != Star && Escaped != Backslash)
        return error(Pos, "invalid escape '\\' followed by " + describeByte(Escaped) +
                              "; only \"\\*\" and \"\\\\\" are escapes");
      Value += Escaped;
      Pos += 2;
    }
    Fields.push_back(Field{std::move(Key), std::move(Value)});
    if (Offsets)
      Offsets->push_back(FieldOffsets{KeyStart, ValueStart});
    ++Pos; // the '*' ending the field
  }

  const std::size_t LastStar = Pos;
  if (LastStar + 1 != Size) {
    const std::size_t Extra = Size - LastStar - 1;
    if (Ctc[LastStar + 1] == Nul)
      return error(LastStar + 1, "a NUL byte after the terminating \"**\"");
    return error(LastStar + 1, std::to_string(Extra) + " unexpected byte" +
                                   (Extra == 1 ? "" : "s") + " after the terminating \"**\"");
  }

  const std::size_t Actual = LastStar - FirstStar + 1;
  if (Declared != Actual && Declared + OuterStars != Actual)
    return error(
        0, "declared length " + std::to_string(Declared) + " does not match the actual length " +
               std::to_string(Actual) + " (from the first '*' to the last, inclusive; " +
               std::to_string(Actual - OuterStars) + " without the outer stars is also accepted)");
  return std::nullopt;
}

} // namespace detail

Expected<std::vector<Field>> parseFields(std::string_view Ctc) {
  std::vector<Field> Fields;
  if (std::optional<ParseError> Error = detail::scanFields(Ctc, Fields, nullptr))
    return std::move(*Error);
  return Fields;
}

std::string escapeValue(std::string_view Value) {
  std::string Escaped;
  Escaped.reserve(escapedSize(Value));
  appendEscaped(Escaped, Value);
  return Escaped;
}

std::string writeFields(const std::vector<Field> &Fields) {
  // Size first: the length prefix comes before the text it counts.
  std::size_t Count = OuterStars;
  for (const Field &F : Fields) {
    assert(isValidKey(F.Key) && "CTC keys are non-empty and made of [A-Za-z0-9_]");
    assert(F.Value.find(Nul) == std::string::npos && "a CTC string cannot hold a NUL byte");
    Count += F.Key.size() + sizeof(Equals) + escapedSize(F.Value) + sizeof(Star);
  }
  std::string Out = std::to_string(Count);
  Out.reserve(Out.size() + Count);
  Out += Star;
  for (const Field &F : Fields) {
    Out += F.Key;
    Out += Equals;
    appendEscaped(Out, F.Value);
    Out += Star;
  }
  Out += Star;
  return Out;
}

} // namespace pomp::ctc
