//===- FieldScanner.h - Shared scanner of CTC strings -----------*- C++ -*-===//
///
/// \file
/// The one scanner behind parseFields and parseDescriptor. parseDescriptor
/// needs where each field sits in the input to report errors in values at
/// their byte offset, which the public Field does not carry; both readers use
/// this scanner so that they agree on every structural error.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_CTC_LIB_FIELDSCANNER_H
#define POMP_CTC_LIB_FIELDSCANNER_H

#include "pomp/ctc/Ctc.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pomp::ctc::detail {

/// Where one field starts in the input: the first byte of its key and the
/// first byte of its (escaped) value, right after the '='.
struct FieldOffsets {
  std::size_t Key = 0;
  std::size_t Value = 0;
};

/// Checks the whole structure of \p Ctc and appends its fields to \p Fields
/// and, if \p Offsets is not null, their offsets. Returns the first error in
/// reading order; then \p Fields holds the fields read before it.
std::optional<ParseError> scanFields(std::string_view Ctc, std::vector<Field> &Fields,
                                     std::vector<FieldOffsets> *Offsets);

/// \p Text for an error message: in double quotes, bytes outside printable
/// ASCII as \xHH, cut after a few dozen characters so that a corrupt value of
/// kilobytes does not make a kilobyte message.
std::string quoteForMessage(std::string_view Text);

/// One byte for an error message: 'c', "a NUL byte" or "byte 0xHH".
std::string describeByte(char Byte);

} // namespace pomp::ctc::detail

#endif // POMP_CTC_LIB_FIELDSCANNER_H
