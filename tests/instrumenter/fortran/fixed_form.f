! Fixed form: inserted statements start in column 7, stay within column 72 and continue with `&`
! in column 6; clauses go on the directive's line when they fit, on a continuation line of the
! directive's own sentinel otherwise; an F77 `do 10` loop without `end do` gets `end do nowait`
! after its labelled terminal statement.
! RUN: %ompinst %s -o %t.f --no-line-directives
! RUN: awk 'length($0) > 72 && !/^!/ { print FILENAME ":" FNR ": longer than 72 columns"; bad = 1 } END { exit bad }' %t.f
! RUN: %strip-fchecks %t.f | %FileCheck %s
! RUN: %run-equivalence --fortran --gcc %gfortran --clang %flang --original %s --instrumented %t.f | %FileCheck --check-prefix=EVENTS %s
      PROGRAM F77
      INTEGER I, N, S, J
      DOUBLE PRECISION A(1000)
      N = 1000
      S = 0
C$OMP PARALLEL IF(N .GT. 1)
C$OMP+ SHARED(A, N) PRIVATE(J)
! CHECK:      {{^}}      pomp_if_1 = merge(1, 0, n .gt. 1)
! CHECK-NEXT: {{^}}      call POMP_Parallel_fork(pomp_h(1), -1, -1, pomp_if_1, pomp_ctx_1, '{{[0-9]+}}*type=parallel*file={{[^*]*}}fixed_form.f*slines=14,15*elines={{[0-9]+}},{{[0-9]+}}*hasIf=1*function=f77**')
! CHECK-NEXT: {{^}}C$OMP PARALLEL IF(pomp_if_1 .ne. 0)
! CHECK-NEXT: {{^}}C$OMP+ SHARED(A, N) PRIVATE(J) firstprivate(pomp_ctx_1)
C$OMP DO SCHEDULE(DYNAMIC, 10)
      DO 10 I = 1, N
         A(I) = DBLE(I) * 2.0D0
   10 CONTINUE
! CHECK:      call POMP_Loop_enter(pomp_h(3), -1, int(10, 8), int(1, 8), int(n, 8), 1_8, '{{[0-9]+}}*type=do*file={{[^*]*}}*slines=20,20*elines=23,23*schedule=dynamic*afterConstruct=1*function=f77**')
! CHECK:      {{^}}   10 CONTINUE
! CHECK-NEXT: {{^}}!$omp end do nowait
*$OMP CRITICAL
      S = S + 1
*$OMP END CRITICAL
!$OMP SINGLE
      J = 5
!$OMP END SINGLE COPYPRIVATE(J)
! copyprivate needs its own barrier: no nowait, no barrier shown.
! CHECK:      {{^}}!$OMP END SINGLE COPYPRIVATE(J)
! CHECK-NEXT: {{^}}      call POMP_Single_exit(pomp_h(6), -1)
C$OMP END PARALLEL
      PRINT *, S .GT. 0, A(N)
      STOP
! CHECK:      {{^}}      call POMP_Finalize()
! CHECK-NEXT: {{^}}      STOP
      END

! EVENTS:      threads 2
! EVENTS:      pomp-check: Loop_enter 2
! EVENTS:      pomp-check: Single_enter 2
! EVENTS-NEXT: pomp-check: Single_begin 1
! EVENTS:      pomp-check: Critical_enter 2
! EVENTS:      pomp-check: violations 0
