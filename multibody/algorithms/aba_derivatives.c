/* Analytic derivatives of forward dynamics through those of inverse
 * dynamics and M^-1 (see aba_derivatives.h). */
#include "multibody/algorithms/aba_derivatives.h"

#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/rnea_derivatives_internal.h"
#include "solvers/dense_factor.h"

/* The rows of Bt (nrhs x nv) become M^-1 times them: M by the CRBA into
 * ws->Minv, then its Cholesky factorization (LAPACK, no allocation). */
static int solve_with_mass_matrix(const teal_plant *plant, teal_mb_data *data,
                                  teal_mb_derivatives *ws, const double *q, double *Bt, int nrhs) {
  int st = teal_mb_mass_matrix(plant, data, q, ws->Minv);
  return st ? st : teal_dense_spd_solve_transposed(ws->Minv, ws->nv, Bt, nrhs, &data->err);
}

/* out = sign X' for the n x n block X of rows (direction-major). */
static void transpose_into(const double *X, int n, double sign, double *out) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      out[(size_t)i * n + j] = sign * X[(size_t)j * n + i];
    }
  }
}

int teal_mb_forward_dynamics_derivatives(const teal_plant *plant, teal_mb_data *data,
                                         teal_mb_derivatives *ws, const double *q, const double *v,
                                         const double *tau, const teal_spatial_vector *F_app_Bo_W,
                                         double *vdot, double *dvdot_dq, double *dvdot_dv,
                                         double *dvdot_dtau) {
  static const char fn[] = "teal_mb_forward_dynamics_derivatives";
  int st;
  const teal_plant_tree *t = teal_mb_data_begin(plant, data, fn, &st);
  if (!t) {
    return st;
  }
  if (!ws || ws->plant != plant) {
    return teal_error_set(&data->err, TEAL_EINVAL,
                          "%s: the workspace ws is %s (make it with teal_mb_derivatives_new for "
                          "this plant)",
                          fn, ws ? "another plant's" : "NULL");
  }
  if ((st = teal_mb_data_check_out(data, fn, "vdot", vdot)) ||
      (st = teal_mb_data_check_out(data, fn, "dvdot_dq", dvdot_dq)) ||
      (st = teal_mb_data_check_out(data, fn, "dvdot_dv", dvdot_dv)) ||
      (st = teal_mb_forward_dynamics_ex(plant, data, q, v, tau, F_app_Bo_W, vdot))) {
    return st;
  }
  int nv = ws->nv;
  size_t nn = (size_t)nv * (size_t)nv;
  /* at vdot, ID(q, v, vdot) - tau - J' F = 0 for every (q, v): the tangent
   * passes write dID/dq and dID/dv direction by direction, the rows that
   * one solve with M turns into the columns of M^-1 dID */
  ws->transposed = 1;
  st = teal_mb_inverse_dynamics_derivatives(plant, data, ws, q, v, vdot, tau, F_app_Bo_W, NULL,
                                            ws->work, ws->work + nn, NULL);
  ws->transposed = 0;
  if (st) {
    return st;
  }
  if (dvdot_dtau) {
    memset(ws->work + 2 * nn, 0, sizeof(double) * nn);
    for (int i = 0; i < nv; i++) {
      ws->work[2 * nn + (size_t)i * nv + i] = 1.0;
    }
  }
  if ((st = solve_with_mass_matrix(plant, data, ws, q, ws->work, dvdot_dtau ? 3 * nv : 2 * nv))) {
    return st == TEAL_ESINGULAR
               ? teal_error_set(&data->err, st, "%s: the mass matrix is not positive definite", fn)
               : st;
  }
  transpose_into(ws->work, nv, -1.0, dvdot_dq);
  transpose_into(ws->work + nn, nv, -1.0, dvdot_dv);
  if (dvdot_dtau) {
    transpose_into(ws->work + 2 * nn, nv, 1.0, dvdot_dtau);
  }
  return TEAL_OK;
}
