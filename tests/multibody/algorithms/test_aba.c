/* multibody/algorithms/aba: forward dynamics against inverse dynamics and
 * against M vdot + C v - tau_g, energy and spatial-momentum conservation
 * along the ABA motion, RK4 energy conservation, the articulated
 * factorization and M^-1 solves (against the CRBA matrix and a dense solve,
 * valid exactly while data stays at its q), applied spatial forces
 * against J' F, and a singular articulated inertia. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/kinematics.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/tree/topology.h"
#include "solvers/dense.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"

#define MAXN TS_MB_DYN_MAXN

START_TEST(test_aba_inverts_rnea) {
  for (unsigned seed = 1; seed <= 4; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 31 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 11 * seed + 5;
    double q[MAXN], v[MAXN], vdot[MAXN], tau[MAXN], tau_app[MAXN], vdot2[MAXN], tsum[MAXN];
    ts_mb_dyn_rand_state(p, &s, q, v);
    ts_mb_rand_vec(&s, vdot, nv, 2.0);
    ts_mb_rand_vec(&s, tau_app, nv, 3.0);
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vdot, NULL, tau), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vdot2), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(vdot, vdot2, nv) <= 1e-10 * ts_mb_max_abs(vdot, nv),
                  "topo %d: %g", _i, ts_mb_max_abs_diff(vdot, vdot2, nv));
    /* with applied forces: ABA(tau + tau_app) = vdot */
    ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vdot, tau_app, tau), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      tsum[i] = tau[i] + tau_app[i];
    }
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tsum, vdot2), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(vdot, vdot2, nv) <= 1e-10 * ts_mb_max_abs(vdot, nv),
                  "topo %d app", _i);
    /* ID = M vdot + C v - tau_g - tau_app, assembled from the parts */
    double M[MAXN * MAXN], Cv[MAXN], tg[MAXN], Mv[MAXN];
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, Cv), TEAL_OK);
    ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
    ck_assert_int_eq(teal_dense_gemm(0, 0, nv, 1, nv, 1.0, M, vdot, 0.0, Mv, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      ck_assert_double_eq_tol(tau[i], Mv[i] + Cv[i] - tg[i] - tau_app[i],
                              1e-10 * ts_mb_max_abs(tau, nv));
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* Passive motion under ABA conserves KE + PE: the central difference of E
 * along (q, v) + h (N v, vdot) vanishes to O(h^2). This checks every
 * velocity-dependent term (Hdot v, Coriolis, gyroscopic) of ABA. */
START_TEST(test_energy_rate_zero) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 500 + 13 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 3 * seed + 17;
    double q[MAXN], v[MAXN], vdot[MAXN], qs[MAXN], vs[MAXN], E[2], h = 1e-5;
    ts_mb_dyn_rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vdot), TEAL_OK);
    double ke0;
    ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &ke0), TEAL_OK);
    for (int side = 0; side < 2; side++) {
      double hh = side ? -h : h, ke, pe;
      ts_mb_dyn_step_q(p, q, v, hh, qs);
      for (int i = 0; i < nv; i++) {
        vs[i] = v[i] + hh * vdot[i];
      }
      ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, qs, vs, &ke), TEAL_OK);
      ck_assert_int_eq(teal_mb_potential_energy(p, ws, qs, &pe), TEAL_OK);
      E[side] = ke + pe;
    }
    double rate = (E[0] - E[1]) / (2 * h);
    ck_assert_msg(fabs(rate) < 1e-5 * (1 + ke0), "topo %d seed %u: dE/dt = %g", _i, seed, rate);
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* A free system (two floating subtrees, no gravity) conserves its spatial
 * momentum about the world origin: the central difference along the ABA
 * motion vanishes. Energy is blind to the gyroscopic torque w x I w (it does
 * no work); momentum is not. */
static teal_spatial_vector total_momentum(const teal_plant *p, const double *q, const double *v) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_transform X[32];
  teal_spatial_vector V[32], h = teal_spatial_vector_zero();
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(p, k);
    teal_spatial_inertia M = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X[b].R);
    teal_spatial_vector hb = teal_spatial_inertia_apply(&M, V[b]);
    h = teal_spatial_vector_add(h, teal_spatial_force_shift(hb, teal_vec3_neg(X[b].p)));
  }
  return h;
}

