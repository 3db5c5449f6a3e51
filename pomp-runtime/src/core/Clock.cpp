//===- core/Clock.cpp - Choosing and calibrating the clock ----------------===//

#include "core/Clock.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#if POMP_HAVE_TSC
#include <cpuid.h>
#endif

namespace pomp::rt {
namespace {

/// Calibration interval at initialisation: long enough that the error of the
/// bracketing clock_gettime reads (tens of ns) stays below 0.01 %, short
/// enough not to delay a program's start noticeably.
constexpr Tick InitialCalibrationNs = 2000000;

/// Reads used to measure the cost of one clock read.
constexpr int CostSamples = 2000;

/// Attempts to bracket a clock_gettime read between two TSC reads tightly.
constexpr int PairAttempts = 8;

/// A TSC rate outside this range (ticks per ns) is not a real TSC rate.
constexpr double MinPlausibleTicksPerNs = 0.1;
constexpr double MaxPlausibleTicksPerNs = 10.0;

/// The kernel's choice of clock source; it rejects a TSC that is not synchronised
/// across CPUs or not stable, which CPUID alone does not tell.
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

/// A (TSC, CLOCK_MONOTONIC) pair read as close together as possible.
struct ClockPair {
  Tick Tsc;
  Tick Ns;
};

ClockPair readPair() {
  ClockPair Best{0, 0};
  Tick BestWidth = ~Tick(0);
  for (int I = 0; I < PairAttempts; ++I) {
    Tick Before = __rdtsc();
    Tick Ns = Clock::monotonicNs();
    Tick After = __rdtsc();
    if (After - Before < BestWidth) {
      BestWidth = After - Before;
      Best = {Before + (After - Before) / 2, Ns};
    }
  }
  return Best;
}

double measureTscReadNs() {
  Tick Start = Clock::monotonicNs();
  Tick Sink = 0;
  for (int I = 0; I < CostSamples; ++I)
    Sink += __rdtsc();
  Tick End = Clock::monotonicNs();
  asm volatile("" : : "r"(Sink));
  return static_cast<double>(End - Start) / CostSamples;
}
#endif

double measureMonotonicReadNs() {
  Tick Start = Clock::monotonicNs();
  Tick Sink = 0;
  for (int I = 0; I < CostSamples; ++I)
    Sink += Clock::monotonicNs();
  Tick End = Clock::monotonicNs();
  asm volatile("" : : "r"(Sink));
  return static_cast<double>(End - Start) / CostSamples;
}

/// False when the kernel exposes a clock source other than the TSC; true when
/// it says "tsc" or the file cannot be read (not Linux, no sysfs).
bool kernelAcceptsTsc() {
  std::FILE *File = std::fopen(ClockSourceFile, "r");
  if (!File)
    return true;
  char Name[ClockSourceNameSize] = {};
  bool Accepted =
      std::fgets(Name, sizeof Name, File) != nullptr && std::strncmp(Name, "tsc", 3) == 0;
  std::fclose(File);
  return Accepted;
}

} // namespace

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
  if (!R.InvariantTsc) {
    R.Reason = "the CPU reports no invariant TSC";
  } else if (Choice == ChoiceAuto && !kernelAcceptsTsc()) {
    R.Reason = "the kernel does not use the TSC as its clock source";
  } else {
    ClockPair Start = readPair();
    while (Clock::monotonicNs() - Start.Ns < InitialCalibrationNs) {
    }
    ClockPair End = readPair();
    double Rate = static_cast<double>(End.Tsc - Start.Tsc) / static_cast<double>(End.Ns - Start.Ns);
    R.TscReadNs = measureTscReadNs();
    if (Rate < MinPlausibleTicksPerNs || Rate > MaxPlausibleTicksPerNs) {
      R.Reason = "the TSC calibration gave an implausible rate";
    } else if (Choice == ChoiceAuto && R.TscReadNs >= R.MonotonicReadNs) {
      R.Reason = "reading the TSC is not cheaper than clock_gettime";
    } else {
      R.Source = ClockSource::Tsc;
      R.TicksPerNs = Rate;
      R.Reason =
          Choice == ChoiceTsc ? "POMP_CLOCK=tsc" : "invariant TSC, cheaper than clock_gettime";
      CalibrationStartTicks = Start.Tsc;
      CalibrationStartNs = Start.Ns;
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
    // Over a longer interval than the initial one the same read jitter weighs
    // less; over a shorter one keep the initial rate.
    if (End.Ns - CalibrationStartNs > InitialCalibrationNs && End.Tsc > CalibrationStartTicks)
      Report.TicksPerNs = static_cast<double>(End.Tsc - CalibrationStartTicks) /
                          static_cast<double>(End.Ns - CalibrationStartNs);
  }
#endif
  return 1.0 / Report.TicksPerNs;
}

} // namespace pomp::rt
