/* The pivot-dropping Cholesky solve of the constraint rows' projected
 * systems (see rank_revealing_solve.h). */
#include "multibody/constraints/rank_revealing_solve.h"

#include <math.h>

#include "framework/error.h"

static int all_finite(const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return 0;
    }
  }
  return 1;
}

/* Factors S = L L' in its lower triangle; a row whose pivot falls below
 * floor is marked redundant (keep[k] = 0, its column of L zero). */
static int factor(double *S, int m, double floor, unsigned char *keep) {
  int rank = 0;
  for (int k = 0; k < m; k++) {
    double *Sk = S + (size_t)k * (size_t)m;
    double d = Sk[k];
    for (int j = 0; j < k; j++) {
      d -= Sk[j] * Sk[j];
    }
    keep[k] = d > floor;
    double l = keep[k] ? sqrt(d) : 0.0;
    Sk[k] = l;
    for (int i = k + 1; i < m; i++) {
      double *Si = S + (size_t)i * (size_t)m;
      double acc = Si[k];
      for (int j = 0; j < k; j++) {
        acc -= Si[j] * Sk[j];
      }
      Si[k] = keep[k] ? acc / l : 0.0;
    }
    rank += keep[k];
  }
  return rank;
}

/* Forward then backward substitution with L, skipping dropped rows. */
static void substitute(const double *L, int m, const unsigned char *keep, double *b) {
  for (int i = 0; i < m; i++) {
    const double *Li = L + (size_t)i * (size_t)m;
    double acc = b[i];
    for (int j = 0; j < i; j++) {
      acc -= Li[j] * b[j];
    }
    b[i] = keep[i] ? acc / Li[i] : 0.0;
  }
  for (int i = m - 1; i >= 0; i--) {
    double acc = b[i];
    for (int j = i + 1; j < m; j++) {
      acc -= L[(size_t)j * (size_t)m + (size_t)i] * b[j];
    }
    b[i] = keep[i] ? acc / L[(size_t)i * (size_t)m + (size_t)i] : 0.0;
  }
}

int teal_rr_cholesky_solve(double *S, int m, double *b, double tol, int *rank) {
  if (!S || !b || m < 0) {
    return TEAL_EINVAL;
  }
  if (!all_finite(S, m * m) || !all_finite(b, m)) {
    return TEAL_ENONFINITE;
  }
  double dmax = 0.0;
  for (int k = 0; k < m; k++) {
    dmax = fmax(dmax, S[(size_t)k * (size_t)m + (size_t)k]);
  }
  /* the keep flags: a stack array for every realistic m; larger systems
   * put them in the bytes of S's first row above the diagonal, which the
   * factorization (lower triangle only) never reads */
  unsigned char flags[256];
  unsigned char *keep = m <= 256 ? flags : (unsigned char *)(S + 1);
  double floor = (tol > 0.0 ? tol : TEAL_RR_CHOLESKY_DEFAULT_TOL) * dmax;
  int r = factor(S, m, floor, keep);
  substitute(S, m, keep, b);
  if (rank) {
    *rank = r;
  }
  return TEAL_OK;
}