START_TEST(test_momentum_conservation) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_FLOAT, 900 + seed);
    ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_zero()), TEAL_OK);
    int nv = teal_plant_nv(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 5 * seed + 2;
    double q[MAXN], v[MAXN], vdot[MAXN], qs[MAXN], vs[MAXN], h = 1e-5;
    ts_mb_dyn_rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vdot), TEAL_OK);
    teal_spatial_vector hs[2];
    for (int side = 0; side < 2; side++) {
      double hh = side ? -h : h;
      ts_mb_dyn_step_q(p, q, v, hh, qs);
      for (int i = 0; i < nv; i++) {
        vs[i] = v[i] + hh * vdot[i];
      }
      hs[side] = total_momentum(p, qs, vs);
    }
    teal_spatial_vector h0 = total_momentum(p, q, v);
    double rate = teal_spatial_vector_max_abs_diff(hs[0], hs[1]) / (2 * h);
    double scale = teal_spatial_vector_max_abs_diff(h0, teal_spatial_vector_zero());
    ck_assert_msg(rate < 1e-5 * (1 + scale), "seed %u: dh/dt = %g", seed, rate);
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* J' F as the power of F with the body velocities at v = e_i: column i of J
 * is V_WB(e_i), exactly, since V_WB is linear in v. */
static void jacobian_transpose_times(const teal_plant *p, const double *q,
                                     const teal_spatial_vector *F, double *tau) {
  int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
  double e[MAXN] = {0};
  teal_transform X[32];
  teal_spatial_vector V[32];
  for (int i = 0; i < nv; i++) {
    e[i] = 1.0;
    ck_assert_int_eq(teal_mb_body_velocities(p, q, e, X, V), TEAL_OK);
    e[i] = 0.0;
    tau[i] = 0.0;
    for (int b = 1; b < nb; b++) {
      tau[i] += teal_spatial_vector_dot(F[b], V[b]);
    }
  }
}

