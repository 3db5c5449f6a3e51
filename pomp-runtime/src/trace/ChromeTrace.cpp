//===- trace/ChromeTrace.cpp - Chrome trace event JSON --------------------===//

#include "trace/ChromeTrace.h"

#include "core/Json.h"
#include "core/Output.h"
#include "core/Profile.h"
#include "core/Regions.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <new>
#include <string_view>
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

/// Writes all of Data to Fd; false with errno on any error.
bool writeAll(int Fd, const void *Data, std::size_t Size) {
  const char *P = static_cast<const char *>(Data);
  while (Size > 0) {
    const ssize_t N = ::write(Fd, P, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      // write() returning 0 for a regular file means there is no room.
      if (N == 0)
        errno = ENOSPC;
      return false;
    }
    P += N;
    Size -= static_cast<std::size_t>(N);
  }
  return true;
}

/// The first failure of a Chrome trace: after it no thread keeps or writes
/// records, and finish() removes what was written (docs/TRACE_FORMAT.md,
/// "When the disk is full").
struct ChromeFailure {
  std::atomic<bool> Failed{false};
  std::mutex Mutex;
  int Errno = 0;
  std::string File; ///< relative to the experiment directory

  void set(int Reason, const std::string &Name) {
    std::lock_guard<std::mutex> Guard(Mutex);
    if (Failed.load(std::memory_order_relaxed))
      return;
    Errno = Reason;
    File = Name;
    Failed.store(true, std::memory_order_relaxed);
  }
  bool failed() const { return Failed.load(std::memory_order_relaxed); }
};

/// One thread's records: a bounded buffer, spilled to its own file when full.
class ChromeThreadTrace final : public ThreadTrace {
public:
  ChromeThreadTrace(std::uint32_t Index, std::string Directory, std::size_t Capacity,
                    ChromeFailure &Failure)
      : Index(Index), Directory(std::move(Directory)), Capacity(Capacity), Failure(Failure) {}
  ~ChromeThreadTrace() override { discard(true); }

  void enter(NodeKey Key, EventId, Tick Now, std::uint64_t) override { add({Now, Key, 'B'}); }
  void closing(NodeKey, EventId, Tick, std::uint64_t) override {}
  void leave(NodeKey Key, Tick Now) override { add({Now, Key, 'E'}); }
  void event(NodeKey Key, EventId, Tick Now, std::uint64_t) override { add({Now, Key, 'i'}); }

