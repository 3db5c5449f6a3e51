! Under default(none) the handles' common block is listed as shared; a split `parallel do` also
! shares what its `do` half reduces or copies out (as in C).
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
subroutine work(n, s, last)
  implicit none
  integer, intent(in) :: n
  integer, intent(out) :: s, last
  integer :: i
  s = 0
  !$omp parallel default(none) shared(n, s) private(i)
  !$omp do reduction(+:s)
  do i = 1, n
    s = s + i
  end do
  !$omp end parallel
! CHECK:      !$omp parallel default(none) shared(n, s) private(i) firstprivate(pomp_ctx_1) shared(/pomp_cb_{{[0-9a-f]+}}/)
  !$omp parallel do default(none) shared(n) reduction(+:s) lastprivate(last)
  do i = 1, n
    s = s + 1
    last = i
  end do
! CHECK:      !$omp parallel default(none) shared(n) firstprivate(pomp_ctx_5) shared(/pomp_cb_{{[0-9a-f]+}}/) shared(s, last)
! CHECK-NEXT: call POMP_Parallel_begin_forked(pomp_h(5), -1, pomp_ctx_5)
! CHECK:      !$omp do reduction(+:s) lastprivate(last)
end subroutine
program p
  integer :: s, last
  call work(10, s, last)
  print *, s, last
end program

! EVENTS:      threads 2
! EVENTS:      pomp-check: violations 0
