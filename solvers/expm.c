/* Matrix exponential through GSL's gsl_linalg_exponential_ss at double
 * precision (GSL_PREC_DOUBLE).
 *
 * GSL implements the scaling-and-squaring method with a truncated Taylor
 * series (Moler & Van Loan, "Nineteen dubious ways...", SIAM Rev. 20, 1978,
 * method 3), picking the number of terms and squarings from the paper's
 * table indexed by the *largest entry* of A. The table is valid for a
 * matrix norm, and max |a_ij| can be n times smaller than ||A||_1, which
 * costs up to ~1e-6 relative accuracy for n = 100. So A is first scaled by
 * an exact power of two 2^-s, the smallest s for which ||A 2^-s||_1 lies
 * below the top of the table row GSL will choose from max |a_ij 2^-s|;
 * GSL's result is then squared s times. */
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "solvers/expm.h"
#include "solvers/dense_internal.h"

/* Upper end of the norm range of the Moler-Van Loan table row that GSL
 * uses for a matrix whose largest entry is sup (0 when sup is beyond the
 * table, where GSL's own extra squarings again assume a true norm). */
static double table_row_top(double sup) {
  static const double tops[] = {0.01, 0.1, 1.0, 10.0, 100.0, 1000.0};
  for (size_t i = 0; i < sizeof tops / sizeof *tops; i++) {
    if (sup < tops[i]) {
      return tops[i];
    }
  }
  return 0.0;
}

int teal_expm(const double *A, int n, double *E, teal_error *err) {
  static const char fn[] = "expm";
  int rc = teal_dense_check_dim(fn, "n", n, err);
  if (rc) {
    return rc;
  }
  if (n > 0 && (!A || !E)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: NULL %s (n = %d)", fn, !A ? "A" : "E", n);
  }
  if ((rc = teal_dense_check_finite(fn, "A", A, n, n, err))) {
    return rc;
  }
  if (n == 0) {
    return TEAL_OK;
  }
  size_t nn = (size_t)n * (size_t)n;
  double norm1 = 0.0; /* max column sum */
  for (int j = 0; j < n; j++) {
    double c = 0.0;
    for (int i = 0; i < n; i++) {
      c += fabs(A[(size_t)i * (size_t)n + (size_t)j]);
    }
    norm1 = c > norm1 ? c : norm1;
  }
  double sup = teal_dense_max_abs(A, nn);
  int s = 0;
  while (s < 2000 && !(ldexp(norm1, -s) < table_row_top(ldexp(sup, -s)))) {
    s++;
  }
  double *buf = teal_dense_alloc(fn, 2 * nn, err);
  if (!buf) {
    return TEAL_ENOMEM;
  }
  double *As = buf, *W = buf + nn;
  for (size_t i = 0; i < nn; i++) {
    As[i] = ldexp(A[i], -s); /* exact */
  }
  gsl_set_error_handler_off();
  gsl_matrix_const_view a = gsl_matrix_const_view_array(As, (size_t)n, (size_t)n);
  gsl_matrix_view e = gsl_matrix_view_array(E, (size_t)n, (size_t)n);
  int status = gsl_linalg_exponential_ss(&a.matrix, &e.matrix, GSL_PREC_DOUBLE);
  if (status != GSL_SUCCESS) {
    teal_free(buf);
    if (status == GSL_ENOMEM) {
      return teal_error_set(err, TEAL_ENOMEM, "%s: GSL ran out of memory (n = %d)", fn, n);
    }
    return teal_error_set(err, TEAL_EINVAL, "%s: gsl_linalg_exponential_ss failed: %s", fn,
                          gsl_strerror(status));
  }
  /* (gsl_linalg.h brings GSL's CBLAS declarations, so squarings go
   * through teal_dense_gemm rather than <cblas.h>) */
  for (int k = 0; k < s && status == GSL_SUCCESS; k++) {
    if (teal_dense_gemm(0, 0, n, n, n, 1.0, E, E, 0.0, W, NULL) != TEAL_OK) {
      status = GSL_EOVRFLW;
    } else {
      memcpy(E, W, sizeof(double) * nn);
    }
  }
  teal_free(buf);
  if (status != GSL_SUCCESS) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s: exp(A) overflows (max |a_ij| = %g)", fn, sup);
  }
  return teal_dense_check_finite(fn, "exp(A) (overflow)", E, n, n, err);
}
