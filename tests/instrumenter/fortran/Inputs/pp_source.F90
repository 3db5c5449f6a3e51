#define SCALE 2
program pp
  integer :: total
  total = 0
  ! line 5
!$omp parallel
  total = total + SCALE + undefined_z
!$omp end parallel
end program
