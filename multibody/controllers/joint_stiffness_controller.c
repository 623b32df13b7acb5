/* Joint stiffness controller (see joint_stiffness_controller.h). */
#include "multibody/controllers/joint_stiffness_controller.h"

#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/mb_controller_internal.h"
#include "multibody/tree/topology.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "joint_stiffness_controller";

typedef struct jsc_data {
  const teal_plant *plant;
  int n;
  int scratch;
  double *kp, *kd;
  double storage[]; /* 2 n: kp, kd */
} jsc_data;

/* Reads both states, checking that every value is finite. */
static int jsc_read(const teal_system *sys, const teal_context *ctx, const jsc_data *d,
                    const double **x, const double **xd) {
  int rc = teal_eval_vector_input(sys, ctx, TEAL_JOINT_STIFFNESS_ESTIMATED_STATE, x);
  if (rc == TEAL_OK) {
    rc = teal_mbc_check_input(sys, ctx, TEAL_JOINT_STIFFNESS_ESTIMATED_STATE, *x, 2 * d->n);
  }
  if (rc == TEAL_OK) {
    rc = teal_eval_vector_input(sys, ctx, TEAL_JOINT_STIFFNESS_DESIRED_STATE, xd);
  }
  if (rc == TEAL_OK) {
    rc = teal_mbc_check_input(sys, ctx, TEAL_JOINT_STIFFNESS_DESIRED_STATE, *xd, 2 * d->n);
  }
  return rc;
}

/* out = -tau_g - tau_app - J' F_app: one RNEA pass at rest (v = vdot = 0)
 * with the applied forces evaluated at the actual (q, v). */
static int model_forces(const teal_system *sys, const teal_context *ctx, const jsc_data *d,
                        teal_mbc_scratch *s, const double *x, double *out) {
  const double *q = x, *v = x + d->n;
  const teal_spatial_vector *F;
  int rc = teal_mbc_applied_forces(sys, ctx, s, q, v, &F);
  if (rc) {
    return rc;
  }
  rc = teal_mb_inverse_dynamics_ex(d->plant, s->data, q, s->zeros, s->zeros, s->tau_app, F, out);
  return rc ? teal_mbc_report(sys, ctx, s, rc) : TEAL_OK;
}

static int jsc_output(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  const jsc_data *d = user;
  const double *x, *xd;
  int rc = jsc_read(sys, ctx, d, &x, &xd);
  if (rc) {
    return rc;
  }
  teal_mbc_scratch *s = teal_mbc_get_scratch(sys, ctx, d->scratch);
  if (!s) {
    return TEAL_ENOMEM;
  }
  rc = model_forces(sys, ctx, d, s, x, out);
  int n = d->n;
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    out[i] += d->kp[i] * (xd[i] - x[i]) + d->kd[i] * (xd[n + i] - x[n + i]);
  }
  return rc;
}

static int check_params(const char *name, const teal_plant *plant, const double *kp,
                        const double *kd, int n, teal_error *err) {
  int rc = teal_mbc_check_plant(err, k_kind, name, plant, 1);
  if (rc == TEAL_OK) {
    rc = teal_mbc_check_gains(err, k_kind, name, "kp", kp, n, teal_plant_nv(plant));
  }
  if (rc == TEAL_OK) {
    rc = teal_mbc_check_gains(err, k_kind, name, "kd", kd, n, teal_plant_nv(plant));
  }
  return rc;
}

static void declare(teal_system *sys, jsc_data *d) {
  teal_leaf_declare_vector_input(sys, "estimated_state", 2 * d->n);
  teal_leaf_declare_vector_input(sys, "desired_state", 2 * d->n);
  teal_leaf_declare_vector_output(sys, "generalized_force", d->n, jsc_output, d, NULL, 0);
  d->scratch = teal_mbc_declare_scratch(sys, d->plant);
}

teal_system *teal_joint_stiffness_controller_new(const char *name, const teal_plant *plant,
                                                 const double *kp, const double *kd, int n,
                                                 teal_error *err) {
  if (check_params(name, plant, kp, kd, n, err)) {
    return NULL;
  }
  jsc_data *d = teal_leaf_util_alloc(sizeof *d + 2 * (size_t)n * sizeof(double), err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->plant = plant;
  d->n = n;
  d->kp = d->storage;
  d->kd = d->storage + n;
  memcpy(d->kp, kp, (size_t)n * sizeof(double));
  memcpy(d->kd, kd, (size_t)n * sizeof(double));
  teal_system *sys = teal_leaf_util_new(name, d, teal_free, err); /* frees d on failure */
  if (sys) {
    declare(sys, d);
  }
  return teal_leaf_util_finish(sys, err);
}
