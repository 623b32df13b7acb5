/* Inverse dynamics and gravity compensation of a plant model (see
 * inverse_dynamics.h). */
#include "multibody/controllers/inverse_dynamics.h"

#include "framework/alloc.h"
#include "framework/context.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/mb_controller_internal.h"
#include "multibody/tree/topology.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "inverse_dynamics";

typedef struct id_data {
  const teal_plant *plant;
  teal_inverse_dynamics_mode mode;
  int nq, nv;
  int scratch;
} id_data;

/* Reads [q; v] (and vd in full mode), checking that every value is finite. */
static int id_read(const teal_system *sys, const teal_context *ctx, const id_data *d,
                   const double **x, const double **vd) {
  int rc = teal_eval_vector_input(sys, ctx, TEAL_INVERSE_DYNAMICS_ESTIMATED_STATE, x);
  if (rc == TEAL_OK) {
    rc = teal_mbc_check_input(sys, ctx, TEAL_INVERSE_DYNAMICS_ESTIMATED_STATE, *x, d->nq + d->nv);
  }
  if (rc == TEAL_OK && d->mode == TEAL_INVERSE_DYNAMICS) {
    rc = teal_eval_vector_input(sys, ctx, TEAL_INVERSE_DYNAMICS_DESIRED_ACCELERATION, vd);
    if (rc == TEAL_OK) {
      rc = teal_mbc_check_input(sys, ctx, TEAL_INVERSE_DYNAMICS_DESIRED_ACCELERATION, *vd, d->nv);
    }
  }
  return rc;
}

/* tau = -tau_g(q). */
static int gravity_compensation(const teal_system *sys, const teal_context *ctx,
                                const id_data *d, teal_mbc_scratch *s, const double *q,
                                double *out) {
  int rc = teal_mb_gravity_forces(d->plant, s->data, q, out);
  if (rc) {
    return teal_mbc_report(sys, ctx, s, rc);
  }
  for (int i = 0; i < d->nv; i++) {
    out[i] = -out[i];
  }
  return TEAL_OK;
}

/* tau = M vd + C v - tau_g - tau_app - J' F_app by one RNEA pass. */
static int full_inverse_dynamics(const teal_system *sys, const teal_context *ctx,
                                 const id_data *d, teal_mbc_scratch *s, const double *x,
                                 const double *vd, double *out) {
  const double *q = x, *v = x + d->nq;
  const teal_spatial_vector *F;
  int rc = teal_mbc_applied_forces(sys, ctx, s, q, v, &F);
  if (rc) {
    return rc;
  }
  rc = teal_mb_inverse_dynamics_ex(d->plant, s->data, q, v, vd, s->tau_app, F, out);
  return rc ? teal_mbc_report(sys, ctx, s, rc) : TEAL_OK;
}

static int id_output(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  const id_data *d = user;
  const double *x = NULL, *vd = NULL;
  int rc = id_read(sys, ctx, d, &x, &vd);
  if (rc) {
    return rc;
  }
  teal_mbc_scratch *s = teal_mbc_get_scratch(sys, ctx, d->scratch);
  if (!s) {
    return TEAL_ENOMEM;
  }
  if (d->mode == TEAL_GRAVITY_COMPENSATION) {
    return gravity_compensation(sys, ctx, d, s, x, out);
  }
  return full_inverse_dynamics(sys, ctx, d, s, x, vd, out);
}

static void declare(teal_system *sys, id_data *d) {
  teal_leaf_declare_vector_input(sys, "estimated_state", d->nq + d->nv);
  if (d->mode == TEAL_INVERSE_DYNAMICS) {
    teal_leaf_declare_vector_input(sys, "desired_acceleration", d->nv);
  }
  /* NULL prerequisites: every source, i.e. feedthrough from both inputs */
  teal_leaf_declare_vector_output(sys, "generalized_force", d->nv, id_output, d, NULL, 0);
  d->scratch = teal_mbc_declare_scratch(sys, d->plant);
}

teal_system *teal_inverse_dynamics_new(const char *name, const teal_plant *plant,
                                       teal_inverse_dynamics_mode mode, teal_error *err) {
  int rc = teal_mbc_check_plant(err, k_kind, name, plant, 0);
  if (rc) {
    return NULL;
  }
  if (mode != TEAL_INVERSE_DYNAMICS && mode != TEAL_GRAVITY_COMPENSATION) {
    teal_error_set(err, TEAL_EINVAL, "%s '%s': unknown mode %d", k_kind, teal_leaf_util_name(name),
                   (int)mode);
    return NULL;
  }
  id_data *d = teal_leaf_util_alloc(sizeof *d, err, k_kind, name);
  if (!d) {
    return NULL;
  }
  d->plant = plant;
  d->mode = mode;
  d->nq = teal_plant_nq(plant);
  d->nv = teal_plant_nv(plant);
  teal_system *sys = teal_leaf_util_new(name, d, teal_free, err); /* frees d on failure */
  if (sys) {
    declare(sys, d);
  }
  return teal_leaf_util_finish(sys, err);
}
