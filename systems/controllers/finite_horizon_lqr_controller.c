/* The time-varying affine controller u = u0(t) - K(t) (x - x0(t)) - k0(t) of a
 * finite-horizon LQR result: a stateless leaf whose nominal and gain at the
 * context time are one time-only cache entry. */
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/leaf_util.h"
#include "framework/ticket.h"
#include "systems/controllers/finite_horizon_lqr.h"

static const char k_kind[] = "finite_horizon_lqr_controller";

/* Model data: owned copies of the trajectories. */
typedef struct fh_controller {
  int n, m, entry;
  teal_piecewise_polynomial *x0, *u0, *K, *k0;
} fh_controller;

static void controller_free(void *user) {
  fh_controller *c = user;
  if (c) {
    teal_piecewise_polynomial_free(c->x0);
    teal_piecewise_polynomial_free(c->u0);
    teal_piecewise_polynomial_free(c->K);
    teal_piecewise_polynomial_free(c->k0);
    teal_free(c);
  }
}

/* The cache entry [x0(t); u0(t); K(t); k0(t)]. */
static int calc_nominal(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  const fh_controller *c = user;
  double t = teal_context_time(ctx);
  int rc = teal_piecewise_polynomial_value(c->x0, t, out);
  rc = rc ? rc : teal_piecewise_polynomial_value(c->u0, t, out + c->n);
  rc = rc ? rc : teal_piecewise_polynomial_value(c->K, t, out + c->n + c->m);
  return rc ? rc : teal_piecewise_polynomial_value(c->k0, t, out + c->n + c->m + c->m * c->n);
}

/* y = u0 - K (x - x0) - k0. */
static int calc_output(const teal_system *sys, const teal_context *ctx, double *y, void *user) {
  const fh_controller *c = user;
  const void *nominal;
  const double *x;
  int rc = teal_eval_cache_entry(sys, ctx, c->entry, &nominal);
  rc = rc ? rc : teal_eval_vector_input(sys, ctx, 0, &x);
  if (rc != TEAL_OK) {
    return rc;
  }
  const double *x0 = nominal, *u0 = x0 + c->n, *K = u0 + c->m, *k0 = K + c->m * c->n;
  for (int i = 0; i < c->m; i++) {
    double v = u0[i] - k0[i];
    for (int j = 0; j < c->n; j++) {
      v -= K[i * c->n + j] * (x[j] - x0[j]);
    }
    y[i] = v;
  }
  return TEAL_OK;
}

/* A result whose trajectories have the sizes it states. */
static int check_result(const teal_finite_horizon_lqr_result *r, const char *name,
                        teal_error *err) {
  if (!r || !r->x0 || !r->u0 || !r->K || !r->k0 || r->nx < 1 || r->nu < 1) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': NULL or empty result", k_kind,
                          teal_leaf_util_name(name));
  }
  if (teal_piecewise_polynomial_rows(r->x0) != r->nx ||
      teal_piecewise_polynomial_rows(r->u0) != r->nu ||
      teal_piecewise_polynomial_rows(r->K) != r->nx * r->nu ||
      teal_piecewise_polynomial_rows(r->k0) != r->nu) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s '%s': the result's trajectories do not match nx = %d, nu = %d",
                          k_kind, teal_leaf_util_name(name), r->nx, r->nu);
  }
  return TEAL_OK;
}

static fh_controller *controller_data(const char *name, const teal_finite_horizon_lqr_result *r,
                                      teal_error *err) {
  fh_controller *c = teal_leaf_util_alloc(sizeof *c, err, k_kind, name);
  if (!c) {
    return NULL;
  }
  c->n = r->nx;
  c->m = r->nu;
  c->x0 = teal_piecewise_polynomial_copy(r->x0, NULL);
  c->u0 = teal_piecewise_polynomial_copy(r->u0, NULL);
  c->K = teal_piecewise_polynomial_copy(r->K, NULL);
  c->k0 = teal_piecewise_polynomial_copy(r->k0, NULL);
  if (!c->x0 || !c->u0 || !c->K || !c->k0) {
    controller_free(c);
    teal_error_set(err, TEAL_ENOMEM, "%s '%s': out of memory", k_kind, teal_leaf_util_name(name));
    return NULL;
  }
  return c;
}

teal_system *teal_finite_horizon_lqr_controller_new(const char *name,
                                                    const teal_finite_horizon_lqr_result *result,
                                                    teal_error *err) {
  if (check_result(result, name, err) != TEAL_OK) {
    return NULL;
  }
  const char *own = name && *name ? name : "finite_horizon_lqr";
  fh_controller *c = controller_data(own, result, err);
  teal_system *sys = c ? teal_leaf_new(own, c, controller_free) : NULL; /* frees c on failure */
  if (sys) {
    teal_ticket time_only = TEAL_TICKET_TIME;
    c->entry = teal_leaf_declare_cache_entry(sys, "nominal", c->n + c->m + c->n * c->m + c->m,
                                             calc_nominal, c, &time_only, 1);
    teal_leaf_declare_vector_input(sys, "u", c->n);
    teal_ticket deps[3] = {TEAL_TICKET_TIME, teal_ticket_input(0), teal_ticket_cache(c->entry)};
    teal_leaf_declare_vector_output(sys, "y", c->m, calc_output, c, deps, 3);
  }
  return c ? teal_leaf_util_finish_tagged(sys, k_kind, k_kind, own, err) : NULL;
}
