! A split `parallel do` whose rebuilt `parallel` directive, with the context's firstprivate and the
! handles' shared added, would pass 132 columns (found on NPB MG: gfortran rejected the output):
! it is broken between clauses onto `!$omp&` lines.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: awk 'length($0) > 132 && !/^ *! / { print FILENAME ":" FNR ": longer than 132 columns"; bad = 1 } END { exit bad }' %t.f90
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program long
  implicit none
  integer :: i, first_index, second_index, third_index, fourth_index
  integer :: a(100), b(100), c(100), d(100)
  a = 1
  b = 2
  c = 3
  d = 0
!$omp parallel do default(shared) private(i, first_index, second_index, third_index, fourth_index) shared(a, b, c, d)
  do i = 1, 100
    first_index = i
    second_index = i
    third_index = i
    fourth_index = i
    d(i) = a(first_index) + b(second_index) + c(third_index) + fourth_index
  end do
!$omp end parallel do
  print *, sum(d)
end program long

! CHECK:      !$omp parallel default(shared) private(i, first_index, second_index, third_index, fourth_index) shared(a, b, c, d) &
! CHECK-NEXT: !$omp& firstprivate(pomp_ctx_1) shared(/pomp_cb_{{[0-9a-f]+}}/)

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 1
! EVENTS-NEXT: pomp-check: Parallel_end 1
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Loop_enter 1
! EVENTS-NEXT: pomp-check: Loop_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Loop_enter 2
! EVENTS-NEXT: pomp-check: Loop_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 2
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: violations 0
