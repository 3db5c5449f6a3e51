! OpenMP library calls through libpomp's Fortran wrappers (the shared model's routine table, as in
! C): call statements and function references whose name is an omp_lib routine are rewritten to
! POMP_Wrap_<routine>(handle, ctc, args); the CTC is a named constant of the unit, a function's
! result type is declared. Names in comments and strings are left alone. Built by ompfc with
! gfortran and flang-new-19, run at 2 threads: exact visits of the lock events.
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f90 --no-line-directives
! RUN: %strip-fchecks %t/out.f90 | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/fe | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t
program locks
  use omp_lib
  implicit none
  integer(kind=omp_lock_kind) :: l
  integer(kind=omp_nest_lock_kind) :: nl
  integer :: total, got
  total = 0
  got = 0
! CHECK:      character(len=*), parameter :: pomp_c[[I:[0-9]+]] = '{{[0-9]+}}*type=apicall*name=omp_init_lock*file={{[^*]*}}api_calls.f90*slines=[[#@LINE+4]],[[#@LINE+4]]*
! CHECK:      logical(4) POMP_Wrap_omp_test_lock
! CHECK:      call POMP_Wrap_omp_init_lock(pomp_h([[I]]), pomp_c[[I]], l)
! CHECK-NEXT: call POMP_Wrap_omp_init_nest_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, nl)
  call omp_init_lock(l)
  call omp_init_nest_lock(nl)
!$omp parallel shared(total, got)
  call omp_set_lock(l)
  total = total + 1
  call OMP_UNSET_LOCK(l)
  if (omp_test_lock(l)) then
    got = got + 1
    call omp_unset_lock(l)
  end if
! CHECK:      call POMP_Wrap_omp_set_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, l)
! CHECK:      call POMP_Wrap_omp_unset_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, l)
! CHECK-NEXT: if (POMP_Wrap_omp_test_lock(pomp_h({{[0-9]+}}), pomp_c{{[0-9]+}}, l)) then
  call omp_set_nest_lock(nl)
  call omp_set_nest_lock(nl)
  call omp_unset_nest_lock(nl)
  call omp_unset_nest_lock(nl)
!$omp end parallel
  call omp_destroy_lock(l)
  call omp_destroy_nest_lock(nl)
  ! omp_set_lock in a comment, and 'call omp_set_lock(l)' in a string
  print *, total, got > 0, 'call omp_set_lock(l)'
! CHECK:      ! omp_set_lock in a comment, and 'call omp_set_lock(l)' in a string
! CHECK-NEXT: print *, total, got > 0, 'call omp_set_lock(l)'
  call omp_set_lock_twice()
contains
  ! The file's own procedure of a runtime routine's name is not the runtime's.
  subroutine omp_set_lock_twice()
  end subroutine
end program

! OUT: 2 T call omp_set_lock(l)
! PROFILE: threads: 2
! PROFILE-DAG: {{^}}    set lock "omp_set_lock" @{{.*}}api_calls.f90:{{[0-9]+}} (locks) visits=2 threads=2
! PROFILE-DAG: {{^}}    unset lock event "omp_unset_lock" @{{.*}} (locks) visits=2 threads=2
! PROFILE-DAG: {{^}}    test lock event "omp_test_lock" @{{.*}} (locks) visits=2 threads=2
! PROFILE-DAG: {{^}}    set nest lock "omp_set_nest_lock" @{{.*}} (locks) visits=2 threads=2
! PROFILE-DAG: {{^}}init lock event "omp_init_lock" @{{.*}} (locks) visits=1 threads=1
! PROFILE-DAG: {{^}}destroy nest lock event "omp_destroy_nest_lock" @{{.*}} (locks) visits=1 threads=1
! PROFILE: anomalies: none
