/* Shared parts of the Riccati solvers: the argument checks, the
 * stabilizing solution from the ordered generalized Schur form of the
 * extended pencil (Arnold & Laub 1984; Van Dooren 1981) and its Newton
 * refinement (teal_ric_solve, behind teal_care and teal_dare).
 *
 * CARE pencil (2n+m):  M = [ A   0   B ]      L = [ I 0 0 ]
 *                          [-Q  -A' -N ]          [ 0 I 0 ]
 *                          [ N'  B'  R ]          [ 0 0 0 ]
 * DARE pencil (2n+m):  M = [ A   0   B ]      L = [ I  0  0 ]
 *                          [-Q   I  -N ]          [ 0  A' 0 ]
 *                          [ N'  0   R ]          [ 0 -B' 0 ]
 * Both have the deflating subspace span [I; X; -K] for the stabilizing X,
 * with M v = L v (A - B K). The last block column of L is zero and the last
 * block column W = [B; -N; R] of M has full column rank (R > 0), so with the
 * QR factorization W = V [Rw; 0], the last 2n rows of V'M and V'L, first 2n
 * columns, form a regular 2n x 2n pencil with the same finite spectrum
 * minus the m infinite eigenvalues, and the same deflating subspaces
 * projected on the first 2n coordinates. Its QZ form, ordered with the n
 * stable eigenvalues first, gives Z's first n columns [U1; U2] and
 * X = U2 U1^-1.
 *
 * Before the compression the pencil is balanced by an exact (powers of two)
 * structure-preserving diagonal similarity, which matters for badly scaled
 * state coordinates. No stabilizing solution exists (TEAL_ENOCONV) when the
 * number of stable eigenvalues is not n, when an eigenvalue lies within
 * sqrt(eps) of the stability boundary (relative to the pencil's scale for
 * the CARE), or when U1 is singular to working precision (sigma_min(U1) <=
 * max(2n, 10) eps sigma_max(U1)), which is how an unstabilizable mode shows
 * up. */
#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"
#include "solvers/dense_svd.h"
#include "solvers/lyapunov.h"
#include "solvers/riccati.h"
#include "solvers/schur.h"
#include "solvers/riccati_internal.h"

/* Entrywise tolerance (relative to max(1, |S|)) for accepting Q and R as
 * symmetric; their symmetric parts are used. */
#define RIC_SYMMETRY_TOL 1e-10

/* The smallest rcond of R in the balanced extended pencil, sigma_min(R) /
 * ||[B; N; R]||_F, that the Schur method resolves: below the unit roundoff
 * the QR compression of [B; N; R] drops R's contribution entirely. Measured
 * on scalar and 2 x 2 problems over 24 decades of B, Q and R: every CARE
 * below it failed (or returned a wrong X), none above it failed for this
 * reason; the DARE mostly succeeds below it (see schur_stages). */
#define RIC_R_RCOND_MIN DBL_EPSILON

void teal_ric_symmetrize(const double *S, int n, double *D) {
  for (int i = 0; i < n; i++) {
    D[(size_t)i * n + i] = S[(size_t)i * n + i];
    for (int j = i + 1; j < n; j++) {
      double v = 0.5 * (S[(size_t)i * n + j] + S[(size_t)j * n + i]);
      D[(size_t)i * n + j] = v;
      D[(size_t)j * n + i] = v;
    }
  }
}

static int check_finite(const char *who, const char *name, const double *S, int rows, int cols,
                        teal_error *err) {
  if (rows > 0 && cols > 0 && !teal_dense_all_finite(S, rows, cols)) {
    for (long i = 0; i < (long)rows * cols; i++) {
      if (!isfinite(S[i])) {
        return teal_error_set(err, TEAL_ENONFINITE, "%s: %s(%ld, %ld) = %g is not finite", who,
                              name, i / cols, i % cols, S[i]);
      }
    }
    return teal_error_set(err, TEAL_ENONFINITE, "%s: %s has a non-finite entry", who, name);
  }
  return TEAL_OK;
}

