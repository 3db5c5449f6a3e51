//===- LineStream.cpp - Diagnostics written a whole line at a time --------===//
#include "pomp/ompcc/LineStream.h"

#include <cerrno>
#include <unistd.h>

namespace pomp::ompcc {

LineStream::LineStream(int FileDescriptor)
    : raw_ostream(/*unbuffered=*/true), FileDescriptor(FileDescriptor) {}

LineStream::~LineStream() {
  if (!Pending.empty())
    writeAll(Pending.data(), Pending.size());
}

void LineStream::write_impl(const char *Ptr, size_t Size) {
  Position += Size;
  Pending.append(Ptr, Size);
  const size_t LastNewline = Pending.rfind('\n');
  if (LastNewline == std::string::npos)
    return;
  writeAll(Pending.data(), LastNewline + 1);
  Pending.erase(0, LastNewline + 1);
}

void LineStream::writeAll(const char *Data, size_t Size) {
  while (Size != 0) {
    const ssize_t Written = ::write(FileDescriptor, Data, Size);
    if (Written < 0) {
      if (errno == EINTR)
        continue;
      // Nowhere to report it: diagnostics that cannot be written are lost,
      // as with llvm::errs().
      return;
    }
    Data += Written;
    Size -= static_cast<size_t>(Written);
  }
}

} // namespace pomp::ompcc
