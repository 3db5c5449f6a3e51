//===- core/Metrics.cpp - Hardware counters per region (PAPI) -------------===//

#include "core/Metrics.h"

#include <algorithm>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>

#ifdef POMP_HAVE_PAPI
#include <papi.h>
#endif

namespace pomp::rt {

namespace {

MetricsReport Report;
/// Threads without counters and the first reason, written by the threads.
std::mutex ThreadFailureLock;

#ifdef POMP_HAVE_PAPI
/// The PAPI functions libpomp calls, found with dlsym().
struct PapiApi {
  decltype(&PAPI_library_init) LibraryInit = nullptr;
  decltype(&PAPI_thread_init) ThreadInit = nullptr;
  decltype(&PAPI_create_eventset) CreateEventSet = nullptr;
  decltype(&PAPI_cleanup_eventset) CleanupEventSet = nullptr;
  decltype(&PAPI_destroy_eventset) DestroyEventSet = nullptr;
  decltype(&PAPI_event_name_to_code) NameToCode = nullptr;
  decltype(&PAPI_add_event) AddEvent = nullptr;
  decltype(&PAPI_start) Start = nullptr;
  decltype(&PAPI_stop) Stop = nullptr;
  decltype(&PAPI_read) Read = nullptr;
  decltype(&PAPI_strerror) StrError = nullptr;
};
PapiApi Papi;
/// The codes of the recorded events, in Report.Recorded's order.
std::vector<int> Codes;

/// The sonames tried, newest first: the library's ABI is its major.minor.
constexpr const char *PapiLibraries[] = {"libpapi.so.7.0", "libpapi.so.7", "libpapi.so"};

template <typename Fn> bool resolve(void *Handle, const char *Name, Fn &Into) {
  Into = reinterpret_cast<Fn>(::dlsym(Handle, Name));
  return Into != nullptr;
}

std::string papiError(int Code) {
  const char *Text = Papi.StrError ? Papi.StrError(Code) : nullptr;
  return Text ? std::string(Text) : "PAPI error " + std::to_string(Code);
}

unsigned long threadId() { return static_cast<unsigned long>(::pthread_self()); }

/// Loads PAPI; "" on success, else why not.
std::string loadPapi() {
  void *Handle = nullptr;
  for (const char *Name : PapiLibraries)
    if ((Handle = ::dlopen(Name, RTLD_NOW | RTLD_LOCAL)))
      break;
  if (!Handle)
    return std::string("PAPI could not be loaded (") + PapiLibraries[0] +
           "; install libpapi7.0 or papi)";
  if (!resolve(Handle, "PAPI_library_init", Papi.LibraryInit) ||
      !resolve(Handle, "PAPI_thread_init", Papi.ThreadInit) ||
      !resolve(Handle, "PAPI_create_eventset", Papi.CreateEventSet) ||
      !resolve(Handle, "PAPI_cleanup_eventset", Papi.CleanupEventSet) ||
      !resolve(Handle, "PAPI_destroy_eventset", Papi.DestroyEventSet) ||
      !resolve(Handle, "PAPI_event_name_to_code", Papi.NameToCode) ||
      !resolve(Handle, "PAPI_add_event", Papi.AddEvent) ||
      !resolve(Handle, "PAPI_start", Papi.Start) || !resolve(Handle, "PAPI_stop", Papi.Stop) ||
      !resolve(Handle, "PAPI_read", Papi.Read) || !resolve(Handle, "PAPI_strerror", Papi.StrError))
    return "the loaded PAPI library lacks a function libpomp needs";
  const int Version = Papi.LibraryInit(PAPI_VER_CURRENT);
  if (Version != PAPI_VER_CURRENT)
    return Version > 0 ? "the loaded PAPI library has another version than libpomp was built for"
                       : "PAPI_library_init failed: " + papiError(Version);
  const int Threads = Papi.ThreadInit(threadId);
  if (Threads != PAPI_OK)
    return "PAPI_thread_init failed: " + papiError(Threads);
  return "";
}

/// Adds every requested event that PAPI can count together with the ones
/// added before; the others go to Report.Unavailable.
void checkEvents(const std::vector<std::string> &Names) {
  int Set = PAPI_NULL;
  int Result = Papi.CreateEventSet(&Set);
  if (Result != PAPI_OK) {
    for (const std::string &Name : Names)
      Report.Unavailable.push_back({Name, "PAPI_create_eventset failed: " + papiError(Result)});
    return;
  }
  for (const std::string &Name : Names) {
    int Code = 0;
    Result = Papi.NameToCode(Name.c_str(), &Code);
    if (Result == PAPI_OK)
      Result = Papi.AddEvent(Set, Code);
    if (Result != PAPI_OK) {
      Report.Unavailable.push_back({Name, papiError(Result)});
      continue;
    }
    Codes.push_back(Code);
    Report.Recorded.push_back(Name);
  }
  // Counting starts only when a thread makes its own set; a set that does
  // not start (an event that counts alone only) is found here.
  if (!Codes.empty() && (Result = Papi.Start(Set)) != PAPI_OK) {
    for (const std::string &Name : Report.Recorded)
      Report.Unavailable.push_back({Name, "PAPI_start failed: " + papiError(Result)});
    Report.Recorded.clear();
    Codes.clear();
  }
  // A thread runs one event set at a time: this one must not keep the
  // initialising thread's own set from starting.
  if (!Codes.empty()) {
    long long Ignored[MaxMetrics];
    Papi.Stop(Set, Ignored);
  }
  Papi.CleanupEventSet(Set);
  Papi.DestroyEventSet(&Set);
}
#endif

} // namespace

bool parseMetricList(const std::string &Value, std::vector<std::string> &Names,
                     std::string &Error) {
  Names.clear();
  std::size_t Begin = 0;
  while (Begin <= Value.size()) {
    std::size_t End = Value.find(',', Begin);
    if (End == std::string::npos)
      End = Value.size();
    std::string Name = Value.substr(Begin, End - Begin);
    const std::size_t First = Name.find_first_not_of(" \t");
    const std::size_t Last = Name.find_last_not_of(" \t");
    Name = First == std::string::npos ? "" : Name.substr(First, Last - First + 1);
    if (Name.empty()) {
      Error = "an empty event name";
      return false;
    }
    if (Name.find_first_of(" \t") != std::string::npos) {
      Error = "\"" + Name + "\" is not one event name (names are separated by commas)";
      return false;
    }
    if (std::find(Names.begin(), Names.end(), Name) != Names.end()) {
      Error = "\"" + Name + "\" is given twice";
      return false;
    }
    Names.push_back(Name);
    Begin = End + 1;
  }
  if (Names.size() > MaxMetrics) {
    Error = "more than " + std::to_string(MaxMetrics) + " events";
    return false;
  }
  return true;
}

bool initializeMetrics(const OptionSource &Options, std::vector<std::string> &Messages) {
  Report = MetricsReport();
  const std::string Value = Options.readPath(MetricsOption);
  if (Value.empty())
    return false;
  std::vector<std::string> Names;
  std::string Error;
  if (!parseMetricList(Value, Names, Error)) {
    Messages.push_back("invalid value of POMP_METRICS: " + Error +
                       "; expected PAPI event names separated by commas (e.g. "
                       "PAPI_TOT_CYC,PAPI_L2_TCM); no counters recorded");
    return false;
  }
  Report.Requested = Names;
#ifdef POMP_HAVE_PAPI
  const std::string Failure = loadPapi();
  if (!Failure.empty()) {
    for (const std::string &Name : Names)
      Report.Unavailable.push_back({Name, Failure});
    Messages.push_back("POMP_METRICS: " + Failure + "; no counters recorded");
    return false;
  }
  checkEvents(Names);
  for (const UnavailableMetric &U : Report.Unavailable)
    Messages.push_back("POMP_METRICS: " + U.Name + " is not recorded: " + U.Reason);
#else
  const std::string Failure = "this libpomp was built without PAPI";
  for (const std::string &Name : Names)
    Report.Unavailable.push_back({Name, Failure});
  Messages.push_back("POMP_METRICS: " + Failure + "; no counters recorded");
#endif
  return !Report.Recorded.empty();
}

const MetricsReport &metricsReport() { return Report; }

std::string metricsThreadMessage() {
  std::lock_guard<std::mutex> Lock(ThreadFailureLock);
  if (Report.ThreadsWithout == 0)
    return "";
  return "POMP_METRICS: " + std::to_string(Report.ThreadsWithout) +
         " thread(s) recorded no counters (" + Report.ThreadReason +
         "); their regions count 0 (profile.json: metrics.threads_without_counters)";
}

void dropMetricsInChild() {
  for (const std::string &Name : Report.Recorded)
    Report.Unavailable.push_back({Name, "not recorded in a child created by fork()"});
  Report.Recorded.clear();
}

ThreadCounters *newThreadCounters() {
  if (Report.Recorded.empty())
    return nullptr;
  return new ThreadCounters(Report.Recorded.size());
}

bool ThreadCounters::read(std::int64_t *Values) {
#ifdef POMP_HAVE_PAPI
  if (!Started && !Failed) {
    // Lazily, on the thread itself: PAPI counts per thread.
    EventSet = PAPI_NULL;
    const char *Step = "PAPI_create_eventset";
    int Result = Papi.CreateEventSet(&EventSet);
    for (std::size_t I = 0; Result == PAPI_OK && I < Codes.size(); ++I) {
      Step = "PAPI_add_event";
      Result = Papi.AddEvent(EventSet, Codes[I]);
    }
    if (Result == PAPI_OK) {
      Step = "PAPI_start";
      Result = Papi.Start(EventSet);
    }
    if (Result != PAPI_OK) {
      Failed = true;
      std::lock_guard<std::mutex> Lock(ThreadFailureLock);
      if (Report.ThreadsWithout++ == 0)
        Report.ThreadReason = std::string(Step) + " failed: " + papiError(Result);
      return false;
    }
    Started = true;
  }
  if (Failed)
    return false;
  static_assert(sizeof(long long) == sizeof(std::int64_t), "PAPI reads long long values");
  return Papi.Read(EventSet, reinterpret_cast<long long *>(Values)) == PAPI_OK;
#else
  (void)Values;
  return false;
#endif
}

void ThreadCounters::enter(std::size_t Depth) {
  const std::size_t Needed = (Depth + 1) * 2 * Count;
  if (Frames.size() < Needed)
    Frames.resize(Needed, 0);
  std::int64_t *F = &Frames[Depth * 2 * Count];
  if (!read(F))
    std::fill(F, F + Count, 0);
  std::fill(F + Count, F + 2 * Count, 0);
}

void ThreadCounters::leave(std::size_t Depth, std::uint64_t *&Sums) {
  const std::size_t Needed = (Depth + 1) * 2 * Count;
  if (Frames.size() < Needed)
    return;
  std::int64_t Now[MaxMetrics];
  if (!read(Now))
    return;
  if (!Sums)
    Sums = newSums();
  const std::int64_t *F = &Frames[Depth * 2 * Count];
  std::int64_t *Below = &Frames[(Depth - 1) * 2 * Count];
  for (std::size_t I = 0; I < Count; ++I) {
    // A frame that did not start with a read of this set counts nothing.
    const std::int64_t Delta = Now[I] > F[I] ? Now[I] - F[I] : 0;
    Sums[I] += static_cast<std::uint64_t>(Delta);
    Sums[Count + I] += static_cast<std::uint64_t>(std::min(F[Count + I], Delta));
    Below[Count + I] += Delta;
  }
}

std::uint64_t *ThreadCounters::newSums() {
  constexpr std::size_t NodesPerChunk = 256;
  const std::size_t Size = 2 * Count;
  if (SumChunks.empty() || SumsUsed + Size > NodesPerChunk * Size) {
    SumChunks.emplace_back(new std::uint64_t[NodesPerChunk * Size]());
    SumsUsed = 0;
  }
  std::uint64_t *Sums = SumChunks.back().get() + SumsUsed;
  SumsUsed += Size;
  return Sums;
}

} // namespace pomp::rt
