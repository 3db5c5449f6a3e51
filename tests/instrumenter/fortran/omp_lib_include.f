! `INCLUDE "omp_lib.h"` (the OpenMP specification's include file) is found without -I, as the
! compilers find their own: ompinst reads flang's copy. Before, ompinst stopped on it and ompfc
! compiled the file uninstrumented (found on the OpenMP Examples). flang-new-19 itself does not
! find omp_lib.h without -I: the program runs with gfortran only.
! RUN: %ompinst %s -o %t.f --no-line-directives
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM INCL
      INCLUDE "omp_lib.h"
      INTEGER N
      N = 0
!$OMP PARALLEL REDUCTION(+:N)
      N = N + OMP_GET_NUM_THREADS()
!$OMP END PARALLEL
      PRINT *, N .GT. 0
      END

! CHECK:      {{^}}      INCLUDE "omp_lib.h"
! CHECK:      call POMP_Parallel_fork(
! CHECK-NEXT: {{^}}!$OMP PARALLEL REDUCTION(+:N)

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 1
! EVENTS-NEXT: pomp-check: Parallel_end 1
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 2
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: violations 0
