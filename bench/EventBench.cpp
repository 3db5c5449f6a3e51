//===- EventBench.cpp - Per-event cost of libpomp -------------------------===//
///
/// \file
/// The cost of each kind of POMP event with the library recording it
/// ("active"), with monitoring off (POMP_Off, "off") and with its group's
/// level at none ("group_none"), next to the cost of one bare clock read in
/// the same run. The summary at the end states each kind's cost in bare clock
/// reads; the goal is an enter/exit pair in profile mode for at most three.
///
/// With POMP_TRACE=1 in the environment the same benchmarks measure an event
/// written to the trace as well (docs/PERFORMANCE.md, "Tracing").
///
/// Built twice: linked with libpomp.a, where the library's own clock read is
/// measured, and with libpomp.so, as programs normally link it (a PLT call per
/// event). docs/PERFORMANCE.md holds the measured tables and the command line
/// (repetitions in random order; the summary takes each one's fastest).
///
//===----------------------------------------------------------------------===//

#include "pomplib.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <utility>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>
#include <x86intrin.h>

#ifdef POMP_BENCH_STATIC
#include "core/Clock.h"
#endif

namespace {

/// A CTC string with the inclusive length prefix.
std::string ctc(const std::string &Fields) {
  const std::string Body = "*" + Fields + "**";
  return std::to_string(Body.size()) + Body;
}

/// Handles bound before the benchmarks, as pomp-link's POMP_Init_Handles does.
struct Handles {
  POMP_Handle_t User = 0, Function = 0, Loop = 0, Barrier = 0, Critical = 0, Lock = 0, Task = 0,
                Parallel = 0, Atomic = 0, Iter = 0, Runtime = 0, Single = 0, SingleBarrier = 0;
  /// fib's two tasks and taskwait, once unmarked and once as ompinst marks
  /// the constructs written right after another (afterConstruct=1).
  POMP_Handle_t PairFirst = 0, PairSecond = 0, PairWait = 0, MarkedFirst = 0, MarkedSecond = 0,
                MarkedWait = 0;
  /// The task of a loop whose body is one task and the single of a loop whose
  /// body is one single, marked as ompinst marks them.
  POMP_Handle_t LoopTask = 0, LoopSingle = 0;
  POMP_Context_t Fork = 0;
} H;

void bindHandles() {
  POMP_Get_handle(&H.User, ctc("type=userregion*name=u*file=bench.cpp*slines=1,1").c_str());
  POMP_Get_handle(&H.Function, ctc("type=function*name=f*file=bench.cpp*slines=2,2").c_str());
  POMP_Get_handle(&H.Loop, ctc("type=for*file=bench.cpp*slines=3,3").c_str());
  POMP_Get_handle(&H.Barrier, ctc("type=barrier*file=bench.cpp*slines=4,4").c_str());
  POMP_Get_handle(&H.Critical, ctc("type=critical*file=bench.cpp*slines=5,5").c_str());
  POMP_Get_handle(&H.Lock, ctc("type=setlock*file=bench.cpp*slines=6,6").c_str());
  POMP_Get_handle(&H.Task, ctc("type=task*file=bench.cpp*slines=7,7").c_str());
  POMP_Get_handle(&H.Parallel, ctc("type=parallel*file=bench.cpp*slines=8,8").c_str());
  POMP_Get_handle(&H.Atomic, ctc("type=atomic*file=bench.cpp*slines=9,9").c_str());
  POMP_Get_handle(&H.Iter, ctc("type=for*file=bench.cpp*slines=10,10").c_str());
  POMP_Get_handle(&H.Runtime, ctc("type=function*name=omp_set_num_threads*file=b.cpp").c_str());
  POMP_Get_handle(&H.Single, ctc("type=single*file=bench.cpp*slines=11,11").c_str());
  POMP_Get_handle(&H.SingleBarrier,
                  ctc("type=implicitbarrier*file=bench.cpp*slines=11,11").c_str());
  POMP_Get_handle(&H.PairFirst, ctc("type=task*file=bench.cpp*slines=12,12").c_str());
  POMP_Get_handle(&H.PairSecond, ctc("type=task*file=bench.cpp*slines=13,13").c_str());
  POMP_Get_handle(&H.PairWait, ctc("type=taskwait*file=bench.cpp*slines=14,14").c_str());
  POMP_Get_handle(&H.MarkedFirst, ctc("type=task*file=bench.cpp*slines=15,15").c_str());
  POMP_Get_handle(&H.MarkedSecond,
                  ctc("type=task*file=bench.cpp*slines=16,16*afterConstruct=1").c_str());
  POMP_Get_handle(&H.MarkedWait,
                  ctc("type=taskwait*file=bench.cpp*slines=17,17*afterConstruct=1").c_str());
  POMP_Get_handle(&H.LoopTask,
                  ctc("type=task*file=bench.cpp*slines=18,18*afterConstruct=1").c_str());
  POMP_Get_handle(&H.LoopSingle,
                  ctc("type=single*file=bench.cpp*slines=19,19*afterConstruct=1").c_str());
}

// The event sequences, one per kind, as instrumented code issues them.
void userRegion() {
  POMP_User_region_begin(&H.User, 0, nullptr);
  POMP_User_region_end(H.User, 0);
}
void function() {
  POMP_Function_enter(&H.Function, 0, nullptr);
  POMP_Function_exit(H.Function, 0);
}
void loop() {
  POMP_Loop_enter(&H.Loop, 0, 1, 0, 99, 1, nullptr);
  POMP_Loop_exit(H.Loop, 0);
}
void barrier() {
  POMP_Barrier_enter(&H.Barrier, 0, nullptr);
  POMP_Barrier_exit(H.Barrier, 0);
}
void critical() {
  POMP_Critical_enter(&H.Critical, 0, nullptr);
  POMP_Critical_begin(H.Critical, 0);
  POMP_Critical_end(H.Critical, 0);
  POMP_Critical_exit(H.Critical, 0);
}
void setLock() {
  POMP_Set_lock_enter(&H.Lock, 0, 1, nullptr);
  POMP_Set_lock_exit(H.Lock, 0, 1);
}
void parallelBody() {
  POMP_Parallel_begin_forked(H.Parallel, 0, H.Fork);
  POMP_Parallel_end(H.Parallel, 0);
}
void task() {
  POMP_Context_t Task;
  POMP_Task_create_enter(&H.Task, 0, 1, &Task, nullptr);
  POMP_Task_begin(H.Task, 0, Task);
  POMP_Task_end(H.Task, 0);
  POMP_Task_create_exit(H.Task, 0);
}
/// A task run where it is created: the four events in the order the creating
/// thread makes them for an undeferred task, with the form of the creation
/// that returns the context, which instrumented code calls
/// (pomp_context_forms.h).
void taskRunAtOnce(POMP_Handle_t *Handle) {
  const POMP_Context_t Task = POMP_Task_create_enter_ctx(Handle, 0, 1, nullptr);
  POMP_Task_begin(*Handle, 0, Task);
  POMP_Task_end(*Handle, 0);
  POMP_Task_create_exit(*Handle, 0);
}
/// task() with the form that returns the context.
void taskContextForm() { taskRunAtOnce(&H.Task); }
/// The same repeated by a loop that ompinst marks: each creation's enter
/// takes the exit time of the creation before it.
void taskInALoop() { taskRunAtOnce(&H.LoopTask); }
/// A single construct as ompinst writes it, its implicit barrier made
/// explicit: the construct's exit follows the barrier's exit at once.
void singleWithBarrierOf(POMP_Handle_t *Single) {
  POMP_Single_enter(Single, 0, nullptr);
  POMP_Single_begin(*Single, 0);
  POMP_Single_end(*Single, 0);
  POMP_Implicit_barrier_enter(&H.SingleBarrier, 0, nullptr);
  POMP_Implicit_barrier_exit(H.SingleBarrier, 0);
  POMP_Single_exit(*Single, 0);
}
void singleWithBarrier() { singleWithBarrierOf(&H.Single); }
/// The same repeated by a loop that ompinst marks (EPCC's SINGLE): each
/// single's enter takes the exit time of the single before it.
void singleInALoop() { singleWithBarrierOf(&H.LoopSingle); }
/// fib's body: two tasks and a taskwait. Marked, the second task's and the
/// taskwait's enters take the exit time of the construct before them.
template <bool Marked> void tasksThenTaskwait() {
  taskRunAtOnce(Marked ? &H.MarkedFirst : &H.PairFirst);
  taskRunAtOnce(Marked ? &H.MarkedSecond : &H.PairSecond);
  POMP_Handle_t *Wait = Marked ? &H.MarkedWait : &H.PairWait;
  POMP_Taskwait_enter(Wait, 0, nullptr);
  POMP_Taskwait_exit(*Wait, 0);
}
void atomic() { POMP_Atomic_event(&H.Atomic, 0, nullptr); }
void loopIteration() { POMP_Loop_iter_event(H.Iter, 0, 1); }
void setNumThreads() { POMP_Set_num_threads_event(&H.Runtime, 0, 2, nullptr); }

/// Sequences per benchmark iteration: the benchmark loop's own cost, a few
/// ns, is spread over them.
constexpr int Repeat = 16;

template <void (*Sequence)()> void repeated() {
  for (int I = 0; I < Repeat; ++I)
    Sequence();
}

/// One kind of event sequence: a pair of events, a construct's four, or a
/// single event.
struct Kind {
  std::string Name;
  int Events;
  POMP_Group Group;
  /// The level at which the kind's events fire.
  POMP_Level Level;
  void (*RunRepeated)();
};

std::vector<Kind> kinds() {
  return {
      {"user_region_begin_end", 2, POMP_GROUP_USER, POMP_LEVEL_BEGINEND, repeated<userRegion>},
      {"function_enter_exit", 2, POMP_GROUP_USER, POMP_LEVEL_ENTEREXIT, repeated<function>},
      {"loop_enter_exit", 2, POMP_GROUP_LOOP, POMP_LEVEL_ENTEREXIT, repeated<loop>},
      {"barrier_enter_exit", 2, POMP_GROUP_SYNC, POMP_LEVEL_BEGINEND, repeated<barrier>},
      {"critical_enter_begin_end_exit", 4, POMP_GROUP_SYNC, POMP_LEVEL_BEGINEND,
       repeated<critical>},
      {"set_lock_enter_exit", 2, POMP_GROUP_RUNTIME, POMP_LEVEL_ENTEREXIT, repeated<setLock>},
      {"parallel_begin_end_forked", 2, POMP_GROUP_PARALLEL, POMP_LEVEL_BEGINEND,
       repeated<parallelBody>},
      {"task_create_begin_end_exit", 4, POMP_GROUP_TASK, POMP_LEVEL_BEGINEND, repeated<task>},
      {"task_create_ctx_begin_end_exit", 4, POMP_GROUP_TASK, POMP_LEVEL_BEGINEND,
       repeated<taskContextForm>},
      // The same marked afterConstruct=1, as ompinst writes a loop of tasks: a read fewer.
      {"task_loop_marked", 4, POMP_GROUP_TASK, POMP_LEVEL_BEGINEND, repeated<taskInALoop>},
      // group_none turns off the single's events only, not its barrier's.
      {"single_with_barrier", 6, POMP_GROUP_WORKSHARE, POMP_LEVEL_BEGINEND,
       repeated<singleWithBarrier>},
      // The same marked afterConstruct=1, as ompinst writes a loop of singles: a read fewer.
      {"single_loop_marked", 6, POMP_GROUP_WORKSHARE, POMP_LEVEL_BEGINEND, repeated<singleInALoop>},
      {"tasks_then_taskwait", 10, POMP_GROUP_TASK, POMP_LEVEL_BEGINEND,
       repeated<tasksThenTaskwait<false>>},
      // The same marked afterConstruct=1, as ompinst writes fib's: two reads fewer.
      {"tasks_then_taskwait_marked", 10, POMP_GROUP_TASK, POMP_LEVEL_BEGINEND,
       repeated<tasksThenTaskwait<true>>},
      {"atomic_event", 1, POMP_GROUP_SYNC, POMP_LEVEL_BEGINEND, repeated<atomic>},
      {"loop_iter_event", 1, POMP_GROUP_LOOP, POMP_LEVEL_ITEREVENT, repeated<loopIteration>},
      {"set_num_threads_event", 1, POMP_GROUP_RUNTIME, POMP_LEVEL_EVENT, repeated<setNumThreads>},
  };
}

enum class Mode { Active, Off, GroupNone };
constexpr const char *ModeNames[] = {"active", "off", "group_none"};

void runKind(benchmark::State &State, const Kind &K, Mode M) {
  int32_t Saved = POMP_LEVEL_NONE;
  POMP_Get_level(K.Group, &Saved);
  POMP_Set_level(K.Group, M == Mode::GroupNone ? POMP_LEVEL_NONE : K.Level);
  if (M == Mode::Off)
    POMP_Off();
  // Loop_iter_event needs an open loop to count under, as in a real loop.
  const bool InLoop = K.Name == "loop_iter_event";
  if (InLoop)
    POMP_Loop_enter(&H.Iter, 0, 1, 0, 99, 1, nullptr);
  if (K.Name == "parallel_begin_end_forked")
    POMP_Parallel_fork(&H.Parallel, 0, 1, 1, &H.Fork, nullptr);
  for (auto _ : State)
    K.RunRepeated();
  if (K.Name == "parallel_begin_end_forked")
    POMP_Parallel_exit(H.Parallel, 0);
  if (InLoop)
    POMP_Loop_exit(H.Iter, 0);
  POMP_On();
  POMP_Set_level(K.Group, Saved);
  // Time per sequence and per event, in seconds (printed with an SI prefix:
  // 12.3n is 12.3 ns).
  State.counters["per_sequence"] = benchmark::Counter(
      Repeat, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  State.counters["per_event"] =
      benchmark::Counter(Repeat * K.Events, benchmark::Counter::kIsIterationInvariantRate |
                                                benchmark::Counter::kInvert);
}

void clockRdtsc(benchmark::State &State) {
  for (auto _ : State)
    for (int I = 0; I < Repeat; ++I)
      benchmark::DoNotOptimize(__rdtsc());
}

void clockMonotonic(benchmark::State &State) {
  timespec Ts;
  for (auto _ : State)
    for (int I = 0; I < Repeat; ++I) {
      clock_gettime(CLOCK_MONOTONIC, &Ts);
      benchmark::DoNotOptimize(Ts);
    }
}

/// The least any profiler must do for an enter/exit pair: two clock reads, a
/// stack frame, and the visit, inclusive, exclusive, minimum and maximum of a
/// node; no thread lookup, no checks. The reference that shows how much of a
/// pair's cost is the clock.
struct MinimalNode {
  std::uint64_t Visits = 0, Inclusive = 0, Exclusive = 0, Min = ~std::uint64_t(0), Max = 0;
};
struct MinimalFrame {
  MinimalNode *Node;
  std::uint64_t Start, Children;
};
MinimalFrame MinimalStack[Repeat];
MinimalFrame *MinimalTop = MinimalStack;
MinimalNode MinimalRegion;

__attribute__((noinline)) void minimalEnter(MinimalNode *N) { *MinimalTop++ = {N, __rdtsc(), 0}; }
__attribute__((noinline)) void minimalExit() {
  const std::uint64_t Now = __rdtsc();
  const MinimalFrame F = *--MinimalTop;
  const std::uint64_t Duration = Now - F.Start;
  MinimalNode &N = *F.Node;
  ++N.Visits;
  N.Inclusive += Duration;
  N.Exclusive += Duration - F.Children;
  N.Min = Duration < N.Min ? Duration : N.Min;
  N.Max = Duration > N.Max ? Duration : N.Max;
}

void minimalPair(benchmark::State &State) {
  for (auto _ : State)
    for (int I = 0; I < Repeat; ++I) {
      minimalEnter(&MinimalRegion);
      minimalExit();
    }
  State.counters["per_sequence"] = benchmark::Counter(
      Repeat, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

#ifdef POMP_BENCH_STATIC
void clockLibrary(benchmark::State &State) {
  for (auto _ : State)
    for (int I = 0; I < Repeat; ++I)
      benchmark::DoNotOptimize(pomp::rt::Clock::now());
}
#endif

double minimum(const std::vector<double> &Values) {
  return Values.empty() ? 0.0 : *std::min_element(Values.begin(), Values.end());
}

/// Registers a benchmark with a "min" statistic over its repetitions.
template <typename Fn> void add(const std::string &Name, Fn &&F) {
  benchmark::RegisterBenchmark(Name.c_str(), std::forward<Fn>(F))
      ->ComputeStatistics("min", minimum);
}

/// Prints the usual table and remembers each benchmark's CPU time per
/// iteration for the summary in bare clock reads. CPU time, because on a
/// shared machine the wall-clock time also counts the time the process waited
/// for a core.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    // With repetitions, the fastest repetition of each benchmark: noise on a
    // shared machine only ever adds time. Else its only run.
    for (const Run &R : Runs) {
      if (R.error_occurred)
        continue;
      const std::string Name = R.run_name.str();
      if (R.run_type == Run::RT_Aggregate && R.aggregate_name == "min") {
        Times[Name] = R.GetAdjustedCPUTime();
        Minimums.insert(Name);
      } else if (R.run_type == Run::RT_Iteration && !Minimums.count(Name)) {
        Times[Name] = R.GetAdjustedCPUTime();
      }
    }
  }
  std::map<std::string, double> Times;
  std::set<std::string> Minimums;
};

} // namespace

int main(int Argc, char **Argv) {
  // The profile this run writes is not what the benchmark is about.
  const std::string Dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                          "/pomp-event-bench-" + std::to_string(::getpid());
  ::setenv("POMP_EXPERIMENT_DIR", Dir.c_str(), 0);
  ::setenv("POMP_QUIET", "1", 0);

  benchmark::Initialize(&Argc, Argv);
  POMP_Init();
  bindHandles();

#ifdef POMP_BENCH_STATIC
  const char *BareClock = "clock/library";
  add(BareClock, clockLibrary);
#else
  const char *BareClock = "clock/rdtsc";
#endif
  add("clock/rdtsc", clockRdtsc);
  add("clock/clock_gettime", clockMonotonic);
  add("reference/minimal_enter_exit", minimalPair);
  const std::vector<Kind> All = kinds();
  for (const Kind &K : All)
    for (Mode M : {Mode::Active, Mode::Off, Mode::GroupNone})
      add(K.Name + "/" + ModeNames[static_cast<int>(M)],
          [&K, M](benchmark::State &State) { runKind(State, K, M); });

  SummaryReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);

