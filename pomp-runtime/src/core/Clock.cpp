//===- core/Clock.cpp - Choosing and calibrating the clock ----------------===//

#include "core/Clock.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <sys/syscall.h>
#include <unistd.h>

#if POMP_HAVE_TSC
#include <cpuid.h>
#endif

namespace pomp::rt {

Tick Clock::monotonicNsCall() { return monotonicNs(); }

namespace {

/// The initial calibration's interval: it only has to tell a jump of the TSC
/// (TscJumpThreshold) from its own error, since finalisation converts the
/// run's ticks with the rate over the whole run. It overlaps the read costs'
/// measurements, so initialisation waits for the rest only (it waited 2 ms
/// until session 28: PERFORMANCE.md).
constexpr Tick InitialCalibrationNs = 50000;

/// The initial calibration goes on past InitialCalibrationNs until its error,
/// the bracketing reads' half-widths over the ticks between them, is at most
/// this (a preemption inside a bracket widens it), up to MaxCalibrationNs.
constexpr double CalibrationErrorBound = 0.001;
constexpr Tick MaxCalibrationNs = 2000000;

/// The cost of one clock read is the fastest of CostBatches batches of
/// CostBatchReads reads (12 and 5 µs of initialisation here in all): a
/// preemption or an interrupt only ever adds time, and one that hit a single
/// timed loop once made the TSC look dearer than clock_gettime, a run's every
/// event then taking the general path.
constexpr int CostBatches = 10;
constexpr int CostBatchReads = 50;

/// System calls timed to tell a vDSO clock_gettime from one that falls back to
/// the kernel: few, since each costs a microsecond under a hypervisor (the
/// fastest of 16 is inflated only if a preemption hit every one).
constexpr int SyscallSamples = 16;

/// A vDSO read costs at most this fraction of the system call's (measured:
/// 26 ns against 1,159 ns under kvm-clock; on bare metal some 20 against 100).
constexpr double VdsoFractionOfSyscall = 0.5;

/// A whole-run TSC rate this far from the initial calibration, beyond the
/// calibration's own error, is no jitter: that error is at most
/// CalibrationErrorBound, unless preemptions inside the brackets kept it
/// larger until MaxCalibrationNs.
constexpr double TscJumpThreshold = 0.01;

/// Attempts to bracket a clock_gettime read between two TSC reads tightly.
constexpr int PairAttempts = 8;

/// A TSC rate outside this range (ticks per ns) is not a real TSC rate.
constexpr double MinPlausibleTicksPerNs = 0.1;
constexpr double MaxPlausibleTicksPerNs = 10.0;

/// The kernel's choice of clock source; it rejects a TSC that is not synchronised
/// across CPUs or not stable, which CPUID alone does not tell (classifyKernelClock).
constexpr const char *ClockSourceFile =
    "/sys/devices/system/clocksource/clocksource0/current_clocksource";

/// Longer than any clock source name the kernel reports.
constexpr int ClockSourceNameSize = 32;

enum ClockChoice : std::size_t { ChoiceAuto = 0, ChoiceTsc = 1, ChoiceMonotonic = 2 };

#if POMP_HAVE_TSC
/// CPUID leaf 0x80000007 (advanced power management), EDX bit 8: the TSC runs
/// at a constant rate in every P-, C- and T-state.
constexpr unsigned PowerManagementLeaf = 0x80000007u;
constexpr unsigned InvariantTscBit = 1u << 8;

bool cpuHasInvariantTsc() {
  unsigned Eax = 0, Ebx = 0, Ecx = 0, Edx = 0;
  if (__get_cpuid_max(0x80000000u, nullptr) < PowerManagementLeaf)
    return false;
  if (!__get_cpuid(PowerManagementLeaf, &Eax, &Ebx, &Ecx, &Edx))
    return false;
  return (Edx & InvariantTscBit) != 0;
}

/// A (TSC, CLOCK_MONOTONIC) pair read as close together as possible, and the
/// ticks between the TSC reads that bracket the clock_gettime.
struct ClockPair {
  Tick Tsc;
  Tick Ns;
  Tick Width;
};

ClockPair readPair() {
  ClockPair Best{0, 0, ~Tick(0)};
  for (int I = 0; I < PairAttempts; ++I) {
    Tick Before = __rdtsc();
    Tick Ns = Clock::monotonicNs();
    Tick After = __rdtsc();
    if (After - Before < Best.Width)
      Best = {Before + (After - Before) / 2, Ns, After - Before};
  }
  return Best;
}

/// A calibration's relative error: half the two bracketing reads' widths,
/// BracketTicks, against the SpanTicks between them.
double calibrationError(Tick BracketTicks, Tick SpanTicks) {
  return static_cast<double>(BracketTicks) / 2.0 / static_cast<double>(SpanTicks);
}

/// Reads the calibration's end pair once calibrationComplete() says so.
ClockPair endCalibration(const ClockPair &Start) {
  for (;;) {
    const ClockPair End = readPair();
    if (calibrationComplete(End.Ns - Start.Ns, Start.Width + End.Width,
                            End.Tsc > Start.Tsc ? End.Tsc - Start.Tsc : 0))
      return End;
  }
}

#endif

/// The cost of one Read(): the mean of the fastest batch (CostBatches).
template <typename ReadFn> double fastestBatchReadNs(ReadFn Read) {
  Tick Fastest = ~Tick(0);
  for (int B = 0; B < CostBatches; ++B) {
    Tick Sink = 0;
    const Tick Start = Clock::monotonicNs();
    for (int I = 0; I < CostBatchReads; ++I)
      Sink += Read();
    const Tick Elapsed = Clock::monotonicNs() - Start;
    asm volatile("" : : "r"(Sink));
    Fastest = std::min(Fastest, Elapsed);
  }
  return static_cast<double>(Fastest) / CostBatchReads;
}

#if POMP_HAVE_TSC
double measureTscReadNs() {
  return fastestBatchReadNs([] { return static_cast<Tick>(__rdtsc()); });
}
#endif

double measureMonotonicReadNs() { return fastestBatchReadNs(Clock::monotonicNs); }

/// The cost of one clock_gettime(CLOCK_MONOTONIC) through the system call,
/// bypassing the vDSO: the fastest of a few, each timed by itself, since a
/// preemption only ever adds time and an inflated cost would make a slow vDSO
/// read look cheap against it.
double measureSyscallReadNs() {
  Tick Fastest = ~Tick(0);
  timespec Ts;
  for (int I = 0; I < SyscallSamples; ++I) {
    const Tick Start = Clock::monotonicNs();
    ::syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &Ts);
    Fastest = std::min(Fastest, Clock::monotonicNs() - Start);
  }
  return static_cast<double>(Fastest);
}

/// The kernel's clock source name, "tsc" when it cannot be read (not Linux,
/// no sysfs): then CPUID's word stands alone.
std::string kernelClockSource() {
  std::FILE *File = std::fopen(ClockSourceFile, "r");
  if (!File)
    return "tsc";
  char Name[ClockSourceNameSize] = {};
  const bool Read = std::fgets(Name, sizeof Name, File) != nullptr;
  std::fclose(File);
  if (!Read)
    return "";
  std::string Source(Name);
  while (!Source.empty() && (Source.back() == '\n' || Source.back() == ' '))
    Source.pop_back();
  return Source;
}

/// What the kernel's clock source says about the TSC; times system calls only
/// under kvm-clock, where the answer depends on them.
KernelClock kernelClock(double VdsoReadNs) {
  const std::string Source = kernelClockSource();
  return classifyKernelClock(Source, VdsoReadNs,
                             Source == "kvm-clock" ? measureSyscallReadNs() : 0.0);
}

} // namespace

