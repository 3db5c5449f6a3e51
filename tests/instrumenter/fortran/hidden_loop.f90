! A loop directive Flang 19's parser rejects (`loop` with `bind`) is hidden; the constructs in its
! DO loop get the thread number -1 as inside a parsed `loop` (no runtime calls there), and what
! would come between the directive and its DO loop (here --functions' begin) goes before it.
! RUN: %ompinst %s -o %t.f90 --no-line-directives --functions --thread-ids 2> %t.err
! RUN: %FileCheck --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
module grid
  implicit none
  integer, parameter :: n = 16
  integer :: x(n, n)
contains
  subroutine fill()
    integer :: i, j
    !$omp loop bind(thread)
    do i = 1, n
      !$omp simd
      do j = 1, n
        x(j, i) = i + j
      end do
    end do
  end subroutine
end module

program hidden_loop
  use grid
  implicit none
  call fill()
  print *, sum(x)
end program

! WARN:     hidden_loop.f90:15: warning: OpenMP directive 'loop' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected OpenMP construct); the output keeps it as written
! WARN-NOT: warning

! CHECK:      {{^}}    call POMP_Function_begin(pomp_h({{[0-9]+}}), pomp_tid(), '{{[0-9]+}}*type=function*name=fill*
! CHECK-NEXT: {{^}}    !$omp loop bind(thread){{$}}
! CHECK-NEXT: {{^}}    do i = 1, n{{$}}
! CHECK-NEXT: {{^}}      call POMP_Loop_enter(pomp_h([[L:[0-9]+]]), -1, -1_8, int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=simd*
! CHECK-NEXT: {{^}}      !$omp simd{{$}}
! CHECK:      {{^}}      call POMP_Loop_exit(pomp_h([[L]]), -1){{$}}
! CHECK-NEXT: {{^}}    end do{{$}}

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Loop_enter 16
! EVENTS-NEXT: pomp-check: Loop_exit 16
! EVENTS-NEXT: pomp-check: Function_begin 1
! EVENTS-NEXT: pomp-check: Function_end 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Loop_enter 16
! EVENTS-NEXT: pomp-check: Loop_exit 16
! EVENTS-NEXT: pomp-check: Function_begin 1
! EVENTS-NEXT: pomp-check: Function_end 1
! EVENTS-NEXT: pomp-check: violations 0
