/* Exponential spring contact (see exponential_spring.h). */
#include "multibody/forces/exponential_spring.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "framework/alloc.h"
#include "geometry/scene_graph/pose_list.h"
#include "multibody/plant/plant_values.h"
#include "framework/leaf_util.h"

static const char k_kind[] = "exponential_spring";
static const char k_tag = 0; /* identity of the leaves made here */

enum { ES_IN_POSES = 0, ES_IN_VELOCITIES = 1 };

/* The discrete group: anchor, Sliding, time of the last update and whether
 * there was one; the numeric parameters: the params, then the disable flag. */
enum {
  ES_P0X = 0,
  ES_P0Y = 1,
  ES_SLIDING = 2,
  ES_T_LAST = 3,
  ES_HAS_T_LAST = 4,
  ES_NXD = 5,
  ES_PARAMS = 0,
  ES_DISABLED = 1
};

/* The disable flag's values: follow the spring's default, or set. */
static const double k_follow_default = -1.0, k_enabled = 0.0, k_disabled = 1.0;

/* Model data: what the constructor was given, the default of the disable
 * flag, and the cache entry index. */
typedef struct es_model {
  int body;
  teal_vec3 p_BS;
  teal_transform X_WF;
  int disabled_by_default;
  int cache;
} es_model;

/* The cached data is a plain struct: zero bytes are a valid value. */
static const teal_value_type es_data_type = {"teal_exponential_spring_data",
                                             sizeof(teal_exponential_spring_data), NULL, NULL,
                                             NULL};

/* ---- parameters ---------------------------------------------------------- */

/* One rule per parameter: its name, where it lives, and its lower bound
 * (inclusive unless strict). */
typedef struct es_rule {
  const char *name;
  size_t offset;
  double lower;
  int strict;
} es_rule;

