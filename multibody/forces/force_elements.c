/* Force elements: spring-damper, revolute spring, rpy bushing, and the
 * dispatch to user elements and tendons (see force_elements.h). */
#include "multibody/forces/force_elements.h"

#include <math.h>

#include "multibody/forces/force_elements_internal.h"
#include "multibody/tree/plant_internal.h"

/* ---- construction ---------------------------------------------------------- */

static force_rec *push_force(teal_plant *p, int kind, int instance) {
  force_rec *f = teal_plant_list_push(&p->forces, sizeof(force_rec));
  if (!f) {
    teal_plant_fail(p, TEAL_ENOMEM, "plant: out of memory adding a force element%s%s", "", NULL);
    return NULL;
  }
  f->kind = kind;
  f->instance = instance;
  f->joint = -1;
  return f;
}

static int bad_body(const teal_plant *p, int b) {
  return b < 0 || b >= p->bodies.n;
}

static int nonneg_finite(double x) {
  return isfinite(x) && x >= 0.0;
}

static int nonneg_vec(teal_vec3 a) {
  return nonneg_finite(a.v[0]) && nonneg_finite(a.v[1]) && nonneg_finite(a.v[2]);
}

int teal_plant_add_linear_spring_damper(teal_plant *p, int body_A, teal_vec3 p_AP, int body_B,
                                        teal_vec3 p_BQ, double free_length, double stiffness,
                                        double damping) {
  int rc = teal_plant_check_open(p, "force element", "linear_spring_damper");
  if (rc) {
    return rc;
  }
  if (bad_body(p, body_A) || bad_body(p, body_B) || body_A == body_B) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: linear spring-damper needs two distinct valid bodies%s%s", "",
                           NULL);
  }
  if (!isfinite(free_length) || free_length <= 0.0 || !nonneg_finite(stiffness) ||
      !nonneg_finite(damping) || !teal_vec3_is_finite(p_AP) || !teal_vec3_is_finite(p_BQ)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: linear spring-damper needs free_length > 0, stiffness >= 0, "
                           "damping >= 0 and finite points%s%s",
                           "", NULL);
  }
  force_rec *f = push_force(p, TEAL_FORCE_LINEAR_SPRING_DAMPER, BODY(p)[body_B].instance);
  if (!f) {
    return TEAL_ENOMEM;
  }
  f->body_a = body_A;
  f->body_b = body_B;
  f->X_AF = teal_transform_make(teal_rotation_identity(), p_AP);
  f->X_BF = teal_transform_make(teal_rotation_identity(), p_BQ);
  f->rest = free_length;
  f->k = stiffness;
  f->d = damping;
  return p->forces.n - 1;
}

int teal_plant_add_revolute_spring(teal_plant *p, int joint, double nominal_angle,
                                   double stiffness) {
  int rc = teal_plant_check_open(p, "force element", "revolute_spring");
  if (rc) {
    return rc;
  }
  if (joint < 0 || joint >= p->joints.n || JOINT(p)[joint].kind != TEAL_JOINT_REVOLUTE) {
    return teal_plant_fail(p, TEAL_EINVAL, "plant: revolute spring needs a revolute joint%s%s", "",
                           NULL);
  }
  if (!isfinite(nominal_angle) || !nonneg_finite(stiffness)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: revolute spring on joint '%s' needs a finite nominal angle "
                           "and stiffness >= 0%s",
                           JOINT(p)[joint].name, NULL);
  }
  force_rec *f = push_force(p, TEAL_FORCE_REVOLUTE_SPRING, JOINT(p)[joint].instance);
  if (!f) {
    return TEAL_ENOMEM;
  }
  f->joint = joint;
  f->rest = nominal_angle;
  f->k = stiffness;
  return p->forces.n - 1;
}

