/* Joint armature (multibody/tree/joint_armature.h): a pendulum against its
 * closed form (m l^2 + I + armature) thetaddot = -m g l sin(theta), in
 * continuous and discrete mode, its kinetic energy 1/2 J w^2 and a passive
 * simulation that conserves the total energy; armature beside an
 * actuator's rotor inertia (defaults and context values add); on a tree
 * with floating, ball, universal and one-dof joints, M - M(no armature)
 * against the armature on each dof, ABA against M^-1 (tau + tau_g - C v)
 * and the derivatives' M^-1; bad inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/ports.h"
#include "framework/system_dynamics.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/aba_derivatives.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/energy.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/plant/actuator_parameters.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/actuator_rotor.h"
#include "multibody/tree/joint_armature.h"
#include "multibody/tree/plant_summary.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/integrators_explicit.h"
#include "systems/analysis/simulator.h"
#include "systems/analysis/simulator_run.h"
#include "systems/analysis/simulator_settings.h"

enum { MAX_NV = 24 };
static const double k_m = 2.0, k_l = 0.7, k_g = 9.81, k_I = 0.03, k_arm = 0.11;

/* A pendulum about y: mass m with central inertia I at distance l below
 * the hinge, joint armature arm and damping d; with Ir > 0 also an actuator
 * of rotor inertia Ir and gear ratio rho. */
static teal_plant *pendulum(double time_step, double arm, double Ir, double rho, double d) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  teal_mat3 I = teal_mat3_diag(k_I, k_I, k_I);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(k_m, teal_vec3_make(0, 0, -k_l), I);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0.0);
  ck_assert_int_eq(teal_plant_set_joint_default_armature(p, j, arm), TEAL_OK);
  if (Ir > 0.0) {
    int a = teal_plant_add_joint_actuator(p, "motor", j, INFINITY);
    ck_assert_int_eq(teal_plant_set_actuator_default_rotor_inertia(p, a, Ir), TEAL_OK);
    ck_assert_int_eq(teal_plant_set_actuator_default_gear_ratio(p, a, rho), TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &d), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -k_g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_context *context_at(const teal_plant *p, double q, double v) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  if (teal_plant_num_actuators(p) > 0) {
    double u = 0.0;
    ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1),
                     TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, &q, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  return ctx;
}

static double vdot_of(const teal_plant *p, const teal_context *ctx) {
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  return vdot[0];
}

static double mass_of(const teal_plant *p, const teal_context *ctx) {
  const double *M;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  return M[0];
}

START_TEST(pendulum_matches_the_closed_form) {
  teal_plant *p = pendulum(0.0, k_arm, 0.0, 1.0, 0.0);
  double theta = 0.9, w = 1.3, J = k_m * k_l * k_l + k_I + k_arm;
  teal_context *ctx = context_at(p, theta, w);
  ck_assert_double_eq(teal_plant_joint_default_armature(p, 0), k_arm);
  ck_assert_double_eq_tol(mass_of(p, ctx), J, 1e-14);
  ck_assert_double_eq_tol(vdot_of(p, ctx), -k_m * k_g * k_l * sin(theta) / J, 1e-13);
  double ke, tau, vdot = 0.4;
  ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system(p), ctx, &ke), TEAL_OK);
  ck_assert_double_eq_tol(ke, 0.5 * J * w * w, 1e-13);
  /* inverse dynamics with gravity left out: J vdot (a hinge has no C v) */
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &vdot, NULL, NULL, &tau), TEAL_OK);
  ck_assert_double_eq_tol(tau, J * vdot, 1e-13);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(discrete_step_matches_the_damped_closed_form) {
  /* no gravity torque at theta = 0: v+ = v / (1 + h d / J) */
  double h = 1e-2, d = 3.0, v0 = 2.0, J = k_m * k_l * k_l + k_I + k_arm;
  teal_plant *p = pendulum(h, k_arm, 0.0, 1.0, d);
  teal_context *ctx = context_at(p, 0.0, v0);
  ck_assert_double_eq_tol(v0 + h * vdot_of(p, ctx), v0 / (1.0 + h * d / J), 1e-13);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* Total energy of the plant's context. */
static double energy(const teal_plant *p, const teal_context *ctx) {
  double ke, pe;
  ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system((teal_plant *)p), ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(teal_plant_system((teal_plant *)p), ctx, &pe),
                   TEAL_OK);
  return ke + pe;
}

