//===- FortranBindingsTest.cpp - libpomp's Fortran entry points -----------===//
///
/// \file
/// The Fortran entry points called the way gfortran and flang call them
/// (docs/FORTRAN.md): lower case names with a trailing underscore, every
/// argument by reference, each CHARACTER*(*) argument's length as a size_t
/// after all arguments, no NUL after the text (the buffers here are exactly
/// as long as the text, so a read past it is an error under the sanitizers)
/// and blanks padding a CTC string held in a longer variable. The scenarios
/// run in processes of their own (ApiTestSupport.h).
///
//===----------------------------------------------------------------------===//

#include "ApiTestSupport.h"
#include "CoreTestSupport.h"

#include "adapters/fortran/FortranBindings.h"

#include "pomplib.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>

using Length = std::size_t;

// The entry points as Fortran sees them: no header declares them, as none
// exists for Fortran (the types are those of docs/FORTRAN.md).
extern "C" {
int32_t pomp_init_();
int32_t pomp_finalize_();
int32_t pomp_off_();
int32_t pomp_on_();
int32_t pomp_set_level_(const int32_t *, const int32_t *);
int32_t pomp_get_level_(const int32_t *, int32_t *);
int32_t pomp_get_handle_(POMP_Handle_t *, const char *, Length);
void pomp_last_error_message_(char *, Length);
void pomp_error_string_(const int32_t *, char *, Length);
int32_t pomp_note_uninstrumented_(const char *, const char *, Length, Length);
int32_t pomp_parallel_fork_(POMP_Handle_t *, const int32_t *, const int32_t *, const int32_t *,
                            POMP_Context_t *, const char *, Length);
int32_t pomp_parallel_begin_forked_(const POMP_Handle_t *, const int32_t *, const POMP_Context_t *);
int32_t pomp_parallel_end_(const POMP_Handle_t *, const int32_t *);
int32_t pomp_parallel_exit_(const POMP_Handle_t *, const int32_t *);
int32_t pomp_loop_enter_(POMP_Handle_t *, const int32_t *, const int64_t *, const int64_t *,
                         const int64_t *, const int64_t *, const char *, Length);
int32_t pomp_loop_exit_(const POMP_Handle_t *, const int32_t *);
int32_t pomp_user_region_begin_(POMP_Handle_t *, const int32_t *, const char *, Length);
int32_t pomp_user_region_end_(const POMP_Handle_t *, const int32_t *);
void pomp_wrap_omp_init_lock_(POMP_Handle_t *, const char *, void *, Length);
void pomp_wrap_omp_set_lock_(POMP_Handle_t *, const char *, void *, Length);
void pomp_wrap_omp_unset_lock_(POMP_Handle_t *, const char *, void *, Length);
int32_t pomp_wrap_omp_test_lock_(POMP_Handle_t *, const char *, void *, Length);
void pomp_wrap_omp_destroy_lock_(POMP_Handle_t *, const char *, void *, Length);
int32_t pomp_wrap_omp_get_num_threads_(POMP_Handle_t *, const char *, Length);
int32_t pomp_wrap_omp_in_parallel_(POMP_Handle_t *, const char *, Length);
}