KernelClock classifyKernelClock(std::string_view Source, double VdsoReadNs, double SyscallReadNs) {
  if (Source == "tsc")
    return KernelClock::Tsc;
  if (Source == "kvm-clock" && VdsoReadNs > 0.0 && SyscallReadNs > 0.0 &&
      VdsoReadNs <= VdsoFractionOfSyscall * SyscallReadNs)
    return KernelClock::KvmClock;
  return KernelClock::Other;
}

bool calibrationComplete(Tick ElapsedNs, Tick BracketTicks, Tick SpanTicks) {
  if (ElapsedNs >= MaxCalibrationNs)
    return true;
  return ElapsedNs >= InitialCalibrationNs && SpanTicks > 0 &&
         calibrationError(BracketTicks, SpanTicks) <= CalibrationErrorBound;
}

double tscRateChange(double InitialTicksPerNs, double WholeRunTicksPerNs) {
  return InitialTicksPerNs > 0.0 ? WholeRunTicksPerNs / InitialTicksPerNs - 1.0 : 0.0;
}

bool tscRateJumped(double RateChange, double CalibrationError) {
  return std::fabs(RateChange) > TscJumpThreshold + CalibrationError;
}

std::string_view Clock::sourceName(ClockSource Source) {
  return Source == ClockSource::Tsc ? "tsc" : "monotonic";
}

