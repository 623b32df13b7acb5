/* Ordered real Schur and generalized real Schur (QZ) forms.
 *
 * Both work on column-major copies (so workspace comes from teal_alloc and
 * the input is untouched on failure): LAPACK dgees / dgges compute the
 * unordered form, then dtrsen / dtgsen move the eigenvalues in the region
 * to the leading block. The ordering is verified on the eigenvalues that
 * dtrsen / dtgsen recompute from the reordered form; if rounding moved an
 * eigenvalue lying (numerically) on the region boundary across it, the
 * selection is redone on the new values (a few times at most) and a form
 * that still is not ordered gives TEAL_ENOCONV. */
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/schur.h"
#include "solvers/dense_internal.h"

enum { ORDER_ATTEMPTS = 3 };

static int region_valid(teal_eig_region region) {
  return region == TEAL_EIG_LEFT_HALF_PLANE || region == TEAL_EIG_UNIT_DISK;
}

/* Argument checks shared by the ordered forms: B is checked only for the
 * pencil (QZ). */
static int check_ordered_args(const char *fn, const double *A, const double *B, int pencil,
                              const double *Z, int n, teal_eig_region region, const int *nsel,
                              teal_error *err) {
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  int no_b = pencil && !B;
  if (!nsel || (n > 0 && (!A || no_b || !Z))) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s", fn,
                          !nsel ? "nsel" : (!A ? "A" : (no_b ? "B" : "Z")));
  }
  if (!region_valid(region)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: unknown eigenvalue region %d", fn, (int)region);
  }
  rc = teal_dense_check_finite(fn, "A", A, n, n, err);
  if (!rc && pencil) {
    rc = teal_dense_check_finite(fn, "B", B, n, n, err);
  }
  return rc;
}

/* Standard eigenvalue wr + i wi in the region (strictly). */
static int in_region(teal_eig_region region, double wr, double wi) {
  if (region == TEAL_EIG_LEFT_HALF_PLANE) {
    return wr < 0.0;
  }
  return hypot(wr, wi) < 1.0;
}

/* Generalized eigenvalue (ar + i ai) / b in the region; b = 0 (infinite or
 * indeterminate) is never selected. */
static int in_region_gen(teal_eig_region region, double ar, double ai, double b) {
  if (b == 0.0) {
    return 0;
  }
  if (region == TEAL_EIG_LEFT_HALF_PLANE) {
    return (ar < 0.0 && b > 0.0) || (ar > 0.0 && b < 0.0);
  }
  return hypot(ar, ai) < fabs(b);
}

/* 1 when the first m values satisfy the predicate and the rest do not. */
static int ordered_std(teal_eig_region region, const double *wr, const double *wi, int n, int m) {
  for (int i = 0; i < n; i++) {
    if (in_region(region, wr[i], wi[i]) != (i < m)) {
      return 0;
    }
  }
  return 1;
}

static int ordered_gen(teal_eig_region region, const double *ar, const double *ai, const double *b,
                       int n, int m) {
  for (int i = 0; i < n; i++) {
    if (in_region_gen(region, ar[i], ai[i], b[i]) != (i < m)) {
      return 0;
    }
  }
  return 1;
}

/* Reorders the column-major Schur form (T, Zc) so the eigenvalues in region
 * lead; wr/wi hold the current eigenvalues on entry and the reordered ones
 * on exit. */
