! jacobi_mod.f90: a Fortran 90 Jacobi solver for -laplace(u) = 1 on the unit square (u = 0 on
! the boundary), in modules: the grid's parameters, the solver's sweep (parallel do with a
! reduction) and the copy of the new iterate (parallel workshare). A fixed number of sweeps; the
! parallel result is checked against the same sweeps run serially, point by point.
module grid
  implicit none
  integer, parameter :: dp = kind(1.0d0)
  integer, parameter :: n = 64
  integer, parameter :: sweeps = 200
end module grid

module jacobi_solver
  use grid
  implicit none
contains
  ! One Jacobi sweep from u into unew; change is the sum of the squared updates.
  subroutine sweep(u, unew, h, change)
    real(kind=dp), intent(in) :: u(0:n + 1, 0:n + 1)
    real(kind=dp), intent(inout) :: unew(0:n + 1, 0:n + 1)
    real(kind=dp), intent(in) :: h
    real(kind=dp), intent(out) :: change
    integer :: i, j
    change = 0
    !$omp parallel do private(i) reduction(+:change) schedule(static)
    do j = 1, n
      do i = 1, n
        unew(i, j) = 0.25_dp * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) + h * h)
        change = change + (unew(i, j) - u(i, j))**2
      end do
    end do
    !$omp end parallel do
  end subroutine sweep

  ! The same sweep without OpenMP, for the check.
  subroutine serial_sweep(u, unew, h)
    real(kind=dp), intent(in) :: u(0:n + 1, 0:n + 1)
    real(kind=dp), intent(inout) :: unew(0:n + 1, 0:n + 1)
    real(kind=dp), intent(in) :: h
    integer :: i, j
    do j = 1, n
      do i = 1, n
        unew(i, j) = 0.25_dp * (u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) + h * h)
      end do
    end do
  end subroutine serial_sweep
end module jacobi_solver

program jacobi
  use grid
  use jacobi_solver
  implicit none
  real(kind=dp), allocatable :: u(:, :), unew(:, :), s(:, :), snew(:, :)
  real(kind=dp) :: h, change
  integer :: k
  allocate (u(0:n + 1, 0:n + 1), unew(0:n + 1, 0:n + 1))
  allocate (s(0:n + 1, 0:n + 1), snew(0:n + 1, 0:n + 1))
  h = 1.0_dp / (n + 1)
  u = 0
  unew = 0
  s = 0
  snew = 0
  do k = 1, sweeps
    call sweep(u, unew, h, change)
    !$omp parallel workshare
    u = unew
    !$omp end parallel workshare
    call serial_sweep(s, snew, h)
    s = snew
  end do
  print '(a,i0,a,i0)', 'grid ', n, ' x ', n
  print '(a,i0)', 'sweeps ', sweeps
  print '(a,es12.5)', 'last change ', change
  print '(a,f10.7)', 'centre ', u(n / 2, n / 2)
  if (all(u == s)) then
    print '(a)', 'check: OK'
  else
    print '(a)', 'check: FAILED'
    stop 1
  end if
end program jacobi
