module m
!$pomp inst init
  integer :: y
end module
program p
  use m
!$pomp inst begin(open)
  y = 1
end program
