! Tasking and cancellation constructs flang-new-19 parses but cannot compile yet (its lowering
! stops with "not yet implemented" for taskloop, doacross `ordered depend` and cancel): taskloop
! and taskloop simd, masked taskloop, parallel masked taskloop (+ simd, not split, as in C),
! doacross ordered, cancel and cancellation point in a loop, cancel in parallel sections (with
! reduction(+:s): its two sections both update s). Run with gfortran only; ompinst's output is
! the same for both compilers.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program tasking
  implicit none
  integer :: i, n, s, c, a(40), b(40)
  n = 40
  s = 0
  c = 0
  a = 1
  b = 0
  !$omp parallel shared(a, b, s, c)
  !$omp single
  !$omp taskloop grainsize(10)
  do i = 1, n
    b(i) = i
  end do
  !$omp end taskloop
  !$omp taskloop simd num_tasks(4)
  do i = 1, n
    b(i) = b(i) + 1
  end do
  !$omp end single
  !$omp masked taskloop
  do i = 1, n
    b(i) = b(i) * 2
  end do
  !$omp end masked taskloop
  !$omp barrier
  !$omp do ordered(1)
  do i = 2, n
    !$omp ordered depend(sink: i-1)
    a(i) = a(i) + a(i-1)
    !$omp ordered depend(source)
  end do
  !$omp do reduction(+:c)
  do i = 1, n
    !$omp cancel do if(i < 0)
    c = c + 1
    !$omp cancellation point do
  end do
  !$omp end do
  !$omp end parallel
  !$omp parallel masked taskloop
  do i = 1, n
    b(i) = b(i) + 1
  end do
  !$omp parallel masked taskloop simd
  do i = 1, n
    b(i) = b(i) + 1
  end do
  !$omp parallel sections reduction(+:s)
  !$omp section
  s = s + 1
  !$omp section
  !$omp cancel sections if(s < 0)
  s = s + 2
  !$omp end parallel sections
  print *, s, c, sum(a), sum(b)
end program tasking

! CHECK:      call POMP_Taskloop_enter(pomp_h([[T:[0-9]+]]), -1, '{{[0-9]+}}*type=taskloop*
! CHECK-NEXT: !$omp taskloop grainsize(10)
! CHECK:      !$omp end taskloop
! CHECK-NEXT: call POMP_Taskloop_exit(pomp_h([[T]]), -1)
! CHECK-NEXT: call POMP_Taskloop_enter(pomp_h([[T2:[0-9]+]]), -1, '{{[0-9]+}}*type=taskloopsimd*
! CHECK-NEXT: !$omp taskloop simd num_tasks(4)
! Without `end taskloop simd` the construct ends with its loop.
! CHECK:      end do
! CHECK-NEXT: call POMP_Taskloop_exit(pomp_h([[T2]]), -1)
! CHECK:      call POMP_Taskloop_enter({{.*}}type=maskedtaskloop*
! CHECK-NEXT: !$omp masked taskloop
! The doacross forms are standalone: enter and exit around each.
! CHECK:      call POMP_Ordered_enter(pomp_h([[S:[0-9]+]]), -1, '{{[0-9]+}}*type=ordered*{{.*}}*hasDepend=1*function=tasking**')
! CHECK-NEXT: !$omp ordered depend(sink: i-1)
! CHECK-NEXT: call POMP_Ordered_exit(pomp_h([[S]]), -1)
! CHECK:      !$omp ordered depend(source)
! A loop that may be cancelled keeps its own barrier; the if of cancel is evaluated once.
! CHECK:      pomp_if_[[C:[0-9]+]] = merge(1, 0, i < 0)
! CHECK-NEXT: call POMP_Cancel_event(pomp_h([[C]]), -1, pomp_if_[[C]], '{{[0-9]+}}*type=cancel*
! CHECK-NEXT: !$omp cancel do if(pomp_if_[[C]] .ne. 0)
! CHECK:      call POMP_Cancellation_point_event(pomp_h({{[0-9]+}}), -1, '{{[0-9]+}}*type=cancellationpoint*
! CHECK-NEXT: !$omp cancellation point do
! CHECK:      !$omp end do{{$}}
! CHECK:      call POMP_Parallel_fork({{.*}}type=parallelmaskedtaskloop*
! CHECK-NEXT: !$omp parallel masked taskloop{{$}}
! CHECK:      call POMP_Parallel_fork({{.*}}type=parallelmaskedtaskloop*
! CHECK-NEXT: !$omp parallel masked taskloop simd{{$}}
! CHECK:      !$omp cancel sections if(pomp_if_{{[0-9]+}} .ne. 0)
! CHECK:      !$omp end sections{{$}}

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 2
! EVENTS-NEXT: pomp-check: Loop_exit 2
! EVENTS-NEXT: pomp-check: Sections_enter 1
! EVENTS-NEXT: pomp-check: Section_begin 2
! EVENTS-NEXT: pomp-check: Section_end 2
! EVENTS-NEXT: pomp-check: Sections_exit 1
! EVENTS-NEXT: pomp-check: Single_enter 1
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 1
! EVENTS-NEXT: pomp-check: Barrier_enter 1
! EVENTS-NEXT: pomp-check: Barrier_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 3
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 3
! EVENTS-NEXT: pomp-check: Ordered_enter 78
! EVENTS-NEXT: pomp-check: Ordered_exit 78
! EVENTS-NEXT: pomp-check: Cancel_event 41
! EVENTS-NEXT: pomp-check: Cancellation_point_event 40
! EVENTS-NEXT: pomp-check: Taskloop_enter 3
! EVENTS-NEXT: pomp-check: Taskloop_exit 3
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Sections_enter 2
! EVENTS-NEXT: pomp-check: Section_begin 2
! EVENTS-NEXT: pomp-check: Section_end 2
! EVENTS-NEXT: pomp-check: Sections_exit 2
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Barrier_enter 2
! EVENTS-NEXT: pomp-check: Barrier_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 6
! EVENTS-NEXT: pomp-check: Ordered_enter 78
! EVENTS-NEXT: pomp-check: Ordered_exit 78
! EVENTS-NEXT: pomp-check: Cancel_event 41
! EVENTS-NEXT: pomp-check: Cancellation_point_event 40
! EVENTS-NEXT: pomp-check: Taskloop_enter 4
! EVENTS-NEXT: pomp-check: Taskloop_exit 4
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 8
! EVENTS-NEXT: pomp-check: Parallel_end 8
! EVENTS-NEXT: pomp-check: Parallel_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 8
! EVENTS-NEXT: pomp-check: Loop_exit 8
! EVENTS-NEXT: pomp-check: Sections_enter 4
! EVENTS-NEXT: pomp-check: Section_begin 2
! EVENTS-NEXT: pomp-check: Section_end 2
! EVENTS-NEXT: pomp-check: Sections_exit 4
! EVENTS-NEXT: pomp-check: Single_enter 4
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 4
! EVENTS-NEXT: pomp-check: Barrier_enter 4
! EVENTS-NEXT: pomp-check: Barrier_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 12
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 12
! EVENTS-NEXT: pomp-check: Ordered_enter 78
! EVENTS-NEXT: pomp-check: Ordered_exit 78
! EVENTS-NEXT: pomp-check: Cancel_event 41
! EVENTS-NEXT: pomp-check: Cancellation_point_event 40
! EVENTS-NEXT: pomp-check: Taskloop_enter 6
! EVENTS-NEXT: pomp-check: Taskloop_exit 6
! EVENTS-NEXT: pomp-check: violations 0