#define ES_RULE(field, lower, strict) \
  { #field, offsetof(teal_exponential_spring_params, field), lower, strict }

static const es_rule k_rules[TEAL_EXPONENTIAL_SPRING_NUM_PARAMS] = {
    ES_RULE(d0, -INFINITY, 0), ES_RULE(d1, 0.0, 1),   ES_RULE(d2, 0.0, 1),
    ES_RULE(cz, 0.0, 0),       ES_RULE(kxy, 0.0, 1),  ES_RULE(cxy, 0.0, 0),
    ES_RULE(mu_s, 0.0, 0),     ES_RULE(mu_k, 0.0, 0), ES_RULE(v_settle, 0.0, 1)};

static double *param_slot(teal_exponential_spring_params *p, int i) {
  return (double *)((char *)p + k_rules[i].offset);
}

static double param_value(const teal_exponential_spring_params *p, int i) {
  return *(const double *)((const char *)p + k_rules[i].offset);
}

static void params_to_array(const teal_exponential_spring_params *p, double *a) {
  for (int i = 0; i < TEAL_EXPONENTIAL_SPRING_NUM_PARAMS; i++) {
    a[i] = param_value(p, i);
  }
}

static void params_from_array(const double *a, teal_exponential_spring_params *p) {
  for (int i = 0; i < TEAL_EXPONENTIAL_SPRING_NUM_PARAMS; i++) {
    *param_slot(p, i) = a[i];
  }
}

void teal_exponential_spring_params_default(teal_exponential_spring_params *p) {
  if (!p) {
    return;
  }
  p->d0 = 0.0065905;
  p->d1 = 0.5336;
  p->d2 = 1150.0;
  p->cz = 0.5;
  p->kxy = 20000.0;
  p->cxy = 2.0 * sqrt(p->kxy * 1.0);
  p->mu_s = 0.7;
  p->mu_k = 0.5;
  p->v_settle = 0.01;
}

int teal_exponential_spring_params_set_critical_damping(teal_exponential_spring_params *p,
                                                        double mass) {
  if (!p || !(mass > 0.0) || !isfinite(mass) || !(p->kxy > 0.0) || !isfinite(p->kxy)) {
    return TEAL_EINVAL;
  }
  p->cxy = 2.0 * sqrt(p->kxy * mass);
  return TEAL_OK;
}

/* Checks p; messages start with who ("exponential_spring" or with a name). */
static int check_params(const teal_exponential_spring_params *p, const char *who,
                        teal_error *err) {
  if (!p) {
    return teal_error_set(err, TEAL_EINVAL, "%s: parameters are NULL", who);
  }
  for (int i = 0; i < TEAL_EXPONENTIAL_SPRING_NUM_PARAMS; i++) {
    const es_rule *r = &k_rules[i];
    double x = param_value(p, i);
    if (!isfinite(x)) {
      return teal_error_set(err, TEAL_ENONFINITE, "%s: %s = %g is not finite", who, r->name, x);
    }
    if (r->strict ? !(x > r->lower) : !(x >= r->lower)) {
      return teal_error_set(err, TEAL_EINVAL, "%s: %s = %g must be %s %g", who, r->name, x,
                            r->strict ? ">" : ">=", r->lower);
    }
  }
  if (p->mu_k > p->mu_s) {
    return teal_error_set(err, TEAL_EINVAL, "%s: mu_k = %g must not exceed mu_s = %g", who,
                          p->mu_k, p->mu_s);
  }
  return TEAL_OK;
}

int teal_exponential_spring_params_check(const teal_exponential_spring_params *p,
                                         teal_error *err) {
  return check_params(p, k_kind, err);
}

/* "exponential_spring '<name>'" into buf, for messages. */
static const char *who_named(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s '%s'", k_kind, teal_leaf_util_name(name));
  return buf;
}

/* ---- the force law --------------------------------------------------------- */

/* Simbody's stepUp: 0 at x = 0, 1 at x = 1, first and second derivatives 0
 * at both ends (x is in [0, 1]). */
static double step_up(double x) {
  return x * x * x * (10.0 + x * (6.0 * x - 15.0));
}

/* Station position and velocity in F from the body's pose and velocity. */
static void station_kinematics(const es_model *m, teal_transform X_WB, teal_spatial_vector V_WB,
                               teal_exponential_spring_data *d) {
  teal_vec3 p_BoS_W = teal_rotation_apply(X_WB.R, m->p_BS);
  teal_vec3 p_WS = teal_vec3_add(X_WB.p, p_BoS_W);
  teal_vec3 w = teal_spatial_vector_angular(V_WB);
  teal_vec3 v_WS = teal_vec3_add(teal_spatial_vector_linear(V_WB), teal_vec3_cross(w, p_BoS_W));
  d->p_FS = teal_rotation_apply_inverse(m->X_WF.R, teal_vec3_sub(p_WS, m->X_WF.p));
  d->v_FS = teal_rotation_apply_inverse(m->X_WF.R, v_WS);
}

/* fz = max(0, d1 exp(-d2 (pz - d0)) (1 - cz vz)), and mu and the limit. */
static void normal_force(const teal_exponential_spring_params *p,
                         teal_exponential_spring_data *d) {
  d->fz_elastic = p->d1 * exp(-p->d2 * (d->p_FS.v[2] - p->d0));
  d->fz_damping = -p->cz * d->v_FS.v[2] * d->fz_elastic;
  if (d->fz_elastic + d->fz_damping < 0.0) { /* the spring only pushes */
    d->fz_damping = -d->fz_elastic;
  }
  d->fz = d->fz_elastic + d->fz_damping;
  d->mu = p->mu_s - d->sliding * (p->mu_s - p->mu_k);
  d->limit = d->mu * d->fz;
}

/* Scales the 2-vectors a and b by limit / |a + b| when |a + b| > limit. */
static void clip_pair(double *a, double *b, double limit) {
  double n = hypot(a[0] + b[0], a[1] + b[1]);
  if (n > limit) {
    double s = limit / n;
    a[0] *= s;
    a[1] *= s;
    b[0] *= s;
    b[1] *= s;
  }
}

/* The two friction models and their blend by Sliding. */
static void friction_force(const teal_exponential_spring_params *p,
                           teal_exponential_spring_data *d) {
  double vx = d->v_FS.v[0], vy = d->v_FS.v[1];
  double damp[2] = {-p->cxy * vx, -p->cxy * vy};
  double damp_norm = hypot(damp[0], damp[1]);
  if (damp_norm > d->limit) {
    double speed = hypot(vx, vy); /* > 0 here, since damp_norm > limit >= 0 */
    damp[0] = -d->limit * vx / speed;
    damp[1] = -d->limit * vy / speed;
  }
  double el_spr[2] = {-p->kxy * (d->p_FS.v[0] - d->p0[0]), -p->kxy * (d->p_FS.v[1] - d->p0[1])};
  double damp_spr[2] = {-p->cxy * vx, -p->cxy * vy};
  clip_pair(el_spr, damp_spr, d->limit);
  double s = d->sliding;
  for (int i = 0; i < 2; i++) {
    d->friction_elastic[i] = (1.0 - s) * el_spr[i];
    d->friction_damping[i] = damp_spr[i] + s * (damp[i] - damp_spr[i]);
  }
}

/* A disabled spring: the kinematics and the state stay, the rest is 0. */
static void zero_forces(teal_exponential_spring_data *d) {
  d->fz_elastic = d->fz_damping = d->fz = d->limit = 0.0;
  for (int i = 0; i < 2; i++) {
    d->friction_elastic[i] = d->friction_damping[i] = 0.0;
  }
}

/* What the next update sets: the seed's p0 = pxy + fricElasBlend / kxy,
 * and Sliding from the anchor's speed |dp0| / dt since the previous update
 * (kept when there is no dt). A disabled spring stays as it is. */
static void next_state(const teal_exponential_spring_params *p, const double *xd, double t,
                       teal_exponential_spring_data *d) {
  for (int i = 0; i < 2; i++) {
    d->p0_next[i] = d->disabled ? d->p0[i] : d->p_FS.v[i] + d->friction_elastic[i] / p->kxy;
  }
  double dt = t - xd[ES_T_LAST];
  d->sliding_next = d->sliding;
  if (!d->disabled && xd[ES_HAS_T_LAST] != 0.0 && dt > 0.0) {
    double speed = hypot(d->p0_next[0] - d->p0[0], d->p0_next[1] - d->p0[1]) / dt;
    double ratio = speed / p->v_settle;
    d->sliding_next = step_up(ratio < 1.0 ? ratio : 1.0);
  }
}

/* Everything from the body state, the spring state xd at time t and the
 * parameters. */
static void compute(const es_model *m, const teal_exponential_spring_params *p, teal_transform X_WB,
                    teal_spatial_vector V_WB, const double *xd, double t,
                    teal_exponential_spring_data *d) {
  station_kinematics(m, X_WB, V_WB, d);
  d->p0[0] = xd[ES_P0X];
  d->p0[1] = xd[ES_P0Y];
  double s = xd[ES_SLIDING];
  d->sliding = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
  normal_force(p, d);
  if (d->disabled) {
    zero_forces(d);
  } else {
    friction_force(p, d);
  }
  d->force = teal_vec3_make(d->friction_elastic[0] + d->friction_damping[0],
                            d->friction_elastic[1] + d->friction_damping[1], d->fz);
  d->force_W = teal_rotation_apply(m->X_WF.R, d->force);
  next_state(p, xd, t, d);
  double el2 = d->friction_elastic[0] * d->friction_elastic[0] +
               d->friction_elastic[1] * d->friction_elastic[1];
  d->potential_energy = d->fz_elastic / p->d2 + 0.5 * el2 / p->kxy;
}

/* ---- the leaf's callbacks --------------------------------------------------- */

/* The body's pose and velocity from the inputs, checked for size. */
static int read_body(const teal_system *sys, const teal_context *ctx, const es_model *m,
                     teal_transform *X_WB, teal_spatial_vector *V_WB) {
  const teal_transform_list *X;
  const teal_spatial_vector_list *V;
  int rc = teal_eval_abstract_input(sys, ctx, ES_IN_POSES, (const void **)&X);
  if (rc) {
    return rc;
  }
  rc = teal_eval_abstract_input(sys, ctx, ES_IN_VELOCITIES, (const void **)&V);
  if (rc) {
    return rc;
  }
  if (X->n <= m->body || V->n <= m->body) {
    return teal_context_report_error(ctx, TEAL_ESIZE,
                                     "%s '%s': inputs hold %d poses and %d velocities, body %d "
                                     "is out of range",
                                     k_kind, teal_system_name(sys), X->n, V->n, m->body);
  }
  *X_WB = X->X[m->body];
  *V_WB = V->V[m->body];
  return TEAL_OK;
}

static int data_is_finite(const teal_exponential_spring_data *d) {
  return teal_vec3_is_finite(d->force_W) && isfinite(d->p0_next[0]) && isfinite(d->p0_next[1]) &&
         isfinite(d->sliding_next) && isfinite(d->potential_energy);
}

/* Whether the spring is disabled in its own context ctx. */
static int disabled_in(const es_model *m, const teal_context *ctx) {
  double flag = teal_context_numeric_parameter(ctx, ES_DISABLED)[0];
  return flag == k_follow_default ? m->disabled_by_default : flag == k_disabled;
}

static int es_calc(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  const es_model *m = user;
  teal_transform X_WB = teal_transform_identity();
  teal_spatial_vector V_WB = teal_spatial_vector_zero();
  int rc = read_body(sys, ctx, m, &X_WB, &V_WB);
  if (rc) {
    return rc;
  }
  teal_exponential_spring_params p;
  params_from_array(teal_context_numeric_parameter(ctx, ES_PARAMS), &p);
  teal_exponential_spring_data *d = out;
  d->disabled = disabled_in(m, ctx);
  compute(m, &p, X_WB, V_WB, teal_context_discrete_group(ctx, 0), teal_context_time(ctx), d);
  if (!data_is_finite(d)) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                     "%s '%s': non-finite force at station height %g (speed %g)",
                                     k_kind, teal_system_name(sys), d->p_FS.v[2],
                                     teal_vec3_norm(d->v_FS));
  }
  return TEAL_OK;
}

