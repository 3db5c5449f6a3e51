! Fixed form: a loop construct's loop ending inside a line, before `; <statement>` (see
! loop_end_semicolon.f90). The statement after the `;` keeps its columns.
! RUN: %ompinst %s -o %t.f
! RUN: %FileCheck %s < %t.f
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM SEMI
      INTEGER I, J, N, B, A(10)
      N = 10
      B = 0
C$OMP PARALLEL DO
      DO 20 I = 1, N
   20 A(I) = I; B = B + 1
      DO 40 J = 1, 2
C$OMP PARALLEL DO
      DO 30 I = 1, N
   30 A(I) = A(I) + J; B = B + J
   40 CONTINUE
      PRINT *, SUM(A), B
      END

! CHECK:      {{^}}   20 A(I) = I{{$}}
! CHECK-NEXT: {{^}}!$omp end do nowait
! CHECK:      call POMP_Parallel_exit(pomp_h(1), -1)
! CHECK-NEXT: {{^}}# 12 "{{.*}}loop_end_semicolon_fixed.f"
! CHECK-NEXT: {{^}}                B = B + 1{{$}}
! CHECK:      {{^}}   30 A(I) = A(I) + J{{$}}
! CHECK-NEXT: {{^}}!$omp end do nowait
! CHECK:      call POMP_Parallel_exit(
! CHECK-NEXT: {{^}}# 16 "{{.*}}loop_end_semicolon_fixed.f"
! CHECK-NEXT: {{^}}                        B = B + J{{$}}
! CHECK-NEXT: {{^}}   40 CONTINUE

! EVENTS:      threads 1
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 3
! EVENTS-NEXT: pomp-check: Parallel_end 3
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 3
! EVENTS-NEXT: pomp-check: Loop_exit 3
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 3
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 3
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 2
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 6
! EVENTS-NEXT: pomp-check: Parallel_end 6
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 6
! EVENTS-NEXT: pomp-check: Loop_exit 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 6
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 6
! EVENTS-NEXT: pomp-check: violations 0
! EVENTS:      threads 4
! EVENTS-NEXT: pomp-check: Parallel_fork 3
! EVENTS-NEXT: pomp-check: Parallel_begin_forked 12
! EVENTS-NEXT: pomp-check: Parallel_end 12
! EVENTS-NEXT: pomp-check: Parallel_exit 3
! EVENTS-NEXT: pomp-check: Loop_enter 12
! EVENTS-NEXT: pomp-check: Loop_exit 12
! EVENTS-NEXT: pomp-check: Implicit_barrier_enter 12
! EVENTS-NEXT: pomp-check: Implicit_barrier_exit 12
! EVENTS-NEXT: pomp-check: violations 0
