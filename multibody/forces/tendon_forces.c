/* Tendons' lengths, Jacobians, forces, energy and power (see tendons.h). */
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements_internal.h"
#include "multibody/forces/tendons.h"
#include "multibody/tree/plant_internal.h"

/* ---- kinematics --------------------------------------------------------------- */

/* World position of path entry i of a spatial tendon (a frame's origin). */
static teal_vec3 site_position(const teal_plant *p, const force_rec *f, const teal_transform *X_WB,
                               int i) {
  const frame_rec *fr = &FRAME(p)[f->path[i]];
  return teal_transform_apply(X_WB[fr->body], fr->X_BF.p);
}

static teal_vec3 site_velocity(const teal_plant *p, const force_rec *f, const teal_transform *X_WB,
                               const teal_spatial_vector *V_WB, int i, teal_vec3 p_WS) {
  int b = FRAME(p)[f->path[i]].body;
  teal_spatial_vector V = teal_spatial_velocity_shift(V_WB[b], teal_vec3_sub(p_WS, X_WB[b].p));
  return teal_spatial_vector_linear(V);
}

/* Segment i (from entry i to i + 1): its unit direction and length; a
 * segment too short for a direction is TEAL_ESINGULAR. */
static int segment(const teal_plant *p, const force_rec *f, const teal_transform *X_WB, int i,
                   teal_vec3 *u, double *len, teal_error *err) {
  teal_vec3 d = teal_vec3_sub(site_position(p, f, X_WB, i + 1), site_position(p, f, X_WB, i));
  *len = teal_vec3_norm(d);
  if (!(*len > 1e-12)) {
    return teal_error_set(err, TEAL_ESINGULAR,
                          "tendon '%s': segment %d has zero length (%g), so its direction is "
                          "undefined",
                          f->name, i, *len);
  }
  *u = teal_vec3_scale(d, 1.0 / *len);
  return TEAL_OK;
}

/* L and, with v and V_WB, Ldot (else 0). */
static int tendon_kinematics(const teal_plant *p, const force_rec *f,
                             const teal_force_element_state *s, double *len, double *rate,
                             teal_error *err) {
  double L = 0.0, Ld = 0.0;
  for (int i = 0; f->tendon_kind == TEAL_TENDON_FIXED && i < f->n_path; i++) {
    const joint_rec *j = &JOINT(p)[f->path[i]];
    L += f->coef[i] * s->q[j->q_start];
    Ld += s->v ? f->coef[i] * s->v[j->v_start] : 0.0;
  }
  for (int i = 0; f->tendon_kind == TEAL_TENDON_SPATIAL && i + 1 < f->n_path; i++) {
    if (!s->V_WB) {
      L += teal_vec3_norm(
          teal_vec3_sub(site_position(p, f, s->X_WB, i + 1), site_position(p, f, s->X_WB, i)));
      continue;
    }
    teal_vec3 u;
    double li;
    int rc = segment(p, f, s->X_WB, i, &u, &li, err);
    if (rc) {
      return rc;
    }
    L += li;
    teal_vec3 pa = site_position(p, f, s->X_WB, i), pb = site_position(p, f, s->X_WB, i + 1);
    teal_vec3 vrel = teal_vec3_sub(site_velocity(p, f, s->X_WB, s->V_WB, i + 1, pb),
                                   site_velocity(p, f, s->X_WB, s->V_WB, i, pa));
    Ld += teal_vec3_dot(u, vrel);
  }
  *len = L;
  *rate = Ld;
  return TEAL_OK;
}

/* The range violation (0 inside the range). */
static double violation(const force_rec *f, double L) {
  return L > f->upper ? L - f->upper : L < f->lower ? L - f->lower : 0.0;
}

/* The conservative and dissipative parts of the tension. */
static void tension(const force_rec *f, double L, double Ld, double *t_spring, double *t_damper) {
  double e = violation(f, L);
  *t_spring = f->k * (L - f->rest) + f->k_limit * e;
  *t_damper = (f->d + (e != 0.0 ? f->d_limit : 0.0)) * Ld;
}

/* ---- forces ------------------------------------------------------------------- */