static int eval_data(const teal_system *sys, const teal_context *ctx,
                     const teal_exponential_spring_data **d) {
  const es_model *m = teal_system_user(sys);
  return teal_eval_cache_entry(sys, ctx, m->cache, (const void **)d);
}

static int es_output(const teal_system *sys, const teal_context *ctx, void *out, void *user) {
  const es_model *m = user;
  const teal_exponential_spring_data *d;
  int rc = eval_data(sys, ctx, &d);
  if (rc == TEAL_OK) {
    rc = teal_applied_spatial_force_list_resize(out, 1);
  }
  if (rc == TEAL_OK) {
    teal_applied_spatial_force_list *l = out;
    l->f[0].body = m->body;
    l->f[0].p_BoBq_B = m->p_BS;
    l->f[0].F_Bq_W = teal_spatial_vector_make(teal_vec3_zero(), d->force_W);
  }
  return rc;
}

/* The per-step update (Simbody's auto-update after an accepted step): the
 * anchor and Sliding take their next values, and the time is recorded. A
 * disabled spring keeps its state. */
static int es_update(const teal_system *sys, const teal_context *ctx, double *xd_next, void *user) {
  (void)user;
  const teal_exponential_spring_data *d;
  int rc = eval_data(sys, ctx, &d);
  if (rc != TEAL_OK || d->disabled) {
    return rc;
  }
  xd_next[ES_P0X] = d->p0_next[0];
  xd_next[ES_P0Y] = d->p0_next[1];
  xd_next[ES_SLIDING] = d->sliding_next;
  xd_next[ES_T_LAST] = teal_context_time(ctx);
  xd_next[ES_HAS_T_LAST] = 1.0;
  return TEAL_OK;
}

