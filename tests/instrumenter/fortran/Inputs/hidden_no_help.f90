! A directive Flang 19 rejects, and a statement error hiding cannot mend.
program nohelp
  integer :: c
  c = 0
  !$omp task depend(mutexinoutset: c)
  c = c + * 2
  !$omp end task
  print *, c
end program