int teal_ric_check(const char *who, const double *A, const double *B, const double *Q,
                   const double *R, const double *N, int n, int m, const double *X,
                   teal_error *err) {
  if (n < 0 || m < 0) {
    return teal_error_set(err, TEAL_ESIZE, "%s: sizes must be nonnegative (n = %d, m = %d)", who,
                          n, m);
  }
  long long d = 2LL * n + m;
  if (d * d > INT_MAX) {
    return teal_error_set(err, TEAL_ESIZE, "%s: problem too large (n = %d, m = %d)", who, n, m);
  }
  if (n > 0 && (!A || !Q || !X)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL (n = %d)", who,
                          !A ? "A" : !Q ? "Q" : "X", n);
  }
  if (m > 0 && (!R || (n > 0 && !B))) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s is NULL (n = %d, m = %d)", who,
                          !R ? "R" : "B", n, m);
  }
  int rc;
  if ((rc = check_finite(who, "A", A, n, n, err)) || (rc = check_finite(who, "B", B, n, m, err)) ||
      (rc = check_finite(who, "Q", Q, n, n, err)) || (rc = check_finite(who, "R", R, m, m, err)) ||
      (N && (rc = check_finite(who, "N", N, n, m, err)))) {
    return rc;
  }
  if (n > 0 && !teal_dense_is_symmetric(Q, n, RIC_SYMMETRY_TOL)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: Q (%d x %d) is not symmetric", who, n, n);
  }
  if (m > 0 && !teal_dense_is_symmetric(R, m, RIC_SYMMETRY_TOL)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: R (%d x %d) is not symmetric", who, m, m);
  }
  return TEAL_OK;
}

int teal_ric_factor_r(const char *who, const double *R, int m, double *Rchol, teal_error *err) {
  if (m == 0) {
    return TEAL_OK;
  }
  teal_ric_symmetrize(R, m, Rchol);
  teal_error inner;
  teal_error_clear(&inner);
  int rc = teal_dense_cholesky_factor(Rchol, m, &inner);
  if (rc == TEAL_ESINGULAR) {
    return teal_error_set(err, TEAL_ESINGULAR, "%s: R (%d x %d) is not positive definite (%s)",
                          who, m, m, inner.message);
  }
  if (rc) {
    return teal_error_set(err, rc, "%s: Cholesky factorization of R failed: %s", who,
                          inner.message);
  }
  return TEAL_OK;
}

/* Ak' = (A - B K)' into Akt, using T (n x n) as scratch. */
int teal_ric_closed_loop_t(const double *A, const double *B, const double *K, int n, int m,
                           double *T, double *Akt, teal_error *err) {
  memcpy(T, A, sizeof(double) * (size_t)n * n);
  if (m > 0) {
    int rc = teal_dense_gemm(0, 0, n, n, m, -1.0, B, K, 1.0, T, err);
    if (rc) {
      return rc;
    }
  }
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      Akt[(size_t)i * n + j] = T[(size_t)j * n + i];
    }
  }
  return TEAL_OK;
}

/* Fills the first 2n columns of the extended pencil (M, L), d x 2n, and its
 * last block column W = [B; -N; R] (d x m), with the symmetric parts of Q
 * and R. */
