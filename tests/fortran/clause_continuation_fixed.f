! Fixed form: an if argument continued over lines is evaluated once (clause_continuation.f90).
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f --no-line-directives
! RUN: awk 'length($0) > 72 && !/^!/ { print FILENAME ":" FNR ": longer than 72 columns"; bad = 1 } END { exit bad }' %t/out.f
! RUN: %strip-fchecks %t/out.f | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: rm -rf %t
      PROGRAM CONTF
      INTEGER S, NCALL, IPICK
      COMMON /CNT/ NCALL
      NCALL = 0
      S = 0
C$OMP PARALLEL REDUCTION(+:S) IF(IPICK(1)
C$OMP+ .GT. 0)
      S = S + 1
C$OMP END PARALLEL
      PRINT *, S, NCALL
      END
      INTEGER FUNCTION IPICK(N)
      INTEGER N, NCALL
      COMMON /CNT/ NCALL
      NCALL = NCALL + 1
      IPICK = N
      END
! CHECK:      {{^}}      pomp_if_1 = merge(1, 0, ipick(1) .gt. 0)
! CHECK:      {{^}}!$omp parallel{{$}}
! CHECK-NEXT: {{^}}!$omp& reduction(+:s)
! CHECK-NEXT: {{^}}!$omp& if(pomp_if_1 .ne. 0)
! CHECK-NEXT: {{^}}!$omp& firstprivate(pomp_ctx_1)
! OUT: 2 1
