program p
  integer :: i
!$omp parallel
  i = (1 + 
!$omp end parallel
end program
