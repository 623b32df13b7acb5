/* Tendon actuators (multibody/forces/tendon_actuator.h) on a three-joint
 * chain: a joint actuator on joint 1 and a tendon actuator (gain 2, limit 3)
 * on the fixed tendon L = 1.5 q0 - 0.7 q2. B's columns against the
 * hand-written e_1 and gain * J_L^T; the actuation's motion against the same
 * plant driven by J_L^T gain clamp(u) on applied_generalized_force
 * (continuous and discrete, whole-plant and per-instance ports); the
 * linearization's B against M^-1 B column by column and central
 * differences; no allocation in the hot loop; the queries, the summary, the selectors and bad
 * inputs with their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/ports.h"
#include "multibody/forces/tendon_actuator.h"
#include "multibody/forces/tendons.h"
#include "multibody/plant/actuator_parameters.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/selectors.h"
#include "multibody/tree/actuator_gain.h"
#include "multibody/tree/actuator_rotor.h"
#include "multibody/tree/plant_summary.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/linearize.h"

enum { NV = 3, NU = 2 };
static const double k_coef[2] = {1.5, -0.7};
static const double k_gain = 2.0, k_limit = 3.0;

/* revolute (y) - prismatic (x) - revolute (x) with damping and gravity, the
 * tendon over joints 0 and 2 (force element *tendon) and, unless open_only,
 * the joint actuator "m1" and the tendon actuator "pull" (gain 2). */
static teal_plant *tendon_chain(double time_step, int open_only, int *tendon) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  unsigned s = 5;
  const teal_joint_kind kind[NV] = {TEAL_JOINT_REVOLUTE, TEAL_JOINT_PRISMATIC, TEAL_JOINT_REVOLUTE};
  const teal_vec3 axis[NV] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0),
                              teal_vec3_make(1, 0, 0)};
  int parent = TEAL_WORLD_BODY, joints[NV];
  for (int i = 0; i < NV; i++) {
    char name[8] = {'b', (char)('0' + i), 0};
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    name[0] = 'j';
    joints[i] = ts_mb_connect(p, name, kind[i], parent, b, &axis[i]);
    double d = 0.2;
    ck_assert_int_eq(teal_plant_set_joint_damping(p, joints[i], &d), TEAL_OK);
    parent = b;
  }
  const int path[2] = {joints[0], joints[2]};
  *tendon = teal_plant_add_fixed_tendon(p, "t", TEAL_DEFAULT_MODEL_INSTANCE, 2, path, k_coef, NULL);
  ck_assert_int_ge(*tendon, 0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81)), TEAL_OK);
  if (!open_only) {
    ck_assert_int_eq(teal_plant_add_joint_actuator(p, "m1", joints[1], INFINITY), 0);
    ck_assert_int_eq(teal_plant_add_tendon_actuator(p, "pull", *tendon, k_limit), 1);
    ck_assert_int_eq(teal_plant_set_actuator_input_gain(p, 1, k_gain), TEAL_OK);
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

/* J_L^T gain clamp(u_tendon) + e_1 u_joint, written out by hand. */
static void hand_force(const double *u, double *tau) {
  double f = k_gain * fmax(-k_limit, fmin(k_limit, u[1]));
  tau[0] = k_coef[0] * f;
  tau[1] = u[0];
  tau[2] = k_coef[1] * f;
}

static const double k_q[NV] = {0.4, -0.1, 0.7}, k_v[NV] = {-0.3, 0.5, 1.1};

/* A context at (k_q, k_v) with u on port u_port and tau on
 * applied_generalized_force. */
static teal_context *context_with(const teal_plant *p, int u_port, const double *u,
                                  const double *tau) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  ck_assert_int_eq(teal_context_fix_input(ctx, u_port, u, NU), TEAL_OK);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, NV),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, k_q, NV), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, k_v, NV), TEAL_OK);
  return ctx;
}

static void acceleration(const teal_plant *p, int u_port, const double *u, const double *tau,
                         double *vdot) {
  teal_context *ctx = context_with(p, u_port, u, tau);
  const double *a;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
  memcpy(vdot, a, sizeof(double) * NV);
  teal_context_free(ctx);
}

static const double k_u_inside[NU] = {0.8, -2.5}, k_u_beyond[NU] = {-1.2, 7.0};

/* The actuation in the hot loop allocates nothing: new inputs on a
 * context made beforehand, continuous and discrete. */
