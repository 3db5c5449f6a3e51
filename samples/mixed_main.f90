! mixed_main.f90 with mixed_kernel.c: a mixed C/Fortran program. The Fortran main program fills
! an array in a parallel do, a C function (bind(C)) reduces it in a parallel for, and a Fortran
! critical section and an atomic count the threads. Checked against a serial sum.
program mixed_main
  use iso_c_binding, only: c_int, c_long
  implicit none
  interface
    function mixed_weighted_sum(values, n) result(total) bind(C, name="mixed_weighted_sum")
      import :: c_int, c_long
      integer(kind=c_int), intent(in) :: values(*)
      integer(kind=c_int), value :: n
      integer(kind=c_long) :: total
    end function mixed_weighted_sum
  end interface
  integer, parameter :: n = 10000
  integer(kind=c_int) :: values(n)
  integer(kind=c_long) :: total, expected
  integer :: i, entered, counted
  entered = 0
  counted = 0
  !$omp parallel
  !$omp do schedule(static)
  do i = 1, n
    values(i) = mod(i, 7)
  end do
  !$omp end do
  !$omp critical
  entered = entered + 1
  !$omp end critical
  !$omp atomic
  counted = counted + 1
  !$omp end parallel
  total = mixed_weighted_sum(values, n)
  expected = 0
  do i = 1, n
    expected = expected + int(i, c_long) * values(i)
  end do
  print '(a,i0)', 'weighted sum ', total
  if (total == expected .and. entered == counted) then
    print '(a)', 'check: OK'
  else
    print '(a)', 'check: FAILED'
    stop 1
  end if
end program mixed_main
