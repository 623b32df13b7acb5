/* Mass properties, momentum and power (multibody/algorithms/momentum.h): a single body
 * in closed form, centers of mass of model-instance selections, the COM
 * velocity against central differences and the COM Jacobian, momentum
 * additivity and shifting, conservation under RK4 in zero gravity and the
 * momentum rate m g in free fall, the power of gravity against -d(PE)/dt and
 * the work-energy balance d(KE)/dt = conservative + non-conservative power,
 * argument checks and zero allocations. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/momentum.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

#define MAXN 64
#define MAXB 32

typedef teal_spatial_vector sv;

/* ---- helpers ---------------------------------------------------------------------- */

static teal_plant *topo_plant(int i, unsigned seed, int num_instances) {
  const ts_mb_topology *tp = &ts_mb_topologies[i];
  teal_plant *p = ts_mb_random_tree(tp->spec, tp->n, seed, num_instances);
  ck_assert_ptr_nonnull(p);
  return p;
}

static double vec3_max_abs_diff(teal_vec3 a, teal_vec3 b) {
  return ts_mb_max_abs_diff(a.v, b.v, 3);
}

static double vec3_max_abs(teal_vec3 a) {
  return ts_mb_max_abs(a.v, 3);
}

/* The selected mass and first moment sum m p_WBcm, by hand from the poses. */
static double by_hand_moment(const teal_plant *p, const double *q, const int *inst, int n,
                             teal_vec3 *mp) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_transform X[MAXB];
  ck_assert_int_eq(teal_mb_body_poses(p, q, X), TEAL_OK);
  double m = 0.0;
  *mp = teal_vec3_zero();
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(p, k), in = !inst;
    for (int i = 0; inst && i < n; i++) {
      in |= inst[i] == teal_plant_body_instance(p, b);
    }
    if (in) {
      const teal_spatial_inertia *M = &t->M_BBo_B[k];
      m += M->mass;
      *mp = teal_vec3_add(*mp, teal_vec3_scale(teal_transform_apply(X[b], M->p_PScm_E), M->mass));
    }
  }
  return m;
}

/* ---- single body --------------------------------------------------------------------- */

START_TEST(test_single_body) {
  unsigned s = 7;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 c = teal_vec3_make(0.2, -0.3, 0.15);
  teal_mat3 Ic = teal_mat3_diag(0.05, 0.07, 0.09);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(2.5, c, Ic);
  int b = teal_plant_add_rigid_body(p, "box", 1, &M);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  double q[7], v[6], m;
  teal_transform X[2];
  sv V[2], L;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  teal_vec3 p_cm, v_cm, c_W = teal_rotation_apply(X[b].R, c);
  ck_assert_int_eq(teal_mb_total_mass(p, ws, NULL, 0, &m), TEAL_OK);
  ck_assert_double_eq(m, 2.5);
  /* the COM is the body's COM offset carried by its pose */
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, &p_cm), TEAL_OK);
  ck_assert_double_le(vec3_max_abs_diff(p_cm, teal_transform_apply(X[b], c)), 1e-13);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, NULL, 0, &v_cm), TEAL_OK);
  teal_vec3 w = teal_spatial_vector_angular(V[b]);
  teal_vec3 v_expect = teal_vec3_add(teal_spatial_vector_linear(V[b]), teal_vec3_cross(w, c_W));
  ck_assert_double_le(vec3_max_abs_diff(v_cm, v_expect), 1e-13);
  /* about the COM: [I_cm w; m v_cm], I_cm re-expressed in W */
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, p_cm, &L), TEAL_OK);
  teal_mat3 I_W = teal_mat3_mul(teal_mat3_mul(X[b].R, Ic), teal_mat3_transpose(X[b].R));
  teal_vec3 Lw = teal_mat3_apply(I_W, w), Lv = teal_vec3_scale(v_cm, 2.5);
  ck_assert_double_le(vec3_max_abs_diff(teal_spatial_vector_angular(L), Lw), 1e-13);
  ck_assert_double_le(vec3_max_abs_diff(teal_spatial_vector_linear(L), Lv), 1e-13);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- selections ------------------------------------------------------------------------- */

