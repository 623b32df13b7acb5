/* multibody/plant/plant_jacobian: the plant's analytic Jacobian, through
 * teal_linearize_matrices, against linearize's central differences
 * (use_analytic = 0) on random trees of every joint kind in both modes (raw
 * quaternion and roll-pitch-yaw coordinates, joint damping, gravity, an
 * applied generalized force, away from equilibrium); Spong's closed-form A
 * and B of the acrobot (models/acrobot.urdf) at the upright, continuous
 * and discrete, and the LQR gains from them; and the cases the hook
 * declines (an output other than the state, an active position limit),
 * which fall back to central differences. */
#define _XOPEN_SOURCE 700 /* M_PI */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/ports.h"
#include "framework/system.h"
#include "framework/system_dynamics.h"
#include "multibody/forces/force_elements.h"
#include "multibody/parsing/urdf.h"
#include "multibody/plant/plant_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_dyn_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/linearize.h"
#include "systems/controllers/lqr.h"

#define MAXN TS_MB_DYN_MAXN

/* The matrices of sys at ctx, analytic or by central differences. */
static void linearize(const teal_system *sys, const teal_context *ctx, int in, int out,
                      int analytic, teal_linear_system_matrices *m) {
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = in;
  o.output_port = out;
  o.use_analytic = analytic;
  o.equilibrium_tolerance = 0.0;
  teal_error err = {0};
  ck_assert_msg(teal_linearize_matrices(sys, ctx, &o, m, &err) == TEAL_OK, "%s", err.message);
}

/* max |a - b| / max(1, max |b|) over n entries. */
static double rel_diff(const double *a, const double *b, int n) {
  double e = 0.0, s = 1.0;
  for (int i = 0; i < n; i++) {
    e = fmax(e, fabs(a[i] - b[i]));
    s = fmax(s, fabs(b[i]));
  }
  return e / s;
}

static void expect_same(const teal_linear_system_matrices *a, const teal_linear_system_matrices *b,
                        double tol) {
  ck_assert_int_eq(a->nx, b->nx);
  double eA = rel_diff(a->A, b->A, a->nx * a->nx), eB = rel_diff(a->B, b->B, a->nx * a->nu);
  double eC = a->ny ? rel_diff(a->C, b->C, a->ny * a->nx) : 0.0;
  ck_assert_msg(eA < tol && eB < tol && eC < tol, "A %g B %g C %g", eA, eB, eC);
}

/* A random state with unit quaternions, damping on every joint, a random
 * applied generalized force fixed on its port. */
static teal_context *random_context(teal_plant *p, unsigned seed) {
  teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  unsigned s = seed;
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  double x[2 * MAXN], tau[MAXN];
  ts_mb_dyn_rand_state(p, &s, x, x + nq);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, nq + nv), TEAL_OK);
  ts_mb_rand_vec(&s, tau, nv, 2.0);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, nv),
      TEAL_OK);
  const teal_plant_tree *t = teal_plant_get_tree(p);
  for (int k = 1; k < t->num_nodes; k++) {
    double d[6] = {0.3, 0.2, 0.5, 0.1, 0.4, 0.6};
    int j = teal_plant_body_joint(p, teal_plant_node_body(p, k));
    if (t->nv[k] > 0) {
      ck_assert_int_eq(teal_plant_set_joint_damping_in_context(p, ctx, j, d, t->nv[k]), TEAL_OK);
    }
  }
  return ctx;
}

START_TEST(test_random_trees_match_central_differences) {
  for (unsigned seed = 1; seed <= 4; seed++) {
    /* seeds 3 and 4: discrete plants (the step's Jacobian) */
    double h = seed > 2 ? 0.01 * (seed - 2) : 0.0;
    teal_plant *p = ts_mb_dyn_make_tree_stepped(_i, 41 * seed + (unsigned)_i, h);
    teal_context *ctx = random_context(p, 13 * seed);
    teal_system *sys = teal_plant_system(p);
    int in = teal_plant_applied_generalized_force_input_port(p);
    int out = teal_plant_state_output_port(p);
    teal_linear_system_matrices a, f;
    linearize(sys, ctx, in, out, 1, &a);
    linearize(sys, ctx, in, out, 0, &f);
    expect_same(&a, &f, 1e-7);
    /* the hook itself answered (no fallback) */
    int nx = a.nx, nv = teal_plant_nv(p);
    static double A[4 * MAXN * MAXN], B[2 * MAXN * MAXN], C[4 * MAXN * MAXN], D[2 * MAXN * MAXN];
    teal_jacobian jac = {nx, nv, nx, A, B, C, D};
    ck_assert_int_eq(teal_calc_jacobian(sys, ctx, in, out, &jac), TEAL_OK);
    ck_assert_double_eq(rel_diff(A, a.A, nx * nx), 0.0);
    teal_linear_system_matrices_free(&a);
    teal_linear_system_matrices_free(&f);
    teal_context_free(ctx);
    teal_plant_free(p);
  }
}
END_TEST

enum { PLAIN, LIMITED, ELEMENTS };