  const auto Clock = Reporter.Times.find(BareClock);
  if (Clock != Reporter.Times.end() && Clock->second > 0) {
    const double ClockNs = Clock->second / Repeat;
    std::printf("\nPer sequence, in bare clock reads (%s = %.2f ns a read):\n", BareClock, ClockNs);
    const auto Minimal = Reporter.Times.find("reference/minimal_enter_exit");
    if (Minimal != Reporter.Times.end())
      std::printf("  %-32s %-10s %6.2f ns = %5.2f reads (2 events)\n", "minimal_enter_exit",
                  "reference", Minimal->second / Repeat, Minimal->second / Repeat / ClockNs);
    for (const Kind &K : All)
      for (Mode M : {Mode::Active, Mode::Off, Mode::GroupNone}) {
        const auto T = Reporter.Times.find(K.Name + "/" + ModeNames[static_cast<int>(M)]);
        if (T != Reporter.Times.end())
          std::printf("  %-32s %-10s %6.2f ns = %5.2f reads (%d events)\n", K.Name.c_str(),
                      ModeNames[static_cast<int>(M)], T->second / Repeat,
                      T->second / Repeat / ClockNs, K.Events);
      }
  }
  POMP_Finalize();
  // The directory is this process's own (its pid in the name); with POMP_TRACE=1 it also holds a
  // trace.
  std::filesystem::remove_all(Dir);
  return 0;
}