static void fill_pencil(teal_ric_kind kind, const double *A, const double *B, const double *Q,
                        const double *R, const double *N, int n, int m, double *M, double *L,
                        double *W) {
  const int n2 = 2 * n, d = n2 + m;
  memset(M, 0, sizeof(double) * (size_t)d * n2);
  memset(L, 0, sizeof(double) * (size_t)d * n2);
  for (int i = 0; i < n; i++) {
    double *mt = M + (size_t)i * n2, *mb = M + (size_t)(n + i) * n2;
    double *lt = L + (size_t)i * n2, *lb = L + (size_t)(n + i) * n2;
    for (int j = 0; j < n; j++) {
      mt[j] = A[(size_t)i * n + j];
      mb[j] = -0.5 * (Q[(size_t)i * n + j] + Q[(size_t)j * n + i]);
    }
    lt[i] = 1.0;
    if (kind == TEAL_RIC_CARE) {
      for (int j = 0; j < n; j++) {
        mb[n + j] = -A[(size_t)j * n + i];
      }
      lb[n + i] = 1.0;
    } else {
      mb[n + i] = 1.0;
      for (int j = 0; j < n; j++) {
        lb[n + j] = A[(size_t)j * n + i];
      }
    }
    for (int k = 0; k < m; k++) {
      W[(size_t)i * m + k] = B[(size_t)i * m + k];
      W[(size_t)(n + i) * m + k] = N ? -N[(size_t)i * m + k] : 0.0;
    }
  }
  for (int k = 0; k < m; k++) {
    double *mr = M + (size_t)(n2 + k) * n2, *lr = L + (size_t)(n2 + k) * n2;
    for (int j = 0; j < n; j++) {
      mr[j] = N ? N[(size_t)j * m + k] : 0.0;
      if (kind == TEAL_RIC_CARE) {
        mr[n + j] = B[(size_t)j * m + k];
      } else {
        lr[n + j] = -B[(size_t)j * m + k];
      }
    }
    for (int l = 0; l < m; l++) {
      W[(size_t)(n2 + k) * m + l] = 0.5 * (R[(size_t)k * m + l] + R[(size_t)l * m + k]);
    }
  }
}

/* Distance to the stability boundary of one finite eigenvalue lambda =
 * re + i im: |Re lambda| / scale (CARE) or ||lambda| - 1| (DARE). */
static double eig_distance(teal_ric_kind kind, double re, double im, double scale) {
  return kind == TEAL_RIC_CARE ? fabs(re) / scale : fabs(hypot(re, im) - 1.0);
}

/* Smallest distance to the stability boundary over the finite generalized
 * eigenvalues of the quasi-triangular pencil (S, T) of order n2 (+inf when
 * there is none). *singular is set when some 1 x 1 block has alpha and beta
 * both negligible (a singular pencil). */
static double boundary_distance(teal_ric_kind kind, const double *S, const double *T, int n2,
                                int *singular) {
  double snorm = teal_dense_norm_fro(S, n2, n2), tnorm = teal_dense_norm_fro(T, n2, n2);
  double scale = tnorm > 0.0 && snorm > 0.0 ? snorm / tnorm : 1.0;
  double tiny_s = 100.0 * n2 * DBL_EPSILON * snorm, tiny_t = 100.0 * n2 * DBL_EPSILON * tnorm;
  double dist = INFINITY;
  *singular = 0;
  for (int i = 0; i < n2;) {
    double s11 = S[(size_t)i * n2 + i], t11 = T[(size_t)i * n2 + i];
    if (i + 1 < n2 && S[(size_t)(i + 1) * n2 + i] != 0.0) {
      double s12 = S[(size_t)i * n2 + i + 1], s21 = S[(size_t)(i + 1) * n2 + i];
      double s22 = S[(size_t)(i + 1) * n2 + i + 1];
      double t12 = T[(size_t)i * n2 + i + 1], t21 = T[(size_t)(i + 1) * n2 + i];
      double t22 = T[(size_t)(i + 1) * n2 + i + 1];
      /* det(S_b - lambda T_b) = a lambda^2 + b lambda + c */
      double a = t11 * t22 - t12 * t21;
      double b = -(s11 * t22 + s22 * t11 - s12 * t21 - s21 * t12);
      double c = s11 * s22 - s12 * s21;
      if (a != 0.0) {
        double disc = b * b - 4.0 * a * c;
        if (disc < 0.0) {
          dist = fmin(dist, eig_distance(kind, -b / (2.0 * a), sqrt(-disc) / (2.0 * fabs(a)),
                                         scale));
        } else {
          double r = sqrt(disc);
          dist = fmin(dist, eig_distance(kind, (-b + r) / (2.0 * a), 0.0, scale));
          dist = fmin(dist, eig_distance(kind, (-b - r) / (2.0 * a), 0.0, scale));
        }
      }
      i += 2;
      continue;
    }
    if (fabs(s11) <= tiny_s && fabs(t11) <= tiny_t) {
      *singular = 1;
    } else if (t11 != 0.0) {
      dist = fmin(dist, eig_distance(kind, s11 / t11, 0.0, scale));
    }
    i++;
  }
  return dist;
}