START_TEST(actuation_allocates_nothing) {
  const double zero[NV] = {0, 0, 0};
  for (int discrete = 0; discrete < 2; discrete++) {
    int t;
    teal_plant *p = tendon_chain(discrete ? 1e-3 : 0.0, 0, &t);
    int port = teal_plant_actuation_input_port(p);
    teal_context *ctx = context_with(p, port, k_u_inside, zero);
    const double *a;
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
    ts_alloc_install();
    for (int k = 0; k < 3; k++) {
      const double *u = k % 2 ? k_u_beyond : k_u_inside;
      ck_assert_int_eq(teal_context_fix_input(ctx, port, u, NU), TEAL_OK);
      ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
    }
    ts_alloc_expect_none();
    teal_context_free(ctx);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(actuation_matrix_is_gain_times_tendon_coefficients) {
  int t;
  teal_plant *p = tendon_chain(0.0, 0, &t);
  ck_assert_int_eq(teal_plant_nu(p), NU);
  double B[NV * NU];
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  const double want[NV * NU] = {0.0, k_gain * k_coef[0], 1.0, 0.0, 0.0, k_gain * k_coef[1]};
  for (int i = 0; i < NV * NU; i++) {
    ck_assert_double_eq(B[i], want[i]);
  }
  /* the queries: no single dof, its tendon, its own limit */
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 1), -1);
  ck_assert_int_eq(teal_plant_actuator_v_index(p, 0), 1);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, 1), t);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, 0), -1);
  ck_assert_int_eq(teal_plant_actuator_tendon(p, 2), -1);
  ck_assert_int_eq(teal_plant_actuator_tendon(NULL, 0), -1);
  ck_assert_double_eq(teal_plant_actuator_effort_limit(p, 1), k_limit);
  ck_assert_int_eq(teal_plant_get_actuator_by_name(p, "pull", -1, NULL), 1);
  teal_plant_free(p);
}
END_TEST

START_TEST(actuation_is_the_tendon_force) {
  const double zero[NV] = {0, 0, 0};
  const double *cases[2] = {k_u_inside, k_u_beyond};
  for (int discrete = 0; discrete < 2; discrete++) {
    int t;
    teal_plant *p = tendon_chain(discrete ? 1e-3 : 0.0, 0, &t);
    int ports[2] = {teal_plant_actuation_input_port(p),
                    teal_plant_instance_actuation_input_port(p, TEAL_DEFAULT_MODEL_INSTANCE)};
    for (int c = 0; c < 2; c++) {
      for (int k = 0; k < 2; k++) {
        double tau[NV], va[NV], vb[NV];
        hand_force(cases[c], tau);
        acceleration(p, ports[k], cases[c], zero, va);
        acceleration(p, ports[0], zero, tau, vb);
        ck_assert_msg(ts_mb_max_abs_diff(va, vb, NV) < 1e-12, "discrete %d case %d port %d: %g",
                      discrete, c, k, ts_mb_max_abs_diff(va, vb, NV));
      }
      /* and the tendon matters: without its actuator another motion */
      double tau[NV], va[NV], vb[NV];
      hand_force(cases[c], tau);
      tau[0] = tau[2] = 0.0;
      acceleration(p, ports[0], cases[c], zero, va);
      acceleration(p, ports[0], zero, tau, vb);
      ck_assert(ts_mb_max_abs_diff(va, vb, NV) > 1e-3);
    }
    teal_plant_free(p);
  }
}
END_TEST

/* The linearization of p at u (state output) by the analytic hook or by
 * central differences. */
static void linearize_at(const teal_plant *p, const double *u, int analytic,
                         teal_linear_system_matrices *m) {
  const double zero[NV] = {0, 0, 0};
  teal_context *ctx = context_with(p, teal_plant_actuation_input_port(p), u, zero);
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = teal_plant_actuation_input_port(p);
  o.output_port = teal_plant_state_output_port(p);
  o.use_analytic = analytic;
  o.equilibrium_tolerance = 0.0;
  teal_error err = {0};
  const teal_system *sys = teal_plant_system((teal_plant *)p);
  ck_assert_msg(teal_linearize_matrices(sys, ctx, &o, m, &err) == TEAL_OK, "%s", err.message);
  ck_assert_int_eq(m->nx, 2 * NV);
  ck_assert_int_eq(m->nu, NU);
  teal_context_free(ctx);
}

