/* Analytic derivatives of forward dynamics through those of inverse
 * dynamics and M^-1 (see aba_derivatives.h). */
#include "multibody/algorithms/aba_derivatives.h"

#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/operators.h"
#include "multibody/algorithms/rnea_derivatives_internal.h"

/* out = -Minv A (n x n, row-major), skipping the zeros of A's sparse rows. */
static void minus_minv_times(const double *Minv, const double *A, int n, double *out) {
  memset(out, 0, sizeof(double) * (size_t)n * (size_t)n);
  for (int i = 0; i < n; i++) {
    double *oi = out + (size_t)i * (size_t)n;
    for (int k = 0; k < n; k++) {
      double m = Minv[(size_t)i * (size_t)n + (size_t)k];
      const double *ak = A + (size_t)k * (size_t)n;
      if (m == 0.0) {
        continue;
      }
      for (int j = 0; j < n; j++) {
        oi[j] -= m * ak[j];
      }
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
  double *dq = ws->work, *dv = ws->work + (size_t)nv * (size_t)nv;
  /* at vdot, ID(q, v, vdot) - tau - J' F = 0 for every (q, v) */
  if ((st = teal_mb_inverse_dynamics_derivatives(plant, data, ws, q, v, vdot, tau, F_app_Bo_W, NULL,
                                                 dq, dv, NULL)) ||
      (st = teal_mb_mass_matrix_inverse(plant, data, q, ws->Minv))) {
    return st;
  }
  minus_minv_times(ws->Minv, dq, nv, dvdot_dq);
  minus_minv_times(ws->Minv, dv, nv, dvdot_dv);
  if (dvdot_dtau) {
    memcpy(dvdot_dtau, ws->Minv, sizeof(double) * (size_t)nv * (size_t)nv);
  }
  return TEAL_OK;
}
