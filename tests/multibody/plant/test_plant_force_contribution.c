/* teal_plant_calc_force_elements_contribution
 * (multibody/plant/plant_force_contribution.h) on a free body and a
 * three-joint chain with damping, actuators, a spring-damper and a revolute
 * spring: the gravity part against the generalized gravity forces of RNEA
 * and against sum_B J_Bcm^T m_B g (translational Jacobians at the centers
 * of mass), the damping part against -D v, the sum against the plant's own
 * forward dynamics (M vdot + C v = J^T F + tau + B u), and bad arguments. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "multibody/algorithms/data.h"
#include "multibody/algorithms/jacobians.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/forces/force_elements.h"
#include "multibody/plant/plant_force_contribution.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/test_support.h"

#define NB 5
#define NQ 10
#define NV 9

typedef struct model {
  teal_plant *p;
  teal_context *ctx;
  teal_mb_data *data;
  int free_body;
  double q[NQ], v[NV];
} model;

static const double damping[3] = {0.3, 0.5, 0.7};

/* A free body and a chain (revolute y, prismatic x, revolute z) hanging
 * from the world; with_extras adds damping and the two force elements. */
static teal_plant *make_plant(int with_extras) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(1.3, teal_vec3_make(0.1, -0.05, -0.3),
                                                             teal_mat3_diag(0.02, 0.03, 0.04));
  int fb = teal_plant_add_rigid_body(p, "free", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  int prev = TEAL_WORLD_FRAME, first_joint = -1;
  static const char *const names[3] = {"l1", "l2", "l3"}, *const tips[3] = {"t1", "t2", "t3"};
  static const teal_joint_kind kinds[3] = {TEAL_JOINT_REVOLUTE, TEAL_JOINT_PRISMATIC,
                                           TEAL_JOINT_REVOLUTE};
  teal_vec3 axes[3] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0), teal_vec3_make(0, 0, 1)};
  for (int i = 0; i < 3; i++) {
    int b = teal_plant_add_rigid_body(p, names[i], TEAL_DEFAULT_MODEL_INSTANCE, &M);
    int j = teal_plant_add_joint(p, names[i], kinds[i], prev, teal_plant_body_frame(p, b), &axes[i],
                                 0.0);
    ck_assert_int_ge(j, 0);
    first_joint = i == 0 ? j : first_joint;
    ck_assert_int_ge(teal_plant_add_joint_actuator(p, names[i], j, INFINITY), 0);
    if (with_extras) {
      ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &damping[i]), TEAL_OK);
    }
    prev = teal_plant_add_frame(
        p, tips[i], teal_plant_body_frame(p, b),
        teal_transform_make(teal_rotation_identity(), teal_vec3_make(0.1, 0.0, -0.5)));
  }
  if (with_extras) {
    ck_assert_int_ge(teal_plant_add_linear_spring_damper(p, fb, teal_vec3_make(0, 0.1, 0), 4,
                                                         teal_vec3_make(0.2, 0, 0), 0.5, 30, 1.5),
                     0);
    ck_assert_int_ge(teal_plant_add_revolute_spring(p, first_joint, 0.2, 12.0), 0);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_num_bodies(p), NB);
  ck_assert_int_eq(teal_plant_nq(p), NQ);
  ck_assert_int_eq(teal_plant_nv(p), NV);
  return p;
}

/* The model at a random state with gravity g in the context (and in data). */
static model make_model(int with_extras, unsigned seed, teal_vec3 g) {
  model m;
  m.p = make_plant(with_extras);
  m.free_body = 1;
  m.ctx = teal_context_new(teal_plant_system(m.p), NULL);
  m.data = teal_mb_data_new(m.p, NULL);
  ck_assert_ptr_nonnull(m.ctx);
  ck_assert_ptr_nonnull(m.data);
  double x[NQ + NV];
  for (int i = 0; i < NQ + NV; i++) {
    x[i] = ts_rand_uniform(&seed, -1.0, 1.0);
  }
  ck_assert_int_eq(teal_plant_set_state(m.p, m.ctx, x, NQ + NV), TEAL_OK);
  teal_transform X = teal_transform_make(teal_rotation_from_rpy(teal_vec3_make(0.3, -0.4, 0.5)),
                                         teal_vec3_make(0.2, 0.6, 1.0));
  teal_spatial_vector V =
      teal_spatial_vector_make(teal_vec3_make(0.4, -0.2, 0.7), teal_vec3_make(-0.3, 0.5, 0.1));
  ck_assert_int_eq(teal_plant_set_free_body_pose(m.p, m.ctx, m.free_body, X), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_free_body_spatial_velocity(m.p, m.ctx, m.free_body, V), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(m.p, m.ctx, g), TEAL_OK);
  ck_assert_int_eq(teal_mb_data_set_gravity(m.data, g), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_positions(m.p, m.ctx, m.q, NQ), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(m.p, m.ctx, m.v, NV), TEAL_OK);
  return m;
}

