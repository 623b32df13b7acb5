/* Finite-difference Jacobians: one perturbation loop for every scheme. */
#include "systems/analysis/finite_difference.h"

#include <math.h>
#include <stddef.h>

#include "framework/error.h"

/* Column j of J by the scheme; x[j] is restored before returning. */
static int difference_column(teal_fd_scheme scheme, teal_fd_fn f, void *user, double *x, int n,
                             int m, int j, double rel_step, const double *fx, double *fp,
                             double *fm, double *J) {
  double xj = x[j];
  double h = rel_step * fmax(fabs(xj), 1.0);
  x[j] = xj + h;
  int rc = f(x, fp, user);
  if (rc == TEAL_OK && scheme == TEAL_FD_CENTRAL) {
    x[j] = xj - h;
    rc = f(x, fm, user);
  }
  x[j] = xj;
  if (rc != TEAL_OK) {
    return rc;
  }
  if (scheme == TEAL_FD_CENTRAL) {
    for (int i = 0; i < m; i++) {
      J[(size_t)i * n + j] = (fp[i] - fm[i]) / (2.0 * h);
    }
  } else {
    for (int i = 0; i < m; i++) {
      J[(size_t)i * n + j] = (fp[i] - fx[i]) / h;
    }
  }
  return TEAL_OK;
}

/* TEAL_EINVAL for arguments no Jacobian can have. */
static int check_args(teal_fd_scheme scheme, teal_fd_fn f, const double *x, int n, int m,
                      double rel_step, const double *fx, const double *fp, const double *fm,
                      const double *J) {
  int central = scheme == TEAL_FD_CENTRAL;
  if ((scheme != TEAL_FD_FORWARD && !central) || !f || n < 0 || m < 0 ||
      !(rel_step > 0.0) || !isfinite(rel_step)) {
    return TEAL_EINVAL;
  }
  int empty = n == 0 || m == 0;
  if (!empty && (!x || !fp || !J || (central ? !fm : !fx))) {
    return TEAL_EINVAL;
  }
  return TEAL_OK;
}

int teal_fd_jacobian(teal_fd_scheme scheme, teal_fd_fn f, void *user, double *x, int n, int m,
                     double rel_step, const double *fx, double *fp, double *fm, double *J) {
  int bad = check_args(scheme, f, x, n, m, rel_step, fx, fp, fm, J);
  if (bad || m == 0) {
    return bad;
  }
  for (int j = 0; j < n; j++) {
    int rc = difference_column(scheme, f, user, x, n, m, j, rel_step, fx, fp, fm, J);
    if (rc != TEAL_OK) {
      return rc;
    }
  }
  return TEAL_OK;
}
