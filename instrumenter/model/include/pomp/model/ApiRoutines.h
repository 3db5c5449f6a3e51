//===- pomp/model/ApiRoutines.h - OpenMP routines through wrappers -*- C++ -*-===//
///
/// \file
/// The OpenMP library routines both front ends call through libpomp's
/// wrappers (paper section 3.4 and Table 8): `POMP_Wrap_<routine>(handle,
/// ctc, <the routine's arguments>)`, and the event whose level decides
/// whether a call is rewritten. C calls the static inline wrappers of
/// pomp_omp_wrappers.h, Fortran libpomp's Fortran entry points.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_MODEL_APIROUTINES_H
#define POMP_MODEL_APIROUTINES_H

#include "pomp/model/Events.h"

#include <functional>
#include <string>
#include <string_view>

namespace pomp::inst::model {

/// An OpenMP routine that gets a wrapper.
struct WrappedRoutine {
  std::string_view Name;
  /// The event that decides whether the Runtime group's level instruments it.
  Event Decides;
  /// Routines with enter/exit events have a single-event variant
  /// (`POMP_Wrap_<routine>_event`) for the Runtime group's event level.
  bool HasEventVariant;
  /// Wrapped at every level, without handle or event: the wrapper keeps the
  /// instrumented program from crashing (omp_pause_resource).
  bool Always = false;
  /// Fortran: the wrapper's result, for a function reference ("" for a
  /// subroutine); libpomp returns an INTEGER*4 for each.
  std::string_view FortranResult = "";
};

inline constexpr WrappedRoutine ApiRoutines[] = {
    {"omp_init_lock", Event::Init_lock_event, false},
    {"omp_init_lock_with_hint", Event::Init_lock_event, false},
    {"omp_destroy_lock", Event::Destroy_lock_event, false},
    {"omp_set_lock", Event::Set_lock_enter, true},
    {"omp_unset_lock", Event::Unset_lock_event, false},
    {"omp_test_lock", Event::Test_lock_event, false, false, "logical(4)"},
    {"omp_init_nest_lock", Event::Init_nest_lock_event, false},
    {"omp_init_nest_lock_with_hint", Event::Init_nest_lock_event, false},
    {"omp_destroy_nest_lock", Event::Destroy_nest_lock_event, false},
    {"omp_set_nest_lock", Event::Set_nest_lock_enter, true},
    {"omp_unset_nest_lock", Event::Unset_nest_lock_event, false},
    {"omp_test_nest_lock", Event::Test_nest_lock_event, false, false, "integer(4)"},
    {"omp_set_num_threads", Event::Set_num_threads_event, false},
    {"omp_get_num_threads", Event::Get_num_threads_event, false, false, "integer(4)"},
    {"omp_get_max_threads", Event::Get_max_threads_event, false, false, "integer(4)"},
    {"omp_get_thread_num", Event::Get_thread_num_event, false, false, "integer(4)"},
    {"omp_get_num_procs", Event::Get_num_procs_event, false, false, "integer(4)"},
    {"omp_in_parallel", Event::In_parallel_event, false, false, "logical(4)"},
    {"omp_set_dynamic", Event::Set_dynamic_event, false},
    {"omp_get_dynamic", Event::Get_dynamic_event, false, false, "logical(4)"},
    {"omp_set_nested", Event::Set_nested_event, false},
    {"omp_get_nested", Event::Get_nested_event, false, false, "logical(4)"},
    // No event decides about these (Decides is not used).
    {"omp_pause_resource", Event::Get_nested_event, false, /*Always=*/true, "integer(4)"},
    {"omp_pause_resource_all", Event::Get_nested_event, false, /*Always=*/true, "integer(4)"},
};

/// The routine of a name, or null. Fortran passes names in lower case.
inline const WrappedRoutine *findApiRoutine(std::string_view Name) {
  for (const WrappedRoutine &R : ApiRoutines)
    if (R.Name == Name)
      return &R;
  return nullptr;
}

/// The single event of the variant of omp_set_lock and omp_set_nest_lock.
inline Event eventVariant(const WrappedRoutine &R) {
  return R.Decides == Event::Set_lock_enter ? Event::Set_lock_event : Event::Set_nest_lock_event;
}

/// Whether a call of R is rewritten at the configured levels.
inline bool apiCallInstrumented(const WrappedRoutine &R,
                                const std::function<bool(Event)> &Enabled) {
  return R.Always || Enabled(R.Decides) || (R.HasEventVariant && Enabled(eventVariant(R)));
}

/// The wrapper's name: the event variant when only its single event is on.
inline std::string apiWrapperName(const WrappedRoutine &R,
                                  const std::function<bool(Event)> &Enabled) {
  std::string Name = "POMP_Wrap_" + std::string(R.Name);
  if (R.HasEventVariant && !Enabled(R.Decides))
    Name += "_event";
  return Name;
}

} // namespace pomp::inst::model

#endif // POMP_MODEL_APIROUTINES_H
