//===- trace/Trace.cpp - Event traces behind the core ---------------------===//

#include "trace/Trace.h"

#include "trace/ChromeTrace.h"
#include "trace/Otf2Trace.h"

#include <algorithm>

namespace pomp::rt {
namespace {

/// Hands every event to two traces (POMP_TRACE_FORMAT=both).
class TeeThreadTrace final : public ThreadTrace {
public:
  TeeThreadTrace(ThreadTrace *First, ThreadTrace *Second) : First(First), Second(Second) {}
  void enter(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) override {
    First->enter(Key, E, Now, Payload);
    Second->enter(Key, E, Now, Payload);
  }
  void closing(NodeKey Key, EventId Closer, Tick Now, std::uint64_t Payload) override {
    First->closing(Key, Closer, Now, Payload);
    Second->closing(Key, Closer, Now, Payload);
  }
  void leave(NodeKey Key, Tick Now) override {
    First->leave(Key, Now);
    Second->leave(Key, Now);
  }
  std::uint32_t createTask(Tick Now) override {
    if (const std::uint32_t Token = First->createTask(Now))
      return Token;
    return Second->createTask(Now);
  }
  void task(TaskRecord What, std::uint64_t Task, Tick Now) override {
    First->task(What, Task, Now);
    Second->task(What, Task, Now);
  }
  void event(NodeKey Key, EventId E, Tick Now, std::uint64_t Payload) override {
    First->event(Key, E, Now, Payload);
    Second->event(Key, E, Now, Payload);
  }

private:
  ThreadTrace *First;
  ThreadTrace *Second;
};

/// Two traces of the same events.
class TeeSink final : public TraceSink {
public:
  TeeSink(std::unique_ptr<TraceSink> First, std::unique_ptr<TraceSink> Second)
      : First(std::move(First)), Second(std::move(Second)) {}

  ThreadTrace *attach(std::uint32_t ThreadIndex) override {
    ThreadTrace *A = First->attach(ThreadIndex);
    ThreadTrace *B = Second->attach(ThreadIndex);
    if (!A || !B)
      return A ? A : B;
    try {
      Threads.push_back(std::make_unique<TeeThreadTrace>(A, B));
      return Threads.back().get();
    } catch (...) {
      return A;
    }
  }

  std::vector<TraceReport> finish(const TraceFinish &Info) override {
    std::vector<TraceReport> Reports = First->finish(Info);
    for (TraceReport &R : Second->finish(Info))
      Reports.push_back(std::move(R));
    return Reports;
  }

private:
  std::unique_ptr<TraceSink> First;
  std::unique_ptr<TraceSink> Second;
  std::vector<std::unique_ptr<TeeThreadTrace>> Threads;
};

} // namespace

TraceSettings readTraceSettings(const OptionSource &Options) {
  TraceSettings S;
  S.Enabled = Options.readBool(TraceOption);
  S.Format = static_cast<TraceFormat>(Options.readChoice(TraceFormatOption));
  S.BufferBytes = Options.readSize(TraceBufferOption);
  return S;
}

std::unique_ptr<TraceSink> openTraceSink(const TraceSettings &Settings,
                                         const std::string &Directory, std::string &Error) {
  switch (Settings.Format) {
  case TraceFormat::Otf2:
    return openOtf2Trace(Settings, Directory, Error);
  case TraceFormat::Chrome:
    return openChromeTrace(Settings, Directory, Error);
  case TraceFormat::Both: {
    std::unique_ptr<TraceSink> Otf2 = openOtf2Trace(Settings, Directory, Error);
    if (!Otf2)
      return nullptr;
    std::unique_ptr<TraceSink> Chrome = openChromeTrace(Settings, Directory, Error);
    if (!Chrome)
      return nullptr;
    return std::make_unique<TeeSink>(std::move(Otf2), std::move(Chrome));
  }
  }
  return nullptr;
}

} // namespace pomp::rt