static int es_potential(const teal_system *sys, const teal_context *ctx, double *pe,
                        void *user) {
  (void)user;
  const teal_exponential_spring_data *d;
  int rc = eval_data(sys, ctx, &d);
  *pe = rc == TEAL_OK && !d->disabled ? d->potential_energy : 0.0;
  return rc;
}

/* Initialization event: evaluating the output once sizes its list, so the
 * steps that follow allocate nothing. */
static int es_size_output(const teal_system *sys, const teal_context *ctx, void *user) {
  (void)user;
  const void *value;
  return teal_eval_abstract_output(sys, ctx, 0, &value);
}

/* ---- construction ------------------------------------------------------------ */

static int check_geometry(const char *name, const teal_plant *plant, int body, teal_vec3 p_BS,
                          teal_transform X_WF, teal_error *err) {
  name = teal_leaf_util_name(name);
  if (!plant) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': plant is NULL", k_kind, name);
  }
  int nb = teal_plant_num_bodies(plant);
  if (body < 1 || body >= nb) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': body %d out of range (valid: 1 to %d)",
                          k_kind, name, body, nb - 1);
  }
  if (!teal_vec3_is_finite(p_BS) || !teal_vec3_is_finite(X_WF.p)) {
    return teal_error_set(err, TEAL_ENONFINITE, "%s '%s': station or plane origin not finite",
                          k_kind, name);
  }
  if (!teal_rotation_is_orthonormal(X_WF.R, 1e-9)) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': X_WF.R is not a rotation", k_kind, name);
  }
  return TEAL_OK;
}