START_TEST(test_articulated_solve) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 70 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 23 * seed;
    double q[MAXN], v[MAXN], x[MAXN], Mv[MAXN], M[MAXN * MAXN], X[MAXN * MAXN], MX[MAXN * MAXN];
    ts_mb_dyn_rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
    /* M^-1 (M v) = v, solved in place */
    ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, Mv), TEAL_OK);
    memcpy(x, Mv, sizeof(double) * (size_t)nv);
    ck_assert_int_eq(teal_mb_articulated_solve(p, ws, x, NULL, x), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(x, v, nv) <= 1e-10 * ts_mb_max_abs(v, nv), "topo %d: %g", _i,
                  ts_mb_max_abs_diff(x, v, nv));
    /* M [M^-1 e_1 ... M^-1 e_n] = I with the CRBA matrix */
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    for (int j = 0; j < nv; j++) {
      double e[MAXN] = {0}, col[MAXN];
      e[j] = 1.0;
      ck_assert_int_eq(teal_mb_articulated_solve(p, ws, e, NULL, col), TEAL_OK);
      for (int i = 0; i < nv; i++) {
        X[i * nv + j] = col[i];
      }
    }
    ck_assert_int_eq(teal_dense_gemm(0, 0, nv, nv, nv, 1.0, M, X, 0.0, MX, NULL), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      for (int j = 0; j < nv; j++) {
        ck_assert_msg(fabs(MX[i * nv + j] - (i == j)) < 1e-10, "topo %d M M^-1 %d %d", _i, i, j);
      }
    }
    /* with forces: M^-1 (rhs + J' F) against a dense solve */
    teal_spatial_vector F[32];
    double rhs[MAXN], JtF[MAXN], ref[MAXN], L[MAXN * MAXN];
    ts_mb_dyn_rand_forces(&s, nb, F);
    ts_mb_rand_vec(&s, rhs, nv, 2.0);
    jacobian_transpose_times(p, q, F, JtF);
    for (int i = 0; i < nv; i++) {
      ref[i] = rhs[i] + JtF[i];
    }
    memcpy(L, M, sizeof(double) * (size_t)(nv * nv));
    ck_assert_int_eq(teal_dense_solve(L, nv, ref, 1, NULL), TEAL_OK);
    ck_assert_int_eq(teal_mb_articulated_solve(p, ws, rhs, F, x), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(x, ref, nv) <= 1e-10 * ts_mb_max_abs(ref, nv), "topo %d F: %g",
                  _i, ts_mb_max_abs_diff(x, ref, nv));
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* The factorization is valid exactly while data stays at its q. */
START_TEST(test_factorization_validity) {
  teal_plant *p = ts_mb_dyn_make_tree(TS_MB_DYN_TREE, 41);
  int nv = teal_plant_nv(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 3;
  double q[MAXN], q2[MAXN], v[MAXN], x[MAXN], x2[MAXN], vd[MAXN], tau[MAXN], M[MAXN * MAXN];
  ts_mb_dyn_rand_state(p, &s, q, v);
  ts_mb_dyn_rand_state(p, &s, q2, NULL);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x), TEAL_ESTATE); /* none yet */
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, NULL, vd), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x), TEAL_OK); /* FD's factor */
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);             /* same q */
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, q, v, vd, NULL, tau), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs_diff(x, x2, nv), 0.0);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q2, tau), TEAL_OK); /* another q */
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_ESTATE);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "factor"));
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs_diff(x, x2, nv), 0.0);
  /* the same array changed in place is a new q */
  memcpy(q2, q, sizeof q);
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, q2), TEAL_OK);
  q2[0] += 1e-3;
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q2, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, v, NULL, x2), TEAL_ESTATE);
  /* linearity: vdot(tau2) = vdot(tau1) + M^-1 (tau2 - tau1) */
  double tau1[MAXN], tau2[MAXN], d[MAXN], vd1[MAXN], vd2[MAXN];
  ts_mb_rand_vec(&s, tau1, nv, 2.0);
  ts_mb_rand_vec(&s, tau2, nv, 2.0);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau2, vd2), TEAL_OK);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau1, vd1), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    d[i] = tau2[i] - tau1[i];
  }
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, d, NULL, x), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    x[i] += vd1[i];
  }
  ck_assert_msg(ts_mb_max_abs_diff(x, vd2, nv) <= 1e-10 * ts_mb_max_abs(vd2, nv), "%g",
                ts_mb_max_abs_diff(x, vd2, nv));
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_applied_spatial_forces) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 80 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 29 * seed;
    double q[MAXN], v[MAXN], tau[MAXN], tsum[MAXN], JtF[MAXN], vd1[MAXN], vd2[MAXN];
    double tau_app[MAXN], tid[MAXN];
    teal_spatial_vector F[32];
    ts_mb_dyn_rand_state(p, &s, q, v);
    ts_mb_rand_vec(&s, tau, nv, 2.0);
    ts_mb_rand_vec(&s, tau_app, nv, 2.0);
    ts_mb_dyn_rand_forces(&s, nb, F);
    F[0].v[2] = 1e3; /* on the world: ignored */
    jacobian_transpose_times(p, q, F, JtF);
    for (int i = 0; i < nv; i++) {
      tsum[i] = tau[i] + JtF[i];
    }
    /* FD with F equals FD with tau + J' F */
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, F, vd1), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tsum, vd2), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(vd1, vd2, nv) <= 1e-10 * ts_mb_max_abs(vd2, nv), "topo %d: %g",
                  _i, ts_mb_max_abs_diff(vd1, vd2, nv));
    /* ID_ex(FD_ex) recovers tau, with and without tau_applied */
    ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, vd1, NULL, F, tid), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(tid, tau, nv) <= 1e-10 * (1 + ts_mb_max_abs(tsum, nv)),
                  "topo %d ID", _i);
    ck_assert_int_eq(teal_mb_inverse_dynamics_ex(p, ws, q, v, vd1, tau_app, F, tid), TEAL_OK);
    for (int i = 0; i < nv; i++) {
      ck_assert_double_eq_tol(tid[i], tau[i] - tau_app[i], 1e-10 * (1 + ts_mb_max_abs(tsum, nv)));
    }
    /* without F the _ex functions match the plain ones */
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, NULL, vd1), TEAL_OK);
    ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, q, v, tau, vd2), TEAL_OK);
    ck_assert_double_eq(ts_mb_max_abs_diff(vd1, vd2, nv), 0.0);
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* A point mass on its own revolute axis has no articulated inertia. */
START_TEST(test_singular_articulated_inertia) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_point_mass(1.0, teal_vec3_zero());
  int b = teal_plant_add_rigid_body(p, "point", 1, &M);
  teal_vec3 z = teal_vec3_make(0, 0, 1);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "spin", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b), &z, 0),
      0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q = 0.3, v = 1.0, x;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &x), TEAL_ESINGULAR);
  ck_assert_ptr_nonnull(strstr(teal_mb_data_error(ws)->message, "spin"));
  ck_assert_int_eq(teal_mb_articulated_factor(p, ws, &q), TEAL_ESINGULAR);
  ck_assert_int_eq(teal_mb_articulated_solve(p, ws, &v, NULL, &x), TEAL_ESTATE);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