START_TEST(test_center_of_mass_selection) {
  teal_plant *p = topo_plant(_i, 40 + (unsigned)_i, 3);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 19;
  double q[MAXN], m, mi[3];
  int mi1 = teal_plant_get_model_instance_by_name(p, "mi1", NULL);
  int mi2 = teal_plant_get_model_instance_by_name(p, "mi2", NULL);
  int sets[][3] = {{mi1, -1, -1}, {mi2, 1, -1}, {mi2, 1, mi2}, {1, mi1, mi2}};
  int sizes[] = {1, 2, 3, 3};
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 1.5), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    teal_vec3 mp, c;
    double mh = by_hand_moment(p, q, sets[i], sizes[i], &mp);
    ck_assert_int_eq(teal_mb_total_mass(p, ws, sets[i], sizes[i], &m), TEAL_OK);
    ck_assert_double_eq_tol(m, mh, 1e-13);
    ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, sets[i], sizes[i], &c), TEAL_OK);
    ck_assert_double_le(vec3_max_abs_diff(c, teal_vec3_scale(mp, 1.0 / mh)), 1e-13);
  }
  /* the whole system is the mass-weighted mean of its instances */
  int inst[3] = {1, mi1, mi2};
  teal_vec3 c_all, sum = teal_vec3_zero(), ci;
  double mt = 0.0;
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(teal_mb_total_mass(p, ws, &inst[i], 1, &mi[i]), TEAL_OK);
    ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, &inst[i], 1, &ci), TEAL_OK);
    sum = teal_vec3_add(sum, teal_vec3_scale(ci, mi[i]));
    mt += mi[i];
  }
  ck_assert_int_eq(teal_mb_total_mass(p, ws, NULL, 0, &m), TEAL_OK);
  ck_assert_double_eq_tol(m, mt, 1e-13);
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, &c_all), TEAL_OK);
  ck_assert_double_le(vec3_max_abs_diff(c_all, teal_vec3_scale(sum, 1.0 / mt)), 1e-13);
  /* the world instance alone has no mass; a bad index is named */
  int world = TEAL_WORLD_MODEL_INSTANCE, bad[2] = {1, 17};
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, &world, 1, &c_all), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "no mass"));
  ck_assert_int_eq(teal_mb_total_mass(p, ws, bad, 2, &m), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "instances[1]"));
  ck_assert_int_eq(teal_mb_total_mass(p, ws, inst, 0, &m), TEAL_EINVAL); /* empty list */
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- COM velocity and Jacobian -------------------------------------------------------------- */

START_TEST(test_com_velocity_and_jacobian) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = topo_plant(_i, 70 + 5 * seed + (unsigned)_i, 2);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nv = teal_plant_nv(p), mi1 = teal_plant_get_model_instance_by_name(p, "mi1", NULL);
    unsigned s = 31 * seed;
    double q[MAXN], v[MAXN], qp[MAXN], qm[MAXN], J[3 * MAXN], h = 1e-5;
    ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
    const int *sel[2] = {NULL, &mi1};
    for (int i = 0; i < 2; i++) {
      teal_vec3 vc, cp, cm, Jv = teal_vec3_zero();
      ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, sel[i], 1, &vc), TEAL_OK);
      ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, qp, sel[i], 1, &cp), TEAL_OK);
      ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, qm, sel[i], 1, &cm), TEAL_OK);
      teal_vec3 fd = teal_vec3_scale(teal_vec3_sub(cp, cm), 1.0 / (2 * h));
      ck_assert_msg(vec3_max_abs_diff(vc, fd) < 1e-7 * (1 + vec3_max_abs(vc)), "topo %d: %g", _i,
                    vec3_max_abs_diff(vc, fd));
      ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, sel[i], 1, J), TEAL_OK);
      for (int r = 0; r < 3; r++) {
        for (int j = 0; j < nv; j++) {
          Jv.v[r] += J[r * nv + j] * v[j];
        }
      }
      ck_assert_double_le(vec3_max_abs_diff(Jv, vc), 1e-13 * (1 + vec3_max_abs(vc)));
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* ---- momentum -------------------------------------------------------------------------------- */

