//===- CtcTestSupport.h - Helpers of the CTC string tests -------*- C++ -*-===//
///
/// \file
/// Assertions shared by the CTC tests: an exact error check that also holds
/// parseDescriptor to the structural errors of parseFields, and readable
/// renderings of inputs that contain NUL and non-ASCII bytes.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_TESTS_CTC_CTCTESTSUPPORT_H
#define POMP_TESTS_CTC_CTCTESTSUPPORT_H

#include "pomp/ctc/Ctc.h"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::ctc::test {

/// \p Text with bytes outside printable ASCII as \xHH, for failure messages.
inline std::string printable(std::string_view Text) {
  constexpr unsigned char FirstPrintable = 0x20;
  constexpr unsigned char LastPrintable = 0x7e;
  constexpr std::size_t HexBufferSize = 5; // "\xHH" and the NUL
  std::string Out = "\"";
  for (char C : Text) {
    const auto Byte = static_cast<unsigned char>(C);
    if (Byte >= FirstPrintable && Byte <= LastPrintable) {
      Out += C;
      continue;
    }
    char Hex[HexBufferSize];
    std::snprintf(Hex, sizeof(Hex), "\\x%02x", Byte);
    Out += Hex;
  }
  return Out + "\"";
}

/// `<inclusive length>*<Body>*` where Body holds the fields, each followed by
/// its '*': wrap("") is "2**", wrap("a=b*") is "6*a=b**".
inline std::string wrap(std::string_view Body) {
  constexpr std::size_t OuterStars = 2;
  return std::to_string(Body.size() + OuterStars) + "*" + std::string(Body) + "*";
}

/// parseFields fails on \p Ctc at exactly \p Offset with a reason containing
/// \p ReasonPart, and parseDescriptor fails with the very same error.
inline ::testing::AssertionResult failsAt(std::string_view Ctc, std::size_t Offset,
                                          std::string_view ReasonPart) {
  const Expected<std::vector<Field>> Fields = parseFields(Ctc);
  if (Fields)
    return ::testing::AssertionFailure()
           << "parseFields accepted " << printable(Ctc) << " (" << Fields->size() << " fields)";
  const ParseError &Error = Fields.error();
  if (Error.Offset != Offset || Error.Reason.find(ReasonPart) == std::string::npos)
    return ::testing::AssertionFailure() << "parseFields(" << printable(Ctc) << ") failed with \""
                                         << Error.message() << "\", expected offset " << Offset
                                         << " and a reason containing \"" << ReasonPart << "\"";
  const Expected<RegionDescriptor> Descriptor = parseDescriptor(Ctc);
  if (Descriptor)
    return ::testing::AssertionFailure()
           << "parseDescriptor accepted " << printable(Ctc) << " which parseFields rejects";
  if (Descriptor.error().Offset != Error.Offset || Descriptor.error().Reason != Error.Reason)
    return ::testing::AssertionFailure() << "parseDescriptor(" << printable(Ctc)
                                         << ") failed with \"" << Descriptor.error().message()
                                         << "\" but parseFields with \"" << Error.message() << "\"";
  return ::testing::AssertionSuccess();
}

/// parseDescriptor alone fails on \p Ctc at \p Offset with \p ReasonPart in
/// the reason, while parseFields accepts it (a value error, not a structure
/// error).
inline ::testing::AssertionResult descriptorFailsAt(std::string_view Ctc, std::size_t Offset,
                                                    std::string_view ReasonPart) {
  if (!parseFields(Ctc))
    return ::testing::AssertionFailure() << "parseFields rejects " << printable(Ctc) << ": "
                                         << parseFields(Ctc).error().message();
  const Expected<RegionDescriptor> Descriptor = parseDescriptor(Ctc);
  if (Descriptor)
    return ::testing::AssertionFailure() << "parseDescriptor accepted " << printable(Ctc);
  const ParseError &Error = Descriptor.error();
  if (Error.Offset != Offset || Error.Reason.find(ReasonPart) == std::string::npos)
    return ::testing::AssertionFailure()
           << "parseDescriptor(" << printable(Ctc) << ") failed with \"" << Error.message()
           << "\", expected offset " << Offset << " and a reason containing \"" << ReasonPart
           << "\"";
  return ::testing::AssertionSuccess();
}

} // namespace pomp::ctc::test

#endif // POMP_TESTS_CTC_CTCTESTSUPPORT_H
