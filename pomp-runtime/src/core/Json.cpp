//===- core/Json.cpp - A small JSON writer --------------------------------===//

#include "core/Json.h"

#include <cmath>
#include <cstdio>

namespace pomp::rt {
namespace {
constexpr unsigned IndentWidth = 2;
/// Control characters below this are written as \u00XX.
constexpr unsigned char FirstPrintable = 0x20;
/// Enough for any double printed with %.17g.
constexpr std::size_t NumberBufferSize = 32;
} // namespace

void JsonWriter::beforeValue() {
  if (AfterKey) {
    AfterKey = false;
    return;
  }
  if (!HasElement.empty()) {
    if (HasElement.back())
      Out += ',';
    HasElement.back() = true;
  }
  if (PendingBreak) {
    Out += '\n';
    Out.append(HasElement.size() * IndentWidth, ' ');
    PendingBreak = false;
  } else if (!HasElement.empty() && Out.back() == ',') {
    Out += ' ';
  }
}

JsonWriter &JsonWriter::beginObject() {
  beforeValue();
  Out += '{';
  HasElement.push_back(false);
  return *this;
}

JsonWriter &JsonWriter::endObject() {
  HasElement.pop_back();
  if (PendingBreak) {
    Out += '\n';
    Out.append(HasElement.size() * IndentWidth, ' ');
    PendingBreak = false;
  }
  Out += '}';
  return *this;
}

JsonWriter &JsonWriter::beginArray() {
  beforeValue();
  Out += '[';
  HasElement.push_back(false);
  return *this;
}

JsonWriter &JsonWriter::endArray() {
  HasElement.pop_back();
  if (PendingBreak) {
    Out += '\n';
    Out.append(HasElement.size() * IndentWidth, ' ');
    PendingBreak = false;
  }
  Out += ']';
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view Key) {
  beforeValue();
  Out += '"';
  Out += escape(Key);
  Out += "\": ";
  AfterKey = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view S) {
  beforeValue();
  Out += '"';
  Out += escape(S);
  Out += '"';
  return *this;
}

JsonWriter &JsonWriter::value(std::uint64_t N) {
  beforeValue();
  Out += std::to_string(N);
  return *this;
}

JsonWriter &JsonWriter::value(std::int64_t N) {
  beforeValue();
  Out += std::to_string(N);
  return *this;
}

JsonWriter &JsonWriter::value(double D) {
  if (!std::isfinite(D))
    return null();
  beforeValue();
  char Buffer[NumberBufferSize];
  std::snprintf(Buffer, sizeof Buffer, "%.17g", D);
  Out += Buffer;
  return *this;
}

JsonWriter &JsonWriter::value(bool B) {
  beforeValue();
  Out += B ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  beforeValue();
  Out += "null";
  return *this;
}

JsonWriter &JsonWriter::breakLine() {
  PendingBreak = true;
  return *this;
}

namespace {
/// The length of the well-formed UTF-8 sequence at S[I], or 0 when the bytes
/// there are not one (a file name from a Latin-1 system, a cut string). The
/// byte ranges are those of RFC 3629, section 4.
std::size_t utf8SequenceLength(std::string_view S, std::size_t I) {
  constexpr unsigned char ContinuationMask = 0xc0, Continuation = 0x80;
  const auto Lead = static_cast<unsigned char>(S[I]);
  std::size_t Length;
  unsigned char SecondLow = 0x80, SecondHigh = 0xbf; // limits that exclude overlongs and surrogates
  if (Lead < 0x80)
    return 1;
  if (Lead >= 0xc2 && Lead <= 0xdf) {
    Length = 2;
  } else if (Lead >= 0xe0 && Lead <= 0xef) {
    Length = 3;
    if (Lead == 0xe0)
      SecondLow = 0xa0;
    if (Lead == 0xed)
      SecondHigh = 0x9f;
  } else if (Lead >= 0xf0 && Lead <= 0xf4) {
    Length = 4;
    if (Lead == 0xf0)
      SecondLow = 0x90;
    if (Lead == 0xf4)
      SecondHigh = 0x8f;
  } else {
    return 0;
  }
  if (I + Length > S.size())
    return 0;
  const auto Second = static_cast<unsigned char>(S[I + 1]);
  if (Second < SecondLow || Second > SecondHigh)
    return 0;
  for (std::size_t K = 2; K < Length; ++K)
    if ((static_cast<unsigned char>(S[I + K]) & ContinuationMask) != Continuation)
      return 0;
  return Length;
}
/// Printable ASCII other than the quote and the backslash: copied as it is.
bool needsNoEscape(char C) {
  constexpr unsigned char FirstNonAscii = 0x80;
  const auto U = static_cast<unsigned char>(C);
  return U >= FirstPrintable && U < FirstNonAscii && C != '"' && C != '\\';
}
} // namespace

std::string JsonWriter::escape(std::string_view S) {
  static constexpr char Hex[] = "0123456789abcdef";
  constexpr unsigned NibbleBits = 4;
  constexpr unsigned char LowNibble = 0x0f;
  // JSON text is UTF-8: bytes that are not become U+FFFD.
  constexpr std::string_view Replacement = "\\ufffd";
  std::string Result;
  Result.reserve(S.size());
  for (std::size_t I = 0; I < S.size();) {
    // A run of ASCII that needs no escape, appended at once: most of a
    // profile's text, which a byte at a time took 20 instructions per byte.
    std::size_t Plain = I;
    while (Plain < S.size() && needsNoEscape(S[Plain]))
      ++Plain;
    if (Plain != I) {
      Result.append(S.data() + I, Plain - I);
      I = Plain;
      continue;
    }
    const char C = S[I];
    const auto U = static_cast<unsigned char>(C);
    switch (C) {
    case '"':
      Result += "\\\"";
      break;
    case '\\':
      Result += "\\\\";
      break;
    case '\n':
      Result += "\\n";
      break;
    case '\t':
      Result += "\\t";
      break;
    case '\r':
      Result += "\\r";
      break;
    default:
      if (U < FirstPrintable) {
        Result += "\\u00";
        Result += Hex[U >> NibbleBits];
        Result += Hex[U & LowNibble];
      } else if (const std::size_t Length = utf8SequenceLength(S, I)) {
        Result.append(S.substr(I, Length));
        I += Length;
        continue;
      } else {
        Result += Replacement;
      }
    }
    ++I;
  }
  return Result;
}

} // namespace pomp::rt
