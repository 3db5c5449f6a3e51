//===- Trace.cpp - A timeline from an OTF2 trace --------------------------===//

#include "pomp/report/Trace.h"

#include <otf2/otf2.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <map>
#include <queue>
#include <sys/stat.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POMP_REPORT_LEAK_CHECKED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define POMP_REPORT_LEAK_CHECKED 1
#endif
#ifdef POMP_REPORT_LEAK_CHECKED
/// OTF2 3.0 leaks its archive when OTF2_Reader_Open() fails on a file that
/// is not an archive; the sanitizer build must not fail pomp-report (and its
/// tests) for a leak in a library it cannot fix. LeakSanitizer calls this hook.
extern "C" const char *__lsan_default_suppressions() { return "leak:libopen-trace-format2\n"; }
#endif

namespace pomp::report {
namespace {

constexpr std::uint64_t NsPerSecond = 1000000000;
/// Room for one OTF2 error message.
constexpr std::size_t MessageBufferSize = 512;

/// The last message OTF2 reported. OTF2's error handler is process-wide;
/// pomp-report reads one trace at a time on one thread.
std::string LastOtf2Message;

OTF2_ErrorCode keepOtf2Message(void *, const char *, uint64_t, const char *, OTF2_ErrorCode Code,
                               const char *Format, va_list Args) {
  char Buffer[MessageBufferSize];
  std::vsnprintf(Buffer, sizeof Buffer, Format, Args);
  LastOtf2Message = std::string(OTF2_Error_GetDescription(Code)) + (*Buffer ? ": " : "") + Buffer;
  return Code;
}

/// Installs keepOtf2Message for its lifetime, so that OTF2 does not print on
/// stderr and its reason ends up in pomp-report's one message.
class Otf2MessageScope {
public:
  Otf2MessageScope() : Previous(OTF2_Error_RegisterCallback(&keepOtf2Message, nullptr)) {
    LastOtf2Message.clear();
  }
  ~Otf2MessageScope() { OTF2_Error_RegisterCallback(Previous, nullptr); }
  Otf2MessageScope(const Otf2MessageScope &) = delete;
  Otf2MessageScope &operator=(const Otf2MessageScope &) = delete;

private:
  OTF2_ErrorCallback Previous;
};

/// An interval while the trace is read, in the trace's ticks.
struct RawInterval {
  std::uint64_t Start = 0;
  std::uint64_t Duration = 0;
  std::uint32_t Depth = 0;
  OTF2_RegionRef Region = 0;
};

/// Orders a min-heap by duration: its top is the shortest kept interval.
struct LongerFirst {
  bool operator()(const RawInterval &A, const RawInterval &B) const {
    return A.Duration != B.Duration ? A.Duration > B.Duration : A.Start < B.Start;
  }
};

/// One location while its events are read.
struct LaneState {
  /// An Enter not yet left.
  struct Open {
    std::uint64_t Time;
    OTF2_RegionRef Region;
  };
  std::string Name;
  std::vector<Open> Stack;
  std::priority_queue<RawInterval, std::vector<RawInterval>, LongerFirst> Longest;
  std::uint64_t Total = 0;
  std::uint64_t LastTime = 0;
  std::uint64_t Unmatched = 0;
  std::uint64_t OpenAtEnd = 0;
  /// The visits not kept, summed per depth into TimelineLimits::BinsPerLane
  /// stretches of BinTicks ticks from the trace's first event. A visit past
  /// the last stretch doubles the width (pairs of stretches merge), so the
  /// memory is bounded and the width fits the lane's time without knowing it.
  struct RawBin {
    std::uint64_t Busy = 0;
    std::uint64_t Visits = 0;
    std::uint64_t Longest = 0;
    OTF2_RegionRef Region = 0;
  };
  std::uint64_t BinTicks = 1;
  std::map<std::uint32_t, std::vector<RawBin>> Bins;
  std::uint64_t Binned = 0;
};

/// Everything the callbacks collect.
struct ReadState {
  /// A region definition, its strings not yet resolved.
  struct RegionDef {
    OTF2_StringRef Name;
    OTF2_StringRef File;
    std::uint32_t Line;
  };
  std::size_t PerLane = 0;
  std::map<OTF2_StringRef, std::string> Strings;
  std::map<OTF2_RegionRef, RegionDef> Regions;
  std::map<OTF2_LocationRef, OTF2_StringRef> Locations;
  std::uint64_t Resolution = 0;
  std::map<OTF2_LocationRef, LaneState> Lanes;
  bool SawEvent = false;
  std::uint64_t FirstTime = 0;
  std::uint64_t LastTime = 0;

