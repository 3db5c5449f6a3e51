//===- pomp/ctc/SourceRoot.h - The directory of a set of sources -*- C++ -*-===//
///
/// \file
/// The directory that holds the source files of a set of region locations
/// (the CTC's "file:line" location): profile.txt (libpomp) and pomp-report
/// show paths relative to it, profile.json keeps them whole.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_CTC_SOURCEROOT_H
#define POMP_CTC_SOURCEROOT_H

#include <string>
#include <string_view>

namespace pomp::ctc {

/// The longest directory, ending in '/', that holds the file of every
/// location added that is an absolute path; locations that are not are left
/// out.
class SourceRoot {
public:
  void add(std::string_view Location);
  /// The common directory; "" when no location was absolute or only "/" is
  /// common to them.
  std::string root() const { return Root == "/" ? std::string() : Root; }

private:
  std::string Root;
  bool First = true;
};

} // namespace pomp::ctc

#endif // POMP_CTC_SOURCEROOT_H