int teal_plant_add_linear_bushing_rpy(teal_plant *p, int frame_A, int frame_C,
                                      teal_vec3 torque_stiffness, teal_vec3 torque_damping,
                                      teal_vec3 force_stiffness, teal_vec3 force_damping) {
  int rc = teal_plant_check_open(p, "force element", "linear_bushing_rpy");
  if (rc) {
    return rc;
  }
  int nf = p->frames.n;
  if (frame_A < 0 || frame_A >= nf || frame_C < 0 || frame_C >= nf ||
      FRAME(p)[frame_A].body == FRAME(p)[frame_C].body) {
    return teal_plant_fail(
        p, TEAL_EINVAL, "plant: bushing needs two valid frames on different bodies%s%s", "", NULL);
  }
  if (!nonneg_vec(torque_stiffness) || !nonneg_vec(torque_damping) ||
      !nonneg_vec(force_stiffness) || !nonneg_vec(force_damping)) {
    return teal_plant_fail(p, TEAL_EINVAL,
                           "plant: bushing stiffness and damping must be finite and >= 0%s%s", "",
                           NULL);
  }
  const frame_rec *fa = &FRAME(p)[frame_A], *fc = &FRAME(p)[frame_C];
  force_rec *f = push_force(p, TEAL_FORCE_LINEAR_BUSHING_RPY, BODY(p)[fc->body].instance);
  if (!f) {
    return TEAL_ENOMEM;
  }
  f->body_a = fa->body;
  f->body_b = fc->body;
  f->X_AF = fa->X_BF;
  f->X_BF = fc->X_BF;
  f->frame_a = frame_A;
  f->frame_c = frame_C;
  f->k_rpy = torque_stiffness;
  f->d_rpy = torque_damping;
  f->k_xyz = force_stiffness;
  f->d_xyz = force_damping;
  return p->forces.n - 1;
}

int teal_plant_num_force_elements(const teal_plant *p) {
  return p ? p->forces.n : 0;
}

int teal_plant_force_element_kind(const teal_plant *p, int i) {
  return p && i >= 0 && i < p->forces.n ? FORCE(p)[i].kind : -1;
}

/* ---- kinematics of an element --------------------------------------------------- */

/* Velocity in W of the point of body b at p_WQ. */
static teal_vec3 point_velocity(const teal_transform *X_WB, const teal_spatial_vector *V_WB, int b,
                                teal_vec3 p_WQ) {
  teal_spatial_vector V = teal_spatial_velocity_shift(V_WB[b], teal_vec3_sub(p_WQ, X_WB[b].p));
  return teal_spatial_vector_linear(V);
}

/* A spring-damper's points, unit direction P->Q, length and its rate
 * (without V_WB: ldot = 0). */
typedef struct spring_kin {
  teal_vec3 p_WP, p_WQ, u;
  double len, ldot;
} spring_kin;

static int spring_kinematics(const force_rec *f, const teal_transform *X_WB,
                             const teal_spatial_vector *V_WB, spring_kin *k, teal_error *err) {
  k->p_WP = teal_transform_apply(X_WB[f->body_a], f->X_AF.p);
  k->p_WQ = teal_transform_apply(X_WB[f->body_b], f->X_BF.p);
  teal_vec3 d = teal_vec3_sub(k->p_WQ, k->p_WP);
  k->len = teal_vec3_norm(d);
  k->ldot = 0.0;
  if (!V_WB) {
    return TEAL_OK;
  }
  if (!(k->len > 1e-12 * f->rest)) {
    return teal_error_set(err, TEAL_ESINGULAR,
                          "linear spring-damper: the points coincide (length %g), so the force "
                          "direction is undefined",
                          k->len);
  }
  k->u = teal_vec3_scale(d, 1.0 / k->len);
  teal_vec3 vrel = teal_vec3_sub(point_velocity(X_WB, V_WB, f->body_b, k->p_WQ),
                                 point_velocity(X_WB, V_WB, f->body_a, k->p_WP));
  k->ldot = teal_vec3_dot(vrel, k->u);
  return TEAL_OK;
}

/* N(rpy) with w_AC_A = N rpydot for R = Rz(y) Ry(p) Rx(r). */
static teal_mat3 rpy_rate_matrix(teal_vec3 rpy) {
  double sp = sin(rpy.v[1]), cp = cos(rpy.v[1]), sy = sin(rpy.v[2]), cy = cos(rpy.v[2]);
  teal_mat3 N = {{cy * cp, -sy, 0.0, sy * cp, cy, 0.0, -sp, 0.0, 1.0}};
  return N;
}

/* Solves N x = b for the 3x3 N by Cramer's rule (det = cos(pitch) here). */
static teal_vec3 solve3(teal_mat3 N, teal_vec3 b, double det) {
  teal_vec3 x;
  for (int c = 0; c < 3; c++) {
    teal_mat3 M = N;
    for (int r = 0; r < 3; r++) {
      M.m[3 * r + c] = b.v[r];
    }
    x.v[c] = teal_mat3_det(M) / det;
  }
  return x;
}

/* A bushing's frames, p = p_AoCo_A, rpy of R_AC and, with V_WB, their
 * rates (pdot measured in A) and the rate matrix N with det N. */
