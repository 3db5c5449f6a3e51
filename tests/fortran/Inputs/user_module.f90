! The pomp_lib module in free form: explicit interfaces for user regions, levels and constants.
program user_module
  use pomp_lib
  implicit none
  integer(kind=8) :: h = 0
  integer :: i, level
  character(len=*), parameter :: c = '61*type=userregion*name=phase*file=user_module.f90*slines=7,7**'
  call POMP_Init()
  do i = 1, 3
    call POMP_User_region_begin(h, 0, c)
    call POMP_User_region_end(h, 0)
  end do
  call POMP_Get_level(POMP_GROUP_USER, level)
  if (level /= POMP_LEVEL_BEGINEND) stop 1
  print '(a,i0)', 'user group ', POMP_GROUP_USER
  call POMP_Finalize()
end program user_module
