program p
  integer :: x
  x = 0
  !$omp parallel
  !$omp scope
  x = 1
  !$omp end scope
  !$omp end parallel
end program p