typedef struct bushing_kin {
  teal_transform X_WA, X_WC;
  teal_vec3 p_A, rpy, pdot_A, rpydot;
  teal_mat3 N;
  double det;
} bushing_kin;

static int bushing_kinematics(const force_rec *f, const teal_transform *X_WB,
                              const teal_spatial_vector *V_WB, bushing_kin *k, teal_error *err) {
  k->X_WA = teal_transform_compose(X_WB[f->body_a], f->X_AF);
  k->X_WC = teal_transform_compose(X_WB[f->body_b], f->X_BF);
  k->rpy = teal_rotation_to_rpy(teal_rotation_mul(teal_rotation_inverse(k->X_WA.R), k->X_WC.R));
  k->p_A = teal_rotation_apply_inverse(k->X_WA.R, teal_vec3_sub(k->X_WC.p, k->X_WA.p));
  k->pdot_A = k->rpydot = teal_vec3_zero();
  if (!V_WB) {
    return TEAL_OK;
  }
  k->N = rpy_rate_matrix(k->rpy);
  k->det = cos(k->rpy.v[1]);
  if (fabs(k->det) < 1e-6) {
    return teal_error_set(err, TEAL_ESINGULAR,
                          "linear bushing: pitch %g is at gimbal lock (+-pi/2)", k->rpy.v[1]);
  }
  teal_vec3 w_WA = teal_spatial_vector_angular(V_WB[f->body_a]);
  teal_vec3 w_AC_A = teal_rotation_apply_inverse(
      k->X_WA.R, teal_vec3_sub(teal_spatial_vector_angular(V_WB[f->body_b]), w_WA));
  k->rpydot = solve3(k->N, w_AC_A, k->det);
  /* pdot measured in A: the relative velocity of Co seen from A's point at Co */
  teal_vec3 v_rel_W = teal_vec3_sub(point_velocity(X_WB, V_WB, f->body_b, k->X_WC.p),
                                    point_velocity(X_WB, V_WB, f->body_a, k->X_WC.p));
  k->pdot_A = teal_rotation_apply_inverse(k->X_WA.R, v_rel_W);
  return TEAL_OK;
}

/* ---- forces ------------------------------------------------------------------ */

/* Adds force f (in W) applied at point Q (p_WQ) of body b, and torque t. */
static void apply_at(teal_spatial_vector *F_Bo_W, const teal_transform *X_WB, int b, teal_vec3 p_WQ,
                     teal_vec3 f, teal_vec3 t) {
  if (b == TEAL_WORLD_BODY) {
    return;
  }
  teal_vec3 p_BoQ = teal_vec3_sub(p_WQ, X_WB[b].p);
  teal_spatial_vector F = teal_spatial_vector_make(teal_vec3_add(t, teal_vec3_cross(p_BoQ, f)), f);
  F_Bo_W[b] = teal_spatial_vector_add(F_Bo_W[b], F);
}

static int spring_damper(const force_rec *f, const teal_transform *X_WB,
                         const teal_spatial_vector *V_WB, teal_spatial_vector *F, teal_error *err) {
  spring_kin k;
  int rc = spring_kinematics(f, X_WB, V_WB, &k, err);
  if (rc) {
    return rc;
  }
  double tension = f->k * (k.len - f->rest) + f->d * k.ldot;
  teal_vec3 zero = teal_vec3_zero();
  apply_at(F, X_WB, f->body_a, k.p_WP, teal_vec3_scale(k.u, tension), zero);
  apply_at(F, X_WB, f->body_b, k.p_WQ, teal_vec3_scale(k.u, -tension), zero);
  return TEAL_OK;
}

static int bushing(const force_rec *f, const teal_transform *X_WB, const teal_spatial_vector *V_WB,
                   teal_spatial_vector *F, teal_error *err) {
  bushing_kin k;
  int rc = bushing_kinematics(f, X_WB, V_WB, &k, err);
  if (rc) {
    return rc;
  }
  teal_vec3 f_A, Q;
  for (int i = 0; i < 3; i++) {
    f_A.v[i] = -(f->k_xyz.v[i] * k.p_A.v[i] + f->d_xyz.v[i] * k.pdot_A.v[i]);
    Q.v[i] = -(f->k_rpy.v[i] * k.rpy.v[i] + f->d_rpy.v[i] * k.rpydot.v[i]);
  }
  teal_vec3 t_A = solve3(teal_mat3_transpose(k.N), Q, k.det);
  teal_vec3 f_W = teal_rotation_apply(k.X_WA.R, f_A), t_W = teal_rotation_apply(k.X_WA.R, t_A);
  apply_at(F, X_WB, f->body_b, k.X_WC.p, f_W, t_W);
  apply_at(F, X_WB, f->body_a, k.X_WC.p, teal_vec3_neg(f_W), teal_vec3_neg(t_W));
  return TEAL_OK;
}