static void declare(teal_system *sys, es_model *m, const teal_exponential_spring_params *p) {
  teal_leaf_declare_abstract_input(sys, "body_poses", &teal_transform_list_type);
  teal_leaf_declare_abstract_input(sys, "body_spatial_velocities", &teal_spatial_vector_list_type);
  teal_leaf_declare_discrete_state(sys, ES_NXD, NULL);
  double a[TEAL_EXPONENTIAL_SPRING_NUM_PARAMS];
  params_to_array(p, a);
  teal_leaf_declare_numeric_parameter(sys, TEAL_EXPONENTIAL_SPRING_NUM_PARAMS, a);
  teal_leaf_declare_numeric_parameter(sys, 1, &k_follow_default);
  teal_ticket deps[6] = {teal_ticket_input(ES_IN_POSES),
                         teal_ticket_input(ES_IN_VELOCITIES),
                         teal_ticket_discrete(0),
                         teal_ticket_parameter(ES_PARAMS),
                         teal_ticket_parameter(ES_DISABLED),
                         TEAL_TICKET_TIME};
  m->cache =
      teal_leaf_declare_abstract_cache_entry(sys, "data", &es_data_type, es_calc, m, deps, 6);
  teal_ticket out_deps[1] = {teal_ticket_cache(m->cache)};
  teal_leaf_declare_abstract_output(sys, "spatial_force", &teal_applied_spatial_force_list_type,
                                    es_output, m, out_deps, 1);
  teal_leaf_declare_per_step_discrete_update(sys, es_update, m);
  teal_leaf_set_energy(sys, es_potential, NULL, m);
  teal_leaf_declare_initialization_publish(sys, es_size_output, m);
  teal_leaf_set_type_tag(sys, &k_tag);
}

teal_system *teal_exponential_spring_new(const char *name, const teal_plant *plant, int body,
                                         teal_vec3 p_BS, teal_transform X_WF,
                                         const teal_exponential_spring_params *params,
                                         teal_error *err) {
  teal_exponential_spring_params p;
  teal_exponential_spring_params_default(&p);
  if (params) {
    p = *params;
  }
  char who[300];
  if (check_geometry(name, plant, body, p_BS, X_WF, err) ||
      check_params(&p, who_named(who, sizeof who, name), err)) {
    return NULL;
  }
  es_model *m = teal_leaf_util_alloc(sizeof *m, err, k_kind, name);
  if (!m) {
    return NULL;
  }
  m->body = body;
  m->p_BS = p_BS;
  m->X_WF = X_WF;
  m->disabled_by_default = 0;
  m->cache = -1;
  teal_system *sys = teal_leaf_util_new(name, m, teal_free, err); /* frees m on failure */
  if (sys) {
    declare(sys, m, &p);
  }
  return teal_leaf_util_finish(sys, err);
}

/* ---- access in a context -------------------------------------------------------- */

