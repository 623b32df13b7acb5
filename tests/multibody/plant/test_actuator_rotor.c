/* Rotor inertia and gear ratio of actuators (multibody/tree/actuator_rotor.h,
 * multibody/plant/actuator_parameters.h): a pendulum against its closed form
 * (m l^2 + rho^2 I_r) thetaddot = -m g l sin(theta), in continuous and
 * discrete mode (the implicitly damped step's closed form) and against a
 * plant whose body carries the same inertia; on a random chain, M from CRBA
 * against unit ABA solves, inverse against forward dynamics and the
 * analytic derivatives against central differences; context values against
 * a plant rebuilt with them as defaults; bad inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/ports.h"
#include "framework/system_dynamics.h"
#include "multibody/algorithms/aba.h"
#include "multibody/algorithms/aba_derivatives.h"
#include "multibody/algorithms/crba.h"
#include "multibody/algorithms/data.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/algorithms/rnea_derivatives.h"
#include "multibody/plant/actuator_parameters.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/actuator_rotor.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"

enum { MAX_NV = 16 };
static const double k_m = 2.0, k_l = 0.7, k_g = 9.81, k_Ir = 0.01, k_rho = 3.0;

/* A point-mass pendulum about y (mass m at distance l below the hinge) with
 * an actuator of rotor inertia Ir and gear ratio rho, and joint damping d;
 * or, when body_Iyy > 0 and Ir = 0, a body with that central inertia. */
static teal_plant *pendulum(double time_step, double Ir, double rho, double body_Iyy, double d) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  teal_mat3 I = teal_mat3_diag(body_Iyy, body_Iyy, body_Iyy);
  teal_spatial_inertia M = teal_spatial_inertia_from_central(k_m, teal_vec3_make(0, 0, -k_l), I);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0.0);
  int a = teal_plant_add_joint_actuator(p, "motor", j, INFINITY);
  ck_assert_int_eq(a, 0);
  ck_assert_int_eq(teal_plant_set_actuator_default_rotor_inertia(p, a, Ir), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuator_default_gear_ratio(p, a, rho), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &d), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -k_g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_context *context_at(const teal_plant *p, double q, double v) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  double u = 0.0;
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), &u, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, &q, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v, 1), TEAL_OK);
  return ctx;
}

static double vdot_of(const teal_plant *p, const teal_context *ctx) {
  const double *vdot;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  return vdot[0];
}

START_TEST(pendulum_matches_the_closed_form) {
  teal_plant *p = pendulum(0.0, k_Ir, k_rho, 0.0, 0.0);
  double theta = 0.9, w = 1.3, J = k_m * k_l * k_l + k_rho * k_rho * k_Ir;
  teal_context *ctx = context_at(p, theta, w);
  ck_assert_double_eq_tol(teal_plant_actuator_default_reflected_inertia(p, 0), 0.09, 1e-16);
  const double *M;
  ck_assert_int_eq(teal_plant_eval_mass_matrix(p, ctx, &M), TEAL_OK);
  ck_assert_double_eq_tol(M[0], J, 1e-14);
  ck_assert_double_eq_tol(vdot_of(p, ctx), -k_m * k_g * k_l * sin(theta) / J, 1e-13);
  double ke, tau, vdot = 0.4;
  ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system(p), ctx, &ke), TEAL_OK);
  ck_assert_double_eq_tol(ke, 0.5 * J * w * w, 1e-13);
  /* inverse dynamics (gravity left to the applied forces): J vdot, a single
   * hinge having no Coriolis term */
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &vdot, NULL, NULL, &tau), TEAL_OK);
  ck_assert_double_eq_tol(tau, J * vdot, 1e-13);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(discrete_step_matches_the_damped_closed_form) {
  /* no gravity at theta = 0: v+ = v / (1 + h d / J) with J = m l^2 + rho^2 Ir */
  double h = 1e-2, d = 3.0, v0 = 2.0, J = k_m * k_l * k_l + k_rho * k_rho * k_Ir;
  teal_plant *p = pendulum(h, k_Ir, k_rho, 0.0, d);
  teal_context *ctx = context_at(p, 0.0, v0);
  ck_assert_double_eq_tol(v0 + h * vdot_of(p, ctx), v0 / (1.0 + h * d / J), 1e-13);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(rotor_equals_a_body_with_the_same_inertia) {
  /* a single hinge cannot tell rho^2 Ir from body inertia about its axis */
  for (int discrete = 0; discrete < 2; discrete++) {
    double h = discrete ? 1e-3 : 0.0;
    teal_plant *a = pendulum(h, k_Ir, k_rho, 0.0, 0.5);
    teal_plant *b = pendulum(h, 0.0, 1.0, k_rho * k_rho * k_Ir, 0.5);
    teal_context *ca = context_at(a, 1.2, -0.7), *cb = context_at(b, 1.2, -0.7);
    ck_assert_double_eq_tol(vdot_of(a, ca), vdot_of(b, cb), 1e-13);
    double ka, kb;
    ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system(a), ca, &ka), TEAL_OK);
    ck_assert_int_eq(teal_calc_kinetic_energy(teal_plant_system(b), cb, &kb), TEAL_OK);
    ck_assert_double_eq_tol(ka, kb, 1e-13);
    teal_context_free(ca);
    teal_context_free(cb);
    teal_plant_free(a);
    teal_plant_free(b);
  }
}
END_TEST

