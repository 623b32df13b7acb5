/* Steady-state Kalman filters: the gain from the dual LQR, and the
 * filter as a Luenberger observer (see kalman_filter.h). */
#include "systems/estimators/kalman_filter.h"

#include <string.h>

#include "framework/alloc.h"
#include "solvers/dense_basic.h"
#include "systems/analysis/linearize.h"
#include "systems/controllers/lqr.h"
#include "systems/estimators/luenberger_observer.h"

static const char k_kind[] = "steady-state Kalman filter";

int teal_steady_state_kalman_gain(const double *A, const double *C, const double *W,
                                  const double *V, int nx, int ny, int discrete, double *L,
                                  double *P, teal_error *err) {
  if (!A || !C || !W || !V || !L) {
    return teal_error_set(err, TEAL_EINVAL, "%s gain: NULL matrix", k_kind);
  }
  if (nx < 1 || ny < 1) {
    return teal_error_set(err, TEAL_ESIZE, "%s gain: nx = %d and ny = %d must be >= 1", k_kind, nx,
                          ny);
  }
  size_t nn = (size_t)nx * (size_t)nx, ny_nx = (size_t)ny * (size_t)nx;
  double *block = teal_alloc((nn + 2 * ny_nx) * sizeof(double));
  if (!block) {
    return teal_error_set(err, TEAL_ENOMEM, "%s gain: out of memory", k_kind);
  }
  double *At = block, *Ct = At + nn, *K = Ct + ny_nx;
  teal_dense_transpose(A, nx, nx, At);
  teal_dense_transpose(C, ny, nx, Ct);
  teal_error local;
  teal_error_clear(&local);
  int rc = teal_lqr(At, Ct, W, V, NULL, nx, ny, discrete, K, P, &local);
  if (rc == TEAL_OK) {
    teal_dense_transpose(K, ny, nx, L); /* L = K' */
  } else if (rc == TEAL_ENOCONV) {      /* the dual of "not stabilizable" */
    teal_error_set(err, rc,
                   "%s gain: no stabilizing solution; is (A, C) detectable? (%s; the dual LQR's "
                   "Q is W and its R is V)",
                   k_kind, local.message);
  } else {
    teal_error_set(err, rc, "%s gain: %s (the dual LQR's Q is W and its R is V)", k_kind,
                   local.message);
  }
  teal_free(block);
  return rc;
}

teal_system *teal_steady_state_kalman_filter_new(const char *name, const teal_system *system,
                                                 const teal_context *ctx, const double *W,
                                                 const double *V, teal_error *err) {
  teal_linear_system_matrices m;
  memset(&m, 0, sizeof m);
  if (!W || !V) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL %s", k_kind, name ? name : "", W ? "V" : "W");
    return NULL;
  }
  if (teal_linearize_matrices(system, ctx, NULL, &m, err) != TEAL_OK) {
    return NULL;
  }
  double *L = teal_alloc(((size_t)m.nx * (size_t)m.ny + 1) * sizeof(double));
  teal_system *filter = NULL;
  if (!L) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", k_kind);
  } else if (teal_steady_state_kalman_gain(m.A, m.C, W, V, m.nx, m.ny, m.time_period > 0, L, NULL,
                                           err) == TEAL_OK) {
    filter = teal_luenberger_observer_new(name, system, ctx, L, err);
  }
  teal_free(L);
  teal_linear_system_matrices_free(&m);
  return filter;
}

teal_system *teal_steady_state_kalman_filter_from_matrices(const char *name,
                                                           const teal_linear_system_matrices *m,
                                                           const double *W, const double *V,
                                                           teal_error *err) {
  if (!m || !W || !V) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL %s", k_kind, name ? name : "",
                   !m  ? "matrices"
                   : W ? "V"
                       : "W");
    return NULL;
  }
  teal_system *model = teal_affine_system_from("kalman_filter_model", m, err);
  teal_context *ctx = model ? teal_context_new(model, err) : NULL;
  double *L = ctx ? teal_alloc(((size_t)m->nx * (size_t)m->ny + 1) * sizeof(double)) : NULL;
  teal_system *filter = NULL;
  if (ctx && !L) {
    teal_error_set(err, TEAL_ENOMEM, "%s: out of memory", k_kind);
  } else if (L && teal_steady_state_kalman_gain(m->A, m->C, W, V, m->nx, m->ny, m->time_period > 0,
                                                L, NULL, err) == TEAL_OK) {
    filter = teal_luenberger_observer_new_owning(name, model, ctx, L, err);
    model = NULL; /* the filter owns it now, or freed it */
  }
  teal_free(L);
  teal_context_free(ctx);
  teal_system_free(model);
  return filter;
}
