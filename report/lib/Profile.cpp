//===- Profile.cpp - A libpomp profile, read back -------------------------===//

#include "pomp/report/Profile.h"

namespace pomp::report {

const char *kindName(NodeKind Kind) {
  switch (Kind) {
  case NodeKind::Root:
    return "root";
  case NodeKind::Work:
    return "work";
  case NodeKind::Wait:
    return "wait";
  case NodeKind::Event:
    return "event";
  }
  return "work";
}

std::string_view Profile::intern(std::string_view Text) {
  if (!Strings)
    Strings = std::make_shared<std::set<std::string, std::less<>>>();
  auto It = Strings->find(Text);
  if (It == Strings->end())
    It = Strings->emplace(Text).first;
  return *It;
}

const Region *Profile::regionOf(const Node &N) const {
  const auto It = Regions.find(N.RegionId);
  return It == Regions.end() ? nullptr : &It->second;
}

std::string Profile::title(const Node &N) const {
  // The same spelling as nodeTitle() in pomp-runtime/src/core/Output.cpp, so
  // a row of the report can be found in profile.txt and the stderr summary.
  if (N.Parent == Node::NoParent)
    return "program";
  std::string Title(N.Construct);
  if (const Region *R = regionOf(N)) {
    if (!R->Name.empty())
      Title += " \"" + R->Name + "\"";
    if (!R->Location.empty())
      Title += " @" + R->Location;
  }
  return Title;
}

std::string Profile::inlinedLocation(const Region &R) {
  // The same spelling as inlinedLocation() in pomp-runtime/src/core/Regions.cpp.
  const std::string Plain = " (" + R.Function + ")";
  if (R.InlinedInto.empty() || R.Function.empty() || R.Location.size() < Plain.size() ||
      R.Location.compare(R.Location.size() - Plain.size(), Plain.size(), Plain) != 0)
    return R.Location;
  std::string Chain = R.Function;
  for (const std::string &Caller : R.InlinedInto)
    Chain += " \u2190 " + Caller;
  return R.Location.substr(0, R.Location.size() - Plain.size()) + " (" + Chain + ")";
}

std::string Profile::pathTitle(const Node &N) const {
  const Region *R = regionOf(N);
  if (!R || R->InlinedInto.empty())
    return title(N);
  std::string Title = title(N);
  const std::string Plain = " @" + R->Location;
  if (Title.size() >= Plain.size() &&
      Title.compare(Title.size() - Plain.size(), Plain.size(), Plain) == 0)
    Title.replace(Title.size() - Plain.size(), Plain.size(), " @" + inlinedLocation(*R));
  return Title;
}

} // namespace pomp::report
