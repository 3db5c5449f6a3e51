! The POMP directives in fixed form: the C$POMP, *$POMP and !$POMP sentinels in column 1, the
! CP$ and *P$ conditional sentinels (fixed form only), inserted calls in columns 7-72.
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f --no-line-directives
! RUN: awk 'length($0) > 72 && !/^!/ { print FILENAME ":" FNR ": longer than 72 columns"; bad = 1 } END { exit bad }' %t/out.f
! RUN: %strip-fchecks %t/out.f | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/fe | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t
      PROGRAM F77U
      INTEGER I, S
      S = 0
C$POMP INST BEGIN(LOOPS)
! CHECK:      {{^}}C$POMP INST BEGIN(LOOPS)
! CHECK-NEXT: {{^}}      call POMP_User_region_begin(pomp_h([[L:[0-9]+]]), -1, '{{[0-9]+}}*type=userregion*name=LOOPS*
C$OMP PARALLEL DO REDUCTION(+:S)
      DO 10 I = 1, 100
         S = S + I
   10 CONTINUE
*$POMP INST END(loops)
! CHECK:      {{^}}*$POMP INST END(loops)
! CHECK-NEXT: {{^}}      call POMP_User_region_end(pomp_h([[L]]), -1)
!$POMP USERREGION EVENT(DONE)
! CHECK:      {{^}}!$POMP USERREGION EVENT(DONE)
! CHECK-NEXT: {{^}}      call POMP_User_event(
CP$   PRINT *, 'POMP'
*P$   S = S + 1
! CHECK:      {{^}}      PRINT *, 'POMP'
! CHECK-NEXT: {{^}}      S = S + 1
      PRINT *, S
      END

! OUT: POMP
! OUT-NEXT: 5051
! PROFILE: threads: 2
! PROFILE-DAG: {{^}}user region "LOOPS" @{{.*}}pomp_directives_fixed.f:{{[0-9]+}} visits=1 threads=1
! PROFILE-DAG: {{^}}  parallel @{{.*}}pomp_directives_fixed.f:{{[0-9]+}} (f77u) visits=1 threads=1
! PROFILE-DAG: {{^}}user event "DONE" @{{.*}}pomp_directives_fixed.f:{{[0-9]+}} visits=1 threads=1
! PROFILE: anomalies: none
