/* Force-element test fixtures (see mb_force_fixtures.h). */
#include "support/mb_force_fixtures.h"

#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

ts_fe_model ts_fe_model_make(teal_plant *p) {
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ts_fe_model m = {p, teal_mb_data_new(p, NULL), teal_plant_nq(p), teal_plant_nv(p),
                   teal_plant_num_bodies(p)};
  ck_assert_ptr_nonnull(m.ws);
  ck_assert_int_le(m.nb, TS_FE_MAXB);
  ck_assert_int_le(m.nq + m.nv, TS_FE_MAXX);
  return m;
}

void ts_fe_model_free(ts_fe_model *m) {
  teal_mb_data_free(m->ws);
  teal_plant_free(m->p);
}

teal_transform ts_fe_pose(double r, double pi, double y, double px, double py, double pz) {
  return teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(r, pi, y)),
                             teal_vec3_make(px, py, pz));
}

teal_spatial_inertia ts_fe_rand_inertia(unsigned *s, double m) {
  teal_spatial_inertia box = teal_spatial_inertia_solid_box(
      m, ts_rand_uniform(s, 0.2, 0.5), ts_rand_uniform(s, 0.2, 0.5), ts_rand_uniform(s, 0.2, 0.5));
  teal_transform X = ts_mb_rand_pose(s, 0.1);
  teal_spatial_inertia r = teal_spatial_inertia_reexpress(&box, X.R);
  return teal_spatial_inertia_from_central(m, X.p, r.I_SP_E);
}

teal_spatial_vector ts_fe_rand_spatial(unsigned *s, double a) {
  teal_spatial_vector V;
  ts_mb_rand_vec(s, V.v, 6, a);
  return V;
}

void ts_fe_set_free(const teal_plant *p, int body, teal_transform X_WB, teal_spatial_vector V_WB,
                    double *q, double *v) {
  int j = teal_plant_body_joint(p, body);
  ck_assert_int_eq(teal_plant_joint_kind(p, j), TEAL_JOINT_QUATERNION_FLOATING);
  int qs = teal_plant_joint_q_start(p, j), vs = teal_plant_joint_v_start(p, j);
  teal_quaternion u = teal_rotation_to_quaternion(X_WB.R);
  double qq[7] = {u.w, u.x, u.y, u.z, X_WB.p.v[0], X_WB.p.v[1], X_WB.p.v[2]};
  memcpy(q + qs, qq, sizeof qq);
  memcpy(v + vs, V_WB.v, sizeof V_WB.v);
}

int ts_fe_calc_all(const teal_plant *p, const double *q, const double *v, teal_transform *X,
                   teal_spatial_vector *V, teal_spatial_vector *F, double *tau, teal_error *err) {
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int b = 0; b < teal_plant_num_bodies(p); b++) {
    F[b] = teal_spatial_vector_zero();
  }
  for (int i = 0; i < teal_plant_nv(p); i++) {
    tau[i] = 0.0;
  }
  return teal_plant_calc_force_elements(p, q, v, X, V, F, tau, err);
}

double ts_fe_element_power(const teal_plant *p, const double *q, const double *v) {
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  double tau[TS_FE_MAXX], P = 0.0;
  teal_error err;
  ck_assert_int_eq(ts_fe_calc_all(p, q, v, X, V, F, tau, &err), TEAL_OK);
  for (int b = 1; b < teal_plant_num_bodies(p); b++) {
    P += teal_spatial_vector_dot(F[b], V[b]);
  }
  for (int i = 0; i < teal_plant_nv(p); i++) {
    P += tau[i] * v[i];
  }
  return P;
}

double ts_fe_element_energy(const teal_plant *p, const double *q) {
  teal_transform X[TS_FE_MAXB];
  double pe = -1.0;
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_force_elements_potential_energy(p, q, X, &pe, NULL), TEAL_OK);
  return pe;
}

double ts_fe_energy_rate_fd(const teal_plant *p, const double *q, const double *v, double h) {
  double qp[TS_FE_MAXX], qm[TS_FE_MAXX];
  ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
  ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
  return (ts_fe_element_energy(p, qp) - ts_fe_element_energy(p, qm)) / (2.0 * h);
}

/* x = (q, v); xd = (N(q) v, vdot) with the element forces applied. */
static void deriv(const ts_fe_model *m, const double *x, double *xd) {
  teal_transform X[TS_FE_MAXB];
  teal_spatial_vector V[TS_FE_MAXB], F[TS_FE_MAXB];
  double tau[TS_FE_MAXX];
  teal_error err;
  const double *q = x, *v = x + m->nq;
  int rc = ts_fe_calc_all(m->p, q, v, X, V, F, tau, &err);
  ck_assert_msg(rc == TEAL_OK, "force elements failed: %s", err.message);
  const teal_plant_tree *t = teal_plant_get_tree(m->p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], q + t->q_start[k], v + t->v_start[k],
                    xd + t->q_start[k]);
  }
  ck_assert_int_eq(teal_mb_forward_dynamics_ex(m->p, m->ws, q, v, tau, F, xd + m->nq), TEAL_OK);
}

void ts_fe_rk4_step(const ts_fe_model *m, double *x, double dt) {
  int n = m->nq + m->nv;
  double k1[TS_FE_MAXX], k2[TS_FE_MAXX], k3[TS_FE_MAXX], k4[TS_FE_MAXX], xt[TS_FE_MAXX];
  deriv(m, x, k1);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k1[i];
  }
  deriv(m, xt, k2);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k2[i];
  }
  deriv(m, xt, k3);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + dt * k3[i];
  }
  deriv(m, xt, k4);
  for (int i = 0; i < n; i++) {
    x[i] += dt / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
  }
  ck_assert_int_eq(teal_plant_normalize_q(m->p, x), TEAL_OK);
}

double ts_fe_total_energy(const ts_fe_model *m, const double *x, double *scale) {
  double ke, pg;
  ck_assert_int_eq(teal_mb_kinetic_energy(m->p, m->ws, x, x + m->nq, &ke), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(m->p, m->ws, x, &pg), TEAL_OK);
  double pf = ts_fe_element_energy(m->p, x);
  if (scale) {
    *scale = fabs(ke) + fabs(pg) + fabs(pf);
  }
  return ke + pg + pf;
}

teal_spatial_vector ts_fe_net_force_about(const teal_transform *X, const teal_spatial_vector *F,
                                          int nb, teal_vec3 p_WO) {
  teal_spatial_vector sum = teal_spatial_vector_zero();
  for (int b = 1; b < nb; b++) {
    sum = teal_spatial_vector_add(sum, teal_spatial_force_shift(F[b], teal_vec3_sub(p_WO, X[b].p)));
  }
  return sum;
}

double ts_fe_max_abs6(teal_spatial_vector a) {
  return teal_spatial_vector_max_abs_diff(a, teal_spatial_vector_zero());
}
