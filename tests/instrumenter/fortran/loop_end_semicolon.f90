! A loop construct without `end do` whose loop ends inside a line, before `; <statement>`: the
! statements after the `;` are no part of the loop, so the line is split there and the
! construct's end code goes between (before, it went after the whole line: the moved
! `!$omp end do nowait` made gfortran reject the file, and `b = 2` ran inside the team). The second region's `c = c + 1` runs once per
! thread, so it adds into a reduction: a shared `c` would race and the output would vary.
! RUN: %ompinst %s -o %t.f90
! RUN: %FileCheck %s < %t.f90
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program semicolon
  implicit none
  integer :: i, n, b, c, a(10)
  n = 10
  b = 0
  c = 0
!$omp parallel do
  do 20 i = 1, n
20  a(i) = i; b = b + 1
!$omp parallel reduction(+:c)
!$omp do
  do i = 1, n
    a(i) = a(i) + 1
  end do; c = c + 1
!$omp end parallel
!$omp parallel do
  do i = 1, n; a(i) = a(i) * 2; end do; b = b + 10; c = c + 10
  print *, sum(a), b, c
end program

! CHECK:      {{^}}20  a(i) = i{{$}}
! CHECK-NEXT: !$omp end do nowait
! CHECK:      call POMP_Parallel_exit(pomp_h(1), -1)
! CHECK-NEXT: {{^}}# 17 "{{.*}}loop_end_semicolon.f90"
! CHECK-NEXT: {{^}}b = b + 1{{$}}
! CHECK-NEXT: call POMP_Parallel_fork(pomp_h(4)
! CHECK:      {{^}}  end do{{$}}
! CHECK-NEXT: !$omp end do nowait
! CHECK:      call POMP_Loop_exit(
! CHECK-NEXT: {{^}}# 22 "{{.*}}loop_end_semicolon.f90"
! CHECK-NEXT: {{^}}  c = c + 1{{$}}
! CHECK:      {{^}}  do i = 1, n; a(i) = a(i) * 2; end do{{$}}
! CHECK-NEXT: !$omp end do nowait
! CHECK:      call POMP_Parallel_exit(
! CHECK-NEXT: {{^}}# 25 "{{.*}}loop_end_semicolon.f90"
! CHECK-NEXT: {{^}}  b = b + 10; c = c + 10{{$}}
! CHECK-NEXT: {{^}}  print *, sum(a), b, c

! Each statement after a loop runs once, in the initial thread.
! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 3
! EVENTS-NEXT: pomp-check: Parallel_end 3
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 3
! EVENTS-NEXT: pomp-check: Loop_exit 3
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 6
! EVENTS-NEXT: pomp-check: Parallel_end 6
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 6
! EVENTS-NEXT: pomp-check: Loop_exit 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 8
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 12
! EVENTS-NEXT: pomp-check: Parallel_end 12
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 12
! EVENTS-NEXT: pomp-check: Loop_exit 12
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 16
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 16
! EVENTS-NEXT: pomp-check: violations 0