static int is_spring(const teal_system *sys) {
  return sys && teal_system_type_tag(sys) == &k_tag;
}

/* Reports a missing spring or context on ctx (when there is one). */
static int bad_call(const teal_system *sys, const teal_context *ctx, const char *what) {
  if (!ctx) {
    return TEAL_EINVAL;
  }
  return teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s: %s", k_kind, what,
                                   is_spring(sys) ? "the spring is not in this context"
                                                  : "not an exponential spring");
}

int teal_exponential_spring_eval(const teal_system *spring, const teal_context *ctx,
                                 const teal_exponential_spring_data **data) {
  const teal_context *own = teal_leaf_util_own_context(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "eval");
  }
  if (!data) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: eval: data is NULL", k_kind);
  }
  return eval_data(spring, own, data);
}

int teal_exponential_spring_reset_anchor(const teal_system *spring, teal_context *ctx) {
  teal_context *own = teal_leaf_util_own_context_mut(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "reset_anchor");
  }
  const teal_exponential_spring_data *d;
  int rc = eval_data(spring, own, &d);
  if (rc) {
    return rc;
  }
  double x = d->p_FS.v[0], y = d->p_FS.v[1];
  double *xd = teal_context_discrete_group_mut(own, 0); /* after the evaluation, as _mut requires */
  xd[ES_P0X] = x;
  xd[ES_P0Y] = y;
  xd[ES_HAS_T_LAST] = 0.0;
  return TEAL_OK;
}

int teal_exponential_spring_set_state(const teal_system *spring, teal_context *ctx, double p0_x,
                                      double p0_y, double sliding) {
  teal_context *own = teal_leaf_util_own_context_mut(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "set_state");
  }
  if (!isfinite(p0_x) || !isfinite(p0_y) || !(sliding >= 0.0 && sliding <= 1.0)) {
    return teal_context_report_error(ctx, TEAL_EINVAL,
                                     "%s '%s': set_state needs a finite p0 and sliding in [0, 1]"
                                     " (got %g, %g, %g)",
                                     k_kind, teal_system_name(spring), p0_x, p0_y, sliding);
  }
  double *xd = teal_context_discrete_group_mut(own, 0);
  xd[ES_P0X] = p0_x;
  xd[ES_P0Y] = p0_y;
  xd[ES_SLIDING] = sliding;
  xd[ES_HAS_T_LAST] = 0.0;
  return TEAL_OK;
}

int teal_exponential_spring_get_state(const teal_system *spring, const teal_context *ctx,
                                      double *p0_x, double *p0_y, double *sliding) {
  const teal_context *own = teal_leaf_util_own_context(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "get_state");
  }
  const double *xd = teal_context_discrete_group(own, 0);
  if (p0_x) {
    *p0_x = xd[ES_P0X];
  }
  if (p0_y) {
    *p0_y = xd[ES_P0Y];
  }
  if (sliding) {
    *sliding = xd[ES_SLIDING];
  }
  return TEAL_OK;
}

int teal_exponential_spring_set_params(const teal_system *spring, teal_context *ctx,
                                       const teal_exponential_spring_params *params) {
  teal_context *own = teal_leaf_util_own_context_mut(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "set_params");
  }
  teal_error e;
  char who[300];
  int rc = check_params(params, who_named(who, sizeof who, teal_system_name(spring)), &e);
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s", e.message);
  }
  double a[TEAL_EXPONENTIAL_SPRING_NUM_PARAMS];
  params_to_array(params, a);
  return teal_context_set_numeric_parameter(own, ES_PARAMS, a, TEAL_EXPONENTIAL_SPRING_NUM_PARAMS);
}

int teal_exponential_spring_get_params(const teal_system *spring, const teal_context *ctx,
                                       teal_exponential_spring_params *params) {
  const teal_context *own = teal_leaf_util_own_context(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "get_params");
  }
  if (!params) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: get_params: params is NULL", k_kind);
  }
  params_from_array(teal_context_numeric_parameter(own, ES_PARAMS), params);
  return TEAL_OK;
}