START_TEST(linearization_is_m_inverse_b) {
  int t;
  teal_plant *p = tendon_chain(0.0, 0, &t);
  teal_linear_system_matrices an, fd;
  linearize_at(p, k_u_inside, 1, &an);
  linearize_at(p, k_u_inside, 0, &fd);
  /* M^-1 B column by column: the acceleration from the hand-written force
   * of a unit input (vdot is affine in tau) */
  const double zero[NV] = {0, 0, 0};
  int port = teal_plant_actuation_input_port(p);
  double v0[NV], e[NV];
  acceleration(p, port, zero, zero, v0);
  const double *Ban = an.B + NV * NU, *Bfd = fd.B + NV * NU;
  for (int a = 0; a < NU; a++) {
    double unit[NU] = {0, 0}, tau[NV];
    unit[a] = 1.0;
    hand_force(unit, tau);
    acceleration(p, port, zero, tau, e);
    for (int i = 0; i < NV; i++) {
      ck_assert_double_eq_tol(Ban[i * NU + a], e[i] - v0[i], 1e-11);
      ck_assert_double_eq_tol(Bfd[i * NU + a], e[i] - v0[i], 1e-6);
    }
  }
  teal_linear_system_matrices_free(&an);
  teal_linear_system_matrices_free(&fd);
  teal_plant_free(p);
}
END_TEST

START_TEST(linearization_matches_differences_beyond_the_limit) {
  for (int discrete = 0; discrete < 2; discrete++) {
    int t;
    teal_plant *p = tendon_chain(discrete ? 1e-3 : 0.0, 0, &t);
    teal_linear_system_matrices an, fd;
    linearize_at(p, k_u_beyond, 1, &an);
    linearize_at(p, k_u_beyond, 0, &fd);
    for (int i = 0; i < 2 * NV; i++) {
      ck_assert_double_eq(an.B[i * NU + 1], 0.0); /* the clamped tendon actuator */
    }
    ck_assert(ts_mb_max_abs(an.B, 2 * NV * NU) > 1e-6);
    double scale = discrete ? 1e-3 : 1.0;
    ck_assert_msg(ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NU) < 1e-6 * scale, "%g",
                  ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NU));
    teal_linear_system_matrices_free(&an);
    teal_linear_system_matrices_free(&fd);
    linearize_at(p, k_u_inside, 1, &an);
    linearize_at(p, k_u_inside, 0, &fd);
    ck_assert(fabs(an.B[(2 * NV - 1) * NU + 1]) > 1e-6 * scale);
    ck_assert_msg(ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NU) < 1e-6 * scale, "%g",
                  ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NU));
    teal_linear_system_matrices_free(&an);
    teal_linear_system_matrices_free(&fd);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(summary_and_selectors_know_tendon_actuators) {
  int t;
  teal_plant *p = tendon_chain(0.0, 0, &t);
  char *text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_nonnull(strstr(text, "  1 \"pull\" (tendon \"t\"): 2\n"));
  teal_free(text);
  /* by actuator it is an actuator like any other */
  double Su[NU * 1];
  const int list[1] = {1};
  ck_assert_int_eq(teal_plant_make_actuator_selector_matrix(p, list, 1, Su, NU, 1, NULL), TEAL_OK);
  ck_assert_double_eq(Su[0], 0.0);
  ck_assert_double_eq(Su[1], 1.0);
  /* by joint: joint 0 has only the tendon's, no joint actuator */
  teal_error err = {0};
  const int joints[1] = {0};
  TS_EXPECT_ERROR(
      teal_plant_make_actuator_selector_matrix_for_joints(p, joints, 1, Su, NU, 1, &err),
      TEAL_EINVAL, &err, "joint 'j0' (index 0) has no actuator");
  teal_plant_free(p);
}
END_TEST