/* ---- a random chain with rotors on its one-dof joints ----------------------- */

static const ts_mb_body_spec k_chain[] = {{-1, TEAL_JOINT_REVOLUTE}, {0, TEAL_JOINT_PRISMATIC},
                                          {1, TEAL_JOINT_BALL},      {2, TEAL_JOINT_REVOLUTE},
                                          {3, TEAL_JOINT_SCREW},     {1, TEAL_JOINT_REVOLUTE}};
enum { CHAIN_N = 6 };

/* The chain with a rotor on every one-dof joint (scale multiplies the
 * rotor inertias: 0 gives the same chain without them). */
static teal_plant *rotor_chain(double scale) {
  teal_plant *p = ts_mb_random_tree_open(k_chain, CHAIN_N, 7, 1);
  ck_assert_ptr_nonnull(p);
  for (int j = 0; j < CHAIN_N; j++) { /* joint j is chain entry j */
    if (k_chain[j].kind != TEAL_JOINT_BALL) {
      char name[8] = {'a', (char)('0' + j), 0};
      int a = teal_plant_add_joint_actuator(p, name, j, INFINITY);
      ck_assert_int_ge(a, 0);
      teal_plant_set_actuator_default_rotor_inertia(p, a, scale * (0.05 + 0.02 * j));
      ck_assert_int_eq(teal_plant_set_actuator_default_gear_ratio(p, a, j % 2 ? -4.0 : 7.0),
                       TEAL_OK);
    }
  }
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

START_TEST(chain_mass_matrix_forward_and_inverse_dynamics_agree) {
  teal_plant *p = rotor_chain(1.0), *bare = rotor_chain(0.0);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  ck_assert_int_le(nv, MAX_NV);
  teal_mb_data *d = teal_mb_data_new(p, NULL), *db = teal_mb_data_new(bare, NULL);
  unsigned s = 11;
  double q[MAX_NV + 4], v[MAX_NV], M[MAX_NV * MAX_NV], Mb[MAX_NV * MAX_NV], zero[MAX_NV] = {0};
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 0.8), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(p, d, q, M), TEAL_OK);
  ck_assert_int_eq(teal_mb_mass_matrix(bare, db, q, Mb), TEAL_OK);
  /* M - M_bare is the diagonal of reflected inertias */
  for (int r = 0; r < nv; r++) {
    for (int c = 0; c < nv; c++) {
      double want = r == c ? teal_plant_get_tree(p)->reflected_inertia[r] : 0.0;
      ck_assert_double_eq_tol(M[r * nv + c] - Mb[r * nv + c], want, 1e-12);
    }
  }
  ck_assert_int_eq(teal_mb_data_set_gravity(d, teal_vec3_zero()), TEAL_OK);
  for (int c = 0; c < nv; c++) { /* M times the unit ABA solve of column c is e_c */
    double e[MAX_NV] = {0}, x[MAX_NV], Mx[MAX_NV];
    e[c] = 1.0;
    ck_assert_int_eq(teal_mb_forward_dynamics(p, d, q, zero, e, x), TEAL_OK);
    ck_assert_int_eq(teal_mb_mass_matrix_times(p, d, q, x, Mx), TEAL_OK);
    for (int r = 0; r < nv; r++) {
      double Mxr = 0.0;
      for (int k = 0; k < nv; k++) {
        Mxr += M[r * nv + k] * x[k];
      }
      ck_assert_double_eq_tol(Mxr, r == c ? 1.0 : 0.0, 1e-10);
      ck_assert_double_eq_tol(Mx[r], r == c ? 1.0 : 0.0, 1e-10);
    }
  }
  /* inverse dynamics of the forward dynamics' vdot gives back tau */
  double tau[MAX_NV], vdot[MAX_NV], back[MAX_NV];
  ts_mb_rand_vec(&s, tau, nv, 2.0);
  ck_assert_int_eq(teal_mb_forward_dynamics(p, d, q, v, tau, vdot), TEAL_OK);
  ck_assert_int_eq(teal_mb_inverse_dynamics(p, d, q, v, vdot, NULL, back), TEAL_OK);
  for (int i = 0; i < nv; i++) {
    ck_assert_double_eq_tol(back[i], tau[i], 1e-10);
  }
  (void)nq;
  teal_mb_data_free(d);
  teal_mb_data_free(db);
  teal_plant_free(p);
  teal_plant_free(bare);
}
END_TEST