int teal_exponential_spring_geometry(const teal_system *spring, int *body, teal_vec3 *p_BS,
                                     teal_transform *X_WF) {
  if (!is_spring(spring)) {
    return TEAL_EINVAL;
  }
  const es_model *m = teal_system_user(spring);
  if (body) {
    *body = m->body;
  }
  if (p_BS) {
    *p_BS = m->p_BS;
  }
  if (X_WF) {
    *X_WF = m->X_WF;
  }
  return TEAL_OK;
}

int teal_exponential_spring_indices(const teal_system *spring,
                                    teal_exponential_spring_index *index) {
  if (!is_spring(spring)) {
    return TEAL_EINVAL;
  }
  if (index) {
    index->discrete_group = 0;
    index->anchor = ES_P0X;
    index->sliding = ES_SLIDING;
    index->last_update = ES_T_LAST;
    index->has_last_update = ES_HAS_T_LAST;
    index->state_size = ES_NXD;
    index->parameters = ES_PARAMS;
    index->mu_static = (int)(offsetof(teal_exponential_spring_params, mu_s) / sizeof(double));
    index->mu_kinetic = (int)(offsetof(teal_exponential_spring_params, mu_k) / sizeof(double));
    index->disabled = ES_DISABLED;
  }
  return TEAL_OK;
}

/* ---- disabling ------------------------------------------------------------------ */

/* Writes the disable flag; enabling a disabled spring forgets the time of
 * the last update, so the gap does not count as anchor motion. */
static int set_disabled(const teal_system *spring, teal_context *ctx, int disabled,
                        const char *fn) {
  teal_context *own = teal_leaf_util_own_context_mut(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, fn);
  }
  int was = disabled_in(teal_system_user(spring), own);
  double flag = disabled ? k_disabled : k_enabled;
  int rc = teal_context_set_numeric_parameter(own, ES_DISABLED, &flag, 1);
  if (rc == TEAL_OK && was && !disabled) {
    teal_context_discrete_group_mut(own, 0)[ES_HAS_T_LAST] = 0.0;
  }
  return rc;
}

int teal_exponential_spring_disable(const teal_system *spring, teal_context *ctx) {
  return set_disabled(spring, ctx, 1, "disable");
}

int teal_exponential_spring_enable(const teal_system *spring, teal_context *ctx) {
  return set_disabled(spring, ctx, 0, "enable");
}

int teal_exponential_spring_is_disabled(const teal_system *spring, const teal_context *ctx,
                                        int *disabled) {
  const teal_context *own = teal_leaf_util_own_context(spring, &k_tag, ctx, NULL);
  if (!own) {
    return bad_call(spring, ctx, "is_disabled");
  }
  if (!disabled) {
    return teal_context_report_error(ctx, TEAL_EINVAL, "%s: is_disabled: disabled is NULL", k_kind);
  }
  *disabled = disabled_in(teal_system_user(spring), own);
  return TEAL_OK;
}

int teal_exponential_spring_set_disabled_by_default(teal_system *spring, int disabled,
                                                    teal_error *err) {
  const char *fn = "set_disabled_by_default";
  if (!is_spring(spring)) {
    return teal_error_set(err, TEAL_EINVAL, "%s: %s: not an exponential spring", k_kind, fn);
  }
  const char *name = teal_system_name(spring);
  if (disabled != 0 && disabled != 1) {
    return teal_error_set(err, TEAL_EINVAL, "%s '%s': %s: disabled = %d must be 0 or 1", k_kind,
                          name, fn, disabled);
  }
  if (teal_system_parent(spring)) {
    return teal_error_set(err, TEAL_EINVAL,
                          "%s '%s': %s: the spring is already part of a diagram; set its "
                          "default before building",
                          k_kind, name, fn);
  }
  es_model *m = teal_system_user(spring);
  m->disabled_by_default = disabled;
  return TEAL_OK;
}

int teal_exponential_spring_is_disabled_by_default(const teal_system *spring, int *disabled) {
  if (!is_spring(spring) || !disabled) {
    return TEAL_EINVAL;
  }
  *disabled = ((const es_model *)teal_system_user(spring))->disabled_by_default;
  return TEAL_OK;
}
