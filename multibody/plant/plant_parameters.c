/* Body inertias and joint damping as context parameters, and the mass
 * properties computed with them (see plant_parameters.h). */
#include "multibody/plant/plant_parameters.h"

#include <math.h>
#include <string.h>

#include "multibody/algorithms/momentum.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/tree/topology.h"

_Static_assert(sizeof(teal_spatial_inertia) == 13 * sizeof(double) &&
                   sizeof(teal_mat3) == 9 * sizeof(double),
               "the inertia parameter stores spatial inertias and 3x3 matrices as doubles");

/* ---- layout ------------------------------------------------------------------ */

int teal_plant_inertia_parameter_size(const teal_plant *p) {
  return (TEAL_PLANT_INERTIA_DOUBLES + 9) * p->tree.num_nodes;
}

/* Where node k's spatial inertia and central inertia sit in the parameter. */
static size_t inertia_at(int k) {
  return (size_t)TEAL_PLANT_INERTIA_DOUBLES * (size_t)k;
}
static size_t central_at(const teal_plant *p, int k) {
  return inertia_at(p->tree.num_nodes) + 9 * (size_t)k;
}

/* Writes node k's inertia M and its central inertia into the parameter. */
static void store_inertia(const teal_plant *p, double *param, int k,
                          const teal_spatial_inertia *M) {
  teal_mat3 I_Bcm = teal_spatial_inertia_central(M);
  memcpy(param + inertia_at(k), M, sizeof(*M));
  memcpy(param + central_at(p, k), &I_Bcm, sizeof(I_Bcm));
}

void teal_plant_default_inertia_parameter(const teal_plant *p, double *x0) {
  for (int k = 0; k < p->tree.num_nodes; k++) {
    store_inertia(p, x0, k, &p->tree.M_BBo_B[k]);
  }
}

const teal_spatial_inertia *teal_plant_inertias(const teal_plant *p, const teal_context *ctx) {
  return (const teal_spatial_inertia *)teal_context_numeric_parameter(ctx, p->sys.param_inertia);
}

const teal_mat3 *teal_plant_central_inertias(const teal_plant *p, const teal_context *ctx) {
  const double *param = teal_context_numeric_parameter(ctx, p->sys.param_inertia);
  return (const teal_mat3 *)(param + central_at(p, 0));
}

const double *teal_plant_damping(const teal_plant *p, const teal_context *ctx) {
  return teal_context_numeric_parameter(ctx, p->sys.param_damping);
}

/* ---- argument checks ------------------------------------------------------- */

/* The plant's own context of a call on ctx whose result or argument is out
 * (named what; NULL what: none to check), or NULL with *rc set and
 * reported. */
static const teal_context *own_context(const teal_plant *p, const teal_context *ctx,
                                       const void *out, const char *what, const char *fn,
                                       int *rc) {
  const teal_context *own = teal_plant_own_context(p, ctx);
  if (!own) {
    *rc = teal_plant_bad_call(p, ctx, fn);
  } else if (what && !out) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: %s is NULL", fn, what);
  }
  return *rc ? NULL : own;
}

/* Body's tree node, or -1 with *rc reported for the world or an unknown body. */
static int body_node(const teal_plant *p, const teal_context *ctx, int body, const char *fn,
                     int *rc) {
  if (body == TEAL_WORLD_BODY) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL,
                                    "%s: body 0 is the world, which has no mass properties", fn);
  } else if (body < 0 || body >= p->bodies.n) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: body %d is not a body of the plant "
                                    "(1..%d)", fn, body, p->bodies.n - 1);
  }
  return *rc ? -1 : p->body_node[body];
}

/* The node of body in the plant's own context of ctx, or -1 with *rc set. */
static int resolve_body(const teal_plant *p, const teal_context *ctx, int body, const void *out,
                        const char *what, const char *fn, int *rc) {
  *rc = TEAL_OK;
  return own_context(p, ctx, out, what, fn, rc) ? body_node(p, ctx, body, fn, rc) : -1;
}

/* ---- body inertias ------------------------------------------------------------ */

static teal_spatial_inertia inertia_of_node(const teal_plant *p, const teal_context *ctx, int k) {
  teal_spatial_inertia M;
  const double *param = teal_context_numeric_parameter(teal_plant_own_context(p, ctx),
                                                       p->sys.param_inertia);
  memcpy(&M, param + inertia_at(k), sizeof(M));
  return M;
}

