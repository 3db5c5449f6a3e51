! Synchronisation and tasking constructs flang-new-19 and gfortran both compile: masked with a
! filter, barrier, taskgroup with a task and taskyield, an ordered block in a `do ordered` loop,
! workshare, simd, and the combined `parallel masked` (split like C's: the team, then masked)
! and `parallel do simd`.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program sync
  implicit none
  integer :: i, n, s, t, m, a(40), b(40)
  n = 40
  s = 0
  t = 0
  m = 0
  a = 1
  b = 0
  !$omp parallel shared(s, t, m, a, b)
  !$omp masked filter(0)
  m = m + 1
  !$omp end masked
  !$omp barrier
  !$omp single
  !$omp taskgroup
  !$omp task shared(t)
  !$omp atomic
  t = t + 1
  !$omp end task
  !$omp taskyield
  !$omp end taskgroup
  !$omp end single
  !$omp do ordered schedule(static, 3)
  do i = 1, n
    !$omp ordered
    s = s + i
    !$omp end ordered
  end do
  !$omp end do
  !$omp do
  do i = 1, n
    b(i) = i
  end do
  !$omp workshare
  b = b * 2
  !$omp end workshare
  !$omp end parallel
  !$omp simd safelen(8)
  do i = 1, n
    b(i) = b(i) + 1
  end do
  !$omp parallel masked filter(0)
  m = m + 10
  !$omp end parallel masked
  !$omp parallel do simd
  do i = 1, n
    b(i) = b(i) + 1
  end do
  print *, s, t, m, sum(a), sum(b)
end program sync

! CHECK:      !$omp masked filter(0)
! CHECK-NEXT: call POMP_Masked_begin(pomp_h([[M:[0-9]+]]), -1, -1, '{{[0-9]+}}*type=masked*file={{.*}}sync_constructs.f90*slines=18,18*elines=20,20*function=sync**')
! CHECK-NEXT: m = m + 1
! CHECK-NEXT: call POMP_Masked_end(pomp_h([[M]]), -1)
! CHECK-NEXT: !$omp end masked
! CHECK:      call POMP_Taskgroup_enter(pomp_h([[G:[0-9]+]]), -1, '{{[0-9]+}}*type=taskgroup*
! CHECK-NEXT: !$omp taskgroup
! CHECK-NEXT: call POMP_Taskgroup_begin(pomp_h([[G]]), -1)
! CHECK:      call POMP_Taskyield_enter(pomp_h([[Y:[0-9]+]]), -1, '{{[0-9]+}}*type=taskyield*
! CHECK-NEXT: !$omp taskyield
! CHECK-NEXT: call POMP_Taskyield_exit(pomp_h([[Y]]), -1)
! CHECK-NEXT: call POMP_Taskgroup_end(pomp_h([[G]]), -1)
! CHECK-NEXT: !$omp end taskgroup
! CHECK-NEXT: call POMP_Taskgroup_exit(pomp_h([[G]]), -1)
! The loop's chunk size goes to Loop_enter; the ordered block gets all four events.
! CHECK:      call POMP_Loop_enter(pomp_h({{[0-9]+}}), -1, int(3, 8), int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=do*{{.*}}*hasOrdered=1*
! CHECK-NEXT: !$omp do ordered schedule(static, 3)
! CHECK-NEXT: do i = 1, n
! CHECK-NEXT: call POMP_Ordered_enter(pomp_h([[O:[0-9]+]]), -1, '{{[0-9]+}}*type=ordered*
! CHECK-NEXT: !$omp ordered
! CHECK-NEXT: call POMP_Ordered_begin(pomp_h([[O]]), -1)
! CHECK-NEXT: s = s + i
! CHECK-NEXT: call POMP_Ordered_end(pomp_h([[O]]), -1)
! CHECK-NEXT: !$omp end ordered
! CHECK-NEXT: call POMP_Ordered_exit(pomp_h([[O]]), -1)
! CHECK-NEXT: end do
! CHECK-NEXT: !$omp end do nowait
! CHECK:      call POMP_Workshare_enter(
! CHECK-NEXT: !$omp workshare
! CHECK-NEXT: b = b * 2
! CHECK-NEXT: !$omp end workshare nowait
! simd gets enter and exit around it, nothing inside.
! CHECK:      call POMP_Loop_enter(pomp_h([[L:[0-9]+]]), -1, -1_8, int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=simd*
! CHECK-NEXT: !$omp simd safelen(8)
! CHECK-NEXT: do i = 1, n
! CHECK-NEXT: b(i) = b(i) + 1
! CHECK-NEXT: end do
! CHECK-NEXT: call POMP_Loop_exit(pomp_h([[L]]), -1)
! CHECK-NEXT: call POMP_Parallel_fork(pomp_h([[P:[0-9]+]]), -1, -1, -1, pomp_ctx_[[P]], '{{[0-9]+}}*type=parallelmasked*
! CHECK-NEXT: !$omp parallel firstprivate(pomp_ctx_[[P]])
! CHECK-NEXT: call POMP_Parallel_begin_forked(
! CHECK-NEXT: !$omp masked filter(0)
! CHECK-NEXT: call POMP_Masked_begin(
! CHECK-NEXT: m = m + 10
! CHECK-NEXT: call POMP_Masked_end(
! CHECK-NEXT: !$omp end masked
! CHECK-NEXT: call POMP_Implicit_barrier_enter(
! CHECK-NEXT: !$omp barrier
! CHECK-NEXT: call POMP_Implicit_barrier_exit(
! CHECK-NEXT: call POMP_Parallel_end(pomp_h([[P]]), -1)
! CHECK-NEXT: !$omp end parallel
! CHECK-NEXT: call POMP_Parallel_exit(pomp_h([[P]]), -1)
! CHECK-NEXT: call POMP_Parallel_fork({{.*}}type=paralleldosimd*
! CHECK-NEXT: !$omp parallel firstprivate(
! CHECK-NEXT: call POMP_Parallel_begin_forked(
! CHECK-NEXT: call POMP_Loop_enter({{.*}}type=dosimd*
! CHECK-NEXT: !$omp do simd

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 3
! EVENTS-NEXT: pomp-check: Parallel_end 3
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Workshare_enter 1
! EVENTS-NEXT: pomp-check: Workshare_exit 1
! EVENTS-NEXT: pomp-check: Single_enter 1
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 1
! EVENTS-NEXT: pomp-check: Masked_begin 2
! EVENTS-NEXT: pomp-check: Masked_end 2
! EVENTS-NEXT: pomp-check: Barrier_enter 1
! EVENTS-NEXT: pomp-check: Barrier_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 7
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 7
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 40
! EVENTS-NEXT: pomp-check: Ordered_begin 40
! EVENTS-NEXT: pomp-check: Ordered_end 40
! EVENTS-NEXT: pomp-check: Ordered_exit 40
! EVENTS-NEXT: pomp-check: Task_create_enter 1
! EVENTS-NEXT: pomp-check: Task_create_exit 1
! EVENTS-NEXT: pomp-check: Task_begin 1
! EVENTS-NEXT: pomp-check: Task_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_enter 1
! EVENTS-NEXT: pomp-check: Taskgroup_begin 1
! EVENTS-NEXT: pomp-check: Taskgroup_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_exit 1
! EVENTS-NEXT: pomp-check: Taskyield_enter 1
! EVENTS-NEXT: pomp-check: Taskyield_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 6
! EVENTS-NEXT: pomp-check: Parallel_end 6
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 7
! EVENTS-NEXT: pomp-check: Loop_exit 7
! EVENTS-NEXT: pomp-check: Workshare_enter 2
! EVENTS-NEXT: pomp-check: Workshare_exit 2
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Masked_begin 2
! EVENTS-NEXT: pomp-check: Masked_end 2
! EVENTS-NEXT: pomp-check: Barrier_enter 2
! EVENTS-NEXT: pomp-check: Barrier_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 14
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 14
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 40
! EVENTS-NEXT: pomp-check: Ordered_begin 40
! EVENTS-NEXT: pomp-check: Ordered_end 40
! EVENTS-NEXT: pomp-check: Ordered_exit 40
! EVENTS-NEXT: pomp-check: Task_create_enter 1
! EVENTS-NEXT: pomp-check: Task_create_exit 1
! EVENTS-NEXT: pomp-check: Task_begin 1
! EVENTS-NEXT: pomp-check: Task_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_enter 1
! EVENTS-NEXT: pomp-check: Taskgroup_begin 1
! EVENTS-NEXT: pomp-check: Taskgroup_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_exit 1
! EVENTS-NEXT: pomp-check: Taskyield_enter 1
! EVENTS-NEXT: pomp-check: Taskyield_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 12
! EVENTS-NEXT: pomp-check: Parallel_end 12
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 13
! EVENTS-NEXT: pomp-check: Loop_exit 13
! EVENTS-NEXT: pomp-check: Workshare_enter 4
! EVENTS-NEXT: pomp-check: Workshare_exit 4
! EVENTS-NEXT: pomp-check: Single_enter 4
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 4
! EVENTS-NEXT: pomp-check: Masked_begin 2
! EVENTS-NEXT: pomp-check: Masked_end 2
! EVENTS-NEXT: pomp-check: Barrier_enter 4
! EVENTS-NEXT: pomp-check: Barrier_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 28
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 28
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 40
! EVENTS-NEXT: pomp-check: Ordered_begin 40
! EVENTS-NEXT: pomp-check: Ordered_end 40
! EVENTS-NEXT: pomp-check: Ordered_exit 40
! EVENTS-NEXT: pomp-check: Task_create_enter 1
! EVENTS-NEXT: pomp-check: Task_create_exit 1
! EVENTS-NEXT: pomp-check: Task_begin 1
! EVENTS-NEXT: pomp-check: Task_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_enter 1
! EVENTS-NEXT: pomp-check: Taskgroup_begin 1
! EVENTS-NEXT: pomp-check: Taskgroup_end 1
! EVENTS-NEXT: pomp-check: Taskgroup_exit 1
! EVENTS-NEXT: pomp-check: Taskyield_enter 1
! EVENTS-NEXT: pomp-check: Taskyield_exit 1
! EVENTS-NEXT: pomp-check: violations 0
