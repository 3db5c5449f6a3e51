! An end directive without its construct: never hidden on its own.
program endonly
  integer :: c
  c = 0
  !$omp parallel
  c = 1
  !$omp end task
  !$omp end parallel
  print *, c
end program
