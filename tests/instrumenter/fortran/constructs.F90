! Every construct of the first list, in a module's procedures, a main program with an internal
! procedure, preprocessed (upper-case suffix): combined forms, sections, an F77 labelled loop,
! master, task with if, atomic, taskwait, flush, workshare, `!$` lines, stop.
! RUN: %ompinst %s -o %t.F90 --no-line-directives
! RUN: %strip-fchecks %t.F90 | %FileCheck %s
! RUN: %run-equivalence --fortran --flags "-O1 -cpp" --threads 1,2,4 --gcc %gfortran --clang %flang --original %s --instrumented %t.F90 | %FileCheck --check-prefix=EVENTS %s
module work
  implicit none
contains
  subroutine fill(a, n)
    integer, intent(in) :: n
    integer, intent(inout) :: a(n)
    integer :: i
    !$omp parallel do schedule(static, 4) &
    !$omp& private(i)
    do i = 1, n
      a(i) = i
    end do
    !$omp end parallel do
  end subroutine fill
  integer function total(a, n) result(s)
    integer, intent(in) :: n
    integer, intent(in) :: a(n)
    integer :: i
    s = 0
    !$omp parallel
    !$omp sections
    s = s + 0
    !$omp section
    s = s + 0
    !$omp end sections
    !$omp do reduction(+:s)
    do 10 i = 1, n
      s = s + a(i)
10  continue
    !$omp master
    s = s + 0
    !$omp end master
    !$omp end parallel
  end function total
end module work

program main
  use work
  implicit none
  integer :: a(100), t, x
  x = 0
  call fill(a, 100)
  t = total(a, 100)
#ifdef _OPENMP
  print *, 'openmp'
#endif
!$ print *, 'conditional'
  !$omp parallel shared(x)
  !$omp single
  !$omp task firstprivate(t) if(t > 0)
  !$omp atomic
  x = x + 1
  !$omp end atomic
  !$omp end task
  !$omp taskwait
  !$omp end single
  !$omp flush
  !$omp end parallel
  !$omp parallel workshare
  a = a + 1
  !$omp end parallel workshare
  call inner()
  print *, t, x, sum(a)
  if (t < 0) stop 1
  if (x > 100) then
    stop 2
  end if
contains
  subroutine inner()
    integer :: k
    k = 0
    !$omp parallel reduction(+:k)
    k = k + 1
    !$omp end parallel
    print *, k > 0
  end subroutine inner
end program main

! Combined constructs are split: `parallel` with the team's clauses, then the worksharing
! construct with its own (split.f90 has more).
! CHECK:      call POMP_Parallel_fork(pomp_h(1), -1, -1, -1, pomp_ctx_1, '{{[0-9]+}}*type=paralleldo*{{.*}}*schedule=static*function=work::fill**')
! CHECK-NEXT: !$omp parallel private(i) firstprivate(pomp_ctx_1)
! CHECK:      !$omp do schedule(static, 4)
! CHECK:      !$omp end do nowait
! CHECK:      call POMP_Parallel_end(pomp_h(1), -1)
! CHECK-NEXT: !$omp end parallel
! CHECK-NEXT: call POMP_Parallel_exit(pomp_h(1), -1)
! CHECK:      call POMP_Section_begin(pomp_h([[S:[0-9]+]]), 1, -1)
! CHECK:      call POMP_Section_begin(pomp_h([[S]]), 2, -1)
! CHECK:      !$omp end sections nowait
! CHECK:      {{^}}10  continue
! CHECK-NEXT: !$omp end do nowait
! CHECK:      call POMP_Master_begin(pomp_h({{[0-9]+}}), -1, '{{[0-9]+}}*type=master
! The task's if is evaluated once; its context goes in as firstprivate.
! CHECK:      pomp_if_{{[0-9]+}} = merge(1, 0, t > 0)
! CHECK-NEXT: call POMP_Task_create_enter(pomp_h([[T:[0-9]+]]), -1, pomp_if_[[T]], pomp_task_[[T]], '
! CHECK-NEXT: !$omp task firstprivate(t) if(pomp_if_[[T]] .ne. 0) firstprivate(pomp_task_[[T]])
! CHECK:      !$omp end atomic
! CHECK-NEXT: call POMP_Atomic_event(
! Workshare's block takes no calls: enter and exit around it only.
! CHECK:      type=parallelworkshare
! CHECK:      call POMP_Workshare_enter(
! CHECK-NEXT: !$omp workshare
! CHECK-NEXT: a = a + 1
! CHECK-NEXT: !$omp end workshare nowait
! A stop of a one-line if is left to libpomp's exit hook; a stop statement gets POMP_Finalize.
! CHECK:      if (t < 0) stop 1
! CHECK-NEXT: if (x > 100) then
! CHECK-NEXT: call POMP_Finalize()
! CHECK-NEXT: stop 2
! CHECK:      call POMP_Finalize()
! CHECK-NEXT: contains

! EVENTS:      threads 1
! EVENTS:      threads 2
! EVENTS:      pomp-check: Parallel_fork 5
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 10
! EVENTS-NEXT: pomp-check: Parallel_end 10
! EVENTS-NEXT: pomp-check: Parallel_exit 5
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Workshare_enter 2
! EVENTS-NEXT: pomp-check: Workshare_exit 2
! EVENTS-NEXT: pomp-check: Sections_enter 2
! EVENTS-NEXT: pomp-check: Section_begin 2
! EVENTS-NEXT: pomp-check: Section_end 2
! EVENTS-NEXT: pomp-check: Sections_exit 2
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Master_begin 1
! EVENTS-NEXT: pomp-check: Master_end 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 16
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 16
! EVENTS-NEXT: pomp-check: Flush_event 2
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Task_create_enter 1
! EVENTS-NEXT: pomp-check: Task_create_exit 1
! EVENTS-NEXT: pomp-check: Task_begin 1
! EVENTS-NEXT: pomp-check: Task_end 1
! EVENTS-NEXT: pomp-check: Taskwait_enter 1
! EVENTS-NEXT: pomp-check: Taskwait_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
