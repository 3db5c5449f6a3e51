! Directives Flang 19's parser rejects but gfortran compiles (OpenMP 5.x forms) are hidden from
! the parse: turned into comments of the same length, so the rest of the file is instrumented,
! then written back as they were, each said by a warning at its file:line. A construct whose
! end directive is hidden with it; code that would come between a hidden directive and the
! statement it takes (a strictly structured block, a loop) goes before the directive.
! RUN: %ompinst %s -o %t.f90 --no-line-directives 2> %t.err
! RUN: %FileCheck --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
module variants
  implicit none
contains
  subroutine twice(v, n)
    integer, intent(in) :: n
    integer, intent(inout) :: v(n)
    !$omp declare variant(twice_par) match(construct={parallel})
    v = 2 * v
  end subroutine
  subroutine twice_par(v, n)
    integer, intent(in) :: n
    integer, intent(inout) :: v(n)
    v = v + v
  end subroutine
end module

program hidden
  use variants
  implicit none
  integer :: k, total, prefix(8), vals(8), c, a, b
  !$omp parallel num_threads(2)
  block
    integer :: j
    !$omp do
    do j = 1, 8
      vals(j) = j * j
    end do
  end block
  total = 0
  !$omp parallel do simd reduction(inscan, +: total)
  do k = 1, 8
    total = total + vals(k)
    !$omp scan inclusive(total)
    prefix(k) = total
  end do
  c = 0
  a = 1
  b = 2
  !$omp parallel
  !$omp single
  !$omp task depend(in: a) &
  !$omp&     depend(mutexinoutset: c)
  c = c + a
  !$omp end task
  !$omp task depend(in: b) depend(mutexinoutset: c)
  c = c + b
  !$omp end task
  !$omp end single
  !$omp end parallel
  call twice(prefix, 8)
  print *, total, prefix, c
end program

! WARN:      hidden_directives.f90:16: warning: OpenMP directive 'declare variant' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: bad character ('{') in Fortran token); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:30: warning: OpenMP directive 'parallel' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected OpenMP construct); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:42: warning: OpenMP directive 'scan' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected OpenMP construct); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:50: warning: OpenMP directive 'task' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected end of line); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:53: warning: OpenMP directive 'end task' is not instrumented and was hidden from the parse (it ends the directive hidden at line 50); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:54: warning: OpenMP directive 'task' is not instrumented and was hidden from the parse (Flang 19's parser rejects it: expected end of line); the output keeps it as written
! WARN-NEXT: hidden_directives.f90:56: warning: OpenMP directive 'end task' is not instrumented and was hidden from the parse (it ends the directive hidden at line 54); the output keeps it as written
! WARN-NOT:  warning

! The hidden lines are in the output as written.
! CHECK:      {{^}}    !$omp declare variant(twice_par) match(construct={parallel}){{$}}
! CHECK-NEXT: {{^}}    v = 2 * v{{$}}
! The main program's handles and POMP_Init go before the hidden directive, not between it and
! the block it takes; the orphaned `do` in the block is instrumented.
! CHECK:      {{^}}  call POMP_Init(){{$}}
! CHECK-NEXT: {{^}}  !$omp parallel num_threads(2){{$}}
! CHECK-NEXT: {{^}}  block{{$}}
! CHECK-NEXT: {{^}}    integer :: j{{$}}
! CHECK-NEXT: {{^}}    call POMP_Loop_enter(pomp_h([[L:[0-9]+]]), -1, -1_8, int(1, 8), int(8, 8), 1_8, '{{[0-9]+}}*type=do*
! CHECK-NEXT: {{^}}    !$omp do{{$}}
! CHECK:      {{^}}    call POMP_Loop_exit(pomp_h([[L]]), -1){{$}}
! CHECK-NEXT: {{^}}  end block{{$}}
! The scan phase's directive stays in the loop of the split `parallel do simd`, nothing inserted
! in the loop.
! CHECK:      {{^}}  !$omp do simd reduction(inscan, +: total){{$}}
! CHECK-NEXT: {{^}}  do k = 1, 8{{$}}
! CHECK-NEXT: {{^}}    total = total + vals(k){{$}}
! CHECK-NEXT: {{^}}    !$omp scan inclusive(total){{$}}
! CHECK-NEXT: {{^}}    prefix(k) = total{{$}}
! CHECK-NEXT: {{^}}  end do{{$}}
! CHECK-NEXT: {{^}}  !$omp end do simd nowait{{$}}
! The hidden tasks, their continuation and end lines, unchanged inside the instrumented single.
! CHECK:      {{^}}  call POMP_Single_begin(pomp_h([[S:[0-9]+]]), -1){{$}}
! CHECK-NEXT: {{^}}  !$omp task depend(in: a) &{{$}}
! CHECK-NEXT: {{^}}  !$omp&     depend(mutexinoutset: c){{$}}
! CHECK-NEXT: {{^}}  c = c + a{{$}}
! CHECK-NEXT: {{^}}  !$omp end task{{$}}
! CHECK-NEXT: {{^}}  !$omp task depend(in: b) depend(mutexinoutset: c){{$}}
! CHECK-NEXT: {{^}}  c = c + b{{$}}
! CHECK-NEXT: {{^}}  !$omp end task{{$}}
! CHECK-NEXT: {{^}}  call POMP_Single_end(pomp_h([[S]]), -1){{$}}
! CHECK-NOT:  POMP_Task

! The hidden parallel runs 2 threads whatever OMP_NUM_THREADS says; its `do` is measured.
! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 3
! EVENTS-NEXT: pomp-check: Loop_exit 3
! EVENTS-NEXT: pomp-check: Single_enter 1
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 5
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 8
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 8
! EVENTS-NEXT: pomp-check: Parallel_end 8
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 6
! EVENTS-NEXT: pomp-check: Loop_exit 6
! EVENTS-NEXT: pomp-check: Single_enter 4
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 14
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 14
! EVENTS-NEXT: pomp-check: violations 0