START_TEST(passive_pendulum_conserves_energy) {
  teal_plant *p = pendulum(0.0, 5.0 * k_arm, 0.0, 1.0, 0.0);
  teal_context *ctx = context_at(p, 1.1, 0.8);
  double e0 = energy(p, ctx);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), ctx, NULL);
  ck_assert_ptr_nonnull(sim);
  ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk4), TEAL_OK);
  ck_assert_int_eq(teal_simulator_set_fixed_step(sim, 1e-3), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_OK);
  double q, v;
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, &q, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_velocities(p, ctx, &v, 1), TEAL_OK);
  ck_assert(fabs(q - 1.1) > 0.1); /* it moved */
  ck_assert_double_eq_tol(energy(p, ctx), e0, 1e-9 * fabs(e0));
  /* and the energy holds the armature's 1/2 armature v^2 */
  double J = k_m * k_l * k_l + k_I + 5.0 * k_arm;
  ck_assert_double_eq_tol(energy(p, ctx), 0.5 * J * v * v - k_m * k_g * k_l * cos(q), 1e-12);
  teal_simulator_free(sim);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(armature_and_rotor_inertia_add) {
  double Ir = 0.02, rho = 3.0, base = k_m * k_l * k_l + k_I;
  teal_plant *p = pendulum(0.0, k_arm, Ir, rho, 0.0);
  teal_context *ctx = context_at(p, 0.4, 0.0);
  ck_assert_double_eq_tol(mass_of(p, ctx), base + k_arm + rho * rho * Ir, 1e-14);
  ck_assert_double_eq_tol(teal_plant_get_tree(p)->reflected_inertia[0], k_arm + rho * rho * Ir,
                          1e-15);
  /* the context's recomputed diagonal keeps the armature */
  ck_assert_int_eq(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, 0.5), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuator_gear_ratio_in_context(p, ctx, 0, 2.0), TEAL_OK);
  ck_assert_double_eq_tol(mass_of(p, ctx), base + k_arm + 4.0 * 0.5, 1e-14);
  double J = base + k_arm + 2.0;
  ck_assert_double_eq_tol(vdot_of(p, ctx), -k_m * k_g * k_l * sin(0.4) / J, 1e-13);
  double x;
  ck_assert_int_eq(teal_plant_calc_actuator_reflected_inertia(p, ctx, 0, &x), TEAL_OK);
  ck_assert_double_eq(x, 2.0); /* the actuator's own part only */
  ck_assert_int_eq(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, 0.0), TEAL_OK);
  ck_assert_double_eq_tol(mass_of(p, ctx), base + k_arm, 1e-14);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* ---- a tree with armature on multi-dof joints ------------------------------- */

static const ts_mb_body_spec k_tree[] = {{-1, TEAL_JOINT_QUATERNION_FLOATING},
                                         {0, TEAL_JOINT_BALL},
                                         {1, TEAL_JOINT_REVOLUTE},
                                         {0, TEAL_JOINT_UNIVERSAL},
                                         {3, TEAL_JOINT_PRISMATIC},
                                         {1, TEAL_JOINT_BALL_RPY}};
enum { TREE_N = 6 };

