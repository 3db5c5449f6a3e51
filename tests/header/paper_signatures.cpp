// Checks at compile time that pomplib.h declares every routine of the POMP
// paper's Appendix C (Tables 1-8) and section 3.6 with the paper's parameters,
// spelled as SPEC.md decides (int32 -> int32_t, char ctc[] -> const char *,
// omp_lock_t -> POMP_Lock_id_t). Written independently of pomp_events.def, so
// a wrong row there fails the build.
#include "pomplib.h"

#include <type_traits>

namespace {
using H = POMP_Handle_t;
using Ctc = const char *;
using L = POMP_Lock_id_t;

// The type without the noexcept that POMP_NOTHROW adds in clang (gcc keeps
// the attribute out of the type): the paper's signature is the rest.
template <typename F> struct WithoutNoexcept { using Type = F; };
template <typename R, typename... A> struct WithoutNoexcept<R(A...) noexcept> {
  using Type = R(A...);
};

#define EXPECT_SIGNATURE(Name, ...)                                                                \
  static_assert(                                                                                   \
      std::is_same<WithoutNoexcept<decltype(POMP_##Name)>::Type, int32_t(__VA_ARGS__)>::value,     \
      "POMP_" #Name " does not have the paper's signature")

// Table 1: Parallel and Loop.
EXPECT_SIGNATURE(Parallel_enter, H *, int32_t, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Parallel_begin, H, int32_t);
EXPECT_SIGNATURE(Parallel_end, H, int32_t);
EXPECT_SIGNATURE(Parallel_exit, H, int32_t);
EXPECT_SIGNATURE(Loop_enter, H *, int32_t, int64_t, int64_t, int64_t, int64_t, Ctc);
EXPECT_SIGNATURE(Loop_chunk_begin, H, int32_t, int64_t, int64_t);
EXPECT_SIGNATURE(Loop_iter_begin, H, int32_t, int64_t);
EXPECT_SIGNATURE(Loop_iter_event, H, int32_t, int64_t);
EXPECT_SIGNATURE(Loop_iter_end, H, int32_t);
EXPECT_SIGNATURE(Loop_chunk_end, H, int32_t);
EXPECT_SIGNATURE(Loop_exit, H, int32_t);

// Table 2: Workshare.
EXPECT_SIGNATURE(Workshare_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Workshare_begin, H, int32_t);
EXPECT_SIGNATURE(Workshare_end, H, int32_t);
EXPECT_SIGNATURE(Workshare_exit, H, int32_t);
EXPECT_SIGNATURE(Sections_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Section_begin, H, int32_t, int32_t);
EXPECT_SIGNATURE(Section_end, H, int32_t);
EXPECT_SIGNATURE(Sections_exit, H, int32_t);
EXPECT_SIGNATURE(Single_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Single_begin, H, int32_t);
EXPECT_SIGNATURE(Single_end, H, int32_t);
EXPECT_SIGNATURE(Single_exit, H, int32_t);

// Tables 3 and 4: Sync.
EXPECT_SIGNATURE(Critical_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Critical_begin, H, int32_t);
EXPECT_SIGNATURE(Critical_end, H, int32_t);
EXPECT_SIGNATURE(Critical_exit, H, int32_t);
EXPECT_SIGNATURE(Master_begin, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Master_end, H, int32_t);
EXPECT_SIGNATURE(Barrier_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Barrier_exit, H, int32_t);
EXPECT_SIGNATURE(Implicit_barrier_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Implicit_barrier_exit, H, int32_t);
EXPECT_SIGNATURE(Flush_event, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Atomic_event, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Ordered_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Ordered_begin, H, int32_t);
EXPECT_SIGNATURE(Ordered_end, H, int32_t);
EXPECT_SIGNATURE(Ordered_exit, H, int32_t);

// Table 5: User.
EXPECT_SIGNATURE(Function_enter, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Function_begin, H *, int32_t, Ctc);
EXPECT_SIGNATURE(Function_end, H, int32_t);
EXPECT_SIGNATURE(Function_exit, H, int32_t);
EXPECT_SIGNATURE(Function_event, H *, int32_t, Ctc);
EXPECT_SIGNATURE(User_region_begin, H *, int32_t, Ctc);
EXPECT_SIGNATURE(User_region_end, H, int32_t);
EXPECT_SIGNATURE(User_event, H *, int32_t, Ctc);

// Tables 6 and 7: locks and nested locks.
EXPECT_SIGNATURE(Init_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Destroy_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Set_lock_enter, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Set_lock_exit, H, int32_t, L);
EXPECT_SIGNATURE(Set_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Unset_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Test_lock_event, H *, int32_t, L, int32_t, Ctc);
EXPECT_SIGNATURE(Init_nest_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Destroy_nest_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Set_nest_lock_enter, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Set_nest_lock_exit, H, int32_t, L);
EXPECT_SIGNATURE(Set_nest_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Unset_nest_lock_event, H *, int32_t, L, Ctc);
EXPECT_SIGNATURE(Test_nest_lock_event, H *, int32_t, L, int32_t, Ctc);

// Table 8: other run-time routines.
EXPECT_SIGNATURE(Set_num_threads_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_num_threads_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_max_threads_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_thread_num_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_num_procs_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(In_parallel_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Set_dynamic_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_dynamic_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Set_nested_event, H *, int32_t, int32_t, Ctc);
EXPECT_SIGNATURE(Get_nested_event, H *, int32_t, int32_t, Ctc);

// Section 3.6 and the optimised scheme of section 3.2.
EXPECT_SIGNATURE(Init, void);
EXPECT_SIGNATURE(Finalize, void);
EXPECT_SIGNATURE(On, void);
EXPECT_SIGNATURE(Off, void);
EXPECT_SIGNATURE(Get_handle, H *, Ctc);

// The handle is a pointer-sized integer where 0 means "not yet initialised".
static_assert(sizeof(POMP_Handle_t) == sizeof(void *), "POMP_Handle_t must be pointer-sized");
static_assert(std::is_integral<POMP_Handle_t>::value, "POMP_Handle_t must be an integer");
static_assert(POMP_SUCCESS == 0, "success is 0");
} // namespace