/* Checks M and stores it as body's (node k's) inertia in ctx. */
static int set_inertia(const teal_plant *p, teal_context *ctx, int body, int k,
                       const teal_spatial_inertia *M, const char *fn) {
  teal_error err = {0};
  int rc = teal_spatial_inertia_check(M, &err);
  if (rc) {
    return teal_context_report_error(ctx, rc, "%s: body \"%s\": %s", fn,
                                     teal_plant_body_name(p, body), err.message);
  }
  teal_context *own = (teal_context *)teal_plant_own_context(p, ctx);
  store_inertia(p, teal_context_numeric_parameter_mut(own, p->sys.param_inertia), k, M);
  return TEAL_OK;
}

int teal_plant_get_body_spatial_inertia_in_context(const teal_plant *p, const teal_context *ctx,
                                                   int body, teal_spatial_inertia *M_BBo_B) {
  int rc, k = resolve_body(p, ctx, body, M_BBo_B, "M_BBo_B",
                           "plant get_body_spatial_inertia_in_context", &rc);
  if (k >= 0) {
    *M_BBo_B = inertia_of_node(p, ctx, k);
  }
  return rc;
}

int teal_plant_set_body_spatial_inertia_in_context(const teal_plant *p, teal_context *ctx,
                                                   int body, const teal_spatial_inertia *M_BBo_B) {
  const char *fn = "plant set_body_spatial_inertia_in_context";
  int rc, k = resolve_body(p, ctx, body, M_BBo_B, "M_BBo_B", fn, &rc);
  return k < 0 ? rc : set_inertia(p, ctx, body, k, M_BBo_B, fn);
}

int teal_plant_get_body_mass_in_context(const teal_plant *p, const teal_context *ctx, int body,
                                        double *mass) {
  int rc, k = resolve_body(p, ctx, body, mass, "mass", "plant get_body_mass_in_context", &rc);
  if (k >= 0) {
    *mass = inertia_of_node(p, ctx, k).mass;
  }
  return rc;
}

int teal_plant_set_body_mass_in_context(const teal_plant *p, teal_context *ctx, int body,
                                        double mass) {
  const char *fn = "plant set_body_mass_in_context";
  int rc, k = resolve_body(p, ctx, body, &mass, "mass", fn, &rc);
  if (k < 0) {
    return rc;
  }
  /* the unit inertia I / m is kept; a bad mass fails the check below */
  teal_spatial_inertia M = inertia_of_node(p, ctx, k);
  double scale = mass / M.mass;
  M.I_SP_E = teal_mat3_scale(M.I_SP_E, isfinite(scale) ? scale : 0.0);
  M.mass = mass;
  return set_inertia(p, ctx, body, k, &M, fn);
}

int teal_plant_get_body_center_of_mass_in_context(const teal_plant *p, const teal_context *ctx,
                                                  int body, teal_vec3 *p_BoBcm_B) {
  int rc, k = resolve_body(p, ctx, body, p_BoBcm_B, "p_BoBcm_B",
                           "plant get_body_center_of_mass_in_context", &rc);
  if (k >= 0) {
    *p_BoBcm_B = inertia_of_node(p, ctx, k).p_PScm_E;
  }
  return rc;
}

int teal_plant_set_body_center_of_mass_in_context(const teal_plant *p, teal_context *ctx,
                                                  int body, teal_vec3 p_BoBcm_B) {
  const char *fn = "plant set_body_center_of_mass_in_context";
  int rc, k = resolve_body(p, ctx, body, &p_BoBcm_B, "p_BoBcm_B", fn, &rc);
  if (k < 0) {
    return rc;
  }
  if (!teal_vec3_is_finite(p_BoBcm_B)) {
    return teal_context_report_error(ctx, TEAL_ENONFINITE,
                                     "%s: body \"%s\": p_BoBcm_B is not finite", fn,
                                     teal_plant_body_name(p, body));
  }
  teal_spatial_inertia M = inertia_of_node(p, ctx, k);
  teal_spatial_inertia moved =
      teal_spatial_inertia_from_central(M.mass, p_BoBcm_B, teal_spatial_inertia_central(&M));
  return set_inertia(p, ctx, body, k, &moved, fn);
}

/* ---- joint damping ------------------------------------------------------------ */

