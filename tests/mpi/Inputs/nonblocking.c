/* Nonblocking collectives and their completion (docs/MPI.md): three rounds of MPI_Iallreduce,
 * MPI_Ibcast and MPI_Ibarrier completed by MPI_Wait and MPI_Waitall, then one each of
 * MPI_Iallgather, MPI_Ireduce, MPI_Igather, MPI_Iscatter and MPI_Ialltoall completed by one
 * MPI_Waitall, and one MPI_Ibarrier completed by MPI_Test in a loop. Rank 0 prints what every rank
 * got, which depends only on the number of ranks. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define MAX_RANKS 16

int main(int argc, char **argv) {
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAX_RANKS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  double local = 0, global = 0;
#pragma omp parallel reduction(+ : local)
  local += omp_get_thread_num() + 1;
  MPI_Request requests[5];
  int value = 0;
  for (int round = 0; round < 3; ++round) {
    value = rank == 0 ? 42 + round : 0;
    MPI_Iallreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
    MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &requests[1]);
    MPI_Ibarrier(MPI_COMM_WORLD, &requests[2]);
    MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
    MPI_Waitall(2, &requests[1], MPI_STATUSES_IGNORE);
  }
  int mine = rank + 1, gathered[MAX_RANKS], reduced = 0, rooted[MAX_RANKS], scattered = 0;
  int blocks[MAX_RANKS], swapped[MAX_RANKS];
  for (int r = 0; r < size; ++r)
    blocks[r] = rank * 100 + r;
  MPI_Iallgather(&mine, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD, &requests[0]);
  MPI_Ireduce(&mine, &reduced, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &requests[1]);
  MPI_Igather(&mine, 1, MPI_INT, rooted, 1, MPI_INT, 0, MPI_COMM_WORLD, &requests[2]);
  MPI_Iscatter(blocks, 1, MPI_INT, &scattered, 1, MPI_INT, 0, MPI_COMM_WORLD, &requests[3]);
  MPI_Ialltoall(blocks, 1, MPI_INT, swapped, 1, MPI_INT, MPI_COMM_WORLD, &requests[4]);
  MPI_Waitall(5, requests, MPI_STATUSES_IGNORE);
  MPI_Ibarrier(MPI_COMM_WORLD, &requests[0]);
  for (int done = 0; !done;)
    MPI_Test(&requests[0], &done, MPI_STATUS_IGNORE);
  int sum = 0;
  for (int r = 0; r < size; ++r)
    sum += gathered[r] + swapped[r];
  if (rank == 0)
    printf("allreduce %.0f bcast %d allgather+alltoall %d reduce %d scatter %d\n", global, value,
           sum, reduced, scattered);
  MPI_Finalize();
  return 0;
}