static int element_forces(const teal_plant *p, int i, const teal_force_element_state *s,
                          teal_spatial_vector *F_Bo_W, double *tau, teal_error *err) {
  const force_rec *f = &FORCE(p)[i];
  switch (f->kind) {
    case TEAL_FORCE_LINEAR_SPRING_DAMPER:
      return spring_damper(f, s->X_WB, s->V_WB, F_Bo_W, err);
    case TEAL_FORCE_LINEAR_BUSHING_RPY:
      return bushing(f, s->X_WB, s->V_WB, F_Bo_W, err);
    case TEAL_FORCE_USER:
      return teal_force_user_calc(p, i, s, F_Bo_W, tau, err);
    case TEAL_FORCE_TENDON:
      return teal_tendon_forces(p, f, s, F_Bo_W, tau, err);
    default: {
      const joint_rec *j = &JOINT(p)[f->joint];
      tau[j->v_start] += f->k * (f->rest - s->q[j->q_start]);
      return TEAL_OK;
    }
  }
}

int teal_plant_calc_force_elements(const teal_plant *p, const double *q, const double *v,
                                   const teal_transform *X_WB, const teal_spatial_vector *V_WB,
                                   teal_spatial_vector *F_Bo_W, double *tau, teal_error *err) {
  return teal_plant_calc_force_elements_filtered(p, q, v, X_WB, V_WB, F_Bo_W, tau, NULL, NULL, err);
}

int teal_plant_calc_force_elements_filtered(const teal_plant *p, const double *q, const double *v,
                                            const teal_transform *X_WB,
                                            const teal_spatial_vector *V_WB,
                                            teal_spatial_vector *F_Bo_W, double *tau,
                                            teal_force_element_filter skip, const void *user,
                                            teal_error *err) {
  if (!p || !p->finalized || !q || !v || !X_WB || !V_WB || !F_Bo_W || !tau) {
    return teal_error_set(err, p && !p->finalized ? TEAL_ESTATE : TEAL_EINVAL,
                          "plant force elements: NULL argument or plant not finalized");
  }
  const teal_force_element_state s = {q, v, X_WB, V_WB};
  for (int i = 0; i < p->forces.n; i++) {
    if (skip && skip(p, i, user)) {
      continue;
    }
    int rc = element_forces(p, i, &s, F_Bo_W, tau, err);
    if (rc) {
      return rc;
    }
  }
  return TEAL_OK;
}

/* ---- energy and power ------------------------------------------------------------- */

static double element_energy(const teal_plant *p, const force_rec *f, const double *q,
                             const teal_transform *X_WB) {
  if (f->kind == TEAL_FORCE_REVOLUTE_SPRING) {
    double e = q[JOINT(p)[f->joint].q_start] - f->rest;
    return 0.5 * f->k * e * e;
  }
  if (f->kind == TEAL_FORCE_TENDON) {
    return teal_tendon_energy(p, f, q, X_WB);
  }
  if (f->kind == TEAL_FORCE_LINEAR_SPRING_DAMPER) {
    spring_kin k;
    spring_kinematics(f, X_WB, NULL, &k, NULL);
    return 0.5 * f->k * (k.len - f->rest) * (k.len - f->rest);
  }
  bushing_kin k;
  bushing_kinematics(f, X_WB, NULL, &k, NULL);
  double e = 0.0;
  for (int i = 0; i < 3; i++) {
    e += 0.5 * (f->k_rpy.v[i] * k.rpy.v[i] * k.rpy.v[i] + f->k_xyz.v[i] * k.p_A.v[i] * k.p_A.v[i]);
  }
  return e;
}

int teal_plant_force_elements_potential_energy(const teal_plant *p, const double *q,
                                               const teal_transform *X_WB, double *pe,
                                               teal_error *err) {
  return teal_plant_force_elements_potential_energy_filtered(p, q, X_WB, pe, NULL, NULL, err);
}

