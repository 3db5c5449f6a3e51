! Fixed form, more constructs: the C$OMP, *$OMP and !$OMP sentinels, C$ *$ !$ conditional
! lines, masked, taskgroup, taskyield, an ordered block in a loop whose directive continues over
! two C$OMP& lines, workshare, parallel do simd and parallel masked; F77 loops: two `DO 10` loops
! sharing their terminal `10 CONTINUE`, a `DO 20` loop ending on an assignment, a `parallel do`
! with and without `end parallel do`, in the main program and in a subroutine.
! RUN: %ompinst %s -o %t.f --no-line-directives
! RUN: awk 'length($0) > 72 && !/^!/ { print FILENAME ":" FNR ": longer than 72 columns"; bad = 1 } END { exit bad }' %t.f
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM F77C
      INTEGER I, J, N, S, T, M
      INTEGER A(20,20), B(100)
      N = 20
      S = 0
      T = 0
      M = 0
C$    M = 100
*$    M = M + 1
!$    M = M + 1
C$OMP PARALLEL SHARED(A, B, S, T, M)
C$OMP DO
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = I + J
   10 CONTINUE
*$OMP MASKED FILTER(0)
      M = M + 1
*$OMP END MASKED
!$OMP SINGLE
!$OMP TASKGROUP
!$OMP TASK SHARED(T)
!$OMP ATOMIC
      T = T + 1
!$OMP END TASK
!$OMP TASKYIELD
!$OMP END TASKGROUP
!$OMP END SINGLE
C$OMP DO ORDERED
C$OMP& SCHEDULE(STATIC,
C$OMP&          2)
      DO 20 I = 1, 100
C$OMP ORDERED
      S = S + I
C$OMP END ORDERED
   20 B(I) = I
C$OMP WORKSHARE
      B = B + 1
C$OMP END WORKSHARE
C$OMP END PARALLEL
C$OMP PARALLEL DO SIMD
      DO 30 I = 1, 100
         B(I) = B(I) + 1
   30 CONTINUE
C$OMP PARALLEL MASKED
      M = M + 1
C$OMP END PARALLEL MASKED
      CALL KERNEL(B, 100, T)
      PRINT *, S, T, M, SUM(A), SUM(B)
      END
      SUBROUTINE KERNEL(X, K, T)
      INTEGER K, T, X(K), L
C$OMP PARALLEL DO REDUCTION(+:T)
      DO 40 L = 1, K
   40 T = T + X(L)
C$OMP END PARALLEL DO
      RETURN
      END

! The conditional lines are left as they are.
! CHECK:      {{^}}C$    M = 100
! CHECK-NEXT: {{^}}*$    M = M + 1
! CHECK-NEXT: {{^}}!$    M = M + 1
! CHECK:      {{^}}C$OMP DO
! CHECK-NEXT: {{^}}      DO 10 J = 1, N
! CHECK-NEXT: {{^}}      DO 10 I = 1, N
! CHECK-NEXT: {{^}}         A(I,J) = I + J
! CHECK-NEXT: {{^}}   10 CONTINUE
! CHECK-NEXT: {{^}}!$omp end do nowait
! CHECK:      {{^}}*$OMP MASKED FILTER(0)
! CHECK-NEXT: {{^}}      call POMP_Masked_begin(
! CHECK:      call POMP_Taskgroup_enter(
! CHECK-NEXT: {{^}}!$OMP TASKGROUP
! CHECK:      call POMP_Taskyield_enter(
! CHECK-NEXT: {{^}}!$OMP TASKYIELD
! CHECK-NEXT: call POMP_Taskyield_exit(
! CHECK:      call POMP_Loop_enter(pomp_h({{[0-9]+}}), -1, int(2, 8), int(1, 8), int(100, 8), 1_8, '{{[0-9]+}}*type=do*file={{.*}}*slines=38,40*elines=45,45*
! CHECK-NEXT: {{^}}C$OMP DO ORDERED
! CHECK-NEXT: {{^}}C$OMP& SCHEDULE(STATIC,
! CHECK-NEXT: {{^}}C$OMP&          2)
! CHECK:      call POMP_Ordered_begin(
! CHECK-NEXT: {{^}}      S = S + I
! CHECK:      {{^}}   20 B(I) = I
! CHECK-NEXT: {{^}}!$omp end do nowait
! CHECK:      {{^}}C$OMP WORKSHARE
! CHECK:      type=paralleldosimd
! CHECK:      {{^}}   30 CONTINUE
! CHECK-NEXT: {{^}}!$omp end do simd nowait
! CHECK:      type=parallelmasked
! CHECK:      {{^}}!$omp masked
! CHECK:      {{^}}   40 T = T + X(L)
! CHECK-NEXT: {{^}}!$omp end do nowait

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 4
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
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 8
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 100
! EVENTS-NEXT: pomp-check: Ordered_begin 100
! EVENTS-NEXT: pomp-check: Ordered_end 100
! EVENTS-NEXT: pomp-check: Ordered_exit 100
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
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 8
! EVENTS-NEXT: pomp-check: Parallel_end 8
! EVENTS-NEXT: pomp-check: Parallel_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 8
! EVENTS-NEXT: pomp-check: Loop_exit 8
! EVENTS-NEXT: pomp-check: Workshare_enter 2
! EVENTS-NEXT: pomp-check: Workshare_exit 2
! EVENTS-NEXT: pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 2
! EVENTS-NEXT: pomp-check: Masked_begin 2
! EVENTS-NEXT: pomp-check: Masked_end 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 16
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 16
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 100
! EVENTS-NEXT: pomp-check: Ordered_begin 100
! EVENTS-NEXT: pomp-check: Ordered_end 100
! EVENTS-NEXT: pomp-check: Ordered_exit 100
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
! EVENTS-NEXT: pomp-check: Parallel_fork 4
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 16
! EVENTS-NEXT: pomp-check: Parallel_end 16
! EVENTS-NEXT: pomp-check: Parallel_exit 4
! EVENTS-NEXT: pomp-check: Loop_enter 16
! EVENTS-NEXT: pomp-check: Loop_exit 16
! EVENTS-NEXT: pomp-check: Workshare_enter 4
! EVENTS-NEXT: pomp-check: Workshare_exit 4
! EVENTS-NEXT: pomp-check: Single_enter 4
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS-NEXT: pomp-check: Single_end 1
! EVENTS-NEXT: pomp-check: Single_exit 4
! EVENTS-NEXT: pomp-check: Masked_begin 2
! EVENTS-NEXT: pomp-check: Masked_end 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 32
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 32
! EVENTS-NEXT: pomp-check: Atomic_event 1
! EVENTS-NEXT: pomp-check: Ordered_enter 100
! EVENTS-NEXT: pomp-check: Ordered_begin 100
! EVENTS-NEXT: pomp-check: Ordered_end 100
! EVENTS-NEXT: pomp-check: Ordered_exit 100
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
