! Two finds of the OpenMP Examples (nthrs_dynamic.1.f), both rejected by gfortran before:
! - an INCLUDE line that is the unit's last declaration: the unit's declarations and
!   `call POMP_Init()` go after it (they went before it, and the include's declarations then
!   followed an executable statement);
! - a directive whose `num_threads` argument, replaced by its variable, leaves too little room
!   for the context's `firstprivate` in column 72: the clause goes on a continuation line (the
!   replacement's growth was not counted), and a directive the variable alone pushes past
!   column 72 is rebuilt clause by clause;
! - and, with a continuation line, an empty region: the directive's continuation comes before
!   the region's code, which begins before it ends (its end went first).
! RUN: %ompinst %s -o %t.f --no-line-directives
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM INCL
        INCLUDE "omp_lib.h"      ! or USE OMP_LIB
        CALL OMP_SET_DYNAMIC(.FALSE.)
!$OMP     PARALLEL NUM_THREADS(3)
!$OMP     END PARALLEL
!$OMP                             PARALLEL              NUM_THREADS(2)
!$OMP     END PARALLEL
      END PROGRAM INCL

! CHECK:      {{^}}      PROGRAM INCL
! CHECK-NEXT: {{^}}        INCLUDE "omp_lib.h"
! CHECK-NEXT: {{^}}      integer(kind=8) pomp_h(4)
! CHECK:      {{^}}      call POMP_Init()
! CHECK-NEXT: {{^}}        CALL OMP_SET_DYNAMIC(.FALSE.)
! CHECK:      {{^}}!$OMP     PARALLEL NUM_THREADS(pomp_num_threads_1){{$}}
! CHECK-NEXT: {{^}}!$OMP& firstprivate(pomp_ctx_1){{$}}
! CHECK:      {{^}}!$omp parallel{{$}}
! CHECK-NEXT: {{^}}!$omp& num_threads(pomp_num_threads_3){{$}}
! CHECK-NEXT: {{^}}!$omp& firstprivate(pomp_ctx_3){{$}}

! num_threads(3) and num_threads(2) at every OMP_NUM_THREADS (dynamic adjustment off).
! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 5
! EVENTS-NEXT: pomp-check: Parallel_end 5
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 5
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 5
! EVENTS-NEXT: pomp-check: Parallel_end 5
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 5
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 5
! EVENTS-NEXT: pomp-check: Parallel_end 5
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 5
! EVENTS-NEXT: pomp-check: violations 0
