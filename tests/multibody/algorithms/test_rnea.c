/* multibody/algorithms/rnea: bias-term properties (zero at rest, quadratic
 * in v), kinetic energy as 0.5 v' M v and as a sum over bodies, gravity
 * forces as the rate of potential energy, M v against the CRBA matrix,
 * reaction forces against per-body Newton-Euler balance and closed forms,
 * and the simple pendulum in closed form. */
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

START_TEST(test_bias_term_properties) {
  teal_plant *p = ts_mb_dyn_make_tree(_i, 77 + (unsigned)_i);
  int nv = teal_plant_nv(p);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  unsigned s = 99;
  double q[MAXN], v[MAXN], sv[MAXN], zero[MAXN] = {0}, C1[MAXN], C2[MAXN], M[MAXN * MAXN], Mv[MAXN];
  ts_mb_dyn_rand_state(p, &s, q, v);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, zero, C1), TEAL_OK);
  ck_assert_double_eq(ts_mb_max_abs(C1, nv), 0.0);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, v, C1), TEAL_OK);
  ck_assert_double_gt(ts_mb_max_abs(C1, nv), 1e-3);
  double sc = -2.7;
  for (int i = 0; i < nv; i++) {
    sv[i] = sc * v[i];
  }
  ck_assert_int_eq(teal_mb_bias_term(p, ws, q, sv, C2), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq_tol(C2[i], sc * sc * C1[i], 1e-11 * sc * sc * ts_mb_max_abs(C1, nv));
  }
  /* kinetic energy = 0.5 v' M v */
  double ke;
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, q, v, &ke), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
  ck_assert_int_eq(teal_dense_gemm(0, 0, nv, 1, nv, 1.0, M, v, 0.0, Mv, NULL), TEAL_OK);
  double vMv = 0.0;
  for (int i = 0; i < nv; i++) {
    vMv += v[i] * Mv[i];
  }
  ck_assert_double_eq_tol(ke, 0.5 * vMv, 1e-12 * ke);
  /* and = sum over bodies of 0.5 V_WB . (M V_WB) from forward kinematics */
  const teal_plant_tree *t = teal_plant_get_tree(p);
  teal_transform X[32];
  teal_spatial_vector V[32];
  double ke_ref = 0.0;
  ck_assert_int_eq(teal_mb_body_velocities(p, q, v, X, V), TEAL_OK);
  for (int k = 1; k < t->num_nodes; k++) {
    int b = teal_plant_node_body(p, k);
    teal_spatial_inertia Mw = teal_spatial_inertia_reexpress(&t->M_BBo_B[k], X[b].R);
    ke_ref += teal_spatial_inertia_kinetic_energy(&Mw, V[b]);
  }
  ck_assert_double_eq_tol(ke, ke_ref, 1e-12 * ke);
  /* skew property: v' (Mdot v - 2 C v) = 0 means dKE/dt = v' tau when passive
   * (checked below); here tau_g . v = -d/dt PE along q + h N v */
  double tg[MAXN], qp[MAXN], qm[MAXN], pep, pem, h = 1e-5;
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, q, tg), TEAL_OK);
  ts_mb_dyn_step_q(p, q, v, h, qp);
  ts_mb_dyn_step_q(p, q, v, -h, qm);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, qp, &pep), TEAL_OK);
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, qm, &pem), TEAL_OK);
  double pw = 0.0;
  for (int i = 0; i < nv; i++) {
    pw += tg[i] * v[i];
  }
  ck_assert_double_eq_tol(pw, -(pep - pem) / (2 * h), 1e-6 * (1 + fabs(pw)));
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_mass_matrix_times) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 60 * seed + (unsigned)_i);
    int nv = teal_plant_nv(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 19 * seed;
    double q[MAXN], v[MAXN], Mv[MAXN], ref[MAXN], M[MAXN * MAXN];
    ts_mb_dyn_rand_state(p, &s, q, v);
    ck_assert_int_eq(teal_mb_mass_matrix(p, ws, q, M), TEAL_OK);
    ck_assert_int_eq(teal_dense_gemm(0, 0, nv, 1, nv, 1.0, M, v, 0.0, ref, NULL), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix_times(p, ws, q, v, Mv), TEAL_OK);
    ck_assert_msg(ts_mb_max_abs_diff(Mv, ref, nv) <= 1e-12 * ts_mb_max_abs(ref, nv), "topo %d: %g",
                  _i, ts_mb_max_abs_diff(Mv, ref, nv));
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* The node of joint j's child body. */
static int joint_node(const teal_plant *p, int j) {
  return teal_plant_body_node(p, teal_plant_joint_child_body(p, j));
}

/* F_CJc_Jc of joint j re-expressed in W and shifted to the point at p_WQ. */
static teal_spatial_vector reaction_at(const teal_plant *p, const teal_transform *X_WB, int j,
                                       teal_spatial_vector F_CJc_Jc, teal_vec3 p_WQ) {
  const teal_plant_tree *t = teal_plant_get_tree(p);
  int k = joint_node(p, j);
  teal_transform X_WM = teal_transform_compose(X_WB[teal_plant_node_body(p, k)], t->X_BM[k]);
  teal_spatial_vector F_W = teal_spatial_vector_reexpress(X_WM.R, F_CJc_Jc);
  return teal_spatial_force_shift(F_W, teal_vec3_sub(p_WQ, X_WM.p));
}

/* Newton-Euler about the body origin Bo (classical): the rate of spatial
 * momentum [I alpha + w x I w + m c x a; m (a + alpha x c + w x (w x c))]. */
static teal_spatial_vector momentum_rate(const teal_spatial_inertia *M_BBo_B, teal_transform X_WB,
                                         teal_spatial_vector V, teal_spatial_vector A) {
  teal_spatial_inertia Mw = teal_spatial_inertia_reexpress(M_BBo_B, X_WB.R);
  teal_vec3 w = teal_spatial_vector_angular(V), al = teal_spatial_vector_angular(A);
  teal_vec3 a = teal_spatial_vector_linear(A), c = Mw.p_PScm_E;
  double m = Mw.mass;
  teal_vec3 n = teal_vec3_add(teal_mat3_apply(Mw.I_SP_E, al),
                              teal_vec3_cross(w, teal_mat3_apply(Mw.I_SP_E, w)));
  n = teal_vec3_add(n, teal_vec3_scale(teal_vec3_cross(c, a), m));
  teal_vec3 f = teal_vec3_add(a, teal_vec3_cross(al, c));
  f = teal_vec3_add(f, teal_vec3_cross(w, teal_vec3_cross(w, c)));
  return teal_spatial_vector_make(n, teal_vec3_scale(f, m));
}

/* Per body: own joint's reaction - children's reactions + gravity + applied
 * force = rate of momentum; per joint: H' (R_FM F) = tau of its velocities. */
START_TEST(test_reaction_force_balance) {
  for (unsigned seed = 1; seed <= 3; seed++) {
    teal_plant *p = ts_mb_dyn_make_tree(_i, 90 * seed + (unsigned)_i);
    const teal_plant_tree *t = teal_plant_get_tree(p);
    int nv = teal_plant_nv(p), nb = teal_plant_num_bodies(p), nj = teal_plant_num_joints(p);
    teal_mb_data *ws = teal_mb_data_new(p, NULL);
    unsigned s = 31 * seed;
    double q[MAXN], v[MAXN], tau[MAXN], vd[MAXN];
    teal_spatial_vector F[32], R[32], V[32], A[32], bal[32];
    teal_transform X[32];
    ts_mb_dyn_rand_state(p, &s, q, v);
    ts_mb_rand_vec(&s, tau, nv, 2.0);
    ts_mb_dyn_rand_forces(&s, nb, F);
    ck_assert_int_eq(teal_mb_forward_dynamics_ex(p, ws, q, v, tau, F, vd), TEAL_OK);
    ck_assert_int_eq(teal_mb_reaction_forces(p, ws, q, v, vd, F, R), TEAL_OK);
    ck_assert_int_eq(teal_mb_body_accelerations(p, q, v, vd, X, V, A), TEAL_OK);
    teal_vec3 g = teal_plant_gravity(p);
    for (int b = 1; b < nb; b++) {
      const teal_spatial_inertia *M = &t->M_BBo_B[teal_plant_body_node(p, b)];
      teal_vec3 c = teal_rotation_apply(X[b].R, M->p_PScm_E), mg = teal_vec3_scale(g, M->mass);
      bal[b] = teal_spatial_vector_add(F[b], teal_spatial_vector_make(teal_vec3_cross(c, mg), mg));
    }
    for (int j = 0; j < nj; j++) {
      int child = teal_plant_joint_child_body(p, j), parent = teal_plant_joint_parent_body(p, j);
      bal[child] = teal_spatial_vector_add(bal[child], reaction_at(p, X, j, R[j], X[child].p));
      if (parent > 0) {
        bal[parent] = teal_spatial_vector_sub(bal[parent], reaction_at(p, X, j, R[j], X[parent].p));
      }
    }
    for (int b = 1; b < nb; b++) {
      teal_spatial_vector rate =
          momentum_rate(&t->M_BBo_B[teal_plant_body_node(p, b)], X[b], V[b], A[b]);
      ck_assert_msg(
          teal_spatial_vector_max_abs_diff(bal[b], rate) < 1e-9 * (1 + ts_mb_max_abs(rate.v, 6)),
          "topo %d body %d: %g", _i, b, teal_spatial_vector_max_abs_diff(bal[b], rate));
    }
    for (int j = 0; j < nj; j++) {
      int k = joint_node(p, j), n = t->nv[k], v0 = t->v_start[k];
      double H[36];
      teal_transform X_FM = t->type[k]->X_FM(&t->params[k], q + t->q_start[k]);
      teal_spatial_vector F_F = teal_spatial_vector_reexpress(X_FM.R, R[j]);
      t->type[k]->H_FM(&t->params[k], q + t->q_start[k], H);
      for (int c = 0; c < n; c++) {
        double proj = 0.0;
        for (int r = 0; r < 6; r++) {
          proj += H[r * n + c] * F_F.v[r];
        }
        ck_assert_double_eq_tol(proj, tau[v0 + c], 1e-9 * (1 + ts_mb_max_abs(tau, nv)));
      }
    }
    teal_mb_data_free(ws);
    teal_plant_free(p);
  }
}
END_TEST

/* A pendulum hanging at rest carries its weight: F_CJc_Jc = R_MW [0; m g]
 * (upward, expressed in the child frame M, which is rotated against the
 * body), with no moment about the hinge; a welded body carries its weight
 * and the moment of its offset center of mass. */
START_TEST(test_reaction_forces_at_rest) {
  double m = 1.3, l = 0.6, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -l),
                                                             teal_mat3_diag(0.02, 0.03, 0.01));
  teal_spatial_inertia Mw = teal_spatial_inertia_from_central(2.0, teal_vec3_make(0.2, 0, 0),
                                                              teal_mat3_diag(0.1, 0.1, 0.1));
  int b = teal_plant_add_rigid_body(p, "bob", 1, &M);
  int w = teal_plant_add_rigid_body(p, "welded", 1, &Mw);
  teal_transform X_BM = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.3, -0.2, 0.5)),
                                            teal_vec3_zero());
  int F = teal_plant_add_frame(p, "F", TEAL_WORLD_FRAME, X_BM); /* at q = 0, X_WB = I */
  int Mf = teal_plant_add_frame(p, "M", teal_plant_body_frame(p, b), X_BM);
  int Fw =
      teal_plant_add_frame(p, "Fw", TEAL_WORLD_FRAME,
                           teal_transform_make(teal_rotation_identity(), teal_vec3_make(1, 0, 0)));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int jp = teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, F, Mf, &y, 0);
  int jw =
      teal_plant_add_joint(p, "weld", TEAL_JOINT_WELD, Fw, teal_plant_body_frame(p, w), NULL, 0);
  ck_assert_int_ge(jp, 0);
  ck_assert_int_ge(jw, 0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_num_joints(p), 2);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double q = 0.0, v = 0.0, vd;
  teal_spatial_vector R[2];
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &vd), TEAL_OK);
  ck_assert_double_eq_tol(vd, 0.0, 1e-12);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, &q, &v, &vd, NULL, R), TEAL_OK);
  teal_vec3 up_M = teal_rotation_apply_inverse(X_BM.R, teal_vec3_make(0, 0, m * g));
  teal_spatial_vector expect = teal_spatial_vector_make(teal_vec3_zero(), up_M);
  ck_assert_msg(teal_spatial_vector_max_abs_diff(R[jp], expect) < 1e-12, "pin");
  /* weld: F = [-(c x m g); -m g] with c = (0.2, 0, 0), m = 2 */
  expect =
      teal_spatial_vector_make(teal_vec3_make(0, -0.2 * 2.0 * g, 0), teal_vec3_make(0, 0, 2.0 * g));
  ck_assert_msg(teal_spatial_vector_max_abs_diff(R[jw], expect) < 1e-12, "weld");
  /* swinging through the bottom about the tilted axis a = R_WF y: the hinge
   * also carries the centripetal force -m w^2 c_perp (c_perp the offset of
   * the center of mass from the axis) */
  v = 1.7;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &q, &v, NULL, &vd), TEAL_OK);
  ck_assert_double_eq_tol(vd, 0.0, 1e-12);
  ck_assert_int_eq(teal_mb_reaction_forces(p, ws, &q, &v, &vd, NULL, R), TEAL_OK);
  teal_vec3 f_W = teal_rotation_apply(X_BM.R, teal_spatial_vector_linear(R[jp]));
  teal_vec3 a = teal_rotation_apply(X_BM.R, y), c = teal_vec3_make(0, 0, -l);
  teal_vec3 c_perp = teal_vec3_sub(c, teal_vec3_scale(a, teal_vec3_dot(a, c)));
  teal_vec3 f_ref = teal_vec3_add(teal_vec3_scale(c_perp, -m * v * v), teal_vec3_make(0, 0, m * g));
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(f_W.v[i], f_ref.v[i], 1e-11);
  }
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

