/* jacobi_mpi.c - hybrid MPI + OpenMP Jacobi iteration for the 2-D Poisson equation
 *     (d2/dx2 + d2/dy2) u = f   on [0,1]^2,  u = 0 on the boundary,
 * on an NX x NY grid of interior points split into blocks of rows, one block per rank.
 *
 * Exercises: MPI_Init_thread (MPI_THREAD_MULTIPLE), MPI_Bcast of the iteration count, a halo
 * exchange of one row with each neighbour per iteration (MPI_Irecv, MPI_Isend, MPI_Waitall; the
 * first and last rank exchange with MPI_PROC_NULL, so every rank makes the same calls),
 * `parallel for reduction(+:...)` inside each rank for the update, MPI_Allreduce of the residual,
 * one MPI_Allreduce per thread from inside a parallel region (each thread on a communicator of its
 * own), MPI_Gather of the solution to rank 0, MPI_Barrier, MPI_Finalize.
 *
 * Every rank makes the same MPI calls the same number of times: with ITERS iterations,
 * MPI_Init_thread 1, MPI_Bcast 1, MPI_Irecv 2*ITERS, MPI_Isend 2*ITERS, MPI_Waitall ITERS,
 * MPI_Allreduce ITERS + 2 (one of them on thread 1), MPI_Gather 1, MPI_Barrier 1,
 * MPI_Finalize 1; the update's parallel region runs ITERS times, the copy's ITERS times.
 *
 * Prints (rank 0) the grid, the iterations, the residual after the last one and a checksum of
 * the solution with 6 significant digits, the same for any number of ranks that divides NX and
 * any number of threads, and "check: OK" when the gathered solution equals a serial solve on rank
 * 0 bit for bit (the update of a point depends only on its neighbours, so the decomposition does
 * not change the numbers). Exit status 0, or 1 with "check: FAILED". */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NX 64
#define NY 64
#define ITERS 20
#define MAX_THREADS 64

static double h2(void) { return 1.0 / ((NX + 1) * (NX + 1)); }

static double source(int gi, int j) { return (double)((gi * 7 + j * 3) % 11) - 5.0; }

/* One sweep over rows 1..rows of `from` (row 0 and rows+1 are halos) into `to`; returns the sum
 * of the squared changes. */
static double sweep(double (*to)[NY + 2], double (*from)[NY + 2], int rows, int first_row) {
  double change = 0.0;
#pragma omp parallel for reduction(+ : change) schedule(static)
  for (int i = 1; i <= rows; i++)
    for (int j = 1; j <= NY; j++) {
      const double v = 0.25 * (from[i - 1][j] + from[i + 1][j] + from[i][j - 1] + from[i][j + 1] -
                               h2() * source(first_row + i - 1, j));
      change += (v - from[i][j]) * (v - from[i][j]);
      to[i][j] = v;
    }
  return change;
}

static void copy_rows(double (*to)[NY + 2], double (*from)[NY + 2], int rows) {
#pragma omp parallel for schedule(static)
  for (int i = 1; i <= rows; i++)
    memcpy(to[i], from[i], sizeof to[i]);
}

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (NX % size != 0) {
    if (rank == 0)
      fprintf(stderr, "jacobi_mpi: %d ranks do not divide %d rows\n", size, NX);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int iters = rank == 0 ? ITERS : 0;
  MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);

  const int rows = NX / size, first_row = rank * rows;
  double(*u)[NY + 2] = calloc((size_t)rows + 2, sizeof *u);
  double(*unew)[NY + 2] = calloc((size_t)rows + 2, sizeof *unew);
  if (!u || !unew)
    MPI_Abort(MPI_COMM_WORLD, 3);
  const int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  const int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;

  double residual = 0.0;
  for (int it = 0; it < iters; it++) {
    MPI_Request req[4];
    MPI_Irecv(u[0], NY + 2, MPI_DOUBLE, up, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(u[rows + 1], NY + 2, MPI_DOUBLE, down, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(u[1], NY + 2, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(u[rows], NY + 2, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    const double local = sweep(unew, u, rows, first_row);
    copy_rows(u, unew, rows);
    MPI_Allreduce(&local, &residual, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }

  /* One call per thread from inside a parallel region, each on its own communicator. */
  int nthreads = omp_get_max_threads() < MAX_THREADS ? omp_get_max_threads() : MAX_THREADS;
  MPI_Comm comms[MAX_THREADS];
  for (int t = 0; t < nthreads; t++)
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
  int per_thread_ok = 1;
  if (provided == MPI_THREAD_MULTIPLE) {
#pragma omp parallel num_threads(nthreads) reduction(&& : per_thread_ok)
    {
      const int t = omp_get_thread_num();
      int one = 1, ranks = 0;
      MPI_Allreduce(&one, &ranks, 1, MPI_INT, MPI_SUM, comms[t]);
      per_thread_ok = ranks == size;
    }
  } else {
    for (int t = 0; t < nthreads; t++) {
      int one = 1, ranks = 0;
      MPI_Allreduce(&one, &ranks, 1, MPI_INT, MPI_SUM, comms[t]);
      per_thread_ok = per_thread_ok && ranks == size;
    }
  }
  for (int t = 0; t < nthreads; t++)
    MPI_Comm_free(&comms[t]);

  /* Rank 0 gathers the solution and solves the whole grid serially to compare. */
  double(*all)[NY + 2] = rank == 0 ? calloc(NX, sizeof *all) : NULL;
  MPI_Gather(u[1], rows * (NY + 2), MPI_DOUBLE, all, rows * (NY + 2), MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  int ok = 1;
  if (rank == 0) {
    double(*s)[NY + 2] = calloc(NX + 2, sizeof *s);
    double(*snew)[NY + 2] = calloc(NX + 2, sizeof *snew);
    for (int it = 0; it < iters; it++) {
      for (int i = 1; i <= NX; i++)
        for (int j = 1; j <= NY; j++)
          snew[i][j] = 0.25 * (s[i - 1][j] + s[i + 1][j] + s[i][j - 1] + s[i][j + 1] -
                               h2() * source(i - 1, j));
      for (int i = 1; i <= NX; i++)
        memcpy(s[i], snew[i], sizeof s[i]);
    }
    double checksum = 0.0;
    for (int i = 0; i < NX; i++)
      for (int j = 1; j <= NY; j++) {
        checksum += all[i][j] * (double)(i + j);
        ok = ok && all[i][j] == s[i + 1][j];
      }
    ok = ok && per_thread_ok;
    printf("grid %d x %d, %d iterations\n", NX, NY, iters);
    printf("residual %.6e\nchecksum %.6e\n", residual, checksum);
    printf("check: %s\n", ok ? "OK" : "FAILED");
    free(s);
    free(snew);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  free(u);
  free(unew);
  MPI_Finalize();
  return ok ? 0 : 1;
}
