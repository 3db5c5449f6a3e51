! Combined parallel constructs split in two as in C: the team's clauses (if and num_threads
! evaluated once) on `parallel`, the loop's (schedule, reduction, lastprivate, ...) on `do`; the
! worksharing half shows its implicit barrier, the team's join barrier is not shown again. A
! `parallel do` without `end parallel do` ends with its loop. The two sections write different
! variables: both updating `s` would be a data race (a lost update printed 1276 for 1278). The
! schedule is static: libomp 19 sometimes does not copy `lastprivate` out under a dynamic one.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program split
  implicit none
  integer :: i, n, s, last, a, b
  n = 50
  s = 0
!$omp parallel do if(n > 1) num_threads(3) schedule(static, 2) reduction(+:s) lastprivate(last)
  do i = 1, n
    s = s + i
    last = i
  end do
! CHECK:      pomp_if_1 = merge(1, 0, n > 1)
! CHECK-NEXT: pomp_num_threads_1 = 3
! CHECK-NEXT: call POMP_Parallel_fork(pomp_h(1), -1, pomp_num_threads_1, pomp_if_1, pomp_ctx_1, '{{[0-9]+}}*type=paralleldo*{{.*}}*hasLastprivate=1*hasReduction=1*hasIf=1*hasNumThreads=1*function=split**')
! CHECK-NEXT: !$omp parallel if(pomp_if_1 .ne. 0) num_threads(pomp_num_threads_1) firstprivate(pomp_ctx_1)
! CHECK-NEXT: call POMP_Parallel_begin_forked(pomp_h(1), -1, pomp_ctx_1)
! CHECK-NEXT: call POMP_Loop_enter(pomp_h(2), -1, int(2, 8), int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=do*
! CHECK-NEXT: !$omp do schedule(static, 2) reduction(+:s) lastprivate(last)
! CHECK-NEXT: do i = 1, n
! CHECK:      end do
! CHECK-NEXT: !$omp end do nowait
! CHECK-NEXT: call POMP_Implicit_barrier_enter(pomp_h(3),
! CHECK-NEXT: !$omp barrier
! CHECK-NEXT: call POMP_Implicit_barrier_exit(pomp_h(3), -1)
! CHECK-NEXT: call POMP_Loop_exit(pomp_h(2), -1)
! CHECK-NEXT: call POMP_Parallel_end(pomp_h(1), -1)
! CHECK-NEXT: !$omp end parallel
! CHECK-NEXT: call POMP_Parallel_exit(pomp_h(1), -1)
  print *, s, last
!$omp parallel sections num_threads(2)
!$omp section
  a = 1
!$omp section
  b = 2
!$omp end parallel sections
! CHECK:      !$omp parallel num_threads(pomp_num_threads_4) firstprivate(pomp_ctx_4)
! CHECK-NEXT: call POMP_Parallel_begin_forked(pomp_h(4), -1, pomp_ctx_4)
! CHECK-NEXT: call POMP_Sections_enter(pomp_h(5),
! CHECK-NEXT: !$omp sections
! CHECK-NEXT: !$omp section
! CHECK-NEXT: call POMP_Section_begin(pomp_h(5), 1, -1)
! CHECK:      !$omp end sections nowait
  print *, s + a + b
end program split

! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 5
! EVENTS-NEXT: pomp-check: Parallel_end 5
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 3
! EVENTS-NEXT: pomp-check: Loop_exit 3
! EVENTS-NEXT: pomp-check: Sections_enter 2
! EVENTS-NEXT: pomp-check: Section_begin 2
! EVENTS-NEXT: pomp-check: Section_end 2
! EVENTS-NEXT: pomp-check: Sections_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 5
! EVENTS-NEXT: pomp-check: violations 0