START_TEST(tendon_actuators_have_no_rotor_inertia) {
  int t;
  teal_plant *p = tendon_chain(0.0, 1, &t);
  int a = teal_plant_add_tendon_actuator(p, "pull", t, INFINITY);
  ck_assert_int_eq(a, 0);
  ck_assert_int_eq(teal_plant_set_actuator_default_rotor_inertia(p, a, 0.0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_actuator_default_gear_ratio(p, a, 3.0), TEAL_OK);
  TS_EXPECT_ERROR(teal_plant_set_actuator_default_rotor_inertia(p, a, 0.1), TEAL_EUNSUPPORTED,
                  teal_plant_error(p), "a tendon actuator has no rotor inertia");
  teal_plant_free(p);
  p = tendon_chain(0.0, 0, &t);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  ck_assert_ptr_nonnull(ctx);
  TS_EXPECT_ERROR(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 1, 0.2),
                  TEAL_EUNSUPPORTED, teal_context_error(ctx),
                  "actuator \"pull\" is a tendon actuator, which has no rotor inertia");
  double r = -1.0;
  ck_assert_int_eq(teal_plant_get_actuator_rotor_inertia_in_context(p, ctx, 1, &r), TEAL_OK);
  ck_assert_double_eq(r, 0.0);
  ck_assert_int_eq(teal_plant_set_actuator_rotor_inertia_in_context(p, ctx, 0, 0.2), TEAL_OK);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* A fresh open chain and one bad call on it, whose sticky error is checked. */
static void expect_refused(int which, int code, const char *needle) {
  int t;
  teal_plant *p = tendon_chain(0.0, 1, &t);
  int rc = TEAL_OK;
  if (which == 0) { /* a spatial tendon */
    const int frames[2] = {TEAL_WORLD_FRAME, teal_plant_body_frame(p, 3)};
    int s = teal_plant_add_spatial_tendon(p, "sp", TEAL_DEFAULT_MODEL_INSTANCE, 2, frames, NULL);
    ck_assert_int_ge(s, 0);
    rc = teal_plant_add_tendon_actuator(p, "a", s, 1.0);
  } else if (which <= 2) { /* not a force element, not a tendon */
    int bad = which == 1 ? 99 : -1;
    rc = teal_plant_add_tendon_actuator(p, "a", bad, 1.0);
  } else if (which <= 4) { /* a bad limit */
    rc = teal_plant_add_tendon_actuator(p, "a", t, which == 3 ? 0.0 : NAN);
  } else if (which == 5) { /* a used name */
    ck_assert_int_eq(teal_plant_add_tendon_actuator(p, "a", t, 1.0), 0);
    rc = teal_plant_add_tendon_actuator(p, "a", t, 1.0);
  } else if (which == 6) {
    rc = teal_plant_add_tendon_actuator(p, "", t, 1.0);
  } else { /* after finalize */
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
    rc = teal_plant_add_tendon_actuator(p, "late", t, 1.0);
  }
  TS_EXPECT_ERROR(rc, code, teal_plant_error(p), needle);
  teal_plant_free(p);
}

START_TEST(bad_tendon_actuators_are_refused) {
  expect_refused(0, TEAL_EUNSUPPORTED, "tendon actuator 'a': tendon 'sp' is spatial");
  expect_refused(1, TEAL_ENOTFOUND, "tendon actuator 'a': force element 99 is not a tendon");
  expect_refused(2, TEAL_ENOTFOUND, "force element -1 is not a tendon");
  expect_refused(3, TEAL_EINVAL, "tendon actuator 'a': effort limit must be > 0");
  expect_refused(4, TEAL_EINVAL, "tendon actuator 'a': effort limit must be > 0");
  expect_refused(5, TEAL_EDUPLICATE, "actuator 'a' already exists");
  expect_refused(6, TEAL_EINVAL, "add actuator");
  expect_refused(7, TEAL_ESTATE, "late");
  ck_assert_int_eq(teal_plant_add_tendon_actuator(NULL, "a", 0, 1.0), TEAL_EINVAL);
  /* a joint spring is a force element but not a tendon */
  int t;
  teal_plant *p = tendon_chain(0.0, 1, &t);
  int f = teal_plant_add_revolute_spring(p, 0, 0.0, 1.0);
  ck_assert_int_ge(f, 0);
  TS_EXPECT_ERROR(teal_plant_add_tendon_actuator(p, "a", f, 1.0), TEAL_ENOTFOUND,
                  teal_plant_error(p), "is not a tendon");
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("tendon_actuator");
  TCase *tc = tcase_create("tendon_actuator");
  tcase_add_test(tc, actuation_matrix_is_gain_times_tendon_coefficients);
  tcase_add_test(tc, actuation_is_the_tendon_force);
  tcase_add_test(tc, actuation_allocates_nothing);
  tcase_add_test(tc, linearization_is_m_inverse_b);
  tcase_add_test(tc, linearization_matches_differences_beyond_the_limit);
  tcase_add_test(tc, summary_and_selectors_know_tendon_actuators);
  tcase_add_test(tc, tendon_actuators_have_no_rotor_inertia);
  tcase_add_test(tc, bad_tendon_actuators_are_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