  std::string string(OTF2_StringRef Ref) const {
    const auto It = Strings.find(Ref);
    return It == Strings.end() ? std::string() : It->second;
  }

  void keep(LaneState &L, const RawInterval &I) {
    ++L.Total;
    if (L.Longest.size() < PerLane) {
      L.Longest.push(I);
    } else if (PerLane != 0 && LongerFirst()(I, L.Longest.top())) {
      bin(L, L.Longest.top());
      L.Longest.pop();
      L.Longest.push(I);
    } else {
      bin(L, I);
    }
  }

  /// Adds a visit that is not kept to its lane's stretches of time.
  void bin(LaneState &L, const RawInterval &I) {
    constexpr std::size_t N = TimelineLimits::BinsPerLane;
    ++L.Binned;
    // The global reader delivers events in time order: FirstTime is final.
    const std::uint64_t Start = I.Start - FirstTime;
    const std::uint64_t End = Start + I.Duration;
    while (End >= N * L.BinTicks) {
      for (auto &[Depth, Bins] : L.Bins)
        for (std::size_t K = 0; K < N / 2; ++K) {
          LaneState::RawBin Merged = Bins[2 * K];
          const LaneState::RawBin &Other = Bins[2 * K + 1];
          Merged.Busy += Other.Busy;
          Merged.Visits += Other.Visits;
          if (Other.Longest > Merged.Longest) {
            Merged.Longest = Other.Longest;
            Merged.Region = Other.Region;
          }
          Bins[K] = Merged;
          Bins[K + N / 2] = {};
        }
      L.BinTicks *= 2;
    }
    std::vector<LaneState::RawBin> &Bins = L.Bins[I.Depth];
    if (Bins.empty())
      Bins.resize(N);
    const std::uint64_t First = Start / L.BinTicks;
    ++Bins[First].Visits;
    for (std::uint64_t K = First; K * L.BinTicks <= End && K < N; ++K) {
      const std::uint64_t From = std::max(Start, K * L.BinTicks);
      const std::uint64_t To = std::min(End, (K + 1) * L.BinTicks);
      if (To < From)
        continue;
      LaneState::RawBin &B = Bins[K];
      B.Busy += To - From;
      if (I.Duration >= B.Longest) {
        B.Longest = I.Duration;
        B.Region = I.Region;
      }
    }
  }

