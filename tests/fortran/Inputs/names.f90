! Parallel regions in a module procedure, an internal procedure and the main program, for the
! names the profile gives regions only the runtime (OMPT) saw.
module physics
contains
  subroutine step(n)
    integer, intent(inout) :: n
    !$omp parallel
    !$omp atomic
    n = n + 1
    !$omp end parallel
  end subroutine step
end module physics

subroutine driver(n)
  integer, intent(inout) :: n
  call relax()
contains
  subroutine relax()
    !$omp parallel
    !$omp atomic
    n = n + 1
    !$omp end parallel
  end subroutine relax
end subroutine driver

program simulation
  use physics
  implicit none
  integer :: n
  n = 0
  call step(n)
  call driver(n)
  !$omp parallel
  !$omp atomic
  n = n + 1
  !$omp end parallel
  print '(a,i0)', 'n ', n
end program simulation