/* Adds force f_W at point p_WQ of body b (nothing on the world). */
static void apply_at(teal_spatial_vector *F_Bo_W, const teal_transform *X_WB, int b, teal_vec3 p_WQ,
                     teal_vec3 f_W) {
  if (b == TEAL_WORLD_BODY) {
    return;
  }
  teal_vec3 m = teal_vec3_cross(teal_vec3_sub(p_WQ, X_WB[b].p), f_W);
  F_Bo_W[b] = teal_spatial_vector_add(F_Bo_W[b], teal_spatial_vector_make(m, f_W));
}

/* Tension T pulls the ends of each segment together: T u at its start and
 * -T u at its end, so the power is -T Ldot. */
static int spatial_forces(const teal_plant *p, const force_rec *f, const teal_transform *X_WB,
                          double T, teal_spatial_vector *F_Bo_W, teal_error *err) {
  for (int i = 0; i + 1 < f->n_path; i++) {
    teal_vec3 u;
    double li;
    int rc = segment(p, f, X_WB, i, &u, &li, err);
    if (rc) {
      return rc;
    }
    apply_at(F_Bo_W, X_WB, FRAME(p)[f->path[i]].body, site_position(p, f, X_WB, i),
             teal_vec3_scale(u, T));
    apply_at(F_Bo_W, X_WB, FRAME(p)[f->path[i + 1]].body, site_position(p, f, X_WB, i + 1),
             teal_vec3_scale(u, -T));
  }
  return TEAL_OK;
}

int teal_tendon_forces(const teal_plant *p, const force_rec *f, const teal_force_element_state *s,
                       teal_spatial_vector *F_Bo_W, double *tau, teal_error *err) {
  double L, Ld, ts, td;
  int rc = tendon_kinematics(p, f, s, &L, &Ld, err);
  if (rc) {
    return rc;
  }
  tension(f, L, Ld, &ts, &td);
  double T = ts + td;
  if (f->tendon_kind == TEAL_TENDON_SPATIAL) {
    return spatial_forces(p, f, s->X_WB, T, F_Bo_W, err);
  }
  for (int i = 0; i < f->n_path; i++) {
    tau[JOINT(p)[f->path[i]].v_start] -= f->coef[i] * T;
  }
  return TEAL_OK;
}

double teal_tendon_energy(const teal_plant *p, const force_rec *f, const double *q,
                          const teal_transform *X_WB) {
  const teal_force_element_state s = {q, NULL, X_WB, NULL};
  double L, Ld;
  tendon_kinematics(p, f, &s, &L, &Ld, NULL);
  double e = violation(f, L);
  return 0.5 * f->k * (L - f->rest) * (L - f->rest) + 0.5 * f->k_limit * e * e;
}

int teal_tendon_power(const teal_plant *p, const force_rec *f, const teal_force_element_state *s,
                      double *pc, double *pnc, teal_error *err) {
  double L, Ld, ts, td;
  int rc = tendon_kinematics(p, f, s, &L, &Ld, err);
  tension(f, L, Ld, &ts, &td);
  *pc = rc ? 0.0 : -ts * Ld;
  *pnc = rc ? 0.0 : -td * Ld;
  return rc;
}

/* ---- queries -------------------------------------------------------------------- */

/* The tendon record of force element i after the common checks of a
 * finalized-plant query (NULL with the code in *rc). */
static const force_rec *query_rec(const teal_plant *p, int i, const char *fn, int *rc,
                                  teal_error *err) {
  if (!p) {
    *rc = teal_error_set(err, TEAL_EINVAL, "%s: NULL plant", fn);
    return NULL;
  }
  if (!p->finalized) {
    *rc = teal_error_set(err, TEAL_ESTATE, "%s: the plant is not finalized", fn);
    return NULL;
  }
  if (i < 0 || i >= p->forces.n || FORCE(p)[i].kind != TEAL_FORCE_TENDON) {
    *rc = teal_error_set(err, TEAL_ENOTFOUND, "%s: force element %d is not a tendon", fn, i);
    return NULL;
  }
  *rc = TEAL_OK;
  return &FORCE(p)[i];
}

