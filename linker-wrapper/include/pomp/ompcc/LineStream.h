//===- LineStream.h - Diagnostics written a whole line at a time -*- C++ -*-===//
///
/// \file
/// A build runs many ompcc processes at once on one terminal (`make -j`).
/// llvm::errs() writes each piece of a message separately, so two processes'
/// messages could interleave in the middle of a line ("ompc++: ompccmain.cpp:
/// ..."). LineStream writes each complete line with one write(2), which the
/// kernel does not interleave with another process's for a pipe or terminal.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_OMPCC_LINESTREAM_H
#define POMP_OMPCC_LINESTREAM_H

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace pomp::ompcc {

/// An unbuffered stream over a file descriptor that holds back an incomplete
/// line until its newline (or its destruction) and writes complete lines in
/// one write(2) each call.
class LineStream : public llvm::raw_ostream {
public:
  explicit LineStream(int FileDescriptor);
  ~LineStream() override;

private:
  void write_impl(const char *Ptr, size_t Size) override;
  uint64_t current_pos() const override { return Position; }
  /// Writes Size bytes of Data, resuming after partial writes.
  void writeAll(const char *Data, size_t Size);

  int FileDescriptor;
  std::string Pending;
  uint64_t Position = 0;
};

} // namespace pomp::ompcc

#endif // POMP_OMPCC_LINESTREAM_H