START_TEST(test_momentum_properties) {
  teal_plant *p = topo_plant(_i, 120 + (unsigned)_i, 3);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 37;
  double q[MAXN], v[MAXN], m;
  int inst[3] = {1, teal_plant_get_model_instance_by_name(p, "mi1", NULL),
                 teal_plant_get_model_instance_by_name(p, "mi2", NULL)};
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
  teal_vec3 P = teal_vec3_make(0.4, -1.2, 0.7), vc;
  sv L_O, L_P, sum = teal_spatial_vector_zero();
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, teal_vec3_zero(), &L_O), 0);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, P, &L_P), TEAL_OK);
  /* shifting the about-point is the force shift */
  sv L_shift = teal_spatial_force_shift(L_O, P);
  double scale = 1 + ts_mb_max_abs(L_O.v, 6) + ts_mb_max_abs(L_P.v, 6);
  ck_assert_double_le(teal_spatial_vector_max_abs_diff(L_P, L_shift), 1e-14 * scale);
  /* linear momentum = total mass times the COM velocity */
  ck_assert_int_eq(teal_mb_total_mass(p, ws, NULL, 0, &m), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, NULL, 0, &vc), TEAL_OK);
  ck_assert_double_le(vec3_max_abs_diff(teal_spatial_vector_linear(L_P), teal_vec3_scale(vc, m)),
                      1e-14 * scale);
  /* momentum adds over disjoint selections */
  for (int i = 0; i < 3; i++) {
    sv Li;
    ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, &inst[i], 1, P, &Li), TEAL_OK);
    sum = teal_spatial_vector_add(sum, Li);
  }
  ck_assert_double_le(teal_spatial_vector_max_abs_diff(sum, L_P), 1e-14 * scale);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* x = [q; v] -> [N(q) v; ABA(q, v)] */
static void rhs(const teal_plant *p, teal_mb_data *ws, const double *x, double *xd) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], x + t->q_start[k], x + nq + t->v_start[k],
                    xd + t->q_start[k]);
  }
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, x, x + nq, NULL, xd + nq), TEAL_OK);
}

/* One classical RK4 step of size dt, quaternions normalized after it. */
static void rk4_step(const teal_plant *p, teal_mb_data *ws, double *x, double dt) {
  int n = teal_plant_nq(p) + teal_plant_nv(p);
  double k1[2 * MAXN], k2[2 * MAXN], k3[2 * MAXN], k4[2 * MAXN], xt[2 * MAXN];
  rhs(p, ws, x, k1);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k1[i];
  }
  rhs(p, ws, xt, k2);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + 0.5 * dt * k2[i];
  }
  rhs(p, ws, xt, k3);
  for (int i = 0; i < n; i++) {
    xt[i] = x[i] + dt * k3[i];
  }
  rhs(p, ws, xt, k4);
  for (int i = 0; i < n; i++) {
    x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  ck_assert_int_eq(teal_plant_normalize_q(p, x), TEAL_OK);
}

/* Two free subtrees without gravity: the spatial momentum about a fixed
 * point stays constant over 200 RK4 steps. */
START_TEST(test_momentum_conservation) {
  for (unsigned seed = 1; seed <= 2; seed++) {
    teal_plant *p = topo_plant(2, 900 + seed, 1);
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    teal_mb_data *dws = teal_mb_data_new(p, NULL);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    int nq = teal_plant_nq(p);
    unsigned s = 41 * seed;
    double x[2 * MAXN];
    ck_assert_int_eq(ts_mb_rand_state(p, &s, x, x + nq, 1.0), TEAL_OK);
    teal_vec3 P = teal_vec3_make(1.0, 0.5, -0.3);
    sv L0, L1;
    ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, x, x + nq, NULL, 0, P, &L0), TEAL_OK);
    for (int step = 0; step < 200; step++) {
      rk4_step(p, dws, x, 2e-3);
    }
    ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, x, x + nq, NULL, 0, P, &L1), TEAL_OK);
    double scale = 1 + ts_mb_max_abs(L0.v, 6), drift = teal_spatial_vector_max_abs_diff(L0, L1);
    ck_assert_msg(drift < 1e-9 * scale, "seed %u: momentum drift %g (scale %g)", seed, drift,
                  scale);
    teal_mb_data_free(dws);
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* Free fall: the linear momentum grows by m g t exactly (RK4 integrates a
 * constant rate exactly) and the angular momentum about the COM is
 * conserved. */
