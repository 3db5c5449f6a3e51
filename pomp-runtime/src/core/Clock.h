//===- core/Clock.h - The measurement clock ---------------------*- C++ -*-===//
///
/// \file
/// Timestamps are raw ticks of one process-wide clock, read on the hot path
/// and converted to nanoseconds only when the profile is written. The clock is
/// chosen once, at initialisation, by measurement (docs/PERFORMANCE.md):
///
/// - the time stamp counter (rdtsc) when the CPU reports an invariant TSC
///   (CPUID 0x80000007, EDX bit 8), the kernel has not rejected it as a clock
///   source, a short calibration against CLOCK_MONOTONIC gives a plausible
///   rate, and reading it is cheaper than clock_gettime;
/// - clock_gettime(CLOCK_MONOTONIC) in nanoseconds otherwise.
///
/// The TSC rate is calibrated at initialisation and refined at finalisation
/// over the whole run, so long runs get a rate accurate to a few ppm.
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
    "The measurement clock. auto uses the invariant TSC when the CPU has one and reading it is "
    "cheaper than clock_gettime, else CLOCK_MONOTONIC; tsc falls back to monotonic when the CPU "
    "has no invariant TSC."};
inline constexpr OptionSpec ClockOptions[] = {ClockOption};

/// What the initialisation measured, for the profile's header.
struct ClockReport {
  ClockSource Source = ClockSource::Monotonic;
  bool InvariantTsc = false;
  double TicksPerNs = 1.0;
  double TscReadNs = 0.0;       ///< cost of one rdtsc, 0 when not measured
  double MonotonicReadNs = 0.0; ///< cost of one clock_gettime
  std::string_view Reason;      ///< why this source was chosen
};

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
    return monotonicNs();
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
};

} // namespace pomp::rt

#endif // POMP_RUNTIME_CORE_CLOCK_H