/* A passive 3-link pendulum (hinges along different axes) integrated with
 * RK4 on ABA for 2 s at dt = 1e-3 keeps its total energy. */
static void rhs(const teal_plant *p, teal_mb_data *ws, const double *x, double *xd) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int nq = teal_plant_nq(p);
  for (int k = 1; k < t->num_nodes; k++) {
    teal_joint_qdot(t->type[k], &t->params[k], x + t->q_start[k], x + nq + t->v_start[k],
                    xd + t->q_start[k]);
  }
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, x, x + nq, NULL, xd + nq), TEAL_OK);
}

START_TEST(test_rk4_energy_conservation) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_vec3 axes[3] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0.3),
                       teal_vec3_make(0.2, 1, 0)};
  int prev_frame = 0;
  for (int i = 0; i < 3; i++) {
    char name[8] = {'l', (char)('0' + i), 0}, jn[8] = {'j', (char)('0' + i), 0},
         tn[8] = {'t', (char)('0' + i), 0};
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.0 - 0.2 * i, teal_vec3_make(0.05, 0, -0.5), teal_mat3_diag(0.03, 0.028, 0.004));
    int b = teal_plant_add_rigid_body(p, name, 1, &M);
    ck_assert_int_ge(teal_plant_add_joint(p, jn, TEAL_JOINT_REVOLUTE, prev_frame,
                                          teal_plant_body_frame(p, b), &axes[i], 0),
                     0);
    prev_frame = teal_plant_add_frame(
        p, tn, teal_plant_body_frame(p, b),
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -1.0)));
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double x[6] = {1.2, -0.5, 0.8, 0.3, 1.0, -0.7}, k1[6], k2[6], k3[6], k4[6], xt[6], dt = 1e-3;
  double ke, pe;
  teal_mb_kinetic_energy(p, ws, x, x + 3, &ke);
  teal_mb_potential_energy(p, ws, x, &pe);
  double E0 = ke + pe, scale = fabs(ke) + fabs(pe);
  for (int step = 0; step < 2000; step++) {
    rhs(p, ws, x, k1);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + 0.5 * dt * k1[i];
    rhs(p, ws, xt, k2);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + 0.5 * dt * k2[i];
    rhs(p, ws, xt, k3);
    for (int i = 0; i < 6; i++) xt[i] = x[i] + dt * k3[i];
    rhs(p, ws, xt, k4);
    for (int i = 0; i < 6; i++) x[i] += dt / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  teal_mb_kinetic_energy(p, ws, x, x + 3, &ke);
  teal_mb_potential_energy(p, ws, x, &pe);
  ck_assert_double_gt(ke, 0.1); /* it moved */
  ck_assert_msg(fabs(ke + pe - E0) < 1e-8 * scale, "energy drift %g (scale %g)", ke + pe - E0,
                scale);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("aba");
  TCase *tc = tcase_create("aba");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_aba_inverts_rnea, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_loop_test(tc, test_energy_rate_zero, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_momentum_conservation);
  tcase_add_loop_test(tc, test_articulated_solve, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_factorization_validity);
  tcase_add_loop_test(tc, test_applied_spatial_forces, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_singular_articulated_inertia);
  tcase_add_test(tc, test_rk4_energy_conservation);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
