/* A hybrid job in which rank 2 dies (SIGKILL, as an out-of-memory killer or a node failure would
 * stop it) after its first parallel region, while the others wait for it in MPI_Barrier. */
#include <mpi.h>
#include <omp.h>
#include <signal.h>
#include <stdio.h>

int main(int argc, char **argv) {
  int rank = 0, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma omp parallel reduction(+ : sum)
  sum += omp_get_thread_num() + 1;
  MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 2)
    raise(SIGKILL);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
