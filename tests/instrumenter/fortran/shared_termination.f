! A worksharing loop whose DO shares its terminal statement with an enclosing loop (F77 `DO 10`
! nests ending on one `10 CONTINUE`): nothing can go after the inner loop alone (no `end do`, no
! exit event), so it is left as it is, with a warning; the loop around it and the enclosing
! parallel region are instrumented. Found by mutations.test.
! RUN: %ompinst %s -o %t.f --no-line-directives 2> %t.err
! RUN: %FileCheck --check-prefix=WARN %s < %t.err
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM SHARED
      INTEGER I, J, N, A(10,10)
      N = 10
C$OMP PARALLEL SHARED(A, N) PRIVATE(J)
      DO 10 J = 1, N
C$OMP DO
      DO 10 I = 1, N
         A(I,J) = I + J
   10 CONTINUE
C$OMP END PARALLEL
C$OMP PARALLEL DO
      DO 20 J = 1, N
      DO 20 I = 1, N
         A(I,J) = A(I,J) + 1
   20 CONTINUE
      PRINT *, SUM(A)
      END

! WARN: shared_termination.f:14: warning: OpenMP loop construct whose loop ends on the line of an enclosing loop (a shared DO termination) is not instrumented
! WARN-NOT: warning

! CHECK:      {{^}}C$OMP DO
! CHECK-NEXT: {{^}}      DO 10 I = 1, N
! CHECK-NEXT: {{^}}         A(I,J) = I + J
! CHECK-NEXT: {{^}}   10 CONTINUE
! CHECK-NEXT: call POMP_Implicit_barrier_enter(
! CHECK:      type=paralleldo
! CHECK:      {{^}}   20 CONTINUE
! CHECK-NEXT: {{^}}!$omp end do nowait

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 2
! EVENTS-NEXT: pomp-check: Parallel_end 2
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 1
! EVENTS-NEXT: pomp-check: Loop_exit 1
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 2
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 4
! EVENTS-NEXT: pomp-check: Parallel_end 4
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 2
! EVENTS-NEXT: pomp-check: Loop_exit 2
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 4
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 2
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 8
! EVENTS-NEXT: pomp-check: Parallel_end 8
! EVENTS-NEXT: pomp-check: Parallel_exit 2
! EVENTS-NEXT: pomp-check: Loop_enter 4
! EVENTS-NEXT: pomp-check: Loop_exit 4
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 8
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 8
! EVENTS-NEXT: pomp-check: violations 0
