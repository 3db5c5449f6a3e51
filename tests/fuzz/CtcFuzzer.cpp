//===- CtcFuzzer.cpp - libFuzzer target for CTC strings -------------------===//
///
/// \file
/// Feeds arbitrary bytes to parseFields and parseDescriptor. Besides the
/// sanitizers' checks it aborts when the readers break their contract:
/// an error offset past the input or without a reason, parseDescriptor
/// disagreeing with parseFields on a structural error, or a string that
/// parses but does not read back the same after writing it out again.
///
//===----------------------------------------------------------------------===//

#include "pomp/ctc/Ctc.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace pomp::ctc;

[[noreturn]] void fail(const char *What, std::string_view Input) {
  std::fprintf(stderr, "ctc_fuzzer: %s (input of %zu bytes)\n", What, Input.size());
  std::abort();
}

void checkError(const ParseError &Error, std::string_view Input) {
  if (Error.Offset > Input.size())
    fail("error offset past the end of the input", Input);
  if (Error.Reason.empty())
    fail("error without a reason", Input);
}

void checkFields(std::string_view Input, const Expected<std::vector<Field>> &Fields) {
  if (!Fields) {
    checkError(Fields.error(), Input);
    return;
  }
  const std::string Written = writeFields(*Fields);
  const Expected<std::vector<Field>> Reread = parseFields(Written);
  if (!Reread)
    fail("writeFields produced a string parseFields rejects", Input);
  if (*Reread != *Fields)
    fail("fields changed in a write/parse round trip", Input);
  if (writeFields(*Reread) != Written)
    fail("writeFields is not stable", Input);
}

void checkDescriptor(std::string_view Input, const Expected<std::vector<Field>> &Fields,
                     const Expected<RegionDescriptor> &Descriptor) {
  if (!Fields) {
    // Structure errors are parseFields' errors, word for word.
    if (Descriptor)
      fail("parseDescriptor accepted what parseFields rejects", Input);
    if (Descriptor.error().Offset != Fields.error().Offset ||
        Descriptor.error().Reason != Fields.error().Reason)
      fail("parseDescriptor and parseFields report different errors", Input);
    return;
  }
  if (!Descriptor) {
    checkError(Descriptor.error(), Input);
    return;
  }
  const std::string Written = writeDescriptor(*Descriptor);
  const Expected<RegionDescriptor> Reread = parseDescriptor(Written);
  if (!Reread)
    fail("writeDescriptor produced a string parseDescriptor rejects", Input);
  if (*Reread != *Descriptor)
    fail("descriptor changed in a write/parse round trip", Input);
  if (writeDescriptor(*Reread) != Written)
    fail("writeDescriptor is not stable", Input);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data, std::size_t Size) {
  const std::string_view Input(reinterpret_cast<const char *>(Data), Size);
  const Expected<std::vector<Field>> Fields = parseFields(Input);
  const Expected<RegionDescriptor> Descriptor = parseDescriptor(Input);
  checkFields(Input, Fields);
  checkDescriptor(Input, Fields, Descriptor);
  return 0;
}
