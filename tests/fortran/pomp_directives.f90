! The POMP directives in free form (paper sections 3.7-3.9, OPARI2's spellings), read by the shared
! model as C's #pragma pomp: user regions and events, init/finalize/on/off, a level for the next
! construct, noinstrument/instrument, the !P$ sentinel; the directive stays as a comment and its
! calls follow it. Built with gfortran and flang-new-19 by ompfc, run at 2 threads: exact visits.
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f90 --no-line-directives
! RUN: %strip-fchecks %t/out.f90 | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/fe | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t
program demo
  implicit none
  integer :: i, total
  total = 0
! CHECK:      call POMP_Init()
! CHECK-NEXT: total = 0
!$pomp inst init
! CHECK-NEXT: !$pomp inst init
! CHECK-NEXT: call POMP_Init()
!$POMP USERREGION EVENT(checkpoint)
! CHECK-NEXT: !$POMP USERREGION EVENT(checkpoint)
! CHECK-NEXT: call POMP_User_event(pomp_h([[E:[0-9]+]]), -1, '{{[0-9]+}}*type=userregion*name=checkpoint*file={{[^*]*}}pomp_directives.f90*slines=[[#@LINE-2]],[[#@LINE-2]]*elines=[[#@LINE-2]],[[#@LINE-2]]**')
  !$pomp inst begin(solve)
! CHECK-NEXT: !$pomp inst begin(solve)
! CHECK-NEXT: call POMP_User_region_begin(pomp_h([[S:[0-9]+]]), -1, '{{[0-9]+}}*type=userregion*name=solve*
  do i = 1, 10
    total = total + i
  end do
!$pomp inst end(solve)
! CHECK:      !$pomp inst end(solve)
! CHECK-NEXT: call POMP_User_region_end(pomp_h([[S]]), -1)
! The next construct gets enter/exit only (no begin/end), the one after it the default again.
!$pomp inst parallel enterexit
!$omp parallel reduction(+:total)
  total = total + 1
!$omp end parallel
! CHECK:      call POMP_Parallel_fork(pomp_h([[P1:[0-9]+]])
! CHECK-NOT:  POMP_Parallel_begin_forked
! CHECK:      !$omp end parallel
! CHECK-NEXT: call POMP_Parallel_exit(pomp_h([[P1]]), -1)
!$omp parallel reduction(+:total)
! CHECK:      !$omp parallel reduction(+:total) firstprivate(pomp_ctx_{{[0-9]+}})
! CHECK-NEXT: call POMP_Parallel_begin_forked(
!$pomp userregion start(inner)
  total = total + 1
!$pomp userregion stop(inner)
!$omp end parallel
! A user region's end comes before the team's end, as in the source.
! CHECK:      !$pomp userregion stop(inner)
! CHECK-NEXT: call POMP_User_region_end(pomp_h({{[0-9]+}}), -1)
! CHECK-NEXT: call POMP_Implicit_barrier_enter(
! Constructs between noinstrument and instrument stay as they are.
!$pomp noinstrument
!$omp parallel reduction(+:total)
  total = total + 1
!$omp end parallel
!$pomp instrument
! CHECK:      !$pomp noinstrument
! CHECK-NEXT: !$omp parallel reduction(+:total){{$}}
! CHECK-NEXT: total = total + 1
! CHECK-NEXT: !$omp end parallel
! CHECK-NEXT: !$pomp instrument
!$pomp inst off
!$pomp inst on
! CHECK-NEXT: !$pomp inst off
! CHECK-NEXT: call POMP_Off()
! CHECK-NEXT: !$pomp inst on
! CHECK-NEXT: call POMP_On()
! The !P$ sentinel becomes three blanks: the line is compiled when instrumented only.
!P$ print *, 'instrumented'
! CHECK:      {{^}}    print *, 'instrumented'
  print *, total, twice(3), twice(7)
!$pomp inst finalize
! CHECK:      !$pomp inst finalize
! CHECK-NEXT: call POMP_Finalize()
contains
  integer function twice(n)
    integer :: n
! An internal procedure declares the handles it uses; altend ends the region on another way out.
! CHECK:      integer(kind=8) pomp_h(
!$pomp inst begin(twice)
    twice = n * 2
    if (n > 5) then
!$pomp inst altend(twice)
      return
    end if
!$pomp inst end(twice)
! CHECK:      !$pomp inst altend(twice)
! CHECK-NEXT: call POMP_User_region_end(pomp_h([[T:[0-9]+]]), -1)
! CHECK-NEXT: return
! CHECK:      !$pomp inst end(twice)
! CHECK-NEXT: call POMP_User_region_end(pomp_h([[T]]), -1)
  end function
end program

! OUT: instrumented
! OUT-NEXT: 61 6 14
! PROFILE: threads: 2
! PROFILE-DAG: {{^}}    user region "inner" @{{.*}}pomp_directives.f90:{{[0-9]+}} visits=2 threads=2
! PROFILE-DAG: {{^}}user event "checkpoint" @{{.*}}pomp_directives.f90:{{[0-9]+}} visits=1 threads=1
! PROFILE-DAG: {{^}}user region "solve" @{{.*}}pomp_directives.f90:{{[0-9]+}} visits=1 threads=1
! PROFILE-DAG: {{^}}user region "twice" @{{.*}}pomp_directives.f90:{{[0-9]+}} visits=2 threads=1
! PROFILE: anomalies: none
