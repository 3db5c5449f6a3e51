//===- trace/RegionRoles.h - OTF2 region roles of the events ----*- C++ -*-===//
///
/// \file
/// A trace region is a (region, canonical opener) pair, as a profile node is:
/// the construct seen from outside (enter/exit) and its structured block
/// (begin/end) are two regions, a single event a region of its own. Their
/// OTF2 role and paradigm follow from the opener alone, so the mapping is a
/// compile-time table over the construct stems of pomp_events.def, checked to
/// give every event a role (docs/TRACE_FORMAT.md lists it).
///
/// Roles follow Score-P's OPARI2 adapter where it has one: the parallel body
/// is PARALLEL and the master's enter/exit around fork and join is plain CODE;
/// critical, ordered and single blocks are the *_SBLOCK roles; lock and other
/// run-time routine events are WRAPPERs of the OpenMP API.
///
//===----------------------------------------------------------------------===//
#ifndef POMP_RUNTIME_TRACE_REGIONROLES_H
#define POMP_RUNTIME_TRACE_REGIONROLES_H

#include "core/Events.h"

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_GeneralDefinitions.h>

#include <initializer_list>
#include <string_view>

namespace pomp::rt {

/// How a trace region is classified.
struct TraceRegionKind {
  OTF2_RegionRole Role;
  OTF2_Paradigm Paradigm;
};

namespace detail {

/// The roles of one construct: of its enter/exit pair, of its begin/end pair
/// and of its single event (whichever it has).
struct StemRoles {
  std::string_view Stem;
  OTF2_RegionRole Enter;
  OTF2_RegionRole Begin;
  OTF2_RegionRole Event;
};

inline constexpr OTF2_RegionRole NoRole = OTF2_REGION_ROLE_UNKNOWN;

inline constexpr StemRoles ConstructRoles[] = {
    {"Parallel", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_PARALLEL, NoRole},
    {"Teams", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_PARALLEL, NoRole},
    {"Loop", OTF2_REGION_ROLE_LOOP, NoRole, NoRole},
    {"Loop_chunk", NoRole, OTF2_REGION_ROLE_CODE, NoRole},
    {"Loop_iter", NoRole, OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE},
    {"Workshare", OTF2_REGION_ROLE_WORKSHARE, OTF2_REGION_ROLE_WORKSHARE, NoRole},
    {"Sections", OTF2_REGION_ROLE_SECTIONS, NoRole, NoRole},
    {"Section", NoRole, OTF2_REGION_ROLE_SECTION, NoRole},
    {"Single", OTF2_REGION_ROLE_SINGLE, OTF2_REGION_ROLE_SINGLE_SBLOCK, NoRole},
    {"Scope", OTF2_REGION_ROLE_CODE, OTF2_REGION_ROLE_CODE, NoRole},
    {"Critical", OTF2_REGION_ROLE_CRITICAL, OTF2_REGION_ROLE_CRITICAL_SBLOCK, NoRole},
    {"Master", NoRole, OTF2_REGION_ROLE_MASTER, NoRole},
    {"Masked", NoRole, OTF2_REGION_ROLE_MASTER, NoRole},
    {"Barrier", OTF2_REGION_ROLE_BARRIER, NoRole, NoRole},
    {"Implicit_barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER, NoRole, NoRole},
    {"Flush", NoRole, NoRole, OTF2_REGION_ROLE_FLUSH},
    {"Atomic", NoRole, NoRole, OTF2_REGION_ROLE_ATOMIC},
    {"Ordered", OTF2_REGION_ROLE_ORDERED, OTF2_REGION_ROLE_ORDERED_SBLOCK, NoRole},
    {"Cancel", NoRole, NoRole, OTF2_REGION_ROLE_CODE},
    {"Cancellation_point", NoRole, NoRole, OTF2_REGION_ROLE_CODE},
    {"Task_create", OTF2_REGION_ROLE_TASK_CREATE, NoRole, NoRole},
    {"Task", NoRole, OTF2_REGION_ROLE_TASK, NoRole},
    {"Taskwait", OTF2_REGION_ROLE_TASK_WAIT, NoRole, NoRole},
    // A taskgroup's own time is the wait for its tasks after its block.
    {"Taskgroup", OTF2_REGION_ROLE_TASK_WAIT, OTF2_REGION_ROLE_CODE, NoRole},
    {"Taskyield", OTF2_REGION_ROLE_CODE, NoRole, NoRole},
    {"Taskloop", OTF2_REGION_ROLE_LOOP, NoRole, NoRole},
    {"Target", OTF2_REGION_ROLE_CODE, NoRole, NoRole},
    {"Target_data", OTF2_REGION_ROLE_CODE, NoRole, OTF2_REGION_ROLE_DATA_TRANSFER},
    {"Function", OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_FUNCTION, OTF2_REGION_ROLE_FUNCTION},
    {"User_region", NoRole, OTF2_REGION_ROLE_CODE, NoRole},
    {"User", NoRole, NoRole, OTF2_REGION_ROLE_CODE},
};

constexpr OTF2_RegionRole roleOf(const StemRoles &R, Role EventRole) {
  return EventRole == Role::ENTER   ? R.Enter
         : EventRole == Role::BEGIN ? R.Begin
         : EventRole == Role::EVENT ? R.Event
                                    : NoRole;
}

constexpr OTF2_RegionRole constructRole(EventId Opener) {
  const EventInfo &Info = info(canonicalOpener(Opener));
  for (const StemRoles &R : ConstructRoles)
    if (R.Stem == stem(Info))
      return roleOf(R, Info.EventRole);
  // Every other event is an OpenMP run-time routine (locks, omp_get_*).
  return Info.Group == POMP_GROUP_RUNTIME ? static_cast<OTF2_RegionRole>(OTF2_REGION_ROLE_WRAPPER)
                                          : NoRole;
}

constexpr bool everyEventHasARole() {
  for (std::size_t E = 0; E < EventCount; ++E)
    if (constructRole(static_cast<EventId>(E)) == NoRole)
      return false;
  return true;
}
static_assert(everyEventHasARole(),
              "an event of pomp_events.def has no OTF2 region role: add its construct to "
              "ConstructRoles");

} // namespace detail

/// The role and paradigm of the trace region an event opens (or is).
constexpr TraceRegionKind traceRegionKind(EventId Opener) {
  const bool User = info(Opener).Group == POMP_GROUP_USER;
  return {detail::constructRole(Opener),
          static_cast<OTF2_Paradigm>(User ? OTF2_PARADIGM_USER : OTF2_PARADIGM_OPENMP)};
}

/// The role of an MPI call that libpomp-mpi reports (docs/MPI.md), by its
/// name; paradigm MPI.
inline TraceRegionKind mpiRegionKind(std::string_view Name) {
  auto Is = [&](std::initializer_list<std::string_view> Names) {
    for (const std::string_view N : Names)
      if (Name == N)
        return true;
    return false;
  };
  // A nonblocking collective has the role of the collective it starts; its
  // completion is a wait or test, point-to-point as every other.
  OTF2_RegionRole Role = OTF2_REGION_ROLE_POINT2POINT;
  if (Is({"MPI_Barrier", "MPI_Ibarrier"}))
    Role = OTF2_REGION_ROLE_BARRIER;
  else if (Is({"MPI_Bcast", "MPI_Scatter", "MPI_Scatterv", "MPI_Ibcast", "MPI_Iscatter"}))
    Role = OTF2_REGION_ROLE_COLL_ONE2ALL;
  else if (Is({"MPI_Reduce", "MPI_Gather", "MPI_Gatherv", "MPI_Ireduce", "MPI_Igather"}))
    Role = OTF2_REGION_ROLE_COLL_ALL2ONE;
  else if (Is({"MPI_Allreduce", "MPI_Allgather", "MPI_Alltoall", "MPI_Allgatherv", "MPI_Alltoallv",
               "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Iallreduce",
               "MPI_Iallgather", "MPI_Ialltoall"}))
    Role = OTF2_REGION_ROLE_COLL_ALL2ALL;
  else if (Is({"MPI_Scan", "MPI_Exscan"}))
    Role = OTF2_REGION_ROLE_COLL_OTHER;
  else if (Is({"MPI_Init", "MPI_Init_thread", "MPI_Finalize"}))
    Role = OTF2_REGION_ROLE_WRAPPER;
  return {Role, static_cast<OTF2_Paradigm>(OTF2_PARADIGM_MPI)};
}

} // namespace pomp::rt

#endif // POMP_RUNTIME_TRACE_REGIONROLES_H
