/* Analytic derivatives of forward dynamics through those of inverse
 * dynamics and M^-1 (see aba_derivatives.h). */
#include "multibody/algorithms/aba_derivatives.h"

#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/rnea_derivatives_internal.h"
#include "solvers/dense_basic.h"
#include "solvers/dense_factor.h"

/* ws->Minv = M^-1: M by the CRBA, then inverted in place by its Cholesky
 * factor (LAPACK, no allocation): n^3 / 3 + 2 n^3 / 3 flops, against the
 * 2 n^2 per right-hand side (3n of them) of solving for the columns. */
static int mass_matrix_inverse(const teal_plant *plant, teal_mb_data *data, teal_mb_derivatives *ws,
                               const double *q) {
  int st = teal_mb_mass_matrix(plant, data, q, ws->Minv);
  return st ? st : teal_dense_spd_inverse(ws->Minv, ws->nv, &data->err);
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
   * the product with M^-1 turns into the columns of M^-1 dID */
  ws->transposed = 1;
  st = teal_mb_inverse_dynamics_derivatives(plant, data, ws, q, v, vdot, tau, F_app_Bo_W, NULL,
                                            ws->work, ws->work + nn, NULL);
  ws->transposed = 0;
  if (st) {
    return st;
  }
  if ((st = mass_matrix_inverse(plant, data, ws, q))) {
    return st == TEAL_ESINGULAR
               ? teal_error_set(&data->err, st, "%s: the mass matrix is not positive definite", fn)
               : st;
  }
  /* the work rows are dID/dx direction by direction: dvdot/dx = -M^-1 work' */
  st = teal_dense_gemm(0, 1, nv, nv, nv, -1.0, ws->Minv, ws->work, 0.0, dvdot_dq, &data->err);
  st = st ? st
          : teal_dense_gemm(0, 1, nv, nv, nv, -1.0, ws->Minv, ws->work + nn, 0.0, dvdot_dv,
                            &data->err);
  if (st == TEAL_OK && dvdot_dtau) {
    memcpy(dvdot_dtau, ws->Minv, sizeof(double) * nn);
  }
  return st;
}