namespace pomp::rt::test {
namespace {

/// A Fortran CHARACTER value: exactly Text's bytes, no NUL after them.
class FortranString {
public:
  explicit FortranString(const std::string &Text, std::size_t Padding = 0)
      : Size(Text.size() + Padding), Bytes(new char[Size]) {
    std::memcpy(Bytes.get(), Text.data(), Text.size());
    std::memset(Bytes.get() + Text.size(), ' ', Padding);
  }
  const char *data() const { return Bytes.get(); }
  Length size() const { return Size; }

private:
  Length Size;
  std::unique_ptr<char[]> Bytes;
};

/// The rows of pomp_events.def.
constexpr int EventRows = 0
#define POMP_EVENT(Name, Group, Role, Handle, Levels, Params) +1
#include "pomp_events.def"
    ;

TEST(FortranBindingsTest, OneEntryPointPerEventRow) {
  EXPECT_EQ(fortran::eventEntryCount(), EventRows);
}

TEST(FortranBindingsTest, CtcStringIsCopiedWithoutTrailingBlanks) {
  const FortranString Padded("12*type=x**", 7);
  const fortran::CtcString Ctc(nullptr, Padded.data(), Padded.size());
  ASSERT_NE(Ctc.get(), nullptr);
  EXPECT_STREQ(Ctc.get(), "12*type=x**");
  EXPECT_EQ(fortran::trimmedLength(Padded.data(), Padded.size()), 11u);
  EXPECT_EQ(fortran::trimmedLength(Padded.data(), 0), 0u);
}

TEST(FortranBindingsTest, LongCtcStringIsCopiedToo) {
  const std::string Long = ctcString("type=userregion*name=" + std::string(1000, 'n'));
  const FortranString Text(Long);
  const fortran::CtcString Ctc(nullptr, Text.data(), Text.size());
  ASSERT_NE(Ctc.get(), nullptr);
  EXPECT_EQ(std::string(Ctc.get()), Long);
}

TEST(FortranBindingsTest, BoundHandleNeedsNoCtcString) {
  const POMP_Handle_t Bound = 7;
  const FortranString Text("9*type=x**");
  const fortran::CtcString Ctc(&Bound, Text.data(), Text.size());
  EXPECT_EQ(Ctc.get(), nullptr);
}

TEST(FortranBindingsTest, MessagesArePaddedAndCut) {
  char Buffer[8];
  fortran::copyToFortran("abc", Buffer, sizeof Buffer);
  EXPECT_EQ(std::string(Buffer, sizeof Buffer), "abc     ");
  fortran::copyToFortran("abcdefghijk", Buffer, sizeof Buffer);
  EXPECT_EQ(std::string(Buffer, sizeof Buffer), "abcdefgh");
}

std::string eventsScenario() {
  quietExperiment("fortran-events");
  Failures F;
  const int32_t Tid = 0, NoThreads = -1, IfTrue = 1;
  POMP_Handle_t Par = 0, Loop = 0, User = 0, Bound = 0;
  POMP_Context_t Context = 0;
  const FortranString ParCtc(ctcString("type=parallel*file=f.f90*slines=3,3*elines=9,9"));
  const FortranString LoopCtc(ctcString("type=do*file=f.f90*slines=4,4*elines=6,6"));
  // In a longer CHARACTER variable: blank padded.
  const FortranString UserCtc(ctcString("type=userregion*name=work*file=f.f90*slines=7,7"), 40);
  const FortranString BoundCtc(ctcString("type=userregion*name=early*file=f.f90*slines=2,2"));
  F.equal(pomp_init_(), POMP_SUCCESS, "pomp_init_");
  F.equal(pomp_get_handle_(&Bound, BoundCtc.data(), BoundCtc.size()), POMP_SUCCESS,
          "pomp_get_handle_");
  F.check(Bound != 0, "pomp_get_handle_ bound the handle");
  constexpr int Repetitions = 3;
  for (int I = 0; I < Repetitions; ++I) {
    F.equal(pomp_parallel_fork_(&Par, &Tid, &NoThreads, &IfTrue, &Context, ParCtc.data(),
                                ParCtc.size()),
            POMP_SUCCESS, "fork");
    F.equal(pomp_parallel_begin_forked_(&Par, &Tid, &Context), POMP_SUCCESS, "begin");
    const int64_t Chunk = 0, First = 1, Last = 100, Step = 1;
    F.equal(
        pomp_loop_enter_(&Loop, &Tid, &Chunk, &First, &Last, &Step, LoopCtc.data(), LoopCtc.size()),
        POMP_SUCCESS, "loop enter");
    F.equal(pomp_loop_exit_(&Loop, &Tid), POMP_SUCCESS, "loop exit");
    F.equal(pomp_user_region_begin_(&User, &Tid, UserCtc.data(), UserCtc.size()), POMP_SUCCESS,
            "user region begin");
    F.equal(pomp_user_region_end_(&User, &Tid), POMP_SUCCESS, "user region end");
    F.equal(pomp_parallel_end_(&Par, &Tid), POMP_SUCCESS, "end");
    F.equal(pomp_parallel_exit_(&Par, &Tid), POMP_SUCCESS, "exit");
  }
  // An unbalanced end (before any level change, after which it would be
  // expected): the error's text for Fortran.
  F.equal(pomp_user_region_end_(&User, &Tid), POMP_ERROR_UNBALANCED, "unbalanced end");
  char Message[80];
  pomp_last_error_message_(Message, sizeof Message);
  F.check(std::string(Message, sizeof Message).find("closes no region") != std::string::npos,
          "last error message: " + std::string(Message, sizeof Message));
  F.check(Message[sizeof Message - 1] == ' ', "the message is padded with blanks");
  const int32_t Unbalanced = POMP_ERROR_UNBALANCED;
  pomp_error_string_(&Unbalanced, Message, sizeof Message);
  F.equal(std::string(Message, sizeof Message)
              .substr(0, std::strlen(POMP_Error_string(POMP_ERROR_UNBALANCED))),
          std::string(POMP_Error_string(POMP_ERROR_UNBALANCED)), "error string");
  const int32_t Group = POMP_GROUP_LOOP, None = POMP_LEVEL_NONE;
  int32_t Level = -1;
  F.equal(pomp_set_level_(&Group, &None), POMP_SUCCESS, "pomp_set_level_");
  F.equal(pomp_get_level_(&Group, &Level), POMP_SUCCESS, "pomp_get_level_");
  F.equal(Level, None, "the level set");
  F.equal(pomp_finalize_(), POMP_SUCCESS, "pomp_finalize_");

  const Profile *P = Runtime::finalProfile();
  if (!P)
    return F.text() + "no profile\n";
  const ProfileNode *Body =
      findPath(*P, {{"f.f90", EventId::Parallel_enter}, {"f.f90", EventId::Parallel_begin}});
  const ProfileNode *Work = findPath(*P, {{"f.f90", EventId::Parallel_enter},
                                          {"f.f90", EventId::Parallel_begin},
                                          {"work", EventId::User_region_begin}});
  const ProfileNode *Do = findPath(*P, {{"f.f90", EventId::Parallel_enter},
                                        {"f.f90", EventId::Parallel_begin},
                                        {"f.f90", EventId::Loop_enter}});
  if (!Body || !Work || !Do)
    return F.text() + "a region is missing\n";
  F.equal(Body->total().Visits, std::uint64_t(Repetitions), "parallel body visits");
  F.equal(Work->total().Visits, std::uint64_t(Repetitions), "user region visits");
  F.equal(Do->total().Visits, std::uint64_t(Repetitions), "loop visits");
  F.equal(Runtime::regions().get(static_cast<RegionId>(User)).Descriptor.Name, std::string("work"),
          "the padded CTC string's name");
  return F.text();
}

TEST_F(ApiTest, FortranEntryPointsRecordAsC) { EXPECT_SCENARIO(eventsScenario); }

std::string lockScenario() {
  quietExperiment("fortran-locks");
  Failures F;
  POMP_Handle_t Init = 0, Set = 0, Unset = 0, Test = 0, Destroy = 0, Threads = 0, InPar = 0;
  const FortranString InitCtc(ctcString("type=omp_init_lock*file=init.f90*slines=1,1"));
  const FortranString SetCtc(ctcString("type=omp_set_lock*file=set.f90*slines=1,1"));
  const FortranString UnsetCtc(ctcString("type=omp_unset_lock*file=unset.f90*slines=1,1"));
  const FortranString TestCtc(ctcString("type=omp_test_lock*file=test.f90*slines=1,1"));
  const FortranString DestroyCtc(ctcString("type=omp_destroy_lock*file=destroy.f90*slines=1,1"));
  const FortranString ThreadsCtc(ctcString("type=omp_get_num_threads*file=n.f90*slines=1,1"));
  const FortranString InParCtc(ctcString("type=omp_in_parallel*file=p.f90*slines=1,1"));
  // A Fortran lock variable, integer(kind=omp_lock_kind): 8 bytes with
  // libomp and libgomp alike on x86-64.
  std::int64_t Lock = 0;
  F.equal(POMP_Init(), POMP_SUCCESS, "POMP_Init");
  pomp_wrap_omp_init_lock_(&Init, InitCtc.data(), &Lock, InitCtc.size());
  pomp_wrap_omp_set_lock_(&Set, SetCtc.data(), &Lock, SetCtc.size());
  F.equal(pomp_wrap_omp_test_lock_(&Test, TestCtc.data(), &Lock, TestCtc.size()), 0,
          "test of a held lock");
  pomp_wrap_omp_unset_lock_(&Unset, UnsetCtc.data(), &Lock, UnsetCtc.size());
  F.equal(pomp_wrap_omp_test_lock_(&Test, TestCtc.data(), &Lock, TestCtc.size()), 1,
          "test of a free lock");
  pomp_wrap_omp_unset_lock_(&Unset, UnsetCtc.data(), &Lock, UnsetCtc.size());
  pomp_wrap_omp_destroy_lock_(&Destroy, DestroyCtc.data(), &Lock, DestroyCtc.size());
  F.equal(pomp_wrap_omp_get_num_threads_(&Threads, ThreadsCtc.data(), ThreadsCtc.size()), 1,
          "omp_get_num_threads outside parallel");
  F.equal(pomp_wrap_omp_in_parallel_(&InPar, InParCtc.data(), InParCtc.size()), 0,
          "omp_in_parallel outside parallel");
  F.equal(POMP_Finalize(), POMP_SUCCESS, "POMP_Finalize");
  const Profile *P = Runtime::finalProfile();
  if (!P)
    return F.text() + "no profile\n";
  const std::pair<const char *, EventId> Expected[] = {
      {"init.f90", EventId::Init_lock_event},
      {"set.f90", EventId::Set_lock_enter},
      {"unset.f90", EventId::Unset_lock_event},
      {"test.f90", EventId::Test_lock_event},
      {"destroy.f90", EventId::Destroy_lock_event}};
  const std::uint64_t Visits[] = {1, 1, 2, 2, 1};
  for (std::size_t I = 0; I < std::size(Expected); ++I) {
    const ProfileNode *N = findPath(*P, {{Expected[I].first, Expected[I].second}});
    if (!N)
      F.check(false, std::string(Expected[I].first) + " missing");
    else
      F.equal(N->total().Visits, Visits[I], std::string(Expected[I].first) + " visits");
  }
  return F.text();
}

TEST_F(ApiTest, FortranLockWrappersCallTheRuntimesFortranEntries) { EXPECT_SCENARIO(lockScenario); }

} // namespace
} // namespace pomp::rt::test