static int reorder_std(const char *fn, double *T, double *Zc, int n, teal_eig_region region,
                       double *wr, double *wi, int *sel, int *m, teal_error *err) {
  double wquery = 0.0, s = 0.0, sep = 0.0;
  int iquery = 0;
  for (int i = 0; i < n; i++) {
    sel[i] = in_region(region, wr[i], wi[i]);
  }
  int info = LAPACKE_dtrsen_work(LAPACK_COL_MAJOR, 'N', 'V', sel, n, T, n, Zc, n, wr, wi, m, &s,
                                 &sep, &wquery, -1, &iquery, -1);
  if (info != 0) {
    return teal_dense_lapack_arg(fn, "dtrsen", info, err);
  }
  int lwork = teal_dense_lwork(wquery, n > 1 ? n : 1);
  int liwork = iquery > 1 ? iquery : 1;
  double *work;
  int *iwork;
  int rc = teal_dense_alloc_pair(fn, (size_t)lwork, (size_t)liwork, &work, &iwork, err);
  if (rc) {
    return rc;
  }
  for (int attempt = 0; attempt < ORDER_ATTEMPTS; attempt++) {
    for (int i = 0; i < n; i++) {
      sel[i] = in_region(region, wr[i], wi[i]);
    }
    info = LAPACKE_dtrsen_work(LAPACK_COL_MAJOR, 'N', 'V', sel, n, T, n, Zc, n, wr, wi, m, &s, &sep,
                               work, lwork, iwork, liwork);
    if (info < 0) {
      rc = teal_dense_lapack_arg(fn, "dtrsen", info, err);
      break;
    }
    if (info > 0) {
      rc = teal_error_set(err, TEAL_ENOCONV,
                          "%s: eigenvalues too close to reorder (LAPACK dtrsen info %d)", fn, info);
      break;
    }
    if (ordered_std(region, wr, wi, n, *m)) {
      break;
    }
    if (attempt == ORDER_ATTEMPTS - 1) {
      rc = teal_error_set(err, TEAL_ENOCONV,
                          "%s: rounding keeps moving an eigenvalue across the region boundary; "
                          "the ordered Schur form is not reliable",
                          fn);
    }
  }
  teal_free(iwork);
  teal_free(work);
  return rc;
}