START_TEST(test_free_fall) {
  teal_plant *p = topo_plant(2, 77, 1);
  teal_vec3 g = teal_vec3_make(0.3, -0.5, -9.81);
  ck_assert_int_eq(teal_plant_set_gravity(p, g), TEAL_OK);
  teal_mb_data *dws = teal_mb_data_new(p, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  int nq = teal_plant_nq(p), steps = 150;
  unsigned s = 43;
  double x[2 * MAXN], m, dt = 2e-3;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, x, x + nq, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_total_mass(p, ws, NULL, 0, &m), TEAL_OK);
  teal_vec3 c0, c1;
  sv L0, L1;
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, x, NULL, 0, &c0), TEAL_OK);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, x, x + nq, NULL, 0, c0, &L0), TEAL_OK);
  for (int step = 0; step < steps; step++) {
    rk4_step(p, dws, x, dt);
  }
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, x, NULL, 0, &c1), TEAL_OK);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, x, x + nq, NULL, 0, c1, &L1), TEAL_OK);
  teal_vec3 dp = teal_vec3_sub(teal_spatial_vector_linear(L1), teal_spatial_vector_linear(L0));
  ck_assert_double_le(vec3_max_abs_diff(dp, teal_vec3_scale(g, m * dt * steps)),
                      1e-10 * (1 + ts_mb_max_abs(L0.v + 3, 3)));
  double drift =
      vec3_max_abs_diff(teal_spatial_vector_angular(L1), teal_spatial_vector_angular(L0));
  ck_assert_msg(drift < 1e-9 * (1 + ts_mb_max_abs(L0.v, 3)), "angular drift %g", drift);
  teal_mb_data_free(dws);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* ---- power ---------------------------------------------------------------------------- */

START_TEST(test_conservative_power) {
  teal_plant *p = topo_plant(_i, 150 + (unsigned)_i, 1);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(1.0, -2.0, -9.0)), TEAL_OK);
  teal_mb_data *dws = teal_mb_data_new(p, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p);
  unsigned s = 47;
  double q[MAXN], v[MAXN], qp[MAXN], qm[MAXN], tg[MAXN], pep, pem, pw, h = 1e-5;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
  ck_assert_int_eq(teal_mb_conservative_power(p, ws, q, v, &pw), TEAL_OK);
  ck_assert_int_eq(ts_mb_step_q(p, q, v, h, qp), TEAL_OK);
  ck_assert_int_eq(ts_mb_step_q(p, q, v, -h, qm), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, dws, qp, &pep), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, dws, qm, &pem), TEAL_OK);
  ck_assert_msg(fabs(pw + (pep - pem) / (2 * h)) < 1e-6 * (1 + fabs(pw)), "%g vs %g", pw,
                -(pep - pem) / (2 * h));
  /* = tau_g . v */
  ck_assert_int_eq(teal_mb_gravity_forces(p, dws, q, tg), TEAL_OK);
  double tv = 0.0;
  for (int i = 0; i < nv; i++) {
    tv += tg[i] * v[i];
  }
  ck_assert_double_eq_tol(pw, tv, 1e-11 * (1 + fabs(tv)));
  teal_mb_data_free(dws);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* Work-energy: along the ABA motion under tau + J' F (gravity on),
 * d(KE)/dt = conservative power + non-conservative power of (tau, F). */