/* |M| + |L| (first 2n columns) or |W| (last m columns) at (i, j). */
static double pencil_abs(const double *M, const double *L, const double *W, int n2, int m, int i,
                         int j) {
  return j < n2 ? fabs(M[(size_t)i * n2 + j]) + fabs(L[(size_t)i * n2 + j])
                : fabs(W[(size_t)i * m + (j - n2)]);
}

/* Balances the extended pencil by a diagonal similarity T^-1 (M, L) T with
 * T = diag(S, S^-1, E) and S, E powers of two (so exact): the Parlett-Reinsch
 * iteration (radix 2) equalizes the off-diagonal row and column sums of
 * |M| + |L|, then each state pair (i, n+i) takes the geometric mean of its
 * two exponents, which keeps the Hamiltonian / symplectic structure
 * (Benner's diag(D, D^-1) scaling). The deflating subspace [I; X; -K]
 * becomes [I; S X S; ...], so s (n) receives the diagonal of S. p (2n+m) is
 * scratch. */
static void balance_pencil(double *M, double *L, double *W, int n, int m, double *p,
                           double *s) {
  const int n2 = 2 * n, d = n2 + m;
  for (int i = 0; i < d; i++) {
    p[i] = 1.0;
  }
  for (int sweep = 0; sweep < 64; sweep++) {
    int changed = 0;
    for (int i = 0; i < d; i++) {
      double c = 0.0, r = 0.0;
      for (int j = 0; j < d; j++) {
        if (j != i) {
          c += pencil_abs(M, L, W, n2, m, j, i) / p[j];
          r += pencil_abs(M, L, W, n2, m, i, j) * p[j];
        }
      }
      c *= p[i];
      r /= p[i];
      if (c == 0.0 || r == 0.0 || !isfinite(c + r)) {
        continue;
      }
      double f = 1.0, sum = c + r;
      while (c < 0.5 * r && f < 0x1p500) {
        c *= 2.0, r *= 0.5, f *= 2.0;
      }
      while (0.5 * c >= r && f > 0x1p-500) {
        c *= 0.5, r *= 2.0, f *= 0.5;
      }
      if (c + r < 0.95 * sum) {
        p[i] *= f;
        changed = 1;
      }
    }
    if (!changed) {
      break;
    }
  }
  /* T = diag(S, S^-1, E): s_i = 2^round((log2 p_i - log2 p_(n+i)) / 2). */
  for (int i = 0; i < n; i++) {
    int ei, eni;
    frexp(p[i], &ei);
    frexp(p[n + i], &eni);
    int k = (int)lround(0.5 * (double)(ei - eni));
    s[i] = ldexp(1.0, k);
    p[i] = s[i];
    p[n + i] = 1.0 / s[i];
  }
  for (int i = 0; i < d; i++) {
    for (int j = 0; j < n2; j++) {
      double f = p[j] / p[i];
      M[(size_t)i * n2 + j] *= f;
      L[(size_t)i * n2 + j] *= f;
    }
    for (int k = 0; k < m; k++) {
      W[(size_t)i * m + k] *= p[n2 + k] / p[i];
    }
  }
}

/* Applies V' from the QR of W (d x m) to M and L from the left. */
static int compress_pencil(const char *who, int d, int n2, int m, double *W, double *tau,
                           double *M, double *L, teal_error *err) {
  lapack_int info = LAPACKE_dgeqrf(LAPACK_ROW_MAJOR, d, m, W, m, tau);
  if (info == 0) {
    info = LAPACKE_dormqr(LAPACK_ROW_MAJOR, 'L', 'T', d, n2, m, W, m, tau, M, n2);
  }
  if (info == 0) {
    info = LAPACKE_dormqr(LAPACK_ROW_MAJOR, 'L', 'T', d, n2, m, W, m, tau, L, n2);
  }
  if (info != 0) {
    return teal_error_set(err, info == LAPACK_WORK_MEMORY_ERROR ? TEAL_ENOMEM : TEAL_EINVAL,
                          "%s: QR compression of the extended pencil failed (LAPACK info %d)",
                          who, (int)info);
  }
  return TEAL_OK;
}

