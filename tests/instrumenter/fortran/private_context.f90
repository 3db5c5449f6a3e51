! The variables an instrumented construct adds (its context, its num_threads value) are locals of
! the procedure that every thread reaching the construct sets: each enclosing parallel or
! task-generating construct makes them private (a second walk adds the clause to the directive
! written before the nested construct was seen). Under default(none) gfortran rejected the file
! (PRK's transpose-tasks-openmp.F90: "'pomp_task_5' not specified in enclosing 'parallel'");
! shared, threads creating tasks at once could pass each other's context.
! RUN: %ompinst %s -o %t.f90 --no-line-directives
! RUN: %strip-fchecks %t.f90 | %FileCheck %s
! flang-new-19 miscompiles the plain program (at 4 threads it prints `8 29` or `13 29` where
! gfortran prints `44 20`): the runs are gfortran's; flang must still accept the output.
! RUN: %run-equivalence --fortran --only gcc --gcc %gfortran --clang %flang --original %s --instrumented %t.f90 | %FileCheck --check-prefix=EVENTS %s
! RUN: cd %T && %flang -fopenmp -fsyntax-only %t.f90
! EVENTS: Task_create_enter 24
! EVENTS: violations 0
program private_context
  implicit none
  integer :: i, j, s(8), t, n
  s = 0
  t = 0
  n = 1
! CHECK: !$omp parallel default(none) shared(s) private(i) firstprivate(pomp_ctx_1) private(pomp_task_[[T1:[0-9]+]]) shared(/pomp_cb_{{[0-9a-f]+}}/)
! CHECK: !$omp task firstprivate(i) shared(s) firstprivate(pomp_task_[[T1]])
  !$omp parallel default(none) shared(s) private(i)
  !$omp single
  do i = 1, 8
    !$omp task firstprivate(i) shared(s)
    s(i) = i
    !$omp end task
  end do
  !$omp end single
  !$omp end parallel
! Every thread creates tasks: each has its own context variable.
! CHECK: !$omp parallel private(j) firstprivate(pomp_ctx_{{[0-9]+}}) private(pomp_task_[[T2:[0-9]+]])
  !$omp parallel private(j)
  do j = 1, 4
    !$omp task shared(t)
    !$omp atomic
    t = t + 1
    !$omp end task
  end do
  !$omp end parallel
! A nested parallel region: its context and its num_threads value.
! CHECK: !$omp parallel default(none) shared(t, n) firstprivate(pomp_ctx_{{[0-9]+}}) private(pomp_ctx_[[P4:[0-9]+]], pomp_num_threads_[[P4]])
! CHECK: !$omp parallel num_threads(pomp_num_threads_[[P4]]) shared(t) firstprivate(pomp_ctx_[[P4]])
  !$omp parallel default(none) shared(t, n)
  !$omp parallel num_threads(n) shared(t)
  !$omp atomic
  t = t + 1
  !$omp end parallel
  !$omp end parallel
! A split parallel do: the parallel half gets the clause.
! CHECK: !$omp parallel default(none) shared(s) firstprivate(pomp_ctx_{{[0-9]+}}) private(pomp_task_{{[0-9]+}}) shared(/pomp_cb_{{[0-9a-f]+}}/)
! CHECK-NEXT: call POMP_Parallel_begin_forked
  !$omp parallel do default(none) shared(s)
  do i = 1, 8
    !$omp task shared(s) firstprivate(i)
    !$omp atomic
    s(i) = s(i) + 1
    !$omp end task
  end do
  !$omp end parallel do
  print *, sum(s), t
end program private_context