START_TEST(chain_derivatives_match_central_differences) {
  teal_plant *p = rotor_chain(1.0);
  int nq = teal_plant_nq(p), nv = teal_plant_nv(p);
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  teal_mb_derivatives *ws = teal_mb_derivatives_new(p, NULL);
  ck_assert_ptr_nonnull(ws);
  unsigned s = 5;
  double q[MAX_NV + 4], v[MAX_NV], tau[MAX_NV], vdot[MAX_NV];
  double dq[MAX_NV * MAX_NV], dv[MAX_NV * MAX_NV], dtau[MAX_NV * MAX_NV];
  ck_assert_int_eq(ts_mb_rand_state(p, &s, q, v, 0.8), TEAL_OK);
  ts_mb_rand_vec(&s, tau, nv, 2.0);
  ck_assert_int_eq(
      teal_mb_forward_dynamics_derivatives(p, d, ws, q, v, tau, NULL, vdot, dq, dv, dtau), TEAL_OK);
  double eps = 1e-6;
  for (int c = 0; c < nv; c++) { /* along v (dq: q moved by N(q) e_c) and tau */
    double e[MAX_NV] = {0}, qp[MAX_NV + 4], qm[MAX_NV + 4], fp[MAX_NV], fm[MAX_NV];
    double vp[MAX_NV], vm[MAX_NV], gp[MAX_NV], gm[MAX_NV], tp[MAX_NV], tm[MAX_NV];
    e[c] = 1.0;
    ck_assert_int_eq(ts_mb_step_q(p, q, e, eps, qp), TEAL_OK);
    ck_assert_int_eq(ts_mb_step_q(p, q, e, -eps, qm), TEAL_OK);
    teal_mb_forward_dynamics(p, d, qp, v, tau, fp);
    teal_mb_forward_dynamics(p, d, qm, v, tau, fm);
    memcpy(vp, v, sizeof(vp));
    memcpy(vm, v, sizeof(vm));
    memcpy(tp, tau, sizeof(tp));
    memcpy(tm, tau, sizeof(tm));
    vp[c] += eps, vm[c] -= eps, tp[c] += eps, tm[c] -= eps;
    teal_mb_forward_dynamics(p, d, q, vp, tau, gp);
    teal_mb_forward_dynamics(p, d, q, vm, tau, gm);
    double hp[MAX_NV], hm[MAX_NV];
    teal_mb_forward_dynamics(p, d, q, v, tp, hp);
    teal_mb_forward_dynamics(p, d, q, v, tm, hm);
    for (int r = 0; r < nv; r++) {
      ck_assert_double_eq_tol(dq[r * nv + c], (fp[r] - fm[r]) / (2 * eps), 1e-6);
      ck_assert_double_eq_tol(dv[r * nv + c], (gp[r] - gm[r]) / (2 * eps), 1e-6);
      ck_assert_double_eq_tol(dtau[r * nv + c], (hp[r] - hm[r]) / (2 * eps), 1e-6);
    }
  }
  (void)nq;
  teal_mb_derivatives_free(ws);
  teal_mb_data_free(d);
  teal_plant_free(p);
}
END_TEST