  void sawTime(LaneState &L, std::uint64_t Time) {
    if (!SawEvent || Time < FirstTime)
      FirstTime = Time;
    SawEvent = true;
    LastTime = std::max(LastTime, Time);
    L.LastTime = std::max(L.LastTime, Time);
  }
};

OTF2_CallbackCode onString(void *Data, OTF2_StringRef Self, const char *Text) {
  static_cast<ReadState *>(Data)->Strings[Self] = Text ? Text : "";
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onRegion(void *Data, OTF2_RegionRef Self, OTF2_StringRef Name, OTF2_StringRef,
                           OTF2_StringRef, OTF2_RegionRole, OTF2_Paradigm, OTF2_RegionFlag,
                           OTF2_StringRef File, uint32_t Begin, uint32_t) {
  static_cast<ReadState *>(Data)->Regions[Self] = {Name, File, Begin};
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLocation(void *Data, OTF2_LocationRef Self, OTF2_StringRef Name,
                             OTF2_LocationType, uint64_t, OTF2_LocationGroupRef) {
  static_cast<ReadState *>(Data)->Locations[Self] = Name;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onClock(void *Data, uint64_t Resolution, uint64_t, uint64_t, uint64_t) {
  static_cast<ReadState *>(Data)->Resolution = Resolution;
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onEnter(OTF2_LocationRef Location, OTF2_TimeStamp Time, void *Data,
                          OTF2_AttributeList *, OTF2_RegionRef Region) {
  auto *S = static_cast<ReadState *>(Data);
  LaneState &L = S->Lanes[Location];
  S->sawTime(L, Time);
  L.Stack.push_back({Time, Region});
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode onLeave(OTF2_LocationRef Location, OTF2_TimeStamp Time, void *Data,
                          OTF2_AttributeList *, OTF2_RegionRef) {
  auto *S = static_cast<ReadState *>(Data);
  LaneState &L = S->Lanes[Location];
  S->sawTime(L, Time);
  if (L.Stack.empty()) {
    ++L.Unmatched;
    return OTF2_CALLBACK_SUCCESS;
  }
  // OTF2 requires Enter/Leave to nest; the innermost open region is the one
  // left, whatever region the Leave names.
  const LaneState::Open Top = L.Stack.back();
  L.Stack.pop_back();
  S->keep(L, {Top.Time, Time - Top.Time, static_cast<std::uint32_t>(L.Stack.size()), Top.Region});
  return OTF2_CALLBACK_SUCCESS;
}

std::uint64_t toNs(std::uint64_t Ticks, std::uint64_t Resolution) {
  if (Resolution == 0 || Resolution == NsPerSecond)
    return Ticks;
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(Ticks) * NsPerSecond /
                                    Resolution);
}

/// Fails the read with OTF2's reason when Code is not success.
bool check(OTF2_ErrorCode Code, const char *What, std::string &Error) {
  if (Code == OTF2_SUCCESS)
    return true;
  Error = std::string(What) + ": " +
          (LastOtf2Message.empty() ? OTF2_Error_GetDescription(Code) : LastOtf2Message);
  return false;
}

/// Reads definitions and events; the reader is closed by the caller.
bool readArchive(OTF2_Reader *Reader, ReadState &S, const TimelineLimits &Limits,
                 std::uint64_t &TotalLocations, std::string &Error) {
  if (!check(OTF2_Reader_SetSerialCollectiveCallbacks(Reader), "cannot set up the reader", Error))
    return false;
  OTF2_GlobalDefReader *Defs = OTF2_Reader_GetGlobalDefReader(Reader);
  if (!Defs)
    return check(OTF2_ERROR_INVALID_DATA, "no global definitions", Error);
  OTF2_GlobalDefReaderCallbacks *DefCallbacks = OTF2_GlobalDefReaderCallbacks_New();
  OTF2_GlobalDefReaderCallbacks_SetStringCallback(DefCallbacks, &onString);
  OTF2_GlobalDefReaderCallbacks_SetRegionCallback(DefCallbacks, &onRegion);
  OTF2_GlobalDefReaderCallbacks_SetLocationCallback(DefCallbacks, &onLocation);
  OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(DefCallbacks, &onClock);
  const OTF2_ErrorCode Registered =
      OTF2_Reader_RegisterGlobalDefCallbacks(Reader, Defs, DefCallbacks, &S);
  OTF2_GlobalDefReaderCallbacks_Delete(DefCallbacks);
  if (!check(Registered, "cannot read the definitions", Error))
    return false;
  uint64_t DefinitionsRead = 0;
  if (!check(OTF2_Reader_ReadAllGlobalDefinitions(Reader, Defs, &DefinitionsRead),
             "cannot read the definitions", Error))
    return false;
  OTF2_Reader_CloseGlobalDefReader(Reader, Defs);

  TotalLocations = S.Locations.size();
  std::vector<OTF2_LocationRef> Selected;
  for (const auto &[Location, Name] : S.Locations) {
    if (Selected.size() == Limits.Lanes)
      break;
    Selected.push_back(Location);
    S.Lanes[Location].Name = S.string(Name);
    if (!check(OTF2_Reader_SelectLocation(Reader, Location), "cannot select a location", Error))
      return false;
  }
  if (Selected.empty())
    return true;
  // Local definitions hold the mapping tables of archives whose writers used
  // local ids; archives without them are fine.
  const bool HaveDefFiles = OTF2_Reader_OpenDefFiles(Reader) == OTF2_SUCCESS;
  if (!check(OTF2_Reader_OpenEvtFiles(Reader), "cannot open the event files", Error))
    return false;
  for (OTF2_LocationRef Location : Selected) {
    if (HaveDefFiles) {
      if (OTF2_DefReader *Local = OTF2_Reader_GetDefReader(Reader, Location)) {
        uint64_t LocalRead = 0;
        OTF2_Reader_ReadAllLocalDefinitions(Reader, Local, &LocalRead);
        OTF2_Reader_CloseDefReader(Reader, Local);
      }
    }
    if (!OTF2_Reader_GetEvtReader(Reader, Location))
      return check(OTF2_ERROR_INVALID_DATA, "cannot open the events of a location", Error);
  }
  if (HaveDefFiles)
    OTF2_Reader_CloseDefFiles(Reader);

  OTF2_GlobalEvtReader *Events = OTF2_Reader_GetGlobalEvtReader(Reader);
  if (!Events)
    return check(OTF2_ERROR_INVALID_DATA, "cannot read the events", Error);
  OTF2_GlobalEvtReaderCallbacks *EventCallbacks = OTF2_GlobalEvtReaderCallbacks_New();
  OTF2_GlobalEvtReaderCallbacks_SetEnterCallback(EventCallbacks, &onEnter);
  OTF2_GlobalEvtReaderCallbacks_SetLeaveCallback(EventCallbacks, &onLeave);
  const OTF2_ErrorCode EventsRegistered =
      OTF2_Reader_RegisterGlobalEvtCallbacks(Reader, Events, EventCallbacks, &S);
  OTF2_GlobalEvtReaderCallbacks_Delete(EventCallbacks);
  uint64_t EventsRead = 0;
  const bool Ok = check(EventsRegistered, "cannot read the events", Error) &&
                  check(OTF2_Reader_ReadAllGlobalEvents(Reader, Events, &EventsRead),
                        "cannot read the events", Error);
  OTF2_Reader_CloseGlobalEvtReader(Reader, Events);
  OTF2_Reader_CloseEvtFiles(Reader);
  return Ok;
}

} // namespace

std::string traceAnchorIn(const std::string &ExperimentDir) {
  return ExperimentDir + (ExperimentDir.empty() || ExperimentDir.back() != '/' ? "/" : "") +
         "trace/traces.otf2";
}

bool readTimeline(const std::string &AnchorPath, const TimelineLimits &Limits, Timeline &Out,
                  std::string &Error) {
  struct stat Info {};
  if (::stat(AnchorPath.c_str(), &Info) != 0) {
    Error = "cannot read OTF2 trace '" + AnchorPath + "': " + std::strerror(errno);
    return false;
  }
  if (!S_ISREG(Info.st_mode)) {
    Error =
        "cannot read OTF2 trace '" + AnchorPath + "': not a file (name the anchor file, *.otf2)";
    return false;
  }
  const Otf2MessageScope Messages;
  ReadState S;
  S.PerLane = Limits.IntervalsPerLane;
  std::uint64_t TotalLocations = 0;
  OTF2_Reader *Reader = OTF2_Reader_Open(AnchorPath.c_str());
  if (!Reader) {
    Error = "cannot read OTF2 trace '" + AnchorPath +
            "': " + (LastOtf2Message.empty() ? "not an OTF2 archive" : LastOtf2Message);
    return false;
  }
  std::string Why;
  const bool Ok = readArchive(Reader, S, Limits, TotalLocations, Why);
  OTF2_Reader_Close(Reader);
  if (!Ok) {
    Error = "cannot read OTF2 trace '" + AnchorPath + "': " + Why;
    return false;
  }

  Timeline T;
  T.Path = AnchorPath;
  T.Limits = Limits;
  T.TotalLanes = TotalLocations;
  T.TicksPerSecond = S.Resolution;
  T.EndNs = S.SawEvent ? toNs(S.LastTime - S.FirstTime, S.Resolution) : 0;
  std::map<OTF2_RegionRef, std::uint32_t> RegionIndex;
  auto IndexOf = [&](OTF2_RegionRef Ref) {
    const auto [It, New] = RegionIndex.emplace(Ref, static_cast<std::uint32_t>(T.Regions.size()));
    if (New) {
      TraceRegion R;
      const auto Def = S.Regions.find(Ref);
      if (Def != S.Regions.end()) {
        R.Name = S.string(Def->second.Name);
        R.File = S.string(Def->second.File);
        R.Line = Def->second.Line == OTF2_UNDEFINED_UINT32 ? 0 : Def->second.Line;
      }
      if (R.Name.empty())
        R.Name = "region " + std::to_string(Ref);
      T.Regions.push_back(std::move(R));
    }
    return It->second;
  };
  for (auto &[Location, L] : S.Lanes) {
    // Regions still open at the end close with the lane's last event.
    while (!L.Stack.empty()) {
      const LaneState::Open Top = L.Stack.back();
      L.Stack.pop_back();
      ++L.OpenAtEnd;
      S.keep(L, {Top.Time, L.LastTime - Top.Time, static_cast<std::uint32_t>(L.Stack.size()),
                 Top.Region});
    }
    Lane Shown;
    Shown.Location = Location;
    Shown.Name = L.Name.empty() ? "location " + std::to_string(Location) : L.Name;
    Shown.TotalIntervals = L.Total;
    Shown.UnmatchedLeaves = L.Unmatched;
    Shown.OpenAtEnd = L.OpenAtEnd;
    while (!L.Longest.empty()) {
      const RawInterval &R = L.Longest.top();
      Shown.Intervals.push_back({toNs(R.Start - S.FirstTime, S.Resolution),
                                 toNs(R.Duration, S.Resolution), R.Depth, IndexOf(R.Region)});
      Shown.MaxDepth = std::max(Shown.MaxDepth, R.Depth);
      L.Longest.pop();
    }
    Shown.BinnedVisits = L.Binned;
    Shown.BinNs = toNs(L.BinTicks, S.Resolution);
    for (const auto &[Depth, Bins] : L.Bins) {
      Shown.MaxDepth = std::max(Shown.MaxDepth, Depth);
      for (std::size_t K = 0; K < Bins.size(); ++K) {
        if (Bins[K].Busy == 0 && Bins[K].Visits == 0)
          continue;
        const Bin B{static_cast<std::uint32_t>(K),    Depth,
                    toNs(Bins[K].Busy, S.Resolution), Bins[K].Visits,
                    IndexOf(Bins[K].Region),          1};
        Bin *Last = Shown.Bins.empty() ? nullptr : &Shown.Bins.back();
        if (Last && Last->Depth == Depth && Last->Index + Last->Run == B.Index &&
            Last->BusyNs == B.BusyNs && Last->Region == B.Region && B.Visits == 0)
          ++Last->Run;
        else
          Shown.Bins.push_back(B);
      }
    }
    std::sort(Shown.Intervals.begin(), Shown.Intervals.end(),
              [](const Interval &A, const Interval &B) {
                return A.StartNs != B.StartNs ? A.StartNs < B.StartNs : A.Depth < B.Depth;
              });
    T.Lanes.push_back(std::move(Shown));
  }
  Out = std::move(T);
  return true;
}

} // namespace pomp::report
