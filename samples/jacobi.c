/* jacobi.c - Jacobi iteration for the 2-D Helmholtz equation
 *     (d2/dx2 + d2/dy2 - alpha) u = f   on [-1,1]^2,  u = 0 on the boundary,
 * with the exact solution u(x,y) = (1-x^2)(1-y^2) (after the classic OpenMP sample).
 *
 * Exercises: one parallel region around the whole iteration loop with private(i, j, resid),
 * for schedule(static), for with reduction(+:error), master for the iteration bookkeeping,
 * explicit barrier (master has none).
 *
 * Prints the grid size, the iteration count, the residual (mean of the squared point
 * residuals) and the maximum error against the exact solution (6 significant digits), then
 * "check: OK" when the parallel solution equals a serial solve bit for bit and the reduction
 * agrees with the deterministic, row-ordered residual sum.
 *
 * The reduction's summation order depends on the thread count, so the stopping test and the
 * printed residual use per-row sums added up in row order instead; the reduction is only
 * compared against that sum.  No libm call, so the program links without -lm. */
#include <stdio.h>
#include <string.h>

#define N 20
#define M 24
#define MAXIT 1000

static const double alpha = 0.0543;
static const double relax = 1.0;
static const double tol = 1e-13;

static double u[N][M], uold[N][M], f[N][M], ref[N][M];
static double rowsum[N];

static double absdiff(double a, double b) { return a > b ? a - b : b - a; }

static double xcoord(int i) { return -1.0 + 2.0 * i / (N - 1); }
static double ycoord(int j) { return -1.0 + 2.0 * j / (M - 1); }

static void initialize(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < M; j++) {
      double xx = xcoord(i), yy = ycoord(j);
      u[i][j] = 0.0;
      f[i][j] = -alpha * (1.0 - xx * xx) * (1.0 - yy * yy) - 2.0 * (1.0 - xx * xx) -
                2.0 * (1.0 - yy * yy);
    }
}

/* One Jacobi update of interior point (i, j) from uold; returns the residual there. */
static double update(double (*dst)[M], double (*src)[M], int i, int j) {
  const double dx = 2.0 / (N - 1), dy = 2.0 / (M - 1);
  const double ax = 1.0 / (dx * dx), ay = 1.0 / (dy * dy);
  const double b = -2.0 / (dx * dx) - 2.0 / (dy * dy) - alpha;
  double resid = (ax * (src[i - 1][j] + src[i + 1][j]) + ay * (src[i][j - 1] + src[i][j + 1]) +
                  b * src[i][j] - f[i][j]) /
                 b;
  dst[i][j] = src[i][j] - relax * resid;
  return resid;
}

static double ordered_sum(void) {
  double sum = 0.0;
  for (int i = 1; i < N - 1; i++)
    sum += rowsum[i];
  return sum;
}

static int serial_solve(void) {
  static double tmp[N][M];
  int k = 0;
  double err = 1.0;
  memset(ref, 0, sizeof ref);
  while (k < MAXIT && err > tol) {
    memcpy(tmp, ref, sizeof ref);
    for (int i = 1; i < N - 1; i++) {
      rowsum[i] = 0.0;
      for (int j = 1; j < M - 1; j++) {
        double r = update(ref, tmp, i, j);
        rowsum[i] += r * r;
      }
    }
    err = ordered_sum() / (N * M);
    k++;
  }
  return k;
}

int main(void) {
  int i, j, iterations = 0, done = 0, mismatch = 0;
  double resid, error = 0.0, residual = 0.0;

  initialize();

#pragma omp parallel private(i, j, resid)
  {
    while (!done) {
#pragma omp for schedule(static)
      for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
          uold[i][j] = u[i][j];

#pragma omp for schedule(static) reduction(+ : error)
      for (i = 1; i < N - 1; i++) {
        rowsum[i] = 0.0;
        for (j = 1; j < M - 1; j++) {
          resid = update(u, uold, i, j);
          rowsum[i] += resid * resid;
        }
        error += rowsum[i];
      }

#pragma omp master
      {
        double sum = ordered_sum();
        if (absdiff(error, sum) > 1e-12 * sum)
          mismatch = 1;
        residual = sum / (N * M);
        error = 0.0;
        iterations++;
        done = iterations >= MAXIT || residual <= tol;
      }
      /* master has no implied barrier: nobody may test done or reuse error before it is set. */
#pragma omp barrier
    }
  }

  double maxdiff = 0.0, maxerr = 0.0;
  int ref_iterations = serial_solve();
  for (i = 0; i < N; i++)
    for (j = 0; j < M; j++) {
      double exact = (1.0 - xcoord(i) * xcoord(i)) * (1.0 - ycoord(j) * ycoord(j));
      if (absdiff(u[i][j], ref[i][j]) > maxdiff)
        maxdiff = absdiff(u[i][j], ref[i][j]);
      if (absdiff(u[i][j], exact) > maxerr)
        maxerr = absdiff(u[i][j], exact);
    }

  printf("grid: %d x %d\n", N, M);
  printf("iterations: %d\n", iterations);
  printf("residual: %.6g\n", residual);
  printf("error vs exact: %.6g\n", maxerr);
  int ok = !mismatch && ref_iterations == iterations && maxdiff == 0.0;
  printf("check: %s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
