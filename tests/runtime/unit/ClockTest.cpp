//===- ClockTest.cpp - When the TSC is trusted, and when it jumped --------===//

#include "core/Clock.h"

#include <gtest/gtest.h>

namespace pomp::rt::test {
namespace {

// The read costs this VM measured: the vDSO's kvm-clock read, and the same
// clock_gettime as a system call with page-table isolation.
constexpr double VdsoNs = 26.1;
constexpr double SyscallNs = 1158.8;

TEST(ClockTest, TheKernelsOwnTscIsTrusted) {
  EXPECT_EQ(classifyKernelClock("tsc", VdsoNs, 0.0), KernelClock::Tsc);
  EXPECT_EQ(classifyKernelClock("tsc", VdsoNs, SyscallNs), KernelClock::Tsc);
}

TEST(ClockTest, KvmClockIsTrustedOnlyWhenTheVdsoServesIt) {
  EXPECT_EQ(classifyKernelClock("kvm-clock", VdsoNs, SyscallNs), KernelClock::KvmClock);
  // Without the host's TSC-stable bit the vDSO falls back to the system call:
  // both cost the same, and the TSC may differ between virtual CPUs.
  EXPECT_EQ(classifyKernelClock("kvm-clock", 1100.0, SyscallNs), KernelClock::Other);
  EXPECT_EQ(classifyKernelClock("kvm-clock", 600.0, 1000.0), KernelClock::Other);
  EXPECT_EQ(classifyKernelClock("kvm-clock", 500.0, 1000.0), KernelClock::KvmClock);
  EXPECT_EQ(classifyKernelClock("kvm-clock", VdsoNs, 0.0), KernelClock::Other)
      << "no system call measured";
  EXPECT_EQ(classifyKernelClock("kvm-clock", 0.0, SyscallNs), KernelClock::Other)
      << "no vDSO read measured";
}

TEST(ClockTest, OtherClockSourcesAreNotTrusted) {
  for (const char *Source :
       {"hpet", "acpi_pm", "xen", "hyperv_clocksource_tsc_page", "", "tsc2", "kvm-clock2"})
    EXPECT_EQ(classifyKernelClock(Source, VdsoNs, SyscallNs), KernelClock::Other) << Source;
}

TEST(ClockTest, ARateChangeBeyondCalibrationJitterIsAJump) {
  EXPECT_DOUBLE_EQ(tscRateChange(2.5, 2.5), 0.0);
  EXPECT_NEAR(tscRateChange(2.5, 2.5025), 0.001, 1e-12);
  EXPECT_NEAR(tscRateChange(2.5, 2.45), -0.02, 1e-12);
  EXPECT_DOUBLE_EQ(tscRateChange(0.0, 2.5), 0.0) << "no initial rate, nothing to compare";
  EXPECT_FALSE(tscRateJumped(0.0));
  EXPECT_FALSE(tscRateJumped(0.001)) << "the calibration's largest error short of 2 ms";
  EXPECT_FALSE(tscRateJumped(-0.0005));
  EXPECT_TRUE(tscRateJumped(0.02)) << "a run paused in a snapshot and resumed elsewhere";
  EXPECT_TRUE(tscRateJumped(-0.02));
  // A calibration that a preemption inside both brackets left 5 % wrong at its longest: its
  // own error is no jump.
  EXPECT_FALSE(tscRateJumped(0.04, 0.05));
  EXPECT_TRUE(tscRateJumped(0.07, 0.05));
}

TEST(ClockTest, TheCalibrationEndsWhenItsErrorIsSmallOrItIsLong) {
  constexpr Tick Us = 1000;
  // Tight brackets (80 ticks, some 30 ns at 2.7 GHz) over 50 µs: done.
  EXPECT_TRUE(calibrationComplete(50 * Us, 80, 135000));
  EXPECT_FALSE(calibrationComplete(49 * Us, 80, 132300)) << "shorter than the least interval";
  // A preemption inside a bracket (1 µs): the error would be 2 %, so it goes on.
  EXPECT_FALSE(calibrationComplete(50 * Us, 2700, 135000));
  EXPECT_FALSE(calibrationComplete(400 * Us, 2700, 1080000)) << "still 0.125 %";
  EXPECT_TRUE(calibrationComplete(500 * Us, 2700, 1350000)) << "0.1 % reached";
  EXPECT_TRUE(calibrationComplete(2000 * Us, 270000, 5400000)) << "never longer than 2 ms";
  EXPECT_FALSE(calibrationComplete(300 * Us, 80, 0)) << "a TSC that did not advance";
}

} // namespace
} // namespace pomp::rt::test