START_TEST(test_work_energy_balance) {
  teal_plant *p = topo_plant(_i, 170 + (unsigned)_i, 1);
  teal_mb_data *dws = teal_mb_data_new(p, NULL);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  teal_mb_data *jws = teal_mb_data_new(p, NULL);
  int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  unsigned s = 53;
  double q[MAXN], v[MAXN], tau[MAXN], JtF[MAXN], tt[MAXN], vdot[MAXN], qs[MAXN], vs[MAXN];
  double ke[2], pc, pn, pt, pf, h = 1e-5;
  sv F[MAXB];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.5), TEAL_OK);
  ts_mb_rand_vec(&s, tau, nv, 3.0);
  for (int b = 0; b < nb; b++) {
    ts_mb_rand_vec(&s, F[b].v, 6, 2.0);
  }
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(p, jws, q, F, JtF), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    tt[i] = tau[i] + JtF[i];
  }
  ck_assert_int_eq(teal_mb_forward_dynamics(p, dws, q, v, tt, vdot), TEAL_OK);
  for (int side = 0; side < 2; side++) {
    double hh = side ? -h : h;
    ck_assert_int_eq(ts_mb_step_q(p, q, v, hh, qs), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      vs[i] = v[i] + hh * vdot[i];
    }
    ck_assert_int_eq(teal_mb_kinetic_energy(p, dws, qs, vs, &ke[side]), TEAL_OK);
  }
  ck_assert_int_eq(teal_mb_conservative_power(p, ws, q, v, &pc), TEAL_OK);
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, tau, F, &pn), TEAL_OK);
  double rate = (ke[0] - ke[1]) / (2 * h);
  ck_assert_msg(fabs(rate - pc - pn) < 1e-6 * (1 + fabs(rate)), "topo %d: dKE/dt %g vs %g", _i,
                rate, pc + pn);
  /* the two parts separately: tau . v and sum F . V */
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, tau, NULL, &pt), TEAL_OK);
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, NULL, F, &pf), TEAL_OK);
  double tv = 0.0, fv = 0.0;
  for (int i = 0; i < nv; i++) {
    tv += tau[i] * v[i];
    fv += JtF[i] * v[i];
  }
  ck_assert_double_eq_tol(pt, tv, 1e-12 * (1 + fabs(tv)));
  ck_assert_double_eq_tol(pf, fv, 1e-12 * (1 + fabs(fv)));
  ck_assert_double_eq_tol(pn, pt + pf, 1e-12 * (1 + fabs(pn)));
  teal_mb_data_free(dws);
  teal_mb_data_free(ws);
  teal_mb_data_free(jws);
  teal_plant_free(p);
}
END_TEST

/* ---- arguments and allocations -------------------------------------------------------------- */

START_TEST(test_argument_checks) {
  teal_plant *p = topo_plant(1, 3, 2), *other = topo_plant(0, 3, 1);
  teal_plant *raw = teal_plant_new(0.0, NULL);
  teal_error err;
  ck_assert_ptr_null(teal_mb_data_new(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_mb_data_new(raw, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  const teal_error *e = teal_mb_data_error(ws);
  int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  double q[MAXN], v[MAXN], J[3 * MAXN], x;
  teal_vec3 c, z = teal_vec3_zero();
  sv L, F[MAXB];
  unsigned s = 5;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  memset(F, 0, sizeof F);
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, NULL, q, NULL, 0, &c), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_center_of_mass_position(NULL, ws, q, NULL, 0, &c), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_center_of_mass_position(raw, ws, q, NULL, 0, &c), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_total_mass(raw, ws, NULL, 0, &x), TEAL_ESTATE);
  ck_assert_int_eq(teal_mb_center_of_mass_position(other, ws, q, NULL, 0, &c), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "another plant"));
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, NULL, NULL, 0, &c), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, NULL), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "p_WScm"));
  ck_assert_int_eq(teal_mb_total_mass(p, ws, NULL, 0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, NULL, NULL, 0, &c), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, NULL, 0, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, z, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_conservative_power(p, ws, q, v, NULL), TEAL_EINVAL);
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, NULL, NULL, NULL), TEAL_EINVAL);
  int neg = -1;
  ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, &neg, 1, J), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(e->message, "instances[0]"));
  /* non-finite inputs */
  teal_vec3 bad = teal_vec3_make(NAN, 0, 0);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, bad, &L), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "p_WoP_W"));
  F[nb - 1].v[1] = NAN;
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, NULL, F, &x), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "F_Bo_W"));
  v[nv - 1] = INFINITY;
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, v, NULL, &x), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, NULL, 0, &c), TEAL_ENONFINITE);
  ck_assert_int_eq(teal_mb_conservative_power(p, ws, q, v, &x), TEAL_ENONFINITE);
  q[1] = NAN;
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, &c), TEAL_ENONFINITE);
  ck_assert_ptr_nonnull(strstr(e->message, "q[1]"));
  ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, NULL, 0, J), TEAL_ENONFINITE);
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, NULL, 1.0), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, NULL, 0, J), TEAL_OK);
  ck_assert_int_eq(e->code, TEAL_OK);
  ck_assert_ptr_null(teal_mb_data_error(NULL));
  teal_mb_data_free(ws);
  teal_mb_data_free(NULL);
  teal_plant_free(p);
  teal_plant_free(other);
  teal_plant_free(raw);
}
END_TEST

