! A sections construct of three sections in a parallel region, twice; each
! section adds its own value, so the sum says every section ran once per pass.
program sections_sum
  implicit none
  integer :: total, pass
  total = 0
  do pass = 1, 2
!$omp parallel shared(total)
!$omp sections reduction(+:total)
!$omp section
    total = total + 1
!$omp section
    total = total + 10
!$omp section
    total = total + 100
!$omp end sections
!$omp end parallel
  end do
  print '(a,i0)', 'total ', total
end program sections_sum