ClockReport Clock::select(const OptionSource &Options) {
  ClockReport R;
  R.MonotonicReadNs = measureMonotonicReadNs();
  const std::size_t Choice = Options.readChoice(ClockOption);
  UseTsc = false;
  R.Source = ClockSource::Monotonic;
  R.TicksPerNs = 1.0;
  if (Choice == ChoiceMonotonic) {
    R.Reason = "POMP_CLOCK=monotonic";
    Report = R;
    return R;
  }
#if POMP_HAVE_TSC
  R.InvariantTsc = cpuHasInvariantTsc();
  // The calibration's interval starts before the kernel's clock is asked and
  // the TSC's read cost measured: they take part of it.
  const ClockPair Start = readPair();
  const KernelClock Kernel =
      R.InvariantTsc && Choice == ChoiceAuto ? kernelClock(R.MonotonicReadNs) : KernelClock::Tsc;
  if (!R.InvariantTsc) {
    R.Reason = "the CPU reports no invariant TSC";
  } else if (Kernel == KernelClock::Other) {
    R.Reason = "the kernel's clock source is neither the TSC nor kvm-clock read in the vDSO";
  } else {
    R.TscReadNs = measureTscReadNs();
    const ClockPair End = endCalibration(Start);
    double Rate = static_cast<double>(End.Tsc - Start.Tsc) / static_cast<double>(End.Ns - Start.Ns);
    if (Rate < MinPlausibleTicksPerNs || Rate > MaxPlausibleTicksPerNs) {
      R.Reason = "the TSC calibration gave an implausible rate";
    } else if (Choice == ChoiceAuto && R.TscReadNs >= R.MonotonicReadNs) {
      R.Reason = "reading the TSC is not cheaper than clock_gettime";
    } else {
      R.Source = ClockSource::Tsc;
      R.TicksPerNs = Rate;
      R.Reason = Choice == ChoiceTsc               ? "POMP_CLOCK=tsc"
                 : Kernel == KernelClock::KvmClock ? "invariant TSC, kept stable by the hypervisor "
                                                     "(kvm-clock in the vDSO), cheaper than "
                                                     "clock_gettime"
                                                   : "invariant TSC, cheaper than clock_gettime";
      CalibrationStartTicks = Start.Tsc;
      CalibrationStartNs = Start.Ns;
      CalibrationError = calibrationError(Start.Width + End.Width, End.Tsc - Start.Tsc);
      UseTsc = true;
    }
  }
#else
  R.Reason = "no TSC on this architecture";
#endif
  Report = R;
  return R;
}

double Clock::finishCalibration() {
#if POMP_HAVE_TSC
  if (UseTsc) {
    ClockPair End = readPair();
    // The whole run holds the initial calibration's interval: the same read
    // jitter weighs less over it.
    if (End.Ns > CalibrationStartNs && End.Tsc > CalibrationStartTicks) {
      const double WholeRun = static_cast<double>(End.Tsc - CalibrationStartTicks) /
                              static_cast<double>(End.Ns - CalibrationStartNs);
      Report.RateChange = tscRateChange(Report.TicksPerNs, WholeRun);
      Report.TicksPerNs = WholeRun;
    }
    if (tscRateJumped(Report.RateChange, CalibrationError) || End.Tsc <= CalibrationStartTicks)
      Report.Warning = "the TSC jumped during the run (its rate over the run differs from its "
                       "calibration): the durations across the jump are wrong; "
                       "POMP_CLOCK=monotonic avoids it";
  }
#endif
  return 1.0 / Report.TicksPerNs;
}

} // namespace pomp::rt