int teal_schur_ordered(double *A, int n, double *Z, teal_eig_region region, int *nsel, double *wr,
                       double *wi, teal_error *err) {
  static const char fn[] = "schur_ordered";
  int rc = check_ordered_args(fn, A, NULL, 0, Z, n, region, nsel, err);
  if (rc) {
    return rc;
  }
  if (n == 0) {
    *nsel = 0;
    return TEAL_OK;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *buf;
  int *sel;
  if ((rc = teal_dense_alloc_pair(fn, 2 * nn + 2 * (size_t)n, (size_t)n, &buf, &sel, err))) {
    return rc;
  }
  double *T = buf, *Zc = buf + nn, *er = Zc + nn, *ei = er + n;
  int m = 0;
  teal_dense_transpose(A, n, n, T);
  rc = teal_dense_schur_cm(fn, T, n, Zc, er, ei, err);
  if (!rc) {
    rc = reorder_std(fn, T, Zc, n, region, er, ei, sel, &m, err);
  }
  if (!rc) {
    teal_dense_transpose(T, n, n, A);
    teal_dense_transpose(Zc, n, n, Z);
    if (wr) {
      memcpy(wr, er, sizeof(double) * (size_t)n);
    }
    if (wi) {
      memcpy(wi, ei, sizeof(double) * (size_t)n);
    }
    *nsel = m;
  }
  teal_free(sel);
  teal_free(buf);
  return rc;
}

/* Reorders the column-major generalized Schur form (S, T; Qc, Zc). */
static int reorder_gen(const char *fn, double *S, double *T, double *Qc, double *Zc, int n,
                       int want_q, teal_eig_region region, double *ar, double *ai, double *be,
                       int *sel, int *m, teal_error *err) {
  double wquery = 0.0, pl = 0.0, pr = 0.0, dif[2] = {0.0, 0.0};
  int iquery = 0;
  for (int i = 0; i < n; i++) {
    sel[i] = in_region_gen(region, ar[i], ai[i], be[i]);
  }
  int info = LAPACKE_dtgsen_work(LAPACK_COL_MAJOR, 0, want_q, 1, sel, n, S, n, T, n, ar, ai, be,
                                 Qc, n, Zc, n, m, &pl, &pr, dif, &wquery, -1, &iquery, -1);
  if (info != 0) {
    return teal_dense_lapack_arg(fn, "dtgsen", info, err);
  }
  int lwork = teal_dense_lwork(wquery, 4 * n + 16);
  int liwork = iquery > 1 ? iquery : 1;
  double *work;
  int *iwork;
  int rc = teal_dense_alloc_pair(fn, (size_t)lwork, (size_t)liwork, &work, &iwork, err);
  if (rc) {
    return rc;
  }
  for (int attempt = 0; attempt < ORDER_ATTEMPTS; attempt++) {
    for (int i = 0; i < n; i++) {
      sel[i] = in_region_gen(region, ar[i], ai[i], be[i]);
    }
    info = LAPACKE_dtgsen_work(LAPACK_COL_MAJOR, 0, want_q, 1, sel, n, S, n, T, n, ar, ai, be, Qc,
                               n, Zc, n, m, &pl, &pr, dif, work, lwork, iwork, liwork);
    if (info < 0) {
      rc = teal_dense_lapack_arg(fn, "dtgsen", info, err);
      break;
    }
    if (info > 0) {
      rc = teal_error_set(err, TEAL_ENOCONV,
                          "%s: generalized eigenvalues too close to reorder (LAPACK dtgsen "
                          "info %d)",
                          fn, info);
      break;
    }
    if (ordered_gen(region, ar, ai, be, n, *m)) {
      break;
    }
    if (attempt == ORDER_ATTEMPTS - 1) {
      rc = teal_error_set(err, TEAL_ENOCONV,
                          "%s: rounding keeps moving a generalized eigenvalue across the region "
                          "boundary; the ordered QZ form is not reliable",
                          fn);
    }
  }
  teal_free(iwork);
  teal_free(work);
  return rc;
}

int teal_qz_ordered(double *A, double *B, int n, double *Q, double *Z, teal_eig_region region,
                    int *nsel, teal_error *err) {
  static const char fn[] = "qz_ordered";
  int rc = check_ordered_args(fn, A, B, 1, Z, n, region, nsel, err);
  if (rc) {
    return rc;
  }
  int want_q = Q != NULL; /* skipping Q saves much of the QZ work */
  char jobvsl = want_q ? 'V' : 'N';
  if (n == 0) {
    *nsel = 0;
    return TEAL_OK;
  }
  size_t nn = (size_t)n * (size_t)n;
  double *buf;
  int *sel;
  if ((rc = teal_dense_alloc_pair(fn, 4 * nn + 3 * (size_t)n, (size_t)n, &buf, &sel, err))) {
    return rc;
  }
  double *S = buf, *T = S + nn, *Qc = T + nn, *Zc = Qc + nn;
  double *ar = Zc + nn, *ai = ar + n, *be = ai + n;
  teal_dense_transpose(A, n, n, S);
  teal_dense_transpose(B, n, n, T);
  int sdim = 0, m = 0;
  double query = 0.0;
  double *work = NULL;
  int info = LAPACKE_dgges_work(LAPACK_COL_MAJOR, jobvsl, 'V', 'N', NULL, n, S, n, T, n, &sdim, ar,
                                ai, be, Qc, n, Zc, n, &query, -1, sel);
  if (info != 0) {
    rc = teal_dense_lapack_arg(fn, "dgges", info, err);
    goto done;
  }
  int lwork = teal_dense_lwork(query, 8 * n > 6 * n + 16 ? 8 * n : 6 * n + 16);
  work = teal_dense_alloc(fn, (size_t)lwork, err);
  if (!work) {
    rc = TEAL_ENOMEM;
    goto done;
  }
  info = LAPACKE_dgges_work(LAPACK_COL_MAJOR, jobvsl, 'V', 'N', NULL, n, S, n, T, n, &sdim, ar, ai,
                            be, Qc, n, Zc, n, work, lwork, sel);
  if (info < 0) {
    rc = teal_dense_lapack_arg(fn, "dgges", info, err);
    goto done;
  }
  if (info > 0) {
    rc = teal_error_set(err, TEAL_ENOCONV,
                        "%s: the QZ iteration (LAPACK dgges) failed (info %d of n = %d)", fn, info,
                        n);
    goto done;
  }
  rc = reorder_gen(fn, S, T, Qc, Zc, n, want_q, region, ar, ai, be, sel, &m, err);
  if (!rc) {
    teal_dense_transpose(S, n, n, A);
    teal_dense_transpose(T, n, n, B);
    if (want_q) {
      teal_dense_transpose(Qc, n, n, Q);
    }
    teal_dense_transpose(Zc, n, n, Z);
    *nsel = m;
  }
done:
  teal_free(work);
  teal_free(sel);
  teal_free(buf);
  return rc;
}