  /// Calls F(record) for every record, spilled ones first, in order; false
  /// with errno when the spill file cannot be read back.
  template <typename Fn> bool forEach(Fn &&F) {
    if (Spill >= 0) {
      // close() reports a delayed write-back error of the spilled records.
      const bool Closed = ::close(Spill) == 0;
      Spill = -1;
      if (!Closed)
        return false;
      const int In = ::open(SpillPath.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
      if (In < 0)
        return false;
      std::vector<ChromeRecord> Block(Capacity);
      for (;;) {
        const ssize_t N = ::read(In, Block.data(), Block.size() * sizeof(ChromeRecord));
        if (N < 0 && errno == EINTR)
          continue;
        if (N < 0) {
          const int Reason = errno;
          ::close(In);
          errno = Reason;
          return false;
        }
        if (N == 0)
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

  /// Removes the spill file; closes it too unless the thread may still be
  /// writing it (busy at finalisation: its descriptor must stay valid).
  void discard(bool Close) {
    if (Close && Spill >= 0) {
      ::close(Spill);
      Spill = -1;
    }
    if (!SpillPath.empty())
      ::unlink(SpillPath.c_str());
    SpillPath.clear();
  }

  /// The name of the spill file, for messages.
  std::string spillName() const {
    return SpillPath.size() > Directory.size() ? SpillPath.substr(Directory.size() + 1)
                                               : std::string(ChromeTraceName);
  }

  const std::uint32_t Index;
  std::uint64_t Received = 0; ///< records handed to the trace
  std::uint64_t Flushes = 0;

private:
  void add(const ChromeRecord &R) {
    ++Received;
    if (Failure.failed())
      return;
    if (Records.size() == Capacity) {
      ++Flushes;
      if (!spill())
        return;
    }
    if (Records.capacity() < Capacity) {
      try {
        Records.reserve(Capacity);
      } catch (...) {
        Failure.set(ENOMEM, ChromeTraceName);
        return;
      }
    }
    Records.push_back(R);
  }

  /// Writes the buffer to the spill file; on failure the trace fails.
  bool spill() {
    if (Spill < 0 && SpillPath.empty()) {
      Spill = createFileExclusively(Directory, ".trace.json.thread" + std::to_string(Index) + ".",
                                    SpillPath);
      if (Spill < 0) {
        SpillPath.clear();
        Failure.set(errno, ChromeTraceName);
        return false;
      }
    }
    if (!writeAll(Spill, Records.data(), Records.size() * sizeof(ChromeRecord))) {
      Failure.set(errno, spillName());
      return false;
    }
    Records.clear();
    return true;
  }

  const std::string Directory;
  /// The spill file, created on the first spill with a unique name.
  std::string SpillPath;
  const std::size_t Capacity;
  ChromeFailure &Failure;
  std::vector<ChromeRecord> Records;
  int Spill = -1;
};

/// Writes trace.json through a buffer of its own, with write(): stdio's
/// buffering would hide which write failed and why.
class JsonOutput {
public:
  explicit JsonOutput(int Fd) : Fd(Fd) { Buffer.reserve(BufferBytes); }
  void printf(const char *Format, ...) __attribute__((format(printf, 2, 3))) {
    char Line[LineBytes];
    va_list Args, Again;
    va_start(Args, Format);
    va_copy(Again, Args);
    const int N = std::vsnprintf(Line, sizeof Line, Format, Args);
    va_end(Args);
    if (N > 0 && static_cast<std::size_t>(N) < sizeof Line) {
      Buffer.append(Line, static_cast<std::size_t>(N));
    } else if (N > 0) {
      // A long region name: format again into the buffer itself.
      const std::size_t Old = Buffer.size();
      Buffer.resize(Old + static_cast<std::size_t>(N) + 1);
      std::vsnprintf(&Buffer[Old], static_cast<std::size_t>(N) + 1, Format, Again);
      Buffer.resize(Old + static_cast<std::size_t>(N));
    }
    va_end(Again);
    if (Buffer.size() >= BufferBytes)
      flush();
  }
  /// Writes what is buffered; false with Errno set after any failure.
  bool flush() {
    if (Errno == 0 && !writeAll(Fd, Buffer.data(), Buffer.size()))
      Errno = errno;
    Buffer.clear();
    return Errno == 0;
  }
  int Errno = 0;

private:
  static constexpr std::size_t BufferBytes = std::size_t(1) << 20;
  /// Room for a record with a region name of usual length.
  static constexpr std::size_t LineBytes = 1024;
  const int Fd;
  std::string Buffer;
};

/// trace.json of a run.
class ChromeSink final : public TraceSink {
public:
  ChromeSink(std::string Directory, std::uint64_t BufferBytes)
      : Directory(std::move(Directory)), Capacity(BufferBytes / sizeof(ChromeRecord)) {}

  ThreadTrace *attach(std::uint32_t ThreadIndex) override {
    try {
      Threads.push_back(
          std::make_unique<ChromeThreadTrace>(ThreadIndex, Directory, Capacity, Failure));
      return Threads.back().get();
    } catch (...) {
      return nullptr;
    }
  }

  std::vector<TraceReport> finish(const TraceFinish &Info) override;

private:
  /// Writes trace.json; false with errno and the failed file on failure.
  bool writeJson(const TraceFinish &Info, TraceReport &Report);

  const std::string Directory;
  const std::size_t Capacity;
  ChromeFailure Failure;
  std::vector<std::unique_ptr<ChromeThreadTrace>> Threads;
};

/// What every event of a trace region repeats: its name and its source
/// location, JSON-escaped and formatted once per region.
struct ChromeRegionText {
  /// `parallel @demo.c:7`: the file's base name, which keeps the names short
  /// (the trace repeats them in every event); the full path is in Args.
  std::string Name;
  /// `,"args":{"file":"/src/demo.c","line":7}`, or "" without a location.
  std::string Args;
};

/// The base name of a path.
std::string_view baseName(std::string_view Path) {
  const std::size_t Slash = Path.rfind('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

ChromeRegionText regionText(NodeKey Key, const RegionTable &Regions) {
  const RegionId Id = keyRegion(Key);
  // The construct as profile.txt names it (nodeConstruct()), with a short path.
  std::string Name = nodeConstruct(Id, keyOpener(Key), Regions);
  std::string Args;
  if (Regions.isValid(Id)) {
    const Region &R = Regions.get(Id);
    const pomp::ctc::RegionDescriptor &D = R.Descriptor;
    if (!D.Name.empty())
      Name += " \"" + D.Name + "\"";
    std::string_view Location = R.Location;
    std::string Short;
    if (!D.File.empty() && Location.substr(0, D.File.size()) == D.File) {
      // "file:line" and "file:line (function)" of an OMPT region: the file's
      // base name, the rest as it is.
      Short = std::string(baseName(D.File)) + std::string(Location.substr(D.File.size()));
      Location = Short;
    }
    if (!Location.empty())
      Name += " @" + std::string(Location);
    if (!D.File.empty()) {
      Args = ",\"args\":{\"file\":\"" + JsonWriter::escape(D.File) + "\"";
      if (D.StartLines)
        Args += ",\"line\":" + std::to_string(D.StartLines->First);
      Args += "}";
    }
  }
  return {JsonWriter::escape(Name), std::move(Args)};
}

bool ChromeSink::writeJson(const TraceFinish &Info, TraceReport &Report) {
  const std::string Final = Directory + "/" + ChromeTraceName;
  std::string Temporary;
  const int Fd =
      createFileExclusively(Directory, "." + std::string(ChromeTraceName) + ".tmp.", Temporary);
  if (Fd < 0) {
    Report.Errno = errno;
    return false;
  }
  JsonOutput Out(Fd);
  std::unordered_map<NodeKey, ChromeRegionText> Texts;
  const auto TextOf = [&](NodeKey Key) -> const ChromeRegionText & {
    auto It = Texts.find(Key);
    if (It == Texts.end())
      It = Texts.emplace(Key, regionText(Key, *Info.Regions)).first;
    return It->second;
  };
  const double UsPerTick = Info.NsPerTick / NsPerMicrosecond;
  const long long Pid = static_cast<long long>(Info.Pid);
  Out.printf("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  Out.printf("{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%lld,\"args\":{\"name\":\"%s\"}}",
             Pid, JsonWriter::escape(Info.Program).c_str());
  bool ReadBack = true;
  // A visit is one complete event (X) with its duration, written when it
  // ends: half the events of a B/E pair, and Perfetto orders them by time.
  std::vector<ChromeRecord> Open;
  const auto Complete = [&](std::uint32_t Tid, const ChromeRecord &Begin, Tick End) {
    const ChromeRegionText &T = TextOf(Begin.Key);
    const double Us = static_cast<double>(Begin.Time - Info.Start) * UsPerTick;
    const double Dur = static_cast<double>(End - Begin.Time) * UsPerTick;
    Out.printf(
        ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%lld,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f%s}",
        T.Name.c_str(), Pid, Tid, Us, Dur, T.Args.c_str());
  };
  for (const auto &T : Threads) {
    Out.printf(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%lld,\"tid\":%u,"
               "\"args\":{\"name\":\"thread %u\"}}",
               Pid, T->Index, T->Index);
    Open.clear();
    Tick Last = Info.Start;
    ReadBack = ReadBack && T->forEach([&](const ChromeRecord &R) {
      Last = R.Time;
      ++Report.Written;
      if (R.Phase == 'B') {
        Open.push_back(R);
      } else if (R.Phase == 'E') {
        // Every location is balanced (the core closes what it pops); an end
        // without its begin would be a bug, and is left out rather than
        // given a made-up start.
        if (!Open.empty()) {
          Complete(T->Index, Open.back(), R.Time);
          Open.pop_back();
        }
      } else {
        const ChromeRegionText &Text = TextOf(R.Key);
        const double Us = static_cast<double>(R.Time - Info.Start) * UsPerTick;
        Out.printf(",\n{\"name\":\"%s\",\"ph\":\"i\",\"pid\":%lld,\"tid\":%u,\"ts\":%.3f,"
                   "\"s\":\"t\"%s}",
                   Text.Name.c_str(), Pid, T->Index, Us, Text.Args.c_str());
      }
    });
    // Not reached for a balanced location; up to its last event otherwise.
    while (!Open.empty()) {
      Complete(T->Index, Open.back(), Last);
      Open.pop_back();
    }
    if (!ReadBack) {
      Report.Errno = errno;
      Report.Failure = T->spillName();
    }
  }
  // Kept for readers of older traces: always 0, a trace that lost events is
  // not written.
  Out.printf("\n],\"otherData\":{\"events_dropped\":0}}\n");
  if (ReadBack && !Out.flush()) {
    Report.Errno = Out.Errno;
    Report.Failure = ChromeTraceName;
  }
  // close() reports a delayed write-back error; rename() can fail on a full
  // directory.
  if (::close(Fd) != 0 && Report.Errno == 0) {
    Report.Errno = errno;
    Report.Failure = ChromeTraceName;
  }
  if (Report.Errno == 0 && std::rename(Temporary.c_str(), Final.c_str()) != 0) {
    Report.Errno = errno;
    Report.Failure = ChromeTraceName;
  }
  if (Report.Errno != 0) {
    ::unlink(Temporary.c_str());
    return false;
  }
  return true;
}

std::vector<TraceReport> ChromeSink::finish(const TraceFinish &Info) {
  TraceReport Report;
  Report.Format = "chrome";
  Report.File = ChromeTraceName;
  Report.Threads = Threads.size();
  for (const auto &T : Threads) {
    Report.Events += T->Received;
    Report.Flushes += T->Flushes;
  }
  if (const std::size_t Busy = busyThreads(Threads, Info.IdleThreads)) {
    // A busy thread may still write its spill file: remove it, but leave
    // its descriptor alone.
    for (const auto &T : Threads)
      T->discard(false);
    Report.Failure = std::to_string(Busy) + " threads were still inside an event";
    return {Report};
  }
  if (Failure.failed()) {
    Report.Errno = Failure.Errno;
    Report.Failure = Failure.File;
  } else if (writeJson(Info, Report)) {
    Report.Complete = true;
  } else {
    Report.Failure = Report.Failure.empty() ? ChromeTraceName : Report.Failure;
  }
  if (!Report.Complete) {
    // Nothing was renamed to trace.json.
    Report.Written = 0;
    Report.Removed = true;
  }
  // The spill files go on every path.
  for (const auto &T : Threads)
    T->discard(true);
  return {Report};
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