/* Ordered QZ of the reduced pencil (Mr, Lr), n2 x n2, into Z, and the checks
 * that its stable deflating subspace gives a stabilizing solution. */
static int stable_subspace(teal_ric_kind kind, const char *who, int n, double *Mr, double *Lr,
                           double *Z, teal_error *err) {
  const int n2 = 2 * n;
  const char *region_name = kind == TEAL_RIC_CARE ? "open left half plane" : "open unit disk";
  teal_error inner;
  teal_error_clear(&inner);
  int nsel = 0;
  int rc = teal_qz_ordered(Mr, Lr, n2, NULL, Z, /* only Z is needed */
                           kind == TEAL_RIC_CARE ? TEAL_EIG_LEFT_HALF_PLANE : TEAL_EIG_UNIT_DISK,
                           &nsel, &inner);
  if (rc) {
    return teal_error_set(err, rc, "%s: ordered QZ of the %d x %d pencil failed: %s", who, n2,
                          n2, inner.message);
  }
  int singular = 0;
  double dist = boundary_distance(kind, Mr, Lr, n2, &singular);
  if (nsel != n) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: no stabilizing solution: %d of the %d generalized eigenvalues of "
                          "the reduced pencil lie in the %s, %d needed (not stabilizable or "
                          "not detectable; closest to the boundary: %.3g)",
                          who, nsel, n2, region_name, n, dist);
  }
  if (singular) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: no stabilizing solution: the extended pencil is singular (an "
                          "uncontrollable and unobservable mode)", who);
  }
  if (dist <= sqrt(DBL_EPSILON)) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: no stabilizing solution: a generalized eigenvalue lies on the "
                          "stability boundary (relative distance %.3g; not stabilizable or not "
                          "detectable)", who, dist);
  }
  return TEAL_OK;
}

/* X = U2 U1^-1 from Z's first n columns (U1t, U2t, sv: scratch), made
 * symmetric and unbalanced with scale. */
static int solution_from_subspace(const char *who, int n, const double *Z, const double *scale,
                                  double *U1t, double *U2t, double *sv, double *X,
                                  teal_error *err) {
  const int n2 = 2 * n;
  teal_error inner;
  teal_error_clear(&inner);
  /* U1' and U2' (the transposes of the blocks of Z's first n columns). */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      U1t[(size_t)i * n + j] = Z[(size_t)j * n2 + i];
      U2t[(size_t)i * n + j] = Z[(size_t)(n + j) * n2 + i];
    }
  }
  int rc = teal_dense_svd(U1t, n, n, NULL, sv, NULL, &inner);
  if (rc) {
    return teal_error_set(err, rc, "%s: SVD of the U1 block failed: %s", who, inner.message);
  }
  if (!(sv[n - 1] > (double)(n2 > 10 ? n2 : 10) * DBL_EPSILON * sv[0])) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: no stabilizing solution: the U1 block of the stable deflating "
                          "subspace is singular (reciprocal condition %.3g; not stabilizable?)",
                          who, sv[0] > 0.0 ? sv[n - 1] / sv[0] : 0.0);
  }
  /* X U1 = U2, i.e. U1' X' = U2'. */
  rc = teal_dense_solve(U1t, n, U2t, n, &inner);
  if (rc == TEAL_ESINGULAR || rc == TEAL_ENONFINITE) {
    return teal_error_set(err, TEAL_ENOCONV,
                          "%s: no stabilizing solution: the U1 block is singular (%s)", who,
                          inner.message);
  }
  if (rc) {
    return teal_error_set(err, rc, "%s: solving for X failed: %s", who, inner.message);
  }
  /* symmetric part, then undo the balancing: X = S^-1 Xs S^-1 */
  teal_ric_symmetrize(U2t, n, U2t);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      U2t[(size_t)i * n + j] /= scale[i] * scale[j];
    }
  }
  if (!teal_dense_all_finite(U2t, n, n)) {
    return teal_error_set(err, TEAL_ENOCONV, "%s: no stabilizing solution: X is not finite",
                          who);
  }
  memcpy(X, U2t, sizeof(double) * (size_t)n * n);
  return TEAL_OK;
}