START_TEST(test_no_allocations) {
  ts_alloc_install();
  teal_plant *p = topo_plant(1, 8, 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  int nb = teal_plant_num_bodies(p), inst = 1;
  double q[MAXN], v[MAXN], J[3 * MAXN], x;
  teal_vec3 c;
  sv L, F[MAXB];
  unsigned s = 9;
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 1.0), TEAL_OK);
  for (int b = 0; b < nb; b++) {
    ts_mb_rand_vec(&s, F[b].v, 6, 1.0);
  }
  unsigned long before = ts_alloc_allocs(), count_before = teal_alloc_count();
  ck_assert_int_eq(teal_mb_total_mass(p, ws, &inst, 1, &x), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, &c), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_velocity(p, ws, q, v, &inst, 1, &c), TEAL_OK);
  ck_assert_int_eq(teal_mb_center_of_mass_jacobian(p, ws, q, NULL, 0, J), TEAL_OK);
  ck_assert_int_eq(teal_mb_spatial_momentum(p, ws, q, v, NULL, 0, c, &L), TEAL_OK);
  ck_assert_int_eq(teal_mb_conservative_power(p, ws, q, v, &x), TEAL_OK);
  ck_assert_int_eq(teal_mb_nonconservative_power(p, ws, q, v, v, F, &x), TEAL_OK);
  q[0] = NAN; /* the error path does not allocate either */
  ck_assert_int_eq(teal_mb_center_of_mass_position(p, ws, q, NULL, 0, &c), TEAL_ENONFINITE);
  ck_assert_uint_eq(ts_alloc_allocs(), before);
  ck_assert_uint_eq(teal_alloc_count(), count_before);
  teal_mb_data_free(ws);
  teal_plant_free(p);
  ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  ts_alloc_uninstall();
}
END_TEST

/* Every allocation failure in the constructor gives TEAL_ENOMEM and leaks nothing. */
START_TEST(test_data_out_of_memory) {
  teal_plant *p = topo_plant(1, 4, 2);
  ts_alloc_install();
  for (long n = 0; n < 12; n++) {
    teal_error err;
    ts_alloc_reset();
    ts_alloc_fail_after(n, 0);
    teal_mb_data *ws = teal_mb_data_new(p, &err);
    if (ws) {
      ck_assert_uint_eq(ts_alloc_stats_get()->failures, 0);
      teal_mb_data_free(ws);
    } else {
      ck_assert_int_eq(err.code, TEAL_ENOMEM);
    }
    ck_assert_uint_eq(ts_alloc_allocs(), ts_alloc_frees());
  }
  ts_alloc_uninstall();
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("momentum");
  TCase *tc = tcase_create("momentum");
  tcase_set_timeout(tc, 60);
  int nt = ts_mb_num_topologies;
  tcase_add_test(tc, test_single_body);
  tcase_add_loop_test(tc, test_center_of_mass_selection, 0, nt);
  tcase_add_loop_test(tc, test_com_velocity_and_jacobian, 0, nt);
  tcase_add_loop_test(tc, test_momentum_properties, 0, nt);
  tcase_add_test(tc, test_momentum_conservation);
  tcase_add_test(tc, test_free_fall);
  tcase_add_loop_test(tc, test_conservative_power, 0, nt);
  tcase_add_loop_test(tc, test_work_energy_balance, 0, nt);
  tcase_add_test(tc, test_argument_checks);
  tcase_add_test(tc, test_no_allocations);
  tcase_add_test(tc, test_data_out_of_memory);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