/* ---- context parameters ------------------------------------------------------- */

START_TEST(context_values_take_effect_and_defaults_restore) {
  teal_plant *p = pendulum(0.0, k_Ir, k_rho, 0.0, 0.0);
  teal_plant *q = pendulum(0.0, 0.5, 2.0, 0.0, 0.0); /* the values set below, as defaults */
  teal_context *ctx = context_at(p, 0.6, 0.3), *ref = context_at(q, 0.6, 0.3);
  double before = vdot_of(p, ctx), x;
  ck_assert_int_eq(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, 0.5), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuator_gear_ratio_in_context(p, ctx, 0, 2.0), TEAL_OK);
  ck_assert_double_eq_tol(vdot_of(p, ctx), vdot_of(q, ref), 1e-14);
  ck_assert(fabs(vdot_of(p, ctx) - before) > 0.1);
  ck_assert_int_eq(teal_plant_get_actuator_rotor_inertia_in_context(p, ctx, 0, &x), TEAL_OK);
  ck_assert_double_eq(x, 0.5);
  ck_assert_int_eq(teal_plant_get_actuator_gear_ratio_in_context(p, ctx, 0, &x), TEAL_OK);
  ck_assert_double_eq(x, 2.0);
  ck_assert_int_eq(teal_plant_calc_actuator_reflected_inertia(p, ctx, 0, &x), TEAL_OK);
  ck_assert_double_eq(x, 2.0);
  /* the model's defaults are untouched and come back with set_to_defaults */
  ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, 0), k_Ir);
  ck_assert_double_eq(teal_plant_actuator_default_gear_ratio(p, 0), k_rho);
  ck_assert_int_eq(teal_context_set_to_defaults(ctx), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, (double[]){0.6}, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, (double[]){0.3}, 1), TEAL_OK);
  ck_assert_double_eq_tol(vdot_of(p, ctx), before, 1e-15);
  teal_context_free(ctx);
  teal_context_free(ref);
  teal_plant_free(p);
  teal_plant_free(q);
}
END_TEST

/* ---- bad inputs ------------------------------------------------------------------ */

/* A one-hinge plant with an actuator, not finalized. */
static teal_plant *open_pendulum(void) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  teal_spatial_inertia M = teal_spatial_inertia_solid_sphere(1.0, 0.1);
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int j = teal_plant_add_joint(p, "hinge", TEAL_JOINT_REVOLUTE, TEAL_WORLD_FRAME,
                               teal_plant_body_frame(p, b), &y, 0.0);
  ck_assert_int_eq(teal_plant_add_joint_actuator(p, "motor", j, 1.0), 0);
  return p;
}

