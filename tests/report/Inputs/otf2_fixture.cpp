//===- otf2_fixture.cpp - A small OTF2 archive for pomp-report's tests ----===//
///
/// \file
/// `report-otf2-fixture <directory> <name>` writes <directory>/<name>.otf2 with
/// OTF2's writer API: three locations (threads) with nested Enter/Leave events
/// of the sample's regions, at fixed times, so the timeline of pomp-report's
/// HTML page can be tested before libpomp writes traces itself. The shape:
///
///   thread 0  main [0, 1000] > parallel [100, 900] > compute [200, 500], barrier [500, 800]
///             main > fib [910, 960] > fib [920, 950] > fib [930, 940]
///   thread 1  parallel [100, 900] > compute [150, 750], barrier [750, 800]
///   thread 2  parallel [100, 900] > compute [120, 300], compute [320, 700], barrier [700, 800]
///
/// in microseconds: 14 region visits, depth 0 to 3.
///
//===----------------------------------------------------------------------===//
#include <otf2/otf2.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::uint64_t NsPerSecond = 1000000000;
constexpr std::uint64_t NsPerMicrosecond = 1000;
constexpr std::uint64_t ChunkSizeEvents = 1024 * 1024;
constexpr std::uint64_t ChunkSizeDefinitions = 4 * 1024 * 1024;
constexpr std::uint64_t TraceEndUs = 1000;

/// The regions and strings of the archive; the enum values are the OTF2 ids.
enum RegionId : OTF2_RegionRef { Main, Parallel, Compute, Barrier, Fib, RegionCount };

/// One region definition.
struct RegionSpec {
  const char *Name;
  std::uint32_t Line;
};
constexpr RegionSpec Regions[] = {
    {"main", 44}, {"parallel", 30}, {"compute", 37}, {"barrier", 40}, {"fib", 12}};
static_assert(sizeof Regions / sizeof Regions[0] == RegionCount, "one spec per region");

/// One event: Enter (true) or Leave of a region at a time in microseconds.
struct EventSpec {
  bool Enter;
  std::uint64_t TimeUs;
  RegionId Region;
};

/// One location and its events in time order.
struct LocationSpec {
  const char *Name;
  std::vector<EventSpec> Events;
};

const std::vector<LocationSpec> &locations() {
  static const std::vector<LocationSpec> Locations = {
      {"thread 0",
       {{true, 0, Main},
        {true, 100, Parallel},
        {true, 200, Compute},
        {false, 500, Compute},
        {true, 500, Barrier},
        {false, 800, Barrier},
        {false, 900, Parallel},
        {true, 910, Fib},
        {true, 920, Fib},
        {true, 930, Fib},
        {false, 940, Fib},
        {false, 950, Fib},
        {false, 960, Fib},
        {false, 1000, Main}}},
      {"thread 1",
       {{true, 100, Parallel},
        {true, 150, Compute},
        {false, 750, Compute},
        {true, 750, Barrier},
        {false, 800, Barrier},
        {false, 900, Parallel}}},
      {"thread 2",
       {{true, 100, Parallel},
        {true, 120, Compute},
        {false, 300, Compute},
        {true, 320, Compute},
        {false, 700, Compute},
        {true, 700, Barrier},
        {false, 800, Barrier},
        {false, 900, Parallel}}},
  };
  return Locations;
}

OTF2_FlushType preFlush(void *, OTF2_FileType, OTF2_LocationRef, void *, bool) {
  return OTF2_FLUSH;
}

OTF2_TimeStamp postFlush(void *, OTF2_FileType, OTF2_LocationRef) { return 0; }

