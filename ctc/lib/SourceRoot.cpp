//===- SourceRoot.cpp - The directory of a set of sources -----------------===//
#include "pomp/ctc/SourceRoot.h"

namespace pomp::ctc {

void SourceRoot::add(std::string_view Location) {
  if (Location.empty() || Location.front() != '/')
    return;
  const std::string_view File = Location.substr(0, Location.find(':'));
  const std::string_view Directory = File.substr(0, File.rfind('/') + 1);
  if (First) {
    Root = std::string(Directory);
    First = false;
    return;
  }
  std::size_t Same = 0;
  while (Same < Root.size() && Same < Directory.size() && Root[Same] == Directory[Same])
    ++Same;
  Root.resize(Root.rfind('/', Same == 0 ? 0 : Same - 1) + 1);
}

} // namespace pomp::ctc