START_TEST(test_simple_pendulum) {
  double m = 1.7, l = 0.8, g = 9.81;
  teal_plant *p = teal_plant_new(0.0, NULL);
  /* a point mass at (0, 0, -l) in the body frame, which sits at the hinge */
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(m, teal_vec3_make(0, 0, -l), teal_mat3_zero());
  int b = teal_plant_add_rigid_body(p, "bob", 1, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  ck_assert_int_ge(
      teal_plant_add_joint(p, "pin", TEAL_JOINT_REVOLUTE, 0, teal_plant_body_frame(p, b), &y, 0),
      0);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_mb_data *ws = teal_mb_data_new(p, NULL);
  double th = 0.7, thd = -1.3, acc, tau, M11, tg, Cv;
  ck_assert_int_eq(teal_mb_forward_dynamics(p, ws, &th, &thd, NULL, &acc), TEAL_OK);
  ck_assert_double_eq_tol(acc, -g / l * sin(th), 1e-12);
  ck_assert_int_eq(teal_mb_mass_matrix(p, ws, &th, &M11), TEAL_OK);
  ck_assert_double_eq_tol(M11, m * l * l, 1e-13);
  ck_assert_int_eq(teal_mb_gravity_forces(p, ws, &th, &tg), TEAL_OK);
  ck_assert_double_eq_tol(tg, -m * g * l * sin(th), 1e-12);
  ck_assert_int_eq(teal_mb_bias_term(p, ws, &th, &thd, &Cv), TEAL_OK);
  ck_assert_double_eq_tol(Cv, 0.0, 1e-13);
  double a = 0.4;
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, ws, &th, &thd, &a, NULL, &tau), TEAL_OK);
  ck_assert_double_eq_tol(tau, m * l * l * a + m * g * l * sin(th), 1e-12);
  double pe, ke;
  ck_assert_int_eq(teal_mb_potential_energy(p, ws, &th, &pe), TEAL_OK);
  ck_assert_double_eq_tol(pe, -m * g * l * cos(th), 1e-12);
  ck_assert_int_eq(teal_mb_kinetic_energy(p, ws, &th, &thd, &ke), TEAL_OK);
  ck_assert_double_eq_tol(ke, 0.5 * m * l * l * thd * thd, 1e-12);
  teal_mb_data_free(ws);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("rnea");
  TCase *tc = tcase_create("rnea");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_bias_term_properties, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_loop_test(tc, test_mass_matrix_times, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_loop_test(tc, test_reaction_force_balance, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_test(tc, test_reaction_forces_at_rest);
  tcase_add_test(tc, test_simple_pendulum);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