bool ok(OTF2_ErrorCode Code, const char *What) {
  if (Code == OTF2_SUCCESS)
    return true;
  std::fprintf(stderr, "report-otf2-fixture: %s: %s\n", What, OTF2_Error_GetDescription(Code));
  return false;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc != 3) {
    std::fprintf(stderr, "usage: report-otf2-fixture <directory> <archive name>\n");
    return 2;
  }
  OTF2_Archive *Archive =
      OTF2_Archive_Open(Argv[1], Argv[2], OTF2_FILEMODE_WRITE, ChunkSizeEvents,
                        ChunkSizeDefinitions, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!Archive) {
    std::fprintf(stderr, "report-otf2-fixture: cannot create the archive in '%s'\n", Argv[1]);
    return 1;
  }
  OTF2_FlushCallbacks Flush = {&preFlush, &postFlush};
  if (!ok(OTF2_Archive_SetFlushCallbacks(Archive, &Flush, nullptr), "flush callbacks") ||
      !ok(OTF2_Archive_SetSerialCollectiveCallbacks(Archive), "collective callbacks") ||
      !ok(OTF2_Archive_OpenEvtFiles(Archive), "open event files"))
    return 1;

  const std::vector<LocationSpec> &Locations = locations();
  for (OTF2_LocationRef L = 0; L < Locations.size(); ++L) {
    OTF2_EvtWriter *Writer = OTF2_Archive_GetEvtWriter(Archive, L);
    for (const EventSpec &E : Locations[L].Events) {
      const OTF2_TimeStamp Time = E.TimeUs * NsPerMicrosecond;
      const OTF2_ErrorCode Code = E.Enter ? OTF2_EvtWriter_Enter(Writer, nullptr, Time, E.Region)
                                          : OTF2_EvtWriter_Leave(Writer, nullptr, Time, E.Region);
      if (!ok(Code, "write an event"))
        return 1;
    }
    OTF2_Archive_CloseEvtWriter(Archive, Writer);
  }
  OTF2_Archive_CloseEvtFiles(Archive);

  // Every location needs its (here empty) local definitions.
  OTF2_Archive_OpenDefFiles(Archive);
  for (OTF2_LocationRef L = 0; L < Locations.size(); ++L)
    OTF2_Archive_CloseDefWriter(Archive, OTF2_Archive_GetDefWriter(Archive, L));
  OTF2_Archive_CloseDefFiles(Archive);

  // Strings: the region names, then the file, then the system tree, process and thread names.
  OTF2_GlobalDefWriter *Defs = OTF2_Archive_GetGlobalDefWriter(Archive);
  OTF2_GlobalDefWriter_WriteClockProperties(Defs, NsPerSecond, 0, TraceEndUs * NsPerMicrosecond + 1,
                                            OTF2_UNDEFINED_TIMESTAMP);
  OTF2_StringRef Next = 0;
  for (const RegionSpec &R : Regions)
    OTF2_GlobalDefWriter_WriteString(Defs, Next++, R.Name);
  const OTF2_StringRef File = Next++;
  OTF2_GlobalDefWriter_WriteString(Defs, File, "sample.c");
  for (OTF2_RegionRef R = 0; R < RegionCount; ++R)
    OTF2_GlobalDefWriter_WriteRegion(Defs, R, R, R, OTF2_UNDEFINED_STRING,
                                     OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                     OTF2_REGION_FLAG_NONE, File, Regions[R].Line, Regions[R].Line);
  const OTF2_StringRef Node = Next++, Process = Next++;
  OTF2_GlobalDefWriter_WriteString(Defs, Node, "node");
  OTF2_GlobalDefWriter_WriteString(Defs, Process, "sample");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(Defs, 0, Node, Node, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  OTF2_GlobalDefWriter_WriteLocationGroup(Defs, 0, Process, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                          OTF2_UNDEFINED_LOCATION_GROUP);
  for (OTF2_LocationRef L = 0; L < Locations.size(); ++L) {
    const OTF2_StringRef Name = Next++;
    OTF2_GlobalDefWriter_WriteString(Defs, Name, Locations[L].Name);
    OTF2_GlobalDefWriter_WriteLocation(Defs, L, Name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                       Locations[L].Events.size(), 0);
  }
  return ok(OTF2_Archive_Close(Archive), "close the archive") ? 0 : 1;
}
