! OpenMP lock calls in fixed form: the wrapper stays within column 72; a call whose wrapper would
! not fit is left as it is with a warning at its line (never silently).
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f --no-line-directives 2> %t/err
! RUN: %FileCheck --check-prefix=WARN %s < %t/err
! RUN: awk 'length($0) > 72 && !/^!/ { print FILENAME ":" FNR ": longer than 72 columns"; bad = 1 } END { exit bad }' %t/out.f
! RUN: %strip-fchecks %t/out.f | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/fe | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t
      PROGRAM FLOCK
      USE OMP_LIB
      INTEGER (KIND=OMP_LOCK_KIND) LCK
      INTEGER N
      N = 0
      CALL OMP_INIT_LOCK(LCK)
C$OMP PARALLEL SHARED(N, LCK)
      CALL OMP_SET_LOCK(LCK)
      N = N + 1
      CALL OMP_UNSET_LOCK(LCK)
C$OMP END PARALLEL
      N = N + 0; N = N + 0; N = N + 0; CALL OMP_DESTROY_LOCK(LCK)
      PRINT *, N
      END
! CHECK:      {{^}}      CALL POMP_Wrap_omp_init_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, LCK)
! CHECK:      {{^}}      CALL POMP_Wrap_omp_set_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, LCK)
! CHECK:      {{^}}      N = N + 0; N = N + 0; N = N + 0; CALL OMP_DESTROY_LOCK(LCK)
! WARN: api_calls_fixed.f:28: warning: call of 'omp_destroy_lock' is not instrumented: its wrapper does not fit in the line
! OUT: 2
! PROFILE: threads: 2
! PROFILE-DAG: {{^}}    set lock "omp_set_lock" @{{.*}}api_calls_fixed.f:24 (flock) visits=2 threads=2
! PROFILE-DAG: {{^}}init lock event "omp_init_lock" @{{.*}}api_calls_fixed.f:22 (flock) visits=1 threads=1
! PROFILE: anomalies: none
