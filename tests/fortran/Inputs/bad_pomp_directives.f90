program bad
  integer :: x
  x = 1
!$pomp userregion begin(a)
!$pomp inst begin a
!$pomp inst parallel loud
!$pomp inst begin(r)
!$pomp inst end(q)
  print *, x
end program
