//===- trace/ChromeTrace.cpp - Chrome trace event JSON --------------------===//

#include "trace/ChromeTrace.h"

#include "core/Json.h"
#include "core/Output.h"
#include "core/Profile.h"
#include "core/Regions.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace pomp::rt {
namespace {

/// One event as the program runs: converted to JSON only at finalisation.
struct ChromeRecord {
  Tick Time;
  NodeKey Key;
  char Phase; ///< 'B', 'E' or 'i'
};

constexpr double NsPerMicrosecond = 1000.0;

/// Writes all of Data to Fd; false on any error.
bool writeAll(int Fd, const void *Data, std::size_t Size) {
  const char *P = static_cast<const char *>(Data);
  while (Size > 0) {
    const ssize_t N = ::write(Fd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    P += N;
    Size -= static_cast<std::size_t>(N);
  }
  return true;
}

/// One thread's records: a bounded buffer, spilled to its own file when full.
class ChromeThreadTrace final : public ThreadTrace {
public:
  ChromeThreadTrace(std::uint32_t Index, std::string Directory, std::size_t Capacity)
      : Index(Index), Directory(std::move(Directory)), Capacity(Capacity) {}
  ~ChromeThreadTrace() override {
    if (Spill >= 0)
      ::close(Spill);
    if (!SpillPath.empty())
      ::unlink(SpillPath.c_str());
  }

  void enter(NodeKey Key, EventId, Tick Now, std::uint64_t) override { add({Now, Key, 'B'}); }
  void closing(NodeKey, EventId, Tick, std::uint64_t) override {}
  void leave(NodeKey Key, Tick Now) override { add({Now, Key, 'E'}); }
  void event(NodeKey Key, EventId, Tick Now, std::uint64_t) override { add({Now, Key, 'i'}); }

  /// Writes the buffer to the spill file; false when that failed (the
  /// records are dropped and counted).
  bool spill() {
    if (Records.empty())
      return true;
    if (Spill < 0 && SpillPath.empty()) {
      Spill = createFileExclusively(Directory, ".trace.json.thread" + std::to_string(Index) + ".",
                                    SpillPath);
      if (Spill < 0)
        SpillPath.clear();
    }
    const bool Ok =
        Spill >= 0 && writeAll(Spill, Records.data(), Records.size() * sizeof(ChromeRecord));
    if (Ok)
      Spilled += Records.size();
    else
      Dropped += Records.size();
    Records.clear();
    return Ok;
  }

  /// Calls F(record) for every record, spilled ones first, in order.
  template <typename Fn> bool forEach(Fn &&F) {
    if (Spill >= 0) {
      ::close(Spill);
      Spill = -1;
      const int In = ::open(SpillPath.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (In < 0)
        return false;
      std::vector<ChromeRecord> Block(Capacity);
      for (;;) {
        const ssize_t N = ::read(In, Block.data(), Block.size() * sizeof(ChromeRecord));
        if (N < 0 && errno == EINTR)
          continue;
        if (N <= 0)
          break;
        for (std::size_t I = 0; I < static_cast<std::size_t>(N) / sizeof(ChromeRecord); ++I)
          F(Block[I]);
      }
      ::close(In);
    }
    for (const ChromeRecord &R : Records)
      F(R);
    return true;
  }

  const std::uint32_t Index;
  std::uint64_t Dropped = 0;
  std::uint64_t Spilled = 0;
  std::uint64_t Flushes = 0;

private:
  void add(const ChromeRecord &R) {
    if (Records.size() == Capacity) {
      ++Flushes;
      spill();
    }
    if (Records.capacity() < Capacity) {
      try {
        Records.reserve(Capacity);
      } catch (...) {
        ++Dropped;
        return;
      }
    }
    Records.push_back(R);
  }

  const std::string Directory;
  /// The spill file, created on the first spill with a unique name.
  std::string SpillPath;
  const std::size_t Capacity;
  std::vector<ChromeRecord> Records;
  int Spill = -1;
};

/// trace.json of a run.
class ChromeSink final : public TraceSink {
public:
  ChromeSink(std::string Directory, std::uint64_t BufferBytes)
      : Directory(std::move(Directory)), Capacity(BufferBytes / sizeof(ChromeRecord)) {}

  ThreadTrace *attach(std::uint32_t ThreadIndex) override {
    try {
      Threads.push_back(std::make_unique<ChromeThreadTrace>(ThreadIndex, Directory, Capacity));
      return Threads.back().get();
    } catch (...) {
      return nullptr;
    }
  }

  TraceResult finish(const TraceFinish &Info) override;

private:
  const std::string Directory;
  const std::size_t Capacity;
  std::vector<std::unique_ptr<ChromeThreadTrace>> Threads;
};

/// The JSON-escaped display name of a trace region.
std::string regionName(NodeKey Key, const RegionTable &Regions) {
  const RegionId Id = keyRegion(Key);
  std::string Name = constructName(keyOpener(Key));
  if (Regions.isValid(Id)) {
    const Region &R = Regions.get(Id);
    if (!R.Descriptor.Name.empty())
      Name += " \"" + R.Descriptor.Name + "\"";
    if (!R.Location.empty())
      Name += " @" + R.Location;
  }
  return JsonWriter::escape(Name);
}

TraceResult ChromeSink::finish(const TraceFinish &Info) {
  const std::string Final = Directory + "/" + ChromeTraceName;
  if (const std::size_t Busy = busyThreads(Threads, Info.IdleThreads))
    return {false, "trace " + Final + " not written: " + std::to_string(Busy) +
                       " threads were still inside an event"};
  std::string Temporary;
  const int Fd =
      createFileExclusively(Directory, "." + std::string(ChromeTraceName) + ".tmp.", Temporary);
  std::FILE *Out = Fd >= 0 ? ::fdopen(Fd, "w") : nullptr;
  if (!Out) {
    const int Reason = errno;
    if (Fd >= 0) {
      ::close(Fd);
      ::unlink(Temporary.c_str());
    }
    return {false, "cannot write '" + Final + "': " + std::strerror(Reason)};
  }
  std::unordered_map<NodeKey, std::string> Names;
  std::uint64_t Written = 0;
  std::uint64_t Dropped = 0;
  std::uint64_t Flushes = 0;
  bool Ok = true;
  const double UsPerTick = Info.NsPerTick / NsPerMicrosecond;
  std::fprintf(Out, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  std::fprintf(Out,
               "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%lld,\"args\":{\"name\":\"%s\"}}",
               static_cast<long long>(Info.Pid), JsonWriter::escape(Info.Program).c_str());
  for (const auto &T : Threads) {
    std::fprintf(Out,
                 ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%lld,\"tid\":%u,"
                 "\"args\":{\"name\":\"thread %u\"}}",
                 static_cast<long long>(Info.Pid), T->Index, T->Index);
    Ok = T->forEach([&](const ChromeRecord &R) {
      auto It = Names.find(R.Key);
      if (It == Names.end())
        It = Names.emplace(R.Key, regionName(R.Key, *Info.Regions)).first;
      const double Us = static_cast<double>(R.Time - Info.Start) * UsPerTick;
      std::fprintf(Out, ",\n{\"name\":\"%s\",\"ph\":\"%c\",\"pid\":%lld,\"tid\":%u,\"ts\":%.3f%s}",
                   It->second.c_str(), R.Phase, static_cast<long long>(Info.Pid), T->Index, Us,
                   R.Phase == 'i' ? ",\"s\":\"t\"" : "");
      ++Written;
    }) && Ok;
    Dropped += T->Dropped;
    Flushes += T->Flushes;
  }
  std::fprintf(Out, "\n],\"otherData\":{\"events_dropped\":%llu}}\n",
               static_cast<unsigned long long>(Dropped));
  Ok = std::ferror(Out) == 0 && Ok;
  Ok = std::fclose(Out) == 0 && Ok;
  if (!Ok || std::rename(Temporary.c_str(), Final.c_str()) != 0) {
    ::unlink(Temporary.c_str());
    return {false, "cannot write '" + Final + "'"};
  }
  std::string Summary = "trace " + Final + ": " + std::to_string(Written) + " events, " +
                        std::to_string(Threads.size()) + " threads, " + std::to_string(Flushes) +
                        " buffer flushes, ";
  Summary += Dropped == 0 ? "no events dropped"
                          : std::to_string(Dropped) + " events DROPPED (a spill file failed)";
  // The spill files are removed with their threads' traces.
  Threads.clear();
  return {Dropped == 0, Summary};
}

} // namespace

std::unique_ptr<TraceSink> openChromeTrace(const TraceSettings &Settings,
                                           const std::string &Directory, std::string &Error) {
  // Claiming the experiment directory proved it writable; check that a file
  // can be created in it now rather than lose the trace at the end.
  std::string Probe;
  const int Fd = createFileExclusively(Directory, ".trace.json.probe.", Probe);
  if (Fd < 0) {
    Error = "cannot write in '" + Directory + "': " + std::strerror(errno);
    return nullptr;
  }
  ::close(Fd);
  ::unlink(Probe.c_str());
  return std::make_unique<ChromeSink>(Directory, Settings.BufferBytes);
}

} // namespace pomp::rt