/* rcond of R in the balanced extended pencil: sigma_min(R) / ||W||_F with
 * W = [B; -N; R] (d x m) its last block column. Below RIC_R_RCOND_MIN the QR
 * compression of W cannot resolve R (see teal_ric_schur_solution); sv (m)
 * is scratch. */
static int r_rcond(const char *who, const double *W, int n2, int m, double *sv, double *rcond,
                   teal_error *err) {
  teal_error inner;
  teal_error_clear(&inner);
  int rc = teal_dense_svd(W + (size_t)n2 * m, m, m, NULL, sv, NULL, &inner);
  if (rc) {
    return teal_error_set(err, rc, "%s: SVD of R failed: %s", who, inner.message);
  }
  double wnorm = teal_dense_norm_fro(W, n2 + m, m);
  *rcond = wnorm > 0.0 ? sv[m - 1] / wnorm : 0.0;
  return TEAL_OK;
}

/* TEAL_ESINGULAR for an R that the pencil cannot resolve; cause (may be
 * NULL) is the failure it led to. */
static int r_ill_conditioned(const char *who, double rcond, const char *cause, teal_error *err) {
  char why[TEAL_ERROR_MESSAGE_MAX / 2];
  snprintf(why, sizeof why, "%.*s", (int)sizeof why - 1, cause ? cause : "");
  return teal_error_set(err, TEAL_ESINGULAR,
                        "%s: R is ill-conditioned relative to B (rcond %.3g = sigma_min(R) / "
                        "||[B; N; R]||_F after balancing, below %.3g): its effect is lost to "
                        "rounding; scale the inputs or raise R%s%s%s",
                        who, rcond, RIC_R_RCOND_MIN, cause ? " (then: " : "", why,
                        cause ? ")" : "");
}

/* The work arrays of teal_ric_schur_solution. */
typedef struct ric_pencil {
  double *M, *L, *W, *tau, *Z, *U1t, *U2t, *sv, *scale, *pw;
} ric_pencil;

/* The Schur stage on the filled and balanced pencil: compression, ordered
 * QZ and X. rcond is R's (r_rcond). */
static int schur_stages(teal_ric_kind kind, const char *who, int n, int m, const ric_pencil *w,
                        double rcond, double *X, teal_error *err) {
  const int n2 = 2 * n, d = n2 + m;
  /* the CARE fails outright without R (cheap control: X ~ R^(1/2)); the DARE
   * inverts R + B'XB and usually succeeds (below) */
  if (kind == TEAL_RIC_CARE && rcond < RIC_R_RCOND_MIN) {
    return r_ill_conditioned(who, rcond, NULL, err);
  }
  int rc = m > 0 ? compress_pencil(who, d, n2, m, w->W, w->tau, w->M, w->L, err) : TEAL_OK;
  if (rc == TEAL_OK) {
    rc = stable_subspace(kind, who, n, w->M + (size_t)m * n2, w->L + (size_t)m * n2, w->Z, err);
  }
  if (rc == TEAL_OK) {
    rc = solution_from_subspace(who, n, w->Z, w->scale, w->U1t, w->U2t, w->sv, X, err);
  }
  if (rc == TEAL_ENOCONV && rcond < RIC_R_RCOND_MIN) {
    char cause[TEAL_ERROR_MESSAGE_MAX];
    snprintf(cause, sizeof cause, "%.*s", (int)sizeof cause - 1,
             err ? err->message : "no stabilizing solution");
    rc = r_ill_conditioned(who, rcond, cause, err);
  }
  return rc;
}

