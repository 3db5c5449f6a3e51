! teams, distribute and their combined forms, and the target family on the host. gfortran only:
! flang-new-19 cannot compile distribute on the host yet (a crash in its OpenMP translation, or
! "not yet implemented" for the composite forms). teams gets its events, the threads inside it
! are -1 also with --thread-ids (no runtime calls strictly in teams), a combined `teams distribute ...` gets the teams
! events only. A target construct gets Target_enter/exit on the host around it; its body is
! device code: as in C nothing inside it is instrumented; `target data` gets
! Target_data_enter/exit and its body, host code, is instrumented (target.f90).
! RUN: %ompinst %s -o %t.f90 --no-line-directives --thread-ids 2> %t.err
! RUN: %FileCheck --allow-empty --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
program teams
  implicit none
  integer :: i, n, s, a(64)
  n = 64
  s = 0
  a = 1
  !$omp teams num_teams(2) thread_limit(2)
  !$omp distribute
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp end distribute
  !$omp end teams
  !$omp teams distribute parallel do num_teams(2)
  do i = 1, n
    a(i) = a(i) + 3
  end do
  !$omp teams num_teams(2)
  !$omp distribute parallel do simd
  do i = 1, n
    a(i) = a(i) * 2
  end do
  !$omp end teams
  !$omp teams distribute simd num_teams(2)
  do i = 1, n
    a(i) = a(i) - 1
  end do
  !$omp target data map(tofrom: a)
  !$omp parallel do
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp end target data
  !$omp target map(tofrom: a)
  !$omp parallel do
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp end target
  !$omp target teams distribute parallel do simd map(tofrom: a)
  do i = 1, n
    a(i) = a(i) + 1
  end do
  !$omp target parallel do map(tofrom: a)
  do i = 1, n
    a(i) = a(i) + 1
  end do
  s = sum(a)
  print *, s
end program teams

! WARN-NOT: warning

! CHECK:      call POMP_Teams_enter(pomp_h([[T:[0-9]+]]), pomp_tid(), -1, -1, pomp_ctx_[[T]], '{{[0-9]+}}*type=teams*
! CHECK-NEXT: !$omp teams num_teams(2) thread_limit(2) firstprivate(pomp_ctx_[[T]])
! CHECK-NEXT: call POMP_Teams_begin(pomp_h([[T]]), -1, pomp_ctx_[[T]])
! CHECK-NEXT: call POMP_Loop_enter(pomp_h([[D:[0-9]+]]), -1, -1_8, int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=distribute*
! CHECK-NEXT: !$omp distribute
! CHECK:      !$omp end distribute
! CHECK-NEXT: call POMP_Loop_exit(pomp_h([[D]]), -1)
! CHECK-NEXT: call POMP_Teams_end(pomp_h([[T]]), -1)
! CHECK-NEXT: !$omp end teams
! CHECK-NEXT: call POMP_Teams_exit(pomp_h([[T]]), pomp_tid())
! CHECK-NEXT: call POMP_Teams_enter({{.*}}type=teamsdistributeparalleldo*
! CHECK-NEXT: !$omp teams distribute parallel do num_teams(2){{$}}
! CHECK:      call POMP_Loop_enter({{.*}}type=distributeparalleldo*
! CHECK-NEXT: !$omp distribute parallel do simd
! CHECK:      call POMP_Teams_enter({{.*}}type=teamsdistribute*
! CHECK-NEXT: !$omp teams distribute simd num_teams(2){{$}}
! CHECK:      call POMP_Target_data_enter(pomp_h([[TD:[0-9]+]]), pomp_tid(), -1, '{{[0-9]+}}*type=targetdata*
! CHECK-NEXT: !$omp target data map(tofrom: a)
! CHECK-NEXT: call POMP_Parallel_fork(
! CHECK:      !$omp end target data
! CHECK-NEXT: call POMP_Target_data_exit(pomp_h([[TD]]), pomp_tid())
! CHECK-NEXT: call POMP_Target_enter(pomp_h([[TT:[0-9]+]]), pomp_tid(), -1, '{{[0-9]+}}*type=target*
! CHECK-NEXT: !$omp target map(tofrom: a)
! CHECK-NEXT: !$omp parallel do
! CHECK-NEXT: do i = 1, n
! CHECK-NEXT: a(i) = a(i) + 1
! CHECK-NEXT: end do
! CHECK-NEXT: !$omp end target
! CHECK-NEXT: call POMP_Target_exit(pomp_h([[TT]]), pomp_tid())
! CHECK-NEXT: call POMP_Target_enter({{.*}}type=targetteamsdistributeparalleldo*
! CHECK-NEXT: !$omp target teams distribute parallel do simd map(tofrom: a)
! CHECK-NEXT: do i = 1, n
! CHECK-NEXT: a(i) = a(i) + 1
! CHECK-NEXT: end do
! CHECK-NEXT: call POMP_Target_exit(
! CHECK-NEXT: call POMP_Target_enter({{.*}}type=targetparalleldo*
! CHECK-NEXT: !$omp target parallel do map(tofrom: a)
! CHECK-NEXT: do i = 1, n

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 1
! EVENTS-NEXT: pomp-check: Parallel_end 1
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Teams_enter 4
! EVENTS-NEXT: pomp-check: Teams_begin 4
! EVENTS-NEXT: pomp-check: Teams_end 4
! EVENTS-NEXT: pomp-check: Teams_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 5
! EVENTS-NEXT: pomp-check: Loop_exit 5
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 1
! EVENTS-NEXT: pomp-check: Target_enter 3
! EVENTS-NEXT: pomp-check: Target_exit 3
! EVENTS-NEXT: pomp-check: Target_data_enter 1
! EVENTS-NEXT: pomp-check: Target_data_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Teams_enter 4
! EVENTS-NEXT: pomp-check: Teams_begin 4
! EVENTS-NEXT: pomp-check: Teams_end 4
! EVENTS-NEXT: pomp-check: Teams_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 6
! EVENTS-NEXT: pomp-check: Loop_exit 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 2
! EVENTS-NEXT: pomp-check: Target_enter 3
! EVENTS-NEXT: pomp-check: Target_exit 3
! EVENTS-NEXT: pomp-check: Target_data_enter 1
! EVENTS-NEXT: pomp-check: Target_data_exit 1
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 1
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 1
! EVENTS-NEXT: pomp-check: Teams_enter 4
! EVENTS-NEXT: pomp-check: Teams_begin 4
! EVENTS-NEXT: pomp-check: Teams_end 4
! EVENTS-NEXT: pomp-check: Teams_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 8
! EVENTS-NEXT: pomp-check: Loop_exit 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: Target_enter 3
! EVENTS-NEXT: pomp-check: Target_exit 3
! EVENTS-NEXT: pomp-check: Target_data_enter 1
! EVENTS-NEXT: pomp-check: Target_data_exit 1
! EVENTS-NEXT: pomp-check: violations 0
