//===- core/Clock.h - The measurement clock ---------------------*- C++ -*-===//
///
/// \file
/// Timestamps are raw ticks of one process-wide clock, read on the hot path
/// and converted to nanoseconds only when the profile is written. The clock is
/// chosen once, at initialisation, by measurement (docs/PERFORMANCE.md):
///
/// - the time stamp counter (rdtsc) when the CPU reports an invariant TSC
///   (CPUID 0x80000007, EDX bit 8), the kernel's clock source vouches for it
///   (classifyKernelClock), a short calibration against CLOCK_MONOTONIC gives
///   a plausible rate, and reading it is cheaper than clock_gettime;
/// - clock_gettime(CLOCK_MONOTONIC) in nanoseconds otherwise.
///
/// The TSC rate is calibrated at initialisation and refined at finalisation
/// over the whole run, so long runs get a rate accurate to a few ppm; a
/// whole-run rate far from the initial one says the TSC jumped (a virtual
/// machine paused, migrated or restored), and the profile says so.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_CORE_CLOCK_H
#define POMP_RUNTIME_CORE_CLOCK_H

#include "core/Config.h"

#include <cstdint>
#include <ctime>
#include <string_view>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define POMP_HAVE_TSC 1
#else
#define POMP_HAVE_TSC 0
#endif

namespace pomp::rt {

/// A raw timestamp of the measurement clock.
using Tick = std::uint64_t;

/// The clocks the library can measure with.
enum class ClockSource : std::uint8_t { Tsc, Monotonic };

/// POMP_CLOCK: auto (measure and choose), tsc, monotonic.
inline constexpr OptionSpec ClockOption = {
    "POMP_CLOCK", OptionType::Choice, "auto", "auto, tsc, monotonic",
    "The measurement clock. auto uses the invariant TSC when the CPU has one, the kernel's clock "
    "source vouches for it (tsc, or kvm-clock read in the vDSO) and reading it is cheaper than "
    "clock_gettime, else CLOCK_MONOTONIC; tsc falls back to monotonic when the CPU has no "
    "invariant TSC."};
inline constexpr OptionSpec ClockOptions[] = {ClockOption};

/// What the initialisation measured, for the profile's header.
struct ClockReport {
  ClockSource Source = ClockSource::Monotonic;
  bool InvariantTsc = false;
  double TicksPerNs = 1.0;
  double TscReadNs = 0.0;       ///< cost of one rdtsc, 0 when not measured
  double MonotonicReadNs = 0.0; ///< cost of one clock_gettime
  std::string_view Reason;      ///< why this source was chosen
  /// The TSC's rate over the whole run relative to its initial calibration,
  /// minus one (0 for monotonic).
  double RateChange = 0.0;
  /// Set when RateChange says the TSC jumped: the durations across the jump
  /// are wrong. Empty otherwise.
  std::string_view Warning;
};

/// What the kernel's clock source says about the TSC.
enum class KernelClock : std::uint8_t {
  Tsc,      ///< the kernel keeps time with the TSC itself
  KvmClock, ///< kvm-clock, served by the vDSO: the hypervisor keeps the TSC stable
  Other,    ///< anything else: the kernel found the TSC unfit, or the host does not vouch for it
};

/// Classifies the kernel's clock source (the first line of sysfs's
/// current_clocksource). kvm-clock is the TSC scaled by the hypervisor, and the
/// kernel lets its vDSO read it only when the host sets the pvclock's
/// TSC-stable bit (the TSC runs at one rate, synchronised across the virtual
/// CPUs); a vDSO clock_gettime costs a fraction of the system call, which
/// is how a process tells (VdsoReadNs against SyscallReadNs). Linux itself
/// prefers the TSC to kvm-clock when the TSC is invariant, unless the command
/// line marks it unstable, as some hosts do for the sake of their snapshots.
KernelClock classifyKernelClock(std::string_view Source, double VdsoReadNs, double SyscallReadNs);

/// Whether the initial calibration, ElapsedNs long, may end: after 50 µs
/// once its error is at most 0.1 % (half the two bracketing reads' widths,
/// BracketTicks, against the SpanTicks between them; a preemption inside a
/// bracket widens it), and after 2 ms in any case. The wait overlaps the read
/// costs' measurements; finalisation converts with the whole run's rate.
bool calibrationComplete(Tick ElapsedNs, Tick BracketTicks, Tick SpanTicks);

/// The whole-run TSC rate relative to the initial calibration, minus one.
double tscRateChange(double InitialTicksPerNs, double WholeRunTicksPerNs);

/// True when a rate change is larger than the calibration's error (its
/// relative error bound, CalibrationError) and jitter could make it: the TSC
/// jumped during the run.
bool tscRateJumped(double RateChange, double CalibrationError = 0.0);

/// The process-wide measurement clock.
class Clock {
public:
  /// Reads the current time in ticks. No system call: rdtsc, or the vDSO's
  /// clock_gettime.
  static Tick now() {
#if POMP_HAVE_TSC
    if (__builtin_expect(UseTsc, 1))
      return __rdtsc();
#endif
    return monotonicNsCall();
  }

  /// True when now() is readTsc().
  static bool isTsc() { return UseTsc; }
  /// The time stamp counter (requires isTsc()): lets a caller that tested
  /// isTsc() anyway read the clock without a second test.
  static Tick readTsc() {
#if POMP_HAVE_TSC
    return __rdtsc();
#else
    return monotonicNs();
#endif
  }

  /// clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
  static Tick monotonicNs() {
    timespec Ts;
    clock_gettime(CLOCK_MONOTONIC, &Ts);
    return static_cast<Tick>(Ts.tv_sec) * NsPerSecond + static_cast<Tick>(Ts.tv_nsec);
  }
  /// monotonicNs() out of line: now()'s other branch, so that the callers
  /// that inline now() keep no timespec on their stack (a frame, and the
  /// registers saved with it, on the TSC path too).
  [[gnu::noinline]] static Tick monotonicNsCall();

  /// Chooses the clock as POMP_CLOCK asks and calibrates it. Called once, at
  /// initialisation, before any event is recorded.
  static ClockReport select(const OptionSource &Options);

  /// Re-measures the tick rate over the interval since select() and returns
  /// the nanoseconds per tick to convert this run's timestamps with.
  static double finishCalibration();

  static const ClockReport &report() { return Report; }
  static std::string_view sourceName(ClockSource Source);

  static constexpr Tick NsPerSecond = 1000000000;

private:
  static inline bool UseTsc = false;
  static inline ClockReport Report;
  static inline Tick CalibrationStartTicks = 0;
  static inline Tick CalibrationStartNs = 0;
  /// The initial calibration's relative error bound (calibrationComplete()):
  /// above 0.1 % only when it ended at its longest.
  static inline double CalibrationError = 0.0;
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_CLOCK_H
