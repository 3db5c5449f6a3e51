! The Fortran main program of the mixed project: a C routine scales a vector,
! a module function sums it.
program mixed
  use iso_c_binding, only: c_double, c_int
  use norms, only: sum_norm
  implicit none
  interface
    subroutine scale_vector(v, n, factor) bind(C, name="scale_vector")
      import :: c_double, c_int
      real(kind=c_double), intent(inout) :: v(*)
      integer(kind=c_int), value :: n
      real(kind=c_double), value :: factor
    end subroutine scale_vector
  end interface
  integer, parameter :: n = 1000
  real(kind=c_double) :: v(n)
  v = 1
  call scale_vector(v, n, 2.0_c_double)
  print '(a,f8.1)', 'sum ', sum_norm(v)
end program mixed
