/* The solve of the projected inverse mass W x = r for constraint sets that
 * may be redundant (see constrained_dynamics.h): the active rows are
 * gathered into a compact system, solved by the pivoted PSD solve of
 * solvers/dense_psd.h (redundant rows get x = 0), and then the residual on
 * every active row tells a consistent redundant set from a conflicting one. */
#include <math.h>

#include "multibody/constraints/constraint_internal.h"
#include "solvers/dense_psd.h"

/* Residuals above this fraction of the problem's scale are conflicts. */
#define CONSISTENCY_TOLERANCE 1e-8

/* The active rows' indices (ascending) into idx and W's active block into
 * L (n x n); returns n. */
static int gather(int m, const double *W, const double *active, int *idx, double *L) {
  int n = 0;
  for (int i = 0; i < m; i++) {
    if (active[i] != 0.0) {
      idx[n++] = i;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int k = 0; k < n; k++) {
      L[i * n + k] = W[idx[i] * m + idx[k]];
    }
  }
  return n;
}

/* Spreads the compact x[0..n) onto the active rows idx, zeros elsewhere;
 * in place, from the back, since idx[i] >= i. */
static void scatter(int m, int n, const int *idx, double *x) {
  for (int i = n; i < m; i++) {
    x[i] = 0.0;
  }
  for (int i = n - 1; i >= 0; i--) {
    double v = x[i];
    x[i] = 0.0;
    x[idx[i]] = v;
  }
}

int teal_constraint_pivoted_solve(int m, const double *W, const double *r, const double *active,
                                  double *L, int *idx, double *work, double *x, int *bad_row,
                                  double *bad_residual) {
  *bad_row = -1;
  *bad_residual = 0.0;
  int n = gather(m, W, active, idx, L);
  for (int i = 0; i < n; i++) {
    x[i] = r[idx[i]];
  }
  int rc = teal_dense_psd_factor_solve(L, n, x, CONSTRAINT_PIVOT_TOLERANCE, work, NULL, NULL);
  if (rc) {
    return TEAL_ESINGULAR;
  }
  scatter(m, n, idx, x);
  double worst = teal_dense_psd_residual(W, m, r, x, active, bad_row);
  if (*bad_row >= 0) { /* the offending row's residual, for the message */
    double s = -r[*bad_row];
    for (int k = 0; k < m; k++) {
      s += W[*bad_row * m + k] * x[k];
    }
    *bad_residual = s;
  }
  return isnan(worst) || worst > CONSISTENCY_TOLERANCE ? TEAL_ESINGULAR : TEAL_OK;
}
