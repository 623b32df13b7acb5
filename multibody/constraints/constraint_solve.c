/* The solve of the projected inverse mass W x = r for constraint sets that
 * may be redundant (see constrained_dynamics.h): Cholesky with diagonal
 * (symmetric) pivoting, stopped at the first negligible pivot, so the rows
 * kept are independent and the others get x = 0; then the residual on
 * every row tells a consistent redundant set from a conflicting one. */
#include <math.h>
#include <string.h>

#include "multibody/constraints/constraint_internal.h"

/* Pivots below this fraction of W's largest diagonal are dropped. */
#define PIVOT_TOLERANCE 1e-10
/* Residuals above this fraction of the problem's scale are conflicts. */
#define CONSISTENCY_TOLERANCE 1e-8

/* Swaps row and column i and j of the symmetric n x n A and of perm. */
static void symmetric_swap(double *A, int n, int *perm, int i, int j) {
  if (i == j) {
    return;
  }
  for (int k = 0; k < n; k++) {
    double t = A[i * n + k];
    A[i * n + k] = A[j * n + k];
    A[j * n + k] = t;
  }
  for (int k = 0; k < n; k++) {
    double t = A[k * n + i];
    A[k * n + i] = A[k * n + j];
    A[k * n + j] = t;
  }
  int t = perm[i];
  perm[i] = perm[j];
  perm[j] = t;
}

/* Factors A (n x n, symmetric) in place as P A P' = L L' over its first
 * rank columns (lower triangle), pivoting on the largest remaining
 * diagonal; returns the rank. */
static int pivoted_cholesky(double *A, int n, int *perm) {
  double dmax = 0.0;
  for (int i = 0; i < n; i++) {
    dmax = fmax(dmax, A[i * n + i]);
  }
  double tol = PIVOT_TOLERANCE * dmax;
  for (int k = 0; k < n; k++) {
    int j = k;
    for (int i = k + 1; i < n; i++) {
      j = A[i * n + i] > A[j * n + j] ? i : j;
    }
    if (!(A[j * n + j] > tol)) {
      return k;
    }
    symmetric_swap(A, n, perm, k, j);
    double d = sqrt(A[k * n + k]);
    A[k * n + k] = d;
    for (int i = k + 1; i < n; i++) {
      A[i * n + k] /= d;
    }
    /* the whole trailing block, both triangles: later swaps move entries
     * across the diagonal */
    for (int c = k + 1; c < n; c++) {
      for (int i = k + 1; i < n; i++) {
        A[i * n + c] -= A[i * n + k] * A[c * n + k];
      }
    }
  }
  return n;
}

/* x[perm[0..rank)] from L L' y = r there; x elsewhere is 0. */
static void triangular_solves(const double *L, int n, int rank, const int *perm, const double *r,
                              double *y, double *x) {
  for (int i = 0; i < rank; i++) {
    double s = r[perm[i]];
    for (int k = 0; k < i; k++) {
      s -= L[i * n + k] * y[k];
    }
    y[i] = s / L[i * n + i];
  }
  for (int i = rank - 1; i >= 0; i--) {
    double s = y[i];
    for (int k = i + 1; k < rank; k++) {
      s -= L[k * n + i] * y[k];
    }
    y[i] = s / L[i * n + i];
  }
  for (int i = 0; i < rank; i++) {
    x[perm[i]] = y[i];
  }
}

/* The worst row of res = W x - r among the active ones, relative to the
 * problem's scale; *bad_row gets it. */
static double worst_residual(int m, const double *W, const double *r, const double *active,
                             const double *x, double *res, int *bad_row) {
  double rmax = 0.0, xmax = 0.0, wmax = 0.0, worst = 0.0;
  for (int i = 0; i < m; i++) {
    rmax = fmax(rmax, fabs(r[i]));
    xmax = fmax(xmax, fabs(x[i]));
    wmax = fmax(wmax, fabs(W[i * m + i]));
  }
  double scale = rmax + wmax * xmax;
  for (int i = 0; i < m; i++) {
    double s = -r[i];
    for (int k = 0; k < m; k++) {
      s += W[i * m + k] * x[k];
    }
    res[i] = active[i] != 0.0 ? s : 0.0;
    if (fabs(res[i]) > worst) {
      worst = fabs(res[i]);
      *bad_row = i;
    }
  }
  return scale > 0.0 ? worst / scale : worst;
}

int teal_constraint_pivoted_solve(int m, const double *W, const double *r, const double *active,
                                  double *L, int *perm, double *res, double *x, int *bad_row) {
  int n = 0;
  for (int i = 0; i < m; i++) {
    x[i] = 0.0;
    if (active[i] != 0.0) {
      perm[n++] = i;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < n; k++) {
      L[i * n + k] = W[perm[i] * m + perm[k]];
    }
  }
  int rank = pivoted_cholesky(L, n, perm);
  triangular_solves(L, n, rank, perm, r, res, x);
  *bad_row = -1;
  double worst = worst_residual(m, W, r, active, x, res, bad_row);
  if (isnan(worst) || worst > CONSISTENCY_TOLERANCE) {
    return TEAL_ESINGULAR;
  }
  return TEAL_OK;
}