/* The joint record of a damping call with n values, or NULL with *rc set. */
static const joint_rec *damping_joint(const teal_plant *p, const teal_context *ctx, int joint,
                                      const double *values, int n, const char *fn, int *rc) {
  *rc = TEAL_OK;
  if (!own_context(p, ctx, NULL, NULL, fn, rc)) {
    return NULL;
  }
  if (joint < 0 || joint >= p->joints.n) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: joint %d is not a joint of the plant "
                                    "(0..%d)", fn, joint, p->joints.n - 1);
    return NULL;
  }
  const joint_rec *j = &JOINT(p)[joint];
  int nv = teal_joint_type_get(j->kind)->nv;
  if (n != nv) {
    *rc = teal_context_report_error(ctx, TEAL_ESIZE, "%s: got %d values, joint \"%s\" has %d "
                                    "velocities", fn, n, j->name, nv);
  } else if (!values && n > 0) {
    *rc = teal_context_report_error(ctx, TEAL_EINVAL, "%s: damping is NULL", fn);
  }
  return *rc ? NULL : j;
}

int teal_plant_get_joint_damping_in_context(const teal_plant *p, const teal_context *ctx,
                                            int joint, double *damping, int n) {
  int rc;
  const joint_rec *j =
      damping_joint(p, ctx, joint, damping, n, "plant get_joint_damping_in_context", &rc);
  if (j && n > 0) {
    const double *b = teal_plant_damping(p, teal_plant_own_context(p, ctx));
    memcpy(damping, b + j->v_start, (size_t)n * sizeof(double));
  }
  return rc;
}

int teal_plant_set_joint_damping_in_context(const teal_plant *p, teal_context *ctx, int joint,
                                            const double *damping, int n) {
  const char *fn = "plant set_joint_damping_in_context";
  int rc;
  const joint_rec *j = damping_joint(p, ctx, joint, damping, n, fn, &rc);
  for (int i = 0; j && i < n; i++) {
    if (!isfinite(damping[i]) || damping[i] < 0.0) {
      return teal_context_report_error(ctx, isfinite(damping[i]) ? TEAL_EINVAL : TEAL_ENONFINITE,
                                       "%s: joint \"%s\": damping[%d] = %g must be finite and "
                                       ">= 0",
                                       fn, j->name, i, damping[i]);
    }
  }
  if (j && n > 0) {
    teal_context *own = (teal_context *)teal_plant_own_context(p, ctx);
    double *b = teal_context_numeric_parameter_mut(own, p->sys.param_damping);
    memcpy(b + j->v_start, damping, (size_t)n * sizeof(double));
  }
  return rc;
}

/* ---- mass properties -------------------------------------------------------- */

/* The context's multibody data staged at its q, or NULL with *rc set. */
static teal_plant_scratch *staged(const teal_plant *p, const teal_context *ctx, const void *out,
                                  const char *what, const char *fn, const teal_context **own,
                                  int *rc) {
  *rc = TEAL_OK;
  *own = own_context(p, ctx, out, what, fn, rc);
  return *own ? teal_plant_staged_scratch(p->system, *own, p, rc) : NULL;
}

/* rc of a teal_mb_* call on s's data, reported on ctx. */
static int report(const teal_context *ctx, const teal_plant_scratch *s, const char *fn, int rc) {
  return rc ? teal_context_report_error(ctx, rc, "%s: %s", fn, teal_mb_data_error(s->data)->message)
            : TEAL_OK;
}

int teal_plant_calc_total_mass(const teal_plant *p, const teal_context *ctx, const int *instances,
                               int num_instances, double *mass) {
  const char *fn = "plant calc_total_mass";
  const teal_context *own;
  int rc;
  teal_plant_scratch *s = staged(p, ctx, mass, "mass", fn, &own, &rc);
  return s ? report(ctx, s, fn, teal_mb_total_mass(p, s->data, instances, num_instances, mass))
           : rc;
}

int teal_plant_calc_center_of_mass_position(const teal_plant *p, const teal_context *ctx,
                                            const int *instances, int num_instances,
                                            teal_vec3 *p_WScm) {
  const char *fn = "plant calc_center_of_mass_position";
  const teal_context *own;
  int rc;
  teal_plant_scratch *s = staged(p, ctx, p_WScm, "p_WScm", fn, &own, &rc);
  if (!s) {
    return rc;
  }
  const double *q, *v;
  teal_plant_qv(p, own, &q, &v);
  return report(ctx, s, fn,
                teal_mb_center_of_mass_position(p, s->data, q, instances, num_instances, p_WScm));
}
