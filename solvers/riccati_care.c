/* teal_care: the stabilizing solution of the continuous-time algebraic
 * Riccati equation from the ordered QZ form of the extended pencil (see
 * riccati.c), refined by one Newton (Kleinman) step when its relative
 * residual exceeds TEAL_RIC_REFINE_ABOVE. The step solves the Lyapunov
 * equation (A - BK)'E + E(A - BK) + F(X) = 0 for the correction E, with F
 * the CARE left-hand side and K = R^-1 (B'X + N') the gain at X, and is
 * kept only when it lowers the residual. */
#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense.h"
#include "solvers/riccati.h"
#include "solvers/riccati_internal.h"

int teal_care(const double *A, const double *B, const double *Q, const double *R,
              const double *N, int n, int m, double *X, double *residual, teal_error *err) {
  static const char who[] = "care";
  int rc = teal_ric_check(who, A, B, Q, R, N, n, m, X, err);
  if (rc) {
    return rc;
  }
  size_t nn = (size_t)n * n, nm = (size_t)n * m, mm = (size_t)m * m;
  double *buf = teal_alloc(sizeof(double) * (mm + 5 * nn + nm));
  if (!buf) {
    return teal_error_set(err, TEAL_ENOMEM, "care: out of memory (n = %d, m = %d)", n, m);
  }
  double *Rc = buf, *Xw = Rc + mm, *X1 = Xw + nn, *F = X1 + nn, *E = F + nn, *Akt = E + nn;
  double *K = Akt + nn, res = 0.0;
  if ((rc = teal_ric_factor_r(who, R, m, Rc, err)) || n == 0) {
    goto done;
  }
  if ((rc = teal_ric_schur_solution(TEAL_RIC_CARE, who, A, B, Q, R, N, n, m, Xw, err))) {
    goto done;
  }
  teal_error inner;
  teal_error_clear(&inner);
  if ((rc = teal_ric_care_lhs(A, B, Q, Rc, N, n, m, Xw, F, K, &inner))) {
    rc = teal_error_set(err, rc, "care: residual evaluation failed: %s", inner.message);
    goto done;
  }
  res = teal_ric_relative(F, Xw, n);
  if (res > TEAL_RIC_REFINE_ABOVE) {
    /* One Newton step; failures other than out-of-memory keep the QZ solution. */
    teal_ric_symmetrize(F, n, F);
    rc = teal_ric_closed_loop_t(A, B, K, n, m, E, Akt, &inner);
    if (!rc) {
      rc = teal_lyapunov_continuous(Akt, F, n, E, &inner);
    }
    if (!rc) {
      for (size_t i = 0; i < nn; i++) {
        X1[i] = Xw[i] + E[i];
      }
      teal_ric_symmetrize(X1, n, X1);
      rc = teal_ric_care_lhs(A, B, Q, Rc, N, n, m, X1, F, NULL, &inner);
    }
    if (!rc) {
      double res1 = teal_ric_relative(F, X1, n);
      if (res1 < res) {
        memcpy(Xw, X1, sizeof(double) * nn);
        res = res1;
      }
    }
    if (rc == TEAL_ENOMEM) {
      rc = teal_error_set(err, rc, "care: Newton refinement: %s", inner.message);
      goto done;
    }
    rc = TEAL_OK;
  }
  memcpy(X, Xw, sizeof(double) * nn);
done:
  if (!rc && residual) {
    *residual = res;
  }
  teal_free(buf);
  return rc;
}