static void free_model(model *m) {
  teal_mb_data_free(m->data);
  teal_context_free(m->ctx);
  teal_plant_free(m->p);
}

/* The contribution as generalized forces: tau + J^T F. */
static void contribution(model *m, double *gen, double *tau, teal_spatial_vector *F) {
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(m->p, m->ctx, tau, NV, F, NB),
                   TEAL_OK);
  ck_assert_int_eq(teal_mb_jacobian_apply_transpose(m->p, m->data, m->q, F, gen), TEAL_OK);
  for (int i = 0; i < NV; i++) {
    gen[i] += tau[i];
  }
}

static void expect_near(const double *a, const double *b, int n, double tol, const char *what) {
  for (int i = 0; i < n; i++) {
    ck_assert_msg(fabs(a[i] - b[i]) <= tol * (1.0 + fabs(b[i])), "%s[%d]: %.15g vs %.15g", what, i,
                  a[i], b[i]);
  }
}

/* Gravity (a non-default one, from the context) as RNEA's tau_g and as
 * sum_B J_Bcm^T m_B g; no generalized part without damping or elements. */
START_TEST(test_gravity_part) {
  teal_vec3 g = teal_vec3_make(1.0, -2.0, -7.5);
  model m = make_model(0, 3u, g);
  double gen[NV], tau[NV], tau_g[NV], jt[NV] = {0}, J[3 * NV];
  teal_spatial_vector F[NB];
  contribution(&m, gen, tau, F);
  for (int i = 0; i < NV; i++) {
    ck_assert_double_eq(tau[i], 0.0);
  }
  for (int k = 0; k < 6; k++) {
    ck_assert_double_eq(F[0].v[k], 0.0);
  }
  ck_assert_int_eq(teal_mb_gravity_forces(m.p, m.data, m.q, tau_g), TEAL_OK);
  expect_near(gen, tau_g, NV, 1e-12, "J^T F vs RNEA tau_g");
  for (int b = 1; b < NB; b++) {
    teal_spatial_inertia M = teal_spatial_inertia_from_central(
        1.3, teal_vec3_make(0.1, -0.05, -0.3), teal_mat3_diag(0.02, 0.03, 0.04));
    ck_assert_int_eq(teal_mb_jacobian_translational_velocity(
                         m.p, m.data, m.q, TEAL_JACOBIAN_WRT_V, teal_plant_body_frame(m.p, b),
                         M.p_PScm_E, TEAL_WORLD_FRAME, TEAL_WORLD_FRAME, J),
                     TEAL_OK);
    for (int c = 0; c < NV; c++) {
      for (int r = 0; r < 3; r++) {
        jt[c] += J[r * NV + c] * M.mass * g.v[r];
      }
    }
  }
  expect_near(gen, jt, NV, 1e-12, "J^T F vs sum J_cm^T m g");
  free_model(&m);
}
END_TEST

/* Without gravity the generalized part is -D v plus the revolute spring. */
START_TEST(test_damping_part) {
  model m = make_model(1, 7u, teal_vec3_zero());
  double tau[NV], expect[NV] = {0};
  teal_spatial_vector F[NB];
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau, NV, F, NB),
                   TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(m.p);
  for (int k = 2; k < NB; k++) { /* the chain's nodes, after the free body */
    int j = k - 2;
    expect[t->v_start[k]] = -damping[j] * m.v[t->v_start[k]];
  }
  int spring_node = 2; /* joint l1 */
  expect[t->v_start[spring_node]] += 12.0 * (0.2 - m.q[t->q_start[spring_node]]);
  expect_near(tau, expect, NV, 1e-15, "tau vs -D v + spring");
  free_model(&m);
}
END_TEST

/* M vdot + C v = (tau + J^T F) + B u with the plant's own vdot. */
START_TEST(test_sum_matches_forward_dynamics) {
  model m = make_model(1, 11u, teal_vec3_make(0, 0, -9.81));
  double u[3] = {0.7, -1.1, 0.4};
  ck_assert_int_eq(teal_context_fix_input(m.ctx, teal_plant_actuation_input_port(m.p), u, 3),
                   TEAL_OK);
  double gen[NV], tau[NV], Cv[NV], lhs[NV], rhs[NV], B[NV * 3];
  teal_spatial_vector F[NB];
  contribution(&m, gen, tau, F);
  const double *vdot, *M;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(m.p, m.ctx, &vdot), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_mass_matrix(m.p, m.ctx, &M), TEAL_OK);
  ck_assert_int_eq(teal_mb_bias_term(m.p, m.data, m.q, m.v, Cv), TEAL_OK);
  ck_assert_int_eq(teal_plant_make_actuation_matrix(m.p, B), TEAL_OK);
  for (int r = 0; r < NV; r++) {
    lhs[r] = Cv[r];
    rhs[r] = gen[r];
    for (int c = 0; c < NV; c++) {
      lhs[r] += M[r * NV + c] * vdot[c];
    }
    for (int c = 0; c < 3; c++) {
      rhs[r] += B[r * 3 + c] * u[c];
    }
  }
  expect_near(lhs, rhs, NV, 1e-10, "M vdot + C v vs contribution + B u");
  free_model(&m);
}
END_TEST

