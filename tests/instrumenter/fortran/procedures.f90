! Directives in module procedures, in an internal procedure of a module procedure and of the main
! program; free-form labelled loops (two `do 10` loops sharing `10 continue`, a `do 20` ending on
! an assignment), a named `do` construct, `parallel do` with and without `end parallel do`, a
! `do` without `end do`; `!$` conditional lines, one continued on a second `!$` line.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
module grid
  implicit none
  integer, parameter :: n = 16
contains
  subroutine fill(a)
    integer, intent(out) :: a(n, n)
    integer :: i, j
    !$omp parallel do private(j)
    do 10 j = 1, n
      do 10 i = 1, n
        a(i, j) = i * j
10  continue
    call scale(a)
  contains
    subroutine scale(b)
      integer, intent(inout) :: b(n, n)
      integer :: k
      !$omp parallel
      !$omp do
      outer: do k = 1, n
        b(:, k) = 2 * b(:, k)
      end do outer
      !$omp end parallel
    end subroutine scale
  end subroutine fill
  integer function total(a) result(s)
    integer, intent(in) :: a(n, n)
    integer :: j
    s = 0
    !$omp parallel do reduction(+:s)
    do 20 j = 1, n
20  s = s + sum(a(:, j))
    !$omp end parallel do
  end function total
end module grid

program procs
  use grid
  implicit none
  integer :: a(n, n), t, c
  c = 0
!$ c = 1
  !$ c = c + &
  !$   1
  call fill(a)
  t = total(a)
  call count_up(c)
  print *, t, c
contains
  subroutine count_up(x)
    integer, intent(inout) :: x
    integer :: i
    !$omp parallel do reduction(+:x)
    do i = 1, 10
      x = x + 1
    end do
    !$omp end parallel do
    !$omp parallel
    !$omp do
    do i = 1, 10
      !$omp atomic
      x = x + 1
    end do
    !$omp end parallel
  end subroutine count_up
end program procs

! Each scoping unit declares the handles' common block and its thread-id interface.
! CHECK:      subroutine fill(a)
! CHECK:      common /pomp_cb_[[ID:[0-9a-f]+]]/ pomp_h
! CHECK:      do 10 j = 1, n
! CHECK-NEXT: do 10 i = 1, n
! CHECK-NEXT: a(i, j) = i * j
! CHECK-NEXT: {{^}}10  continue
! CHECK-NEXT: !$omp end do nowait
! CHECK:      subroutine scale(b)
! CHECK:      common /pomp_cb_[[ID]]/ pomp_h
! CHECK:      outer: do k = 1, n
! CHECK-NEXT: b(:, k) = 2 * b(:, k)
! CHECK-NEXT: end do outer
! CHECK-NEXT: !$omp end do nowait
! CHECK:      integer function total(a) result(s)
! CHECK:      common /pomp_cb_[[ID]]/ pomp_h
! CHECK:      {{^}}20  s = s + sum(a(:, j))
! CHECK-NEXT: !$omp end do nowait
! CHECK:      program procs
! CHECK:      call POMP_Init()
! CHECK-NEXT: c = 0
! CHECK-NEXT: {{^}}!$ c = 1
! CHECK-NEXT: {{^}}  !$ c = c + &
! CHECK-NEXT: {{^}}  !$   1
! CHECK:      subroutine count_up(x)
! CHECK:      common /pomp_cb_[[ID]]/ pomp_h
! CHECK:      !$omp atomic
! CHECK-NEXT: x = x + 1
! CHECK-NEXT: call POMP_Atomic_event(
! CHECK-NEXT: end do
! CHECK-NEXT: !$omp end do nowait

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 5
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 5
! EVENTS-NEXT: pomp-check: Parallel_end 5
! EVENTS-NEXT: pomp-check: Parallel_exit 5
! EVENTS-NEXT: pomp-check: Loop_enter 5
! EVENTS-NEXT: pomp-check: Loop_exit 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 7
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 7
! EVENTS-NEXT: pomp-check: Atomic_event 10
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 5
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 10
! EVENTS-NEXT: pomp-check: Parallel_end 10
! EVENTS-NEXT: pomp-check: Parallel_exit 5
! EVENTS-NEXT: pomp-check: Loop_enter 10
! EVENTS-NEXT: pomp-check: Loop_exit 10
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 14
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 14
! EVENTS-NEXT: pomp-check: Atomic_event 10
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 5
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 20
! EVENTS-NEXT: pomp-check: Parallel_end 20
! EVENTS-NEXT: pomp-check: Parallel_exit 5
! EVENTS-NEXT: pomp-check: Loop_enter 20
! EVENTS-NEXT: pomp-check: Loop_exit 20
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 28
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 28
! EVENTS-NEXT: pomp-check: Atomic_event 10
! EVENTS-NEXT: pomp-check: violations 0