int teal_plant_calc_tendon_length(const teal_plant *p, int i, const double *q, const double *v,
                                  const teal_transform *X_WB, const teal_spatial_vector *V_WB,
                                  double *length, double *rate, teal_error *err) {
  int rc;
  const force_rec *f = query_rec(p, i, "teal_plant_calc_tendon_length", &rc, err);
  if (!f) {
    return rc;
  }
  if (!q || !X_WB || !length) {
    return teal_error_set(err, TEAL_EINVAL,
                          "teal_plant_calc_tendon_length: NULL q, X_WB or length");
  }
  int with_rate = v && V_WB;
  const teal_force_element_state s = {q, with_rate ? v : NULL, X_WB, with_rate ? V_WB : NULL};
  double L, Ld;
  rc = tendon_kinematics(p, f, &s, &L, &Ld, err);
  if (rc) {
    return rc;
  }
  if (!isfinite(L) || !isfinite(Ld)) {
    return teal_error_set(err, TEAL_ENONFINITE,
                          "teal_plant_calc_tendon_length: tendon '%s' has a non-finite length "
                          "or rate (NaN or Inf in q, v or the poses)",
                          f->name);
  }
  *length = L;
  if (rate) {
    *rate = Ld;
  }
  return TEAL_OK;
}

/* Adds sign u^T Jv of path entry k's origin into J (nv); Jt: 3 nv scratch. */
static int add_site_jacobian(const teal_plant *p, teal_mb_data *data, const double *q,
                             const force_rec *f, int k, teal_vec3 u, double sign, double *Jt,
                             double *J) {
  int rc = teal_mb_jacobian_translational_velocity(p, data, q, TEAL_JACOBIAN_WRT_V, f->path[k],
                                                   teal_vec3_zero(), TEAL_WORLD_FRAME,
                                                   TEAL_WORLD_FRAME, Jt);
  for (int c = 0; rc == TEAL_OK && c < p->nv; c++) {
    J[c] += sign * (u.v[0] * Jt[c] + u.v[1] * Jt[p->nv + c] + u.v[2] * Jt[2 * p->nv + c]);
  }
  return rc;
}

static int spatial_jacobian(const teal_plant *p, teal_mb_data *data, const force_rec *f,
                            const double *q, double *J, teal_transform *X_WB, double *Jt,
                            teal_error *err) {
  int rc = teal_mb_body_poses(p, q, X_WB);
  if (rc) {
    return teal_error_set(err, rc, "teal_plant_calc_tendon_jacobian: body poses failed (%s)",
                          teal_strerror(rc));
  }
  for (int i = 0; i + 1 < f->n_path; i++) {
    teal_vec3 u;
    double li;
    rc = segment(p, f, X_WB, i, &u, &li, err);
    if (rc) {
      return rc;
    }
    rc = add_site_jacobian(p, data, q, f, i + 1, u, 1.0, Jt, J);
    rc = rc ? rc : add_site_jacobian(p, data, q, f, i, u, -1.0, Jt, J);
    if (rc) {
      return teal_error_set(err, rc, "teal_plant_calc_tendon_jacobian: %s",
                            teal_mb_data_error(data)->message);
    }
  }
  return TEAL_OK;
}

int teal_plant_calc_tendon_jacobian(const teal_plant *p, teal_mb_data *data, int i, const double *q,
                                    double *J, teal_error *err) {
  int rc;
  const force_rec *f = query_rec(p, i, "teal_plant_calc_tendon_jacobian", &rc, err);
  if (!f) {
    return rc;
  }
  if (!data || !q || !J) {
    return teal_error_set(err, TEAL_EINVAL, "teal_plant_calc_tendon_jacobian: NULL data, q or J");
  }
  memset(J, 0, sizeof(double) * (size_t)p->nv);
  if (f->tendon_kind == TEAL_TENDON_FIXED) {
    for (int k = 0; k < f->n_path; k++) {
      J[JOINT(p)[f->path[k]].v_start] += f->coef[k];
    }
    return TEAL_OK;
  }
  teal_transform *X_WB = teal_alloc(sizeof(teal_transform) * (size_t)p->bodies.n);
  double *Jt = teal_alloc(sizeof(double) * 3 * (size_t)(p->nv > 0 ? p->nv : 1));
  rc = X_WB && Jt
           ? spatial_jacobian(p, data, f, q, J, X_WB, Jt, err)
           : teal_error_set(err, TEAL_ENOMEM, "teal_plant_calc_tendon_jacobian: out of memory");
  teal_free(X_WB);
  teal_free(Jt);
  return rc;
}