int teal_ric_schur_solution(teal_ric_kind kind, const char *who, const double *A,
                            const double *B, const double *Q, const double *R,
                            const double *N, int n, int m, double *X, teal_error *err) {
  const int n2 = 2 * n, d = n2 + m;
  size_t npencil = (size_t)d * n2, nsq2 = (size_t)n2 * n2, nsq = (size_t)n * n;
  size_t nsv = (size_t)(n > m ? n : m);
  double *buf = teal_alloc(sizeof(double) * (2 * npencil + (size_t)d * m + (size_t)m + nsq2 +
                                             2 * nsq + nsv + (size_t)n + (size_t)d));
  if (!buf) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory for the %d x %d pencil", who, d,
                          d);
  }
  ric_pencil w;
  w.M = buf, w.L = w.M + npencil, w.W = w.L + npencil, w.tau = w.W + (size_t)d * m;
  w.Z = w.tau + m, w.U1t = w.Z + nsq2, w.U2t = w.U1t + nsq, w.sv = w.U2t + nsq;
  w.scale = w.sv + nsv, w.pw = w.scale + n;
  double rcond = 1.0;

  fill_pencil(kind, A, B, Q, R, N, n, m, w.M, w.L, w.W);
  balance_pencil(w.M, w.L, w.W, n, m, w.pw, w.scale);
  int rc = m > 0 ? r_rcond(who, w.W, n2, m, w.sv, &rcond, err) : TEAL_OK;
  if (rc == TEAL_OK) {
    rc = schur_stages(kind, who, n, m, &w, rcond, X, err);
  }
  teal_free(buf);
  return rc;
}

/* The problem as the refinement sees it: Rc is the Cholesky factor of R. */
typedef struct ric_problem {
  teal_ric_kind kind;
  const char *who;
  const double *A, *B, *Q, *R, *Rc, *N;
  int n, m;
} ric_problem;

/* The CARE or DARE left-hand side F at X and the gain K there (K may be NULL). */
static int ric_lhs(const ric_problem *p, const double *X, double *F, double *K, teal_error *err) {
  if (p->kind == TEAL_RIC_CARE) {
    return teal_ric_care_lhs(p->A, p->B, p->Q, p->Rc, p->N, p->n, p->m, X, F, K, err);
  }
  return teal_ric_dare_lhs(p->A, p->B, p->Q, p->R, p->N, p->n, p->m, X, F, K, err);
}

/* The Newton correction E from Akt' E + E Akt + F = 0 (CARE, Kleinman) or
 * Akt' E Akt - E + F = 0 (DARE, Hewer), Akt = (A - BK)'. */
static int ric_correction(const ric_problem *p, const double *Akt, const double *F, double *E,
                          teal_error *err) {
  if (p->kind == TEAL_RIC_CARE) {
    return teal_lyapunov_continuous(Akt, F, p->n, E, err);
  }
  return teal_lyapunov_discrete(Akt, F, p->n, E, err);
}

/* One Newton step from Xw with F and K the left-hand side and gain at Xw
 * (F is overwritten); Xw and *res are replaced only when the step lowers
 * the residual. X1, E and Akt are n x n scratch. */
static int ric_newton_step(const ric_problem *p, double *Xw, double *res, double *F,
                           const double *K, double *X1, double *E, double *Akt, teal_error *err) {
  size_t nn = (size_t)p->n * p->n;
  teal_ric_symmetrize(F, p->n, F);
  int rc = teal_ric_closed_loop_t(p->A, p->B, K, p->n, p->m, E, Akt, err);
  if (!rc) {
    rc = ric_correction(p, Akt, F, E, err);
  }
  if (!rc) {
    for (size_t i = 0; i < nn; i++) {
      X1[i] = Xw[i] + E[i];
    }
    teal_ric_symmetrize(X1, p->n, X1);
    rc = ric_lhs(p, X1, F, NULL, err);
  }
  if (!rc) {
    double res1 = teal_ric_relative(F, X1, p->n);
    if (res1 < *res) {
      memcpy(Xw, X1, sizeof(double) * nn);
      *res = res1;
    }
  }
  return rc;
}

/* Xw from the QZ form, then its residual *res and, above
 * TEAL_RIC_REFINE_ABOVE, one Newton step (failures other than out of
 * memory keep the QZ solution). work holds 4 n x n + n x m doubles. */
