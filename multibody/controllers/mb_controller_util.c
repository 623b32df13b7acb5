/* Shared pieces of the model-based controllers (mb_controller_internal.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/data_internal.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/controllers/mb_controller_internal.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "framework/leaf_util.h"

/* ---- checks ------------------------------------------------------------------- */

int teal_mbc_check_plant(teal_error *err, const char *kind, const char *name,
                         const teal_plant *plant, int need_square) {
  const char *who = teal_leaf_util_name(name);
  if (!plant) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': plant is NULL", kind, who);
  }
  if (!teal_plant_is_finalized(plant)) {
    return teal_error_set(err, TEAL_ESTATE, "%s '%s': the plant must be finalized", kind, who);
  }
  int nq = teal_plant_nq(plant), nv = teal_plant_nv(plant);
  if (nv < 1) {
    return teal_error_set(err, TEAL_ESIZE, "%s '%s': the plant has no velocities (nv = 0)", kind,
                          who);
  }
  if (need_square && nq != nv) {
    return teal_error_set(err, TEAL_ESIZE,
                          "%s '%s': the plant must have as many positions as velocities "
                          "(nq = %d, nv = %d; quaternion joints are not supported)",
                          kind, who, nq, nv);
  }
  return TEAL_OK;
}

int teal_mbc_check_gains(teal_error *err, const char *kind, const char *name, const char *what,
                         const double *k, int n, int nv) {
  const char *who = teal_leaf_util_name(name);
  if (n != nv) {
    return teal_error_set(err, TEAL_ESIZE, "%s '%s': %s has %d entries, the plant has nv = %d",
                          kind, who, what, n, nv);
  }
  int rc = teal_leaf_util_check_finite(err, kind, name, what, k, n);
  for (int i = 0; rc == TEAL_OK && i < n; i++) {
    if (k[i] < 0) {
      rc = teal_error_set(err, TEAL_EINVAL, "%s '%s': %s[%d] = %g must be >= 0", kind, who,
                          what, i, k[i]);
    }
  }
  return rc;
}

/* ---- scratch ------------------------------------------------------------------ */

static void scratch_free(void *value) {
  teal_mbc_scratch *s = value;
  teal_mb_data_free(s->data);
  teal_free(s->tau_app);
  memset(s, 0, sizeof(*s));
}

/* Allocates the multibody data and buffers of a scratch for plant p. */
static int scratch_alloc(teal_mbc_scratch *s, const teal_plant *p) {
  size_t nv = (size_t)teal_plant_nv(p);
  s->plant = p;
  s->data = teal_mb_data_new(p, NULL);
  s->tau_app = teal_calloc(2 * nv, sizeof(double));
  if (!s->data || !s->tau_app) {
    scratch_free(s);
    return TEAL_ENOMEM;
  }
  s->zeros = s->tau_app + nv;
  return TEAL_OK;
}

/* The declaration's value {plant, declaration = 1} becomes the system's
 * model, which holds no data; a context's value, copied from that model,
 * gets its own multibody data. Copies between existing values keep the
 * destination's (the buffers hold nothing worth copying). */
static int scratch_copy(void *dst, const void *src) {
  teal_mbc_scratch *d = dst;
  const teal_mbc_scratch *s = src;
  if (d->data || !s->plant) {
    return TEAL_OK;
  }
  d->gravity = s->gravity;
  if (s->declaration) {
    d->plant = s->plant;
    return TEAL_OK;
  }
  return scratch_alloc(d, s->plant);
}

const teal_value_type teal_mbc_scratch_type = {"teal_mb_controller_scratch",
                                               sizeof(teal_mbc_scratch), NULL, scratch_copy,
                                               scratch_free};

const char teal_mbc_tag[] = "teal_mb_controller";

int teal_mbc_declare_scratch(teal_system *sys, const teal_plant *plant) {
  teal_mbc_scratch model;
  memset(&model, 0, sizeof(model));
  model.plant = plant;
  model.declaration = 1;
  /* gravity lives in the context, as the plant's does (plant_system.h) */
  teal_vec3 g = teal_plant_gravity(plant);
  model.gravity = teal_leaf_declare_numeric_parameter(sys, 3, g.v);
  teal_leaf_set_type_tag(sys, teal_mbc_tag);
  return teal_leaf_declare_scratch(sys, "multibody_data", &teal_mbc_scratch_type, &model);
}

teal_mbc_scratch *teal_mbc_get_scratch(const teal_system *sys, const teal_context *ctx,
                                       int index) {
  teal_mbc_scratch *s = teal_context_scratch_mut(ctx, index);
  const double *g = s ? teal_context_numeric_parameter(ctx, s->gravity) : NULL;
  if (!s || !s->data || !g) {
    teal_context_report_error(ctx, TEAL_ENOMEM, "'%s': no multibody data in the context",
                              teal_system_name(sys));
    return NULL;
  }
  teal_mb_data_set_gravity(s->data, teal_vec3_make(g[0], g[1], g[2]));
  return s;
}

int teal_mbc_report(const teal_system *sys, const teal_context *ctx, const teal_mbc_scratch *s,
                    int rc) {
  return teal_context_report_error(ctx, rc, "'%s': %s", teal_system_name(sys),
                                   teal_mb_data_error(s->data)->message);
}

int teal_mbc_check_input(const teal_system *sys, const teal_context *ctx, int port,
                         const double *x, int n) {
  for (int i = 0; i < n; i++) {
    if (!isfinite(x[i])) {
      return teal_context_report_error(
          ctx, TEAL_ENONFINITE, "'%s': input '%s'[%d] = %g is not finite", teal_system_name(sys),
          teal_input_port_name(teal_system_input_port(sys, port)), i, x[i]);
    }
  }
  return TEAL_OK;
}

/* ---- applied forces of the model ------------------------------------------------ */

int teal_mbc_applied_forces(const teal_system *sys, const teal_context *ctx, teal_mbc_scratch *s,
                            const double *q, const double *v, const teal_spatial_vector **F) {
  const teal_plant *p = s->plant;
  const double *b = teal_plant_get_tree(p)->damping;
  int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  for (int i = 0; i < nv; i++) {
    s->tau_app[i] = -b[i] * v[i];
  }
  *F = NULL;
  if (teal_plant_num_force_elements(p) == 0) {
    return TEAL_OK;
  }
  teal_transform *X = s->data->X_WB;
  teal_spatial_vector *V = s->data->V_WB, *F_Bo_W = s->data->F_Bo_W;
  memset(F_Bo_W, 0, (size_t)nb * sizeof(*F_Bo_W));
  int rc = teal_mb_body_velocities(p, q, v, X, V);
  if (rc) {
    return teal_context_report_error(ctx, rc, "'%s': body velocities of the model failed",
                                     teal_system_name(sys));
  }
  teal_error err;
  rc = teal_plant_calc_force_elements(p, q, v, X, V, F_Bo_W, s->tau_app, &err);
  if (rc) {
    return teal_context_report_error(ctx, rc, "'%s': %s", teal_system_name(sys), err.message);
  }
  *F = F_Bo_W;
  return TEAL_OK;
}
