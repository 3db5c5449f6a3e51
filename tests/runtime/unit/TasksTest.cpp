//===- TasksTest.cpp - Tasks whose regions move between threads -----------===//
///
/// \file
/// An untied task suspended on one thread with regions open may resume on
/// another (core/Tasks.h): Core::suspendTask() takes its regions off the
/// first thread's stack, Core::resumeTask() opens them again on the second,
/// where their ends then match. Each thread is charged with the time the task
/// ran on it; the visit counts once, with its whole duration.
///
//===----------------------------------------------------------------------===//

#include "CoreTestSupport.h"

namespace pomp::rt::test {
namespace {

using E = EventId;

class TasksTest : public CoreFixture {};

TEST_F(TasksTest, ASuspendedTasksRegionsFollowItToAnotherThread) {
  const RegionId Task = region("type=task*file=t.c*slines=1,1");
  const RegionId Yield = region("type=taskyield*file=t.c*slines=2,2");
  const RegionId Wait = region("type=taskwait*file=t.c*slines=3,3");
  ThreadState &A = *C.attachThread();
  ThreadState &B = *C.attachThread();
  Node *Created = C.enter(A, Task, E::Task_create_enter, 0);
  C.leave(A, Task, E::Task_create_exit, 1);
  // A runs the task inside its taskwait from 10 and suspends it at 40, inside a taskyield.
  C.enter(A, Wait, E::Taskwait_enter, 5);
  const std::size_t Base = A.Stack.depth();
  C.enter(A, Task, E::Task_begin, 10, C.forkParent(A, Core::contextOf(Created)));
  C.enter(A, Yield, E::Taskyield_enter, 30);
  SuspendedTask Saved;
  ASSERT_TRUE(C.suspendTask(A, Base, 40, Saved));
  EXPECT_EQ(A.Stack.depth(), Base);
  C.leave(A, Wait, E::Taskwait_exit, 50);
  // B resumes it at 100, inside its own taskwait, where the task's regions end.
  C.enter(B, Wait, E::Taskwait_enter, 90);
  C.resumeTask(B, Saved, 100);
  EXPECT_EQ(C.leave(B, Yield, E::Taskyield_exit, 110), LeaveResult::Closed);
  EXPECT_EQ(C.leave(B, Task, E::Task_end, 130), LeaveResult::Closed);
  EXPECT_EQ(C.leave(B, Wait, E::Taskwait_exit, 140), LeaveResult::Closed);

  const Profile P = C.collect(1000, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Task, E::Task_create_enter}, {Task, E::Task_begin}});
  const ProfileNode *Yielding =
      find(P, {{Task, E::Task_create_enter}, {Task, E::Task_begin}, {Yield, E::Taskyield_enter}});
  const ProfileNode *Waiting = find(P, {{Wait, E::Taskwait_enter}});
  ASSERT_NE(Body, nullptr);
  ASSERT_NE(Yielding, nullptr);
  ASSERT_NE(Waiting, nullptr);
  // One visit each, counted where the region ended; each thread has the time it ran.
  EXPECT_EQ(of(*Body, A.Index).Visits, 0u);
  EXPECT_EQ(of(*Body, B.Index).Visits, 1u);
  EXPECT_EQ(of(*Body, A.Index).InclusiveNs, 30u);
  EXPECT_EQ(of(*Body, B.Index).InclusiveNs, 30u);
  EXPECT_EQ(of(*Body, A.Index).ExclusiveNs, 20u);
  EXPECT_EQ(of(*Body, B.Index).ExclusiveNs, 20u);
  EXPECT_EQ(of(*Body, B.Index).MaxNs, 60u) << "the whole time the task ran";
  EXPECT_EQ(of(*Yielding, A.Index).InclusiveNs, 10u);
  EXPECT_EQ(of(*Yielding, B.Index).InclusiveNs, 10u);
  EXPECT_EQ(of(*Yielding, B.Index).Visits, 1u);
  EXPECT_EQ(of(*Yielding, B.Index).MaxNs, 20u);
  // The taskwaits the task ran in do not count its time as their own.
  EXPECT_EQ(of(*Waiting, A.Index).InclusiveNs, 45u);
  EXPECT_EQ(of(*Waiting, A.Index).ExclusiveNs, 15u);
  EXPECT_EQ(of(*Waiting, B.Index).InclusiveNs, 50u);
  EXPECT_EQ(of(*Waiting, B.Index).ExclusiveNs, 20u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::UnmatchedClose)], 0u);
  EXPECT_EQ(P.Anomalies[static_cast<std::size_t>(Anomaly::OpenAtFinalize)], 0u);
}

TEST_F(TasksTest, ATaskResumedWhereItWasSuspendedCountsOnce) {
  const RegionId Task = region("type=task*file=t.c*slines=1,1");
  ThreadState &A = *C.attachThread();
  Node *Created = C.enter(A, Task, E::Task_create_enter, 0);
  C.leave(A, Task, E::Task_create_exit, 1);
  C.enter(A, Task, E::Task_begin, 10, C.forkParent(A, Core::contextOf(Created)));
  SuspendedTask Saved;
  ASSERT_TRUE(C.suspendTask(A, 0, 20, Saved));
  C.resumeTask(A, Saved, 50);
  EXPECT_EQ(C.leave(A, Task, E::Task_end, 55), LeaveResult::Closed);
  const Profile P = C.collect(1000, OneNsPerTick);
  const ProfileNode *Body = find(P, {{Task, E::Task_create_enter}, {Task, E::Task_begin}});
  ASSERT_NE(Body, nullptr);
  EXPECT_EQ(of(*Body, A.Index).Visits, 1u);
  EXPECT_EQ(of(*Body, A.Index).InclusiveNs, 15u);
  EXPECT_EQ(of(*Body, A.Index).MaxNs, 15u);
}

// A thread may hold any number of locks that omp_test_lock set (issue 13: the 17th one's release
// was treated as one without an acquisition).
TEST(TestedLocksTest, HasNoLimit) {
  TestedLocks Held;
  constexpr std::uint64_t Count = 100;
  for (std::uint64_t Lock = 1; Lock <= Count; ++Lock)
    Held.add(Lock * 64);
  EXPECT_EQ(Held.size(), Count);
  for (std::uint64_t Lock = Count; Lock >= 1; --Lock)
    EXPECT_TRUE(Held.remove(Lock * 64)) << Lock;
  EXPECT_FALSE(Held.remove(64));
  EXPECT_EQ(Held.size(), 0u);
}

} // namespace
} // namespace pomp::rt::test