static int ric_refined_solution(const ric_problem *p, double *Xw, double *res, double *work,
                                teal_error *err) {
  size_t nn = (size_t)p->n * p->n;
  double *X1 = work, *F = X1 + nn, *E = F + nn, *Akt = E + nn, *K = Akt + nn;
  int rc = teal_ric_schur_solution(p->kind, p->who, p->A, p->B, p->Q, p->R, p->N, p->n, p->m, Xw,
                                   err);
  if (rc) {
    return rc;
  }
  teal_error inner;
  teal_error_clear(&inner);
  if ((rc = ric_lhs(p, Xw, F, K, &inner))) {
    int code = p->kind == TEAL_RIC_DARE && rc == TEAL_ESINGULAR ? TEAL_ENOCONV : rc;
    return teal_error_set(err, code, "%s: residual evaluation failed: %s", p->who, inner.message);
  }
  *res = teal_ric_relative(F, Xw, p->n);
  if (*res > TEAL_RIC_REFINE_ABOVE &&
      ric_newton_step(p, Xw, res, F, K, X1, E, Akt, &inner) == TEAL_ENOMEM) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: Newton refinement: %s", p->who, inner.message);
  }
  return TEAL_OK;
}

int teal_ric_solve(teal_ric_kind kind, const char *who, const double *A, const double *B,
                   const double *Q, const double *R, const double *N, int n, int m, double *X,
                   double *residual, teal_error *err) {
  int rc = teal_ric_check(who, A, B, Q, R, N, n, m, X, err);
  if (rc) {
    return rc;
  }
  size_t nn = (size_t)n * n, nm = (size_t)n * m, mm = (size_t)m * m;
  double *buf = teal_alloc(sizeof(double) * (mm + 5 * nn + nm));
  if (!buf) {
    return teal_error_set(err, TEAL_ENOMEM, "%s: out of memory (n = %d, m = %d)", who, n, m);
  }
  double *Rc = buf, *Xw = Rc + mm, res = 0.0;
  const ric_problem p = {kind, who, A, B, Q, R, Rc, N, n, m};
  if (!(rc = teal_ric_factor_r(who, R, m, Rc, err)) && n > 0 &&
      !(rc = ric_refined_solution(&p, Xw, &res, Xw + nn, err))) {
    memcpy(X, Xw, sizeof(double) * nn);
  }
  if (!rc && residual) {
    *residual = res;
  }
  teal_free(buf);
  return rc;
}

/* ---- public entry points --------------------------------------------------- */

/* teal_care: the stabilizing solution of the continuous-time algebraic
 * Riccati equation from the ordered QZ form of the extended pencil (see
 * above), refined by one Newton (Kleinman) step when its relative
 * residual exceeds TEAL_RIC_REFINE_ABOVE. The step solves the Lyapunov
 * equation (A - BK)'E + E(A - BK) + F(X) = 0 for the correction E, with F
 * the CARE left-hand side and K = R^-1 (B'X + N') the gain at X, and is
 * kept only when it lowers the residual. */
int teal_care(const double *A, const double *B, const double *Q, const double *R,
              const double *N, int n, int m, double *X, double *residual, teal_error *err) {
  return teal_ric_solve(TEAL_RIC_CARE, "care", A, B, Q, R, N, n, m, X, residual, err);
}

/* teal_dare: the stabilizing solution of the discrete-time algebraic
 * Riccati equation from the ordered QZ form of the extended pencil (see
 * above), refined by one Newton (Hewer) step when its relative residual
 * exceeds TEAL_RIC_REFINE_ABOVE. The step solves the Stein equation
 * (A - BK)'E(A - BK) - E + F(X) = 0 for the correction E, with F the DARE
 * left-hand side and K = (R + B'XB)^-1 (B'XA + N') the gain at X, and is
 * kept only when it lowers the residual. */
int teal_dare(const double *A, const double *B, const double *Q, const double *R,
              const double *N, int n, int m, double *X, double *residual, teal_error *err) {
  return teal_ric_solve(TEAL_RIC_DARE, "dare", A, B, Q, R, N, n, m, X, residual, err);
}
