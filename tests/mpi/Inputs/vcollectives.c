/* The collectives with a count per rank (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv,
 * MPI_Alltoallv), the reduce-scatters and the scans (docs/MPI.md). Rank r's block has r + 1
 * ints, so every rank's bytes differ; rank 0 is the root and prints what the ranks got, which
 * depends only on the number of ranks. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#define MAX_RANKS 16
#define MAX_INTS (MAX_RANKS * (MAX_RANKS + 1) / 2)

int main(int argc, char **argv) {
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAX_RANKS)
    MPI_Abort(MPI_COMM_WORLD, 1);
  int threads = 0;
#pragma omp parallel reduction(+ : threads)
  threads += 1;

  int counts[MAX_RANKS], displs[MAX_RANKS], mine[MAX_RANKS], all[MAX_INTS], got[MAX_INTS];
  for (int r = 0, at = 0; r < size; at += r + 1, ++r) {
    counts[r] = r + 1;
    displs[r] = at;
  }
  for (int i = 0; i <= rank; ++i)
    mine[i] = rank;
  for (int i = 0; i < MAX_INTS; ++i)
    all[i] = i;

  /* Rooted: rank r sends r + 1 ints to rank 0, and gets r + 1 from it. */
  MPI_Gatherv(mine, rank + 1, MPI_INT, got, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  int gathered = 0;
  if (rank == 0)
    for (int i = 0; i < displs[size - 1] + size; ++i)
      gathered += got[i];
  int scattered[MAX_RANKS];
  MPI_Scatterv(all, counts, displs, MPI_INT, scattered, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);

  /* Every rank's block to every other. */
  MPI_Allgatherv(mine, rank + 1, MPI_INT, got, counts, displs, MPI_INT, MPI_COMM_WORLD);
  int allgathered = 0;
  for (int i = 0; i < displs[size - 1] + size; ++i)
    allgathered += got[i];

  /* Rank r sends r + 1 ints to rank r... and so gets rank + 1 ints from each rank. */
  int sendcounts[MAX_RANKS], sdispls[MAX_RANKS], recvcounts[MAX_RANKS], rdispls[MAX_RANKS];
  for (int r = 0; r < size; ++r) {
    sendcounts[r] = r + 1;
    sdispls[r] = displs[r];
    recvcounts[r] = rank + 1;
    rdispls[r] = r * (rank + 1);
  }
  MPI_Alltoallv(all, sendcounts, sdispls, MPI_INT, got, recvcounts, rdispls, MPI_INT,
                MPI_COMM_WORLD);
  int swapped = 0;
  for (int i = 0; i < size * (rank + 1); ++i)
    swapped += got[i];

  /* The reduce-scatters: the whole vector in, this rank's block of the sums out. */
  int block[MAX_RANKS];
  MPI_Reduce_scatter(all, block, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int pair[2];
  MPI_Reduce_scatter_block(all, pair, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  int prefix = 0, exclusive = 0, one = rank + 1;
  MPI_Scan(&one, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan(&one, &exclusive, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  int last[2] = {scattered[rank], block[0] + pair[0] + prefix + exclusive};
  int report[2 * MAX_RANKS];
  MPI_Gather(last, 2, MPI_INT, report, 2, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("threads %d gathered %d allgathered %d swapped %d\n", threads, gathered, allgathered,
           swapped);
    for (int r = 0; r < size; ++r)
      printf("rank %d: scattered %d, reduced+scanned %d\n", r, report[2 * r], report[2 * r + 1]);
  }
  MPI_Finalize();
  return 0;
}