/* The tree with armature 0.1 + 0.05 i on joint i times scale. */
static teal_plant *armature_tree(double scale) {
  teal_plant *p = ts_mb_random_tree_open(k_tree, TREE_N, 13, 1);
  ck_assert_ptr_nonnull(p);
  for (int j = 0; j < TREE_N; j++) { /* joint j is tree entry j */
    ck_assert_int_eq(teal_plant_set_joint_default_armature(p, j, scale * (0.1 + 0.05 * j)),
                     TEAL_OK);
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

/* The armature expected on each dof: joint j's value on its nv dofs. */
static void expected_armature(const teal_plant *p, double *arm) {
  static const int nv_of[TREE_N] = {6, 3, 1, 2, 1, 3};
  ck_assert_int_eq(teal_plant_num_joints(p), TREE_N);
  for (int j = 0; j < TREE_N; j++) {
    int v0 = teal_plant_joint_v_start(p, j);
    for (int i = 0; i < nv_of[j]; i++) {
      arm[v0 + i] = teal_plant_joint_default_armature(p, j);
    }
  }
}

START_TEST(tree_mass_matrix_gets_the_armature_on_every_dof) {
  teal_plant *p = armature_tree(1.0), *bare = armature_tree(0.0);
  int nv = teal_plant_nv(p);
  ck_assert_int_eq(nv, 6 + 3 + 1 + 2 + 1 + 3);
  teal_mb_data *d = teal_mb_data_new(p, NULL), *db = teal_mb_data_new(bare, NULL);
  unsigned s = 3;
  double q[MAX_NV + 8], v[MAX_NV], M[MAX_NV * MAX_NV], Mb[MAX_NV * MAX_NV], arm[MAX_NV];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 0.8), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, q, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(bare, db, q, Mb), TEAL_OK);
  expected_armature(p, arm);
  for (int r = 0; r < nv; r++) {
    ck_assert(arm[r] >= 0.1); /* every dof has some */
    for (int c = 0; c < nv; c++) {
      ck_assert_double_eq_tol(M[r * nv + c] - Mb[r * nv + c], r == c ? arm[r] : 0.0, 1e-12);
    }
  }
  /* the kinetic energy grows by 1/2 sum armature v^2 */
  double ke, keb, extra = 0.0;
  for (int i = 0; i < nv; i++) {
    extra += 0.5 * arm[i] * v[i] * v[i];
  }
  ck_assert_int_eq(teal_mb_kinetic_energy(p, d, q, v, &ke), TEAL_OK);
  ck_assert_int_eq(teal_mb_kinetic_energy(bare, db, q, v, &keb), TEAL_OK);
  ck_assert_double_eq_tol(ke - keb, extra, 1e-12);
  teal_mb_data_free(d);
  teal_mb_data_free(db);
  teal_plant_free(p);
  teal_plant_free(bare);
}
END_TEST

/* x = A^-1 b by Gaussian elimination with partial pivoting (A n x n, overwritten). */
static void dense_solve(double *A, double *b, int n) {
  for (int c = 0; c < n; c++) {
    int piv = c;
    for (int r = c + 1; r < n; r++) {
      piv = fabs(A[r * n + c]) > fabs(A[piv * n + c]) ? r : piv;
    }
    for (int k = 0; k < n; k++) {
      double t = A[c * n + k];
      A[c * n + k] = A[piv * n + k], A[piv * n + k] = t;
    }
    double t = b[c];
    b[c] = b[piv], b[piv] = t;
    for (int r = c + 1; r < n; r++) {
      double f = A[r * n + c] / A[c * n + c];
      for (int k = c; k < n; k++) {
        A[r * n + k] -= f * A[c * n + k];
      }
      b[r] -= f * b[c];
    }
  }
  for (int r = n - 1; r >= 0; r--) {
    for (int k = r + 1; k < n; k++) {
      b[r] -= A[r * n + k] * b[k];
    }
    b[r] /= A[r * n + r];
  }
}

START_TEST(tree_aba_and_derivatives_match_the_dense_solve) {
  teal_plant *p = armature_tree(1.0);
  int nv = teal_plant_nv(p);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  unsigned s = 21;
  double q[MAX_NV + 8], v[MAX_NV], tau[MAX_NV], vdot[MAX_NV], rhs[MAX_NV], Cv[MAX_NV], g[MAX_NV];
  double M[MAX_NV * MAX_NV], Minv[MAX_NV * MAX_NV];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 0.8), TEAL_OK);
  ts_mb_rand_vec(&s, tau, nv, 2.0);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, d, q, v, tau, vdot), TEAL_OK);
  ck_assert_int_eq(teal_mb_bias_term(p, d, q, v, Cv), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, d, q, g), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, q, M), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    rhs[i] = tau[i] + g[i] - Cv[i];
  }
  dense_solve(M, rhs, nv); /* M destroyed */
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq_tol(vdot[i], rhs[i], 1e-10);
  }
  /* d vdot / d tau is M^-1 with the armature: M times it is the identity */
  double dq[MAX_NV * MAX_NV], dv[MAX_NV * MAX_NV];
  ck_assert_int_eq(
      teal_mb_forward_dynamics_derivatives(p, d, ws, q, v, tau, NULL, vdot, dq, dv, Minv), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, q, M), TEAL_OK);
  for (int r = 0; r < nv; r++) {
    for (int c = 0; c < nv; c++) {
      double x = 0.0;
      for (int k = 0; k < nv; k++) {
        x += M[r * nv + k] * Minv[k * nv + c];
      }
      ck_assert_double_eq_tol(x, r == c ? 1.0 : 0.0, 1e-10);
    }
  }
  teal_mb_derivatives_free(ws);
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

