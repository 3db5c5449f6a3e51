! if and num_threads arguments continued over lines are evaluated once, before the directive: the
! directive is rebuilt with the variables that hold their values (as in C), in free and fixed
! form (clause_continuation_fixed.f). The function counts its calls: once per encounter.
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: %ompinst %s -o %t/out.f90 --no-line-directives
! RUN: %strip-fchecks %t/out.f90 | %FileCheck %s
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: rm -rf %t
module counting
  integer :: calls = 0
contains
  integer function pick(n)
    integer :: n
    calls = calls + 1
    pick = n
  end function
end module

program cont
  use counting
  implicit none
  integer :: s
  s = 0
!$omp parallel reduction(+:s) &
!$omp&  num_threads(pick(2) + &
!$omp&              0) if(pick(1) &
!$omp&  > 0)
  s = s + 1
!$omp end parallel
! CHECK:      pomp_if_1 = merge(1, 0, pick(1) > 0)
! CHECK-NEXT: pomp_num_threads_1 = pick(2) + 0
! CHECK-NEXT: call POMP_Parallel_fork(pomp_h(1), -1, pomp_num_threads_1, pomp_if_1, pomp_ctx_1,
! CHECK-NEXT: !$omp parallel reduction(+:s) num_threads(pomp_num_threads_1) if(pomp_if_1 .ne. 0) firstprivate(pomp_ctx_1)
! CHECK-NEXT: call POMP_Parallel_begin_forked(
  print *, s, calls
end program
! OUT: 2 2