START_TEST(bad_model_values_are_refused) {
  struct {
    int gear, actuator;
    double value;
    int code;
    const char *needle;
  } cases[] = {{0, 0, -1.0, TEAL_EINVAL, "rotor inertia of actuator 'motor' is -1, must be >= 0"},
               {0, 0, NAN, TEAL_ENONFINITE, "rotor inertia of actuator 'motor' is nan"},
               {0, 3, 1.0, TEAL_ENOTFOUND, "rotor inertia: unknown actuator 3"},
               {1, 0, 0.0, TEAL_EINVAL, "gear ratio of actuator 'motor' is 0, must be nonzero"},
               {1, 0, NAN, TEAL_ENONFINITE, "gear ratio of actuator 'motor' is nan"},
               {1, 0, INFINITY, TEAL_ENONFINITE, "gear ratio of actuator 'motor' is inf"},
               {1, -1, 2.0, TEAL_ENOTFOUND, "gear ratio: unknown actuator -1"}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_plant *p = open_pendulum();
    int rc =
        cases[i].gear
            ? teal_plant_set_actuator_default_gear_ratio(p, cases[i].actuator, cases[i].value)
            : teal_plant_set_actuator_default_rotor_inertia(p, cases[i].actuator, cases[i].value);
    TS_EXPECT_ERROR(rc, cases[i].code, teal_plant_error(p), cases[i].needle);
    ck_assert_double_eq(teal_plant_actuator_default_gear_ratio(p, 0), 1.0); /* unchanged */
    ck_assert_double_eq(teal_plant_actuator_default_rotor_inertia(p, 0), 0.0);
    teal_plant_free(p);
  }
  teal_plant *p = open_pendulum();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuator_default_rotor_inertia(p, 0, 1.0), TEAL_ESTATE);
  ck_assert(isnan(teal_plant_actuator_default_gear_ratio(p, 1)));
  ck_assert(isnan(teal_plant_actuator_default_reflected_inertia(NULL, 0)));
  ck_assert_int_eq(teal_plant_set_actuator_default_gear_ratio(NULL, 0, 1.0), TEAL_EINVAL);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_context_values_are_refused) {
  teal_plant *p = pendulum(0.0, k_Ir, k_rho, 0.0, 0.0), *other = pendulum(0.0, 0, 1, 0, 0);
  teal_context *ctx = context_at(p, 0.6, 0.0), *wrong = context_at(other, 0.0, 0.0);
  const teal_error *e = teal_context_error(ctx);
  double before = vdot_of(p, ctx), x;
  TS_EXPECT_ERROR(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, -0.1), TEAL_EINVAL, e,
                  "actuator \"motor\": rotor_inertia = -0.1 must be finite and >= 0");
  TS_EXPECT_ERROR(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, NAN), TEAL_ENONFINITE,
                  e, "rotor_inertia = nan must be finite");
  TS_EXPECT_ERROR(teal_plant_set_actuator_gear_ratio_in_context(p, ctx, 0, 0.0), TEAL_EINVAL, e,
                  "gear_ratio = 0 must be finite and nonzero");
  TS_EXPECT_ERROR(teal_plant_set_actuator_gear_ratio_in_context(p, ctx, 0, NAN), TEAL_ENONFINITE, e,
                  "gear_ratio = nan");
  TS_EXPECT_ERROR(teal_plant_set_actuator_gear_ratio_in_context(p, ctx, 1, 2.0), TEAL_EINVAL, e,
                  "actuator 1 is not an actuator of the plant (0..0)");
  TS_EXPECT_ERROR(teal_plant_get_actuator_gear_ratio_in_context(p, ctx, -1, &x), TEAL_EINVAL, e,
                  "actuator -1 is not an actuator");
  TS_EXPECT_ERROR(teal_plant_get_actuator_rotor_inertia_in_context(p, ctx, 0, NULL), TEAL_EINVAL, e,
                  "rotor_inertia is NULL");
  TS_EXPECT_ERROR(teal_plant_calc_actuator_reflected_inertia(p, ctx, 0, NULL), TEAL_EINVAL, e,
                  "reflected_inertia is NULL");
  TS_EXPECT_ERROR(teal_plant_calc_actuator_reflected_inertia(p, wrong, 0, &x), TEAL_EINVAL,
                  teal_context_error(wrong), "holds no context of the plant");
  ck_assert_int_eq(teal_plant_set_actuator_gear_ratio_in_context(NULL, ctx, 0, 1.0), TEAL_EINVAL);
  ck_assert_int_eq(teal_plant_set_actuator_gear_ratio_in_context(p, NULL, 0, 1.0), TEAL_EINVAL);
  ck_assert_double_eq(vdot_of(p, ctx), before); /* nothing above changed a value */
  teal_context_free(ctx);
  teal_context_free(wrong);
  teal_plant_free(p);
  teal_plant_free(other);
}
END_TEST

static Suite *actuator_rotor_suite(void) {
  Suite *s = suite_create("actuator_rotor");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, pendulum_matches_the_closed_form);
  tcase_add_test(tc, discrete_step_matches_the_damped_closed_form);
  tcase_add_test(tc, rotor_equals_a_body_with_the_same_inertia);
  tcase_add_test(tc, chain_mass_matrix_forward_and_inverse_dynamics_agree);
  tcase_add_test(tc, chain_derivatives_match_central_differences);
  tcase_add_test(tc, context_values_take_effect_and_defaults_restore);
  tcase_add_test(tc, bad_model_values_are_refused);
  tcase_add_test(tc, bad_context_values_are_refused);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(actuator_rotor_suite());
}
