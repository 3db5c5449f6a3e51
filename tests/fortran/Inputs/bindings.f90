! Hand-instrumented OpenMP Fortran: the POMP calls of an instrumented file,
! written out, against libpomp's Fortran entry points (implicit interfaces,
! CTC strings as CHARACTER*(*) without a NUL, handles INTEGER*8). The module
! holds the file's handles and CTC strings; its POMP_Init_<file id> binds
! them when pomp-link's POMP_Init_Handles calls it, otherwise the first event
! of each construct binds its handle (lazy binding).
module bindings_pomp
  implicit none
  integer(kind=8), save :: h_par = 0, h_do = 0, h_crit = 0, h_bar = 0, h_ib = 0
  integer(kind=8), save :: h_init = 0, h_set = 0, h_unset = 0, h_destroy = 0
  character(len=*), parameter :: c_par = '60*type=parallel*file=bindings.f90*slines=30,30*elines=52,52**'
  character(len=*), parameter :: c_do = '54*type=do*file=bindings.f90*slines=34,34*elines=37,37**'
  character(len=*), parameter :: c_crit = '60*type=critical*file=bindings.f90*slines=39,39*elines=43,43**'
  character(len=*), parameter :: c_bar = '46*type=barrier*file=bindings.f90*slines=47,47**'
  character(len=*), parameter :: c_ib = '54*type=implicitbarrier*file=bindings.f90*slines=52,52**'
  character(len=*), parameter :: c_init = '52*type=omp_init_lock*file=bindings.f90*slines=26,26**'
  character(len=*), parameter :: c_set = '51*type=omp_set_lock*file=bindings.f90*slines=44,44**'
  character(len=*), parameter :: c_unset = '53*type=omp_unset_lock*file=bindings.f90*slines=45,45**'
  character(len=*), parameter :: c_destroy = '55*type=omp_destroy_lock*file=bindings.f90*slines=56,56**'
contains
  subroutine pomp_init_file() bind(C, name="POMP_Init_bindings_f90_00c0ffee00c0ffee")
    call POMP_Get_handle(h_par, c_par)
    call POMP_Get_handle(h_do, c_do)
    call POMP_Get_handle(h_crit, c_crit)
    call POMP_Get_handle(h_bar, c_bar)
    call POMP_Get_handle(h_ib, c_ib)
    call POMP_Get_handle(h_init, c_init)
    call POMP_Get_handle(h_set, c_set)
    call POMP_Get_handle(h_unset, c_unset)
    call POMP_Get_handle(h_destroy, c_destroy)
  end subroutine pomp_init_file
end module bindings_pomp

program bindings
  use omp_lib
  use bindings_pomp
  implicit none
  include 'pomp_lib.h'
  integer(kind=8), save :: h_user = 0
  integer(kind=8) :: ctx
  integer(kind=omp_lock_kind) :: lck
  integer :: tid, i, rep, total, part
  character(len=100) :: userctc
  call POMP_Init()
  tid = omp_get_thread_num()
  call POMP_Wrap_omp_init_lock(h_init, c_init, lck)
  total = 0
  do rep = 1, 3
    call POMP_Parallel_fork(h_par, tid, -1, 1, ctx, c_par)
    !$omp parallel private(tid, i, part) firstprivate(ctx)
    tid = omp_get_thread_num()
    call POMP_Parallel_begin_forked(h_par, tid, ctx)
    part = 0
    call POMP_Loop_enter(h_do, tid, 0_8, 1_8, 100_8, 1_8, c_do)
    !$omp do
    do i = 1, 100
      part = part + i
    end do
    !$omp end do nowait
    call POMP_Loop_exit(h_do, tid)
    call POMP_Critical_enter(h_crit, tid, c_crit)
    !$omp critical
    call POMP_Critical_begin(h_crit, tid)
    total = total + part
    call POMP_Critical_end(h_crit, tid)
    !$omp end critical
    call POMP_Critical_exit(h_crit, tid)
    call POMP_Wrap_omp_set_lock(h_set, c_set, lck)
    call POMP_Wrap_omp_unset_lock(h_unset, c_unset, lck)
    call POMP_Barrier_enter(h_bar, tid, c_bar)
    !$omp barrier
    call POMP_Barrier_exit(h_bar, tid)
    call POMP_Implicit_barrier_enter(h_ib, tid, c_ib)
    !$omp barrier
    call POMP_Implicit_barrier_exit(h_ib, tid)
    call POMP_Parallel_end(h_par, tid)
    !$omp end parallel
    call POMP_Parallel_exit(h_par, tid)
  end do
  call POMP_Wrap_omp_destroy_lock(h_destroy, c_destroy, lck)
  ! A CTC string in a longer variable: its trailing blanks are not part of it.
  userctc = '59*type=userregion*name=tail*file=bindings.f90*slines=58,58**'
  call POMP_User_region_begin(h_user, tid, userctc)
  call POMP_User_region_end(h_user, tid)
  call POMP_Finalize()
  print '(a,i0)', 'total ', total
end program bindings