/* Force elements on the acrobot: a spring on the elbow and a spring-damper
 * from a world point to the tip of link 2. */
static void add_elements(teal_plant *p) {
  teal_error err = {0};
  int elbow = teal_plant_get_joint_by_name(p, "elbow", -1, &err);
  int link2 = teal_plant_get_body_by_name(p, "link2", -1, &err);
  ck_assert_int_ge(teal_plant_add_revolute_spring(p, elbow, 0.2, 5.0), 0);
  ck_assert_int_ge(teal_plant_add_linear_spring_damper(p, 0, teal_vec3_make(0.3, 0.1, 0.5), link2,
                                                       teal_vec3_make(0, 0, -2), 1.0, 20.0, 3.0),
                   0);
}

/* A plant from models/acrobot.urdf (time_step 0: continuous), its shoulder
 * limited to [-1, 1] (LIMITED) or with force elements (ELEMENTS). */
static teal_plant *acrobot(double time_step, int variant) {
  char path[1024];
  snprintf(path, sizeof path, "%s/acrobot.urdf", TEAL_MODELS_DIR);
  teal_error err = {0};
  teal_plant *p = teal_plant_new(time_step, &err);
  ck_assert_msg(teal_urdf_load_file(p, path, NULL, &err) >= 0, "%s", err.message);
  if (variant == ELEMENTS) {
    add_elements(p);
  }
  if (variant == LIMITED) {
    double lo = -1.0, hi = 1.0;
    int j = teal_plant_get_joint_by_name(p, "shoulder", -1, &err);
    ck_assert_int_eq(teal_plant_set_joint_position_limits(p, j, &lo, &hi), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The upright x = (pi, 0, 0, 0) with u = 0 fixed on the actuation. */
static teal_context *upright(teal_plant *p) {
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double x[4] = {M_PI, 0.0, 0.0, 0.0}, u = 0.0;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1), 0);
  return ctx;
}

/* Spong's acrobot about the upright (angles from the hanging position), the
 * parameters of the URDF (m1 = m2 = 1, l1 = 1, lc1 = 0.5, lc2 = 1,
 * Ic1 = 0.083, Ic2 = 0.33, b = 0.1): with G = dtau_g/dq and W = (M + h b)^-1,
 * continuous (h = 0): A = [0 I; W G, -W b], B = [0; W e2];
 * the discrete step (h > 0): v+ = v + h W (G dq - b v + e2 u), q+ = q + h v+. */
static void spong_upright(double g, double h, double *A, double *B) {
  const double m1 = 1, m2 = 1, l1 = 1, lc1 = 0.5, lc2 = 1, b = 0.1;
  const double I1 = 0.083 + m1 * lc1 * lc1, I2 = 0.33 + m2 * lc2 * lc2;
  double M[4] = {I1 + I2 + m2 * l1 * l1 + 2 * m2 * l1 * lc2 + h * b, I2 + m2 * l1 * lc2,
                 I2 + m2 * l1 * lc2, I2 + h * b};
  double det = M[0] * M[3] - M[1] * M[2];
  double W[4] = {M[3] / det, -M[1] / det, -M[2] / det, M[0] / det};
  double G[4] = {g * (m1 * lc1 + m2 * l1 + m2 * lc2), g * m2 * lc2, g * m2 * lc2, g * m2 * lc2};
  double s = h > 0 ? h : 1.0; /* dv+ = s (...) (discrete) or vdot = (...) */
  for (int i = 0; i < 2; i++) {
    for (int j = 0; j < 2; j++) {
      double vq = s * (W[2 * i] * G[j] + W[2 * i + 1] * G[2 + j]);
      double vv = (h > 0 && i == j ? 1.0 : 0.0) - s * W[2 * i + j] * b;
      A[(2 + i) * 4 + j] = vq;
      A[(2 + i) * 4 + 2 + j] = vv;
      A[i * 4 + j] = h > 0 ? (i == j ? 1.0 : 0.0) + h * vq : 0.0;
      A[i * 4 + 2 + j] = h > 0 ? h * vv : (i == j ? 1.0 : 0.0);
    }
    B[2 + i] = s * W[2 * i + 1];
    B[i] = h > 0 ? h * B[2 + i] : 0.0;
  }
}

/* Analytic A, B against Spong's closed form (to rounding) and linearize's
 * central differences, and the LQR gain against teal_lqr on the closed
 * form, in both modes. */
START_TEST(test_acrobot_matches_spong) {
  double h = _i ? 1e-3 : 0.0;
  teal_plant *p = acrobot(h, PLAIN);
  teal_context *ctx = upright(p);
  teal_linear_system_matrices a, f;
  teal_system *sys = teal_plant_system(p);
  int u = teal_plant_actuation_input_port(p), y = teal_plant_state_output_port(p);
  linearize(sys, ctx, u, y, 1, &a);
  linearize(sys, ctx, u, y, 0, &f);
  double A[16], B[4], C[16], D[4];
  spong_upright(-teal_plant_gravity(p).v[2], h, A, B);
  ck_assert_msg(rel_diff(a.A, A, 16) < 1e-13, "A %g", rel_diff(a.A, A, 16));
  ck_assert_msg(rel_diff(a.B, B, 4) < 1e-13, "B %g", rel_diff(a.B, B, 4));
  expect_same(&a, &f, 1e-7);
  for (int i = 0; i < 16; i++) {
    ck_assert_double_eq(a.C[i], i % 5 == 0 ? 1.0 : 0.0);
  }
  teal_jacobian jac = {4, 1, 4, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(sys, ctx, u, y, &jac), TEAL_OK); /* not declined */
  ck_assert_double_eq(rel_diff(A, a.A, 16), 0.0);
  /* the LQR from the plant (its hook) and from the closed form */
  double Q[16] = {10, 0, 0, 0, 0, 10, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, R = 1.0, K[4], Kc[4];
  teal_error err = {0};
  teal_system *lqr = teal_lqr_controller_new("lqr", sys, ctx, u, Q, &R, NULL, K, NULL, &err);
  ck_assert_msg(lqr != NULL, "%s", err.message);
  teal_system_free(lqr);
  spong_upright(-teal_plant_gravity(p).v[2], h, A, B);
  ck_assert_int_eq(teal_lqr(A, B, Q, &R, NULL, 4, 1, h > 0, Kc, NULL, &err), TEAL_OK);
  ck_assert_msg(rel_diff(K, Kc, 4) < 1e-9, "K %g", rel_diff(K, Kc, 4));
  teal_linear_system_matrices_free(&a);
  teal_linear_system_matrices_free(&f);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The hook declines what it does not differentiate, with a message naming
 * the reason; linearize then uses central differences, so both settings
 * give the same matrices. */
static void expect_declined(teal_plant *p, int out, int ny, const char *why) {
  teal_context *ctx = upright(p);
  teal_system *sys = teal_plant_system(p);
  int u = teal_plant_actuation_input_port(p);
  double A[16], B[4], C[16], D[4];
  teal_jacobian jac = {4, 1, ny, A, B, C, D};
  TS_EXPECT_ERROR(teal_calc_jacobian(sys, ctx, u, out, &jac), TEAL_EUNSUPPORTED,
                  teal_context_error(ctx), why);
  teal_linear_system_matrices a, f;
  linearize(sys, ctx, u, out, 1, &a);
  linearize(sys, ctx, u, out, 0, &f);
  ck_assert_double_eq(rel_diff(a.A, f.A, 16), 0.0);
  ck_assert_double_eq(rel_diff(a.B, f.B, 4), 0.0);
  teal_linear_system_matrices_free(&a);
  teal_linear_system_matrices_free(&f);
  teal_context_free(ctx);
}

START_TEST(test_declined_cases_fall_back) {
  teal_plant *p = acrobot(0.0, PLAIN);
  expect_declined(p, teal_plant_generalized_acceleration_output_port(p), 2,
                  "the output is not 'state'");
  teal_plant_free(p);
  /* the upright q1 = pi is far outside the shoulder's [-1, 1]: the limit acts */
  p = acrobot(1e-3, LIMITED);
  expect_declined(p, teal_plant_state_output_port(p), 4, "a position limit acts");
  teal_plant_free(p);
}
END_TEST

/* Force elements: their part by central differences of the elements
 * alone, the rest analytic; against linearize's central differences in
 * both modes, away from equilibrium, the hook answering itself, and
 * allocating nothing once its memory exists. */
START_TEST(test_force_elements) {
  teal_plant *p = acrobot(_i ? 1e-2 : 0.0, ELEMENTS);
  teal_context *ctx = upright(p);
  double x[4] = {2.5, -0.4, 0.7, -1.1}, u = 0.3;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1), 0);
  teal_system *sys = teal_plant_system(p);
  int in = teal_plant_actuation_input_port(p), out = teal_plant_state_output_port(p);
  teal_linear_system_matrices a, f;
  linearize(sys, ctx, in, out, 1, &a);
  linearize(sys, ctx, in, out, 0, &f);
  expect_same(&a, &f, 1e-7);
  double A[16], B[4], C[16], D[4];
  teal_jacobian jac = {4, 1, 4, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(sys, ctx, in, out, &jac), TEAL_OK);
  /* its memory made by the first call, the hook allocates nothing */
  ts_alloc_install();
  ck_assert_int_eq(teal_calc_jacobian(sys, ctx, in, out, &jac), TEAL_OK);
  ck_assert_uint_eq(ts_alloc_allocs(), 0);
  ts_alloc_uninstall();
  teal_linear_system_matrices_free(&a);
  teal_linear_system_matrices_free(&f);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("plant_linearize");
  TCase *tc = tcase_create("plant_linearize");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_random_trees_match_central_differences, 0, TS_MB_DYN_NUM_TOPOLOGIES);
  tcase_add_loop_test(tc, test_acrobot_matches_spong, 0, 2);
  tcase_add_test(tc, test_declined_cases_fall_back);
  tcase_add_loop_test(tc, test_force_elements, 0, 2);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
