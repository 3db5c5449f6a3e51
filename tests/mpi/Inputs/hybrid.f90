! A Fortran hybrid program through Open MPI's `use mpi` bindings (docs/MPI.md, "Fortran"): a
! parallel region per iteration, a halo exchange between neighbours and an allreduce; rank 0
! prints the sum, which does not depend on the number of ranks.
program hybrid
  use mpi
  use omp_lib
  implicit none
  integer :: ierr, rank, nranks, provided, it, left, right, req(2)
  integer :: stat(MPI_STATUS_SIZE)
  double precision :: local, total, halo(4), mine(4)
  call MPI_Init_thread(MPI_THREAD_FUNNELED, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  left = mod(rank + nranks - 1, nranks)
  right = mod(rank + 1, nranks)
  total = 0
  do it = 1, 3
    local = 0
!$omp parallel reduction(+:local)
    local = local + omp_get_thread_num() + 1
!$omp end parallel
    mine = rank
    call MPI_Irecv(halo, 4, MPI_DOUBLE_PRECISION, left, 7, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Send(mine, 4, MPI_DOUBLE_PRECISION, right, 7, MPI_COMM_WORLD, ierr)
    call MPI_Wait(req(1), stat, ierr)
    local = local / nranks
    call MPI_Allreduce(MPI_IN_PLACE, local, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, &
                       ierr)
    total = total + local
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, f8.2)', 'sum ', total
  call MPI_Finalize(ierr)
end program hybrid
