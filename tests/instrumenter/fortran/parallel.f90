! A parallel region with if and num_threads evaluated once, a worksharing do with its implicit
! barrier made visible, single, critical, barrier: what the shared model plans, spelled in Fortran.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! With --thread-ids the events pass the runtime's thread number through a private interface.
! RUN: %ompinst %s -o %t.ids.f90 --no-line-directives --thread-ids
! RUN: %strip-fchecks %t.ids.f90 | %FileCheck --check-prefix=IDS %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.ids.f90 | %FileCheck --check-prefix=EVENTS %s
! The added declarations are standard Fortran (integer(kind=8), not integer*8): gfortran takes
! them under -std=f2018, as PRK builds (the common block is only obsolescent there, a warning).
! RUN: %gfortran -std=f2018 -fopenmp -fsyntax-only %t.f90
! RUN: %gfortran -std=f2018 -fopenmp -fsyntax-only %t.ids.f90
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program demo
  implicit none
  integer :: i, n, s
  integer :: a(100)
  n = 100
  s = 0
! The declarations close the specification part; POMP_Init opens the execution part.
! CHECK:      integer :: a(100)
! CHECK-NEXT: integer(kind=8) pomp_h(8)
! CHECK-NEXT: common /pomp_cb_[[ID:[0-9a-f]+]]/ pomp_h
! CHECK-NEXT: integer(kind=8) pomp_ctx_1
! CHECK-NEXT: integer(kind=4) pomp_if_1
! CHECK-NEXT: integer(kind=4) pomp_num_threads_1
! CHECK-NOT:  pomp_tid
! IDS:        integer(kind=4) pomp_num_threads_1
! IDS-NEXT:   interface
! IDS-NEXT:   integer(4) function pomp_tid() bind(C, name="omp_get_thread_num")
! CHECK:      call POMP_Init()
! CHECK-NEXT: n = 100
!$omp parallel if(n > 10) num_threads(2)
! CHECK:      pomp_if_1 = merge(1, 0, n > 10)
! CHECK-NEXT: pomp_num_threads_1 = 2
! CHECK-NEXT: call POMP_Parallel_fork(pomp_h(1), -1, pomp_num_threads_1, pomp_if_1, pomp_ctx_1, '{{[0-9]+}}*type=parallel*file={{[^*]*}}parallel.f90*slines=[[#@LINE-3]],[[#@LINE-3]]*elines={{[0-9]+}},{{[0-9]+}}*hasIf=1*hasNumThreads=1*function=demo**')
! CHECK-NEXT: !$omp parallel if(pomp_if_1 .ne. 0) num_threads(pomp_num_threads_1) firstprivate(pomp_ctx_1)
! CHECK-NEXT: call POMP_Parallel_begin_forked(pomp_h(1), -1, pomp_ctx_1)
! IDS:        call POMP_Parallel_begin_forked(pomp_h(1), pomp_tid(), pomp_ctx_1)
!$omp do reduction(+:s)
  do i = 1, n
    a(i) = i
    s = s + a(i)
  end do
! Without `end do` the construct ends with its loop: `end do nowait` is added there.
! CHECK:      call POMP_Loop_enter(pomp_h(3), -1, -1_8, int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=do*file={{[^*]*}}*slines=[[#@LINE-6]],[[#@LINE-6]]*elines=[[#@LINE-2]],[[#@LINE-2]]*hasReduction=1*afterConstruct=1*function=demo**')
! CHECK:      !$omp do reduction(+:s)
! CHECK:      end do
! CHECK-NEXT: !$omp end do nowait
! CHECK-NEXT: call POMP_Implicit_barrier_enter(pomp_h(4), -1, '{{[0-9]+}}*type=implicitbarrier
! CHECK:      !$omp barrier
! CHECK-NEXT: call POMP_Implicit_barrier_exit(pomp_h(4), -1)
! CHECK-NEXT: call POMP_Loop_exit(pomp_h(3), -1)
!$omp single
  print *, 'single'
!$omp end single
! CHECK:      call POMP_Single_enter(pomp_h(5), -1, '{{[0-9]+}}*type=single
! CHECK:      !$omp single
! CHECK-NEXT: call POMP_Single_begin(pomp_h(5), -1)
! CHECK-NEXT: print *, 'single'
! CHECK-NEXT: call POMP_Single_end(pomp_h(5), -1)
! CHECK-NEXT: !$omp end single nowait
!$omp critical (c1)
  s = s + 0
!$omp end critical (c1)
! CHECK:      call POMP_Critical_enter(pomp_h(7), -1, '{{[0-9]+}}*type=critical*name=c1
!$omp barrier
! CHECK:      call POMP_Barrier_enter(pomp_h(8), -1, '{{[0-9]+}}*type=barrier
! CHECK-NEXT: !$omp barrier
! CHECK-NEXT: call POMP_Barrier_exit(pomp_h(8), -1)
!$omp end parallel
! CHECK:      call POMP_Implicit_barrier_exit(pomp_h(2), -1)
! CHECK-NEXT: call POMP_Parallel_end(pomp_h(1), -1)
! CHECK-NEXT: !$omp end parallel
! CHECK-NEXT: call POMP_Parallel_exit(pomp_h(1), -1)
  print *, s
end program demo
! CHECK:      call POMP_Finalize()
! CHECK-NEXT: end program demo
! The file's init subroutine binds every handle, found by pomp-link by its binding name.
! CHECK:      subroutine pomp_init_[[ID]]() bind(C, name="POMP_Init_parallel_f90_[[ID]]")
! CHECK-NEXT: integer(kind=8) pomp_h(8)
! CHECK-NEXT: common /pomp_cb_[[ID]]/ pomp_h
! CHECK-NEXT: call POMP_Get_handle(pomp_h(1), '{{[0-9]+}}*type=parallel
! CHECK:      end subroutine

! EVENTS:      threads 4
! EVENTS:      pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Loop_enter 2
! EVENTS-NEXT: pomp-check: Loop_exit 2
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Critical_enter 2
! EVENTS:      pomp-check: Barrier_enter 2
! EVENTS-NEXT: pomp-check: Barrier_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 6
! EVENTS-NEXT: pomp-check: violations 0
