! --functions through ompfc (--ompinst-arg=--functions, as for C), with gfortran and
! flang-new-19, run at 2 threads: every subroutine and function is a region of the profile with
! exact visits (one per call; `in_team` once per thread), the pure function is not.
! REQUIRES: fortran-instrumenter, gfortran, flang
! UNSUPPORTED: sanitize
! RUN: rm -rf %t && mkdir -p %t/scratch
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%gfortran --ompinst-arg=--functions -fopenmp %s -o %t/g
! RUN: cd %t && env TMPDIR=%t/scratch %ompfc --cc=%flang --ompinst-arg=--functions -fopenmp %s -o %t/f
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/ge %t/g | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/ge | %FileCheck --check-prefix=PROFILE %s
! RUN: env OMP_NUM_THREADS=2 POMP_QUIET=1 POMP_EXPERIMENT_DIR=%t/fe %t/f | %FileCheck --check-prefix=OUT %s
! RUN: python3 %S/../runtime/Inputs/profile_tree.py %t/fe | %FileCheck --check-prefix=PROFILE %s
! RUN: rm -rf %t
module kernels
  implicit none
contains
  subroutine accumulate(n, s)
    integer, intent(in) :: n
    integer, intent(inout) :: s
    integer :: i
    if (n < 0) return
    !$omp parallel do reduction(+:s)
    do i = 1, n
      s = s + i
    end do
  end subroutine accumulate
  pure integer function square(x)
    integer, intent(in) :: x
    square = x * x
  end function square
  subroutine in_team(total)
    integer, intent(inout) :: total
    !$omp atomic
    total = total + 1
  end subroutine in_team
end module kernels

subroutine outer(k)
  implicit none
  integer :: k
  call inner()
  if (k > 2) goto 10
  k = k + 1
10 return
contains
  subroutine inner()
    k = k * 2
  end subroutine inner
end subroutine outer

program main
  use kernels
  implicit none
  integer :: s, k, total
  s = 0
  call accumulate(10, s)
  call accumulate(-1, s)
  k = 1
  call outer(k)
  call outer(k)
  total = 0
  !$omp parallel
  call in_team(total)
  !$omp end parallel
  print *, s, square(3), k, total
end program main

! OUT: 55 9 6 2

! PROFILE: threads: 2
! PROFILE-NEXT: {{^}}function body "accumulate" @{{.*}}functions.f90:17 visits=2 threads=1
! PROFILE-NEXT: {{^}}  parallel @{{.*}}functions.f90:22 (kernels::accumulate) visits=1 threads=1
! PROFILE:      {{^}}function body "outer" @{{.*}}functions.f90:38 visits=2 threads=1
! PROFILE-NEXT: {{^}}  function body "inner" @{{.*}}functions.f90:46 visits=2 threads=1
! PROFILE-NEXT: {{^}}parallel @{{.*}}functions.f90:62 (main) visits=1 threads=1
! PROFILE-NEXT: {{^}}  parallel body @{{.*}}functions.f90:62 (main) visits=2 threads=2
! PROFILE-NEXT: {{^}}    function body "in_team" @{{.*}}functions.f90:31 visits=2 threads=2
! PROFILE-NOT:  square
! PROFILE:      anomalies: none