int teal_plant_force_elements_potential_energy_filtered(const teal_plant *p, const double *q,
                                                        const teal_transform *X_WB, double *pe,
                                                        teal_force_element_filter skip,
                                                        const void *user, teal_error *err) {
  if (!p || !p->finalized || !q || !X_WB || !pe) {
    return teal_error_set(err, p && !p->finalized ? TEAL_ESTATE : TEAL_EINVAL,
                          "plant force elements potential energy: NULL argument or plant not "
                          "finalized");
  }
  const teal_force_element_state s = {q, NULL, X_WB, NULL};
  double e = 0.0;
  for (int i = 0; i < p->forces.n; i++) {
    double ei = 0.0;
    if (skip && skip(p, i, user)) {
      continue;
    }
    if (FORCE(p)[i].kind != TEAL_FORCE_USER) {
      ei = element_energy(p, &FORCE(p)[i], q, X_WB);
    } else {
      int rc = teal_force_user_scalar(p, i, TEAL_FORCE_USER_POTENTIAL_ENERGY, &s, &ei, err);
      if (rc) {
        return rc;
      }
    }
    e += ei;
  }
  *pe = e;
  return TEAL_OK;
}

/* The conservative (spring) and dissipative (damper) power of a built-in
 * element: -dU/dt and minus the damping's quadratic form. */
static int builtin_power(const teal_plant *p, const force_rec *f, const teal_force_element_state *s,
                         double *pc, double *pnc, teal_error *err) {
  if (f->kind == TEAL_FORCE_REVOLUTE_SPRING) {
    const joint_rec *j = &JOINT(p)[f->joint];
    *pc = f->k * (f->rest - s->q[j->q_start]) * s->v[j->v_start];
    *pnc = 0.0;
    return TEAL_OK;
  }
  if (f->kind == TEAL_FORCE_TENDON) {
    return teal_tendon_power(p, f, s, pc, pnc, err);
  }
  if (f->kind == TEAL_FORCE_LINEAR_SPRING_DAMPER) {
    spring_kin k;
    int rc = spring_kinematics(f, s->X_WB, s->V_WB, &k, err);
    *pc = -f->k * (k.len - f->rest) * k.ldot;
    *pnc = -f->d * k.ldot * k.ldot;
    return rc;
  }
  bushing_kin k;
  int rc = bushing_kinematics(f, s->X_WB, s->V_WB, &k, err);
  *pc = *pnc = 0.0;
  for (int i = 0; i < 3; i++) {
    *pc -= f->k_xyz.v[i] * k.p_A.v[i] * k.pdot_A.v[i] + f->k_rpy.v[i] * k.rpy.v[i] * k.rpydot.v[i];
    *pnc -= f->d_xyz.v[i] * k.pdot_A.v[i] * k.pdot_A.v[i] +
            f->d_rpy.v[i] * k.rpydot.v[i] * k.rpydot.v[i];
  }
  return rc;
}

static int element_power(const teal_plant *p, int i, const teal_force_element_state *s, double *pc,
                         double *pnc, teal_error *err) {
  if (FORCE(p)[i].kind != TEAL_FORCE_USER) {
    return builtin_power(p, &FORCE(p)[i], s, pc, pnc, err);
  }
  int rc = teal_force_user_scalar(p, i, TEAL_FORCE_USER_CONSERVATIVE_POWER, s, pc, err);
  return rc ? rc : teal_force_user_scalar(p, i, TEAL_FORCE_USER_NONCONSERVATIVE_POWER, s, pnc, err);
}

int teal_plant_force_elements_power(const teal_plant *p, const double *q, const double *v,
                                    const teal_transform *X_WB, const teal_spatial_vector *V_WB,
                                    double *conservative, double *nonconservative,
                                    teal_error *err) {
  if (!p || !p->finalized || !q || !v || !X_WB || !V_WB || !conservative || !nonconservative) {
    return teal_error_set(err, p && !p->finalized ? TEAL_ESTATE : TEAL_EINVAL,
                          "plant force elements power: NULL argument or plant not finalized");
  }
  const teal_force_element_state s = {q, v, X_WB, V_WB};
  double pc = 0.0, pnc = 0.0;
  for (int i = 0; i < p->forces.n; i++) {
    double ci = 0.0, ni = 0.0;
    int rc = element_power(p, i, &s, &ci, &ni, err);
    if (rc) {
      return rc;
    }
    pc += ci;
    pnc += ni;
  }
  *conservative = pc;
  *nonconservative = pnc;
  return TEAL_OK;
}