/* The context's masses and damping, not the model's: doubling body l2's
 * mass doubles its gravity force, and new damping on joint l3 replaces the
 * model's in tau; the other entries do not move. */
START_TEST(test_context_parameters_reach_the_contribution) {
  model m = make_model(1, 17u, teal_vec3_make(0, 0, -9.81));
  double tau0[NV], tau1[NV];
  teal_spatial_vector F0[NB], F1[NB];
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau0, NV, F0, NB),
                   TEAL_OK);
  int l2 = 3; /* bodies: world, free, l1, l2, l3 */
  double mass, d_new = 2.5;
  ck_assert_int_eq(teal_plant_get_body_mass_in_context(m.p, m.ctx, l2, &mass), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_body_mass_in_context(m.p, m.ctx, l2, 2 * mass), TEAL_OK);
  int j = teal_plant_get_joint_by_name(m.p, "l3", -1, NULL);
  ck_assert_int_ge(j, 0);
  ck_assert_int_eq(teal_plant_set_joint_damping_in_context(m.p, m.ctx, j, &d_new, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau1, NV, F1, NB),
                   TEAL_OK);
  for (int b = 0; b < NB; b++) {
    for (int c = 0; c < 6; c++) {
      double want = b == l2 ? 2 * F0[b].v[c] : F0[b].v[c];
      ck_assert_double_eq_tol(F1[b].v[c], want, 1e-12 * (1 + fabs(want)));
    }
  }
  int vj = teal_plant_joint_v_start(m.p, j);
  for (int i = 0; i < NV; i++) {
    double want = i == vj ? tau0[i] + (damping[2] - d_new) * m.v[i] : tau0[i];
    ck_assert_double_eq_tol(tau1[i], want, 1e-12 * (1 + fabs(want)));
  }
  free_model(&m);
}
END_TEST

START_TEST(test_errors) {
  model m = make_model(1, 13u, teal_vec3_zero());
  double tau[NV];
  teal_spatial_vector F[NB];
  const teal_error *e = teal_context_error(m.ctx);
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau, NV - 1, F, NB),
                  TEAL_ESIZE, e, "got 8 generalized forces and 5 spatial forces");
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau, NV, F, NB + 1),
                  TEAL_ESIZE, e, "the plant has 9 velocities and 5 bodies");
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, m.ctx, NULL, NV, F, NB),
                  TEAL_EINVAL, e, "NULL tau");
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau, NV, NULL, NB),
                  TEAL_EINVAL, e, "NULL F_Bo_W");
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(NULL, m.ctx, tau, NV, F, NB),
                  TEAL_EINVAL, e, "NULL plant");
  ck_assert_int_eq(teal_plant_calc_force_elements_contribution(m.p, NULL, tau, NV, F, NB),
                   TEAL_EINVAL);
  /* another plant's context */
  teal_plant *other = make_plant(0);
  teal_context *oc = teal_context_new(teal_plant_system(other), NULL);
  ts_stale_context(oc);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, oc, tau, NV, F, NB), TEAL_EINVAL,
                  teal_context_error(oc), "no context of the plant");
  teal_context_free(oc);
  teal_plant_free(other);
  /* the spring-damper's points made to coincide */
  teal_transform X_W4;
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(m.p, m.ctx, &X), TEAL_OK);
  X_W4 = X[4];
  teal_vec3 p_WQ = teal_transform_apply(X_W4, teal_vec3_make(0.2, 0, 0));
  teal_transform X_WF =
      teal_transform_make(teal_rotation_identity(), teal_vec3_sub(p_WQ, teal_vec3_make(0, 0.1, 0)));
  ck_assert_int_eq(teal_plant_set_free_body_pose(m.p, m.ctx, m.free_body, X_WF), TEAL_OK);
  ts_stale_context(m.ctx);
  TS_EXPECT_ERROR(teal_plant_calc_force_elements_contribution(m.p, m.ctx, tau, NV, F, NB),
                  TEAL_ESINGULAR, e, "linear spring-damper: the points coincide");
  free_model(&m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_force_contribution");
  TCase *tc = tcase_create("plant_force_contribution");
  tcase_add_test(tc, test_gravity_part);
  tcase_add_test(tc, test_damping_part);
  tcase_add_test(tc, test_sum_matches_forward_dynamics);
  tcase_add_test(tc, test_context_parameters_reach_the_contribution);
  tcase_add_test(tc, test_errors);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