/* ---- bad inputs ------------------------------------------------------------------ */

START_TEST(bad_values_are_refused) {
  struct {
    int joint;
    double value;
    int code;
    const char *needle;
  } cases[] = {{0, -0.5, TEAL_EINVAL, "armature of joint 'hinge' is -0.5, must be >= 0"},
               {0, NAN, TEAL_ENONFINITE, "armature of joint 'hinge' is nan"},
               {0, INFINITY, TEAL_ENONFINITE, "armature of joint 'hinge' is inf"},
               {1, 1.0, TEAL_ENOTFOUND, "armature: unknown joint 1"},
               {-1, 1.0, TEAL_ENOTFOUND, "armature: unknown joint -1"}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_plant *p = teal_plant_new(0.0, NULL);
    teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
    int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_vec3 y = teal_vec3_make(0, 1, 0);
    ck_assert_int_eq(teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                                          teal_plant_body_frame(p, b), &y, 0.0),
                     0);
    TS_EXPECT_ERROR(teal_plant_set_joint_default_armature(p, cases[i].joint, cases[i].value),
                    cases[i].code, teal_plant_error(p), cases[i].needle);
    ck_assert_double_eq(teal_plant_joint_default_armature(p, 0), 0.0); /* unchanged */
    teal_plant_free(p);
  }
  teal_plant *p = pendulum(0.0, k_arm, 0.0, 1.0, 0.0);
  TS_EXPECT_ERROR(teal_plant_set_joint_default_armature(p, 0, 1.0), TEAL_ESTATE,
                  teal_plant_error(p), "cannot add or change joint armature");
  ck_assert_double_eq(teal_plant_joint_default_armature(p, 0), k_arm);
  ck_assert(isnan(teal_plant_joint_default_armature(p, 1)));
  ck_assert(isnan(teal_plant_joint_default_armature(p, -1)));
  ck_assert(isnan(teal_plant_joint_default_armature(NULL, 0)));
  ck_assert_int_eq(teal_plant_set_joint_default_armature(NULL, 0, 1.0), TEAL_EINVAL);
  teal_plant_free(p);
}
END_TEST

START_TEST(summary_lists_joints_with_armature) {
  teal_plant *p = pendulum(0.0, k_arm, 0.0, 1.0, 0.0);
  char *text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  ck_assert_msg(strstr(text, "joint armature (added to M at each dof):\n  0 \"hinge\": 0.11\n"),
                "%s", text);
  teal_free(text);
  teal_plant_free(p);
  p = pendulum(0.0, 0.0, 0.0, 1.0, 0.0); /* no armature: no section */
  text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_null(strstr(text, "armature"));
  teal_free(text);
  teal_plant_free(p);
}
END_TEST

static Suite *joint_armature_suite(void) {
  Suite *s = suite_create("joint_armature");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, pendulum_matches_the_closed_form);
  tcase_add_test(tc, discrete_step_matches_the_damped_closed_form);
  tcase_add_test(tc, passive_pendulum_conserves_energy);
  tcase_add_test(tc, armature_and_rotor_inertia_add);
  tcase_add_test(tc, tree_mass_matrix_gets_the_armature_on_every_dof);
  tcase_add_test(tc, tree_aba_and_derivatives_match_the_dense_solve);
  tcase_add_test(tc, bad_values_are_refused);
  tcase_add_test(tc, summary_lists_joints_with_armature);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(joint_armature_suite());
}
