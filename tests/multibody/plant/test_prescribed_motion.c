/* Prescribed joint motion (multibody/plant/prescribed_motion.c): a sinusoid
 * and a piecewise polynomial are followed exactly, the motion force equals
 * the closed-form torque and the plant's inverse dynamics, the free dof of a
 * double pendulum with a prescribed shoulder satisfies the equations of
 * motion, Baumgarte's feedback removes an initial error that stays without
 * it, a failing motion stops the simulation keeping the last good state,
 * a discrete plant follows the sinusoid to first order with its motion
 * errors, force and power converging to the inverse dynamics' at first
 * order as h halves, and bad declarations get clear errors. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "math/rotation.h"
#include "math/transform.h"
#include "multibody/plant/plant_inverse_dynamics.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"

#define AMP 0.6
#define OMEGA 3.0
#define GRAV 9.81

static int sinusoid(double t, double *q, double *qd, double *qdd, void *user) {
  (void)user;
  *q = AMP * sin(OMEGA * t);
  *qd = AMP * OMEGA * cos(OMEGA * t);
  *qdd = -AMP * OMEGA * OMEGA * sin(OMEGA * t);
  return TEAL_OK;
}

/* A rod of mass 1, length 1 on a hinge about y at the world origin. */
static int add_rod(teal_plant *p, const char *name, int parent_frame) {
  teal_spatial_inertia M = teal_spatial_inertia_from_central(
      1.0, teal_vec3_make(0, 0, -0.5), teal_mat3_diag(1.0 / 12, 1.0 / 12, 1e-4));
  teal_vec3 y = teal_vec3_make(0, 1, 0);
  int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
  return teal_plant_add_joint(p, name, TEAL_JOINT_REVOLUTE, parent_frame,
                              teal_plant_body_frame(p, b), &y, 0);
}

/* The pendulum at time step h (0: continuous). */
static teal_plant *pendulum_h(double h) {
  teal_plant *p = teal_plant_new(h, NULL);
  add_rod(p, "rod", TEAL_WORLD_FRAME);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -GRAV));
  return p;
}

static teal_plant *pendulum(void) {
  return pendulum_h(0.0);
}

/* The RK45 simulator of p's system. */
static teal_simulator *rk45(teal_plant *p, double accuracy) {
  return ts_sim_new_rk45(teal_plant_system(p), accuracy);
}

START_TEST(sinusoid_is_followed_and_its_force_is_the_inverse_dynamics) {
  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, sinusoid, NULL), TEAL_OK);
  ck_assert(teal_plant_joint_is_prescribed(p, 0));
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-6);
  teal_context *ctx = teal_simulator_context(sim);
  double v0 = AMP * OMEGA;
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v0, 1), TEAL_OK);
  teal_sim_status st;
  for (int k = 1; k <= 30; k++) {
    double t = 0.1 * k, x[2], tau, tau_id, tau_g;
    const double *vdot;
    ck_assert_int_eq(teal_simulator_advance_to(sim, t, &st), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
    ck_assert_double_eq_tol(x[0], AMP * sin(OMEGA * t), 1e-12);
    ck_assert_double_eq_tol(x[1], AMP * OMEGA * cos(OMEGA * t), 1e-12);
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
    double qdd = -AMP * OMEGA * OMEGA * sin(OMEGA * t);
    ck_assert_double_eq_tol(vdot[0], qdd, 1e-9);
    /* closed form: I qdd = tau - m g (l/2) sin q with I = 1/3 */
    ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, &tau, 1), TEAL_OK);
    ck_assert_double_eq_tol(tau, qdd / 3.0 + 0.5 * GRAV * sin(x[0]), 1e-9);
    /* the plant's inverse dynamics with gravity applied */
    ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, &tau_g), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, &qdd, &tau_g, NULL, &tau_id),
                     TEAL_OK);
    ck_assert_double_eq_tol(tau, tau_id, 1e-9);
    /* the motion errors vanish at every level, and the power is tau v */
    double err[1], power;
    for (int level = 0; level < 3; level++) {
      ck_assert_int_eq(teal_plant_calc_motion_errors(p, ctx, level, err, 1), TEAL_OK);
      ck_assert_double_eq_tol(err[0], 0.0, 1e-9);
    }
    ck_assert_int_eq(teal_plant_calc_motion_power(p, ctx, &power), TEAL_OK);
    ck_assert_double_eq_tol(power, tau * x[1], 1e-9);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(free_dof_obeys_the_equations_of_motion) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  int j0 = add_rod(p, "upper", TEAL_WORLD_FRAME);
  int f =
      teal_plant_add_frame(p, "elbow_frame", teal_plant_body_frame(p, 1),
                           teal_transform_make(teal_rotation_identity(), teal_vec3_make(0, 0, -1)));
  add_rod(p, "lower", f);
  teal_plant_set_gravity(p, teal_vec3_make(0, 0, -GRAV));
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, j0, sinusoid, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double x[4] = {0.2, -0.7, 1.3, 0.4}, tau[2], tau_g[2], tau_id[2];
  const double *vdot;
  teal_context_set_time(ctx, 0.37);
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 4), TEAL_OK);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
  ck_assert_double_eq_tol(vdot[0], -AMP * OMEGA * OMEGA * sin(OMEGA * 0.37), 1e-12);
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau, 2), TEAL_OK);
  ck_assert_double_eq(tau[1], 0.0);
  /* M vdot + C v - tau_g = [tau_motion; 0] */
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ctx, tau_g), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ctx, vdot, tau_g, NULL, tau_id), TEAL_OK);
  ck_assert_double_eq_tol(tau_id[0], tau[0], 1e-10);
  ck_assert_double_eq_tol(tau_id[1], 0.0, 1e-10);
  ck_assert(fabs(tau[0]) > 0.1);
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

START_TEST(trajectory_is_followed) {
  /* a natural cubic spline through four knots */
  double breaks[4] = {0.0, 0.7, 1.4, 2.0}, knots[4] = {0.0, 0.5, -0.2, 0.3};
  teal_piecewise_polynomial *pp =
      teal_piecewise_polynomial_cubic_spline(breaks, knots, 4, 1, TEAL_SPLINE_NATURAL, NULL);
  ck_assert_ptr_nonnull(pp);
  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_prescribe_joint_trajectory(p, 0, pp), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-6);
  teal_context *ctx = teal_simulator_context(sim);
  double v0;
  ck_assert_int_eq(teal_piecewise_polynomial_derivative(pp, 0.0, 1, &v0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v0, 1), TEAL_OK);
  teal_sim_status st;
  for (int k = 1; k <= 8; k++) {
    double t = 0.25 * k, x[2], want[2];
    ck_assert_int_eq(teal_simulator_advance_to(sim, t, &st), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
    ck_assert_int_eq(teal_piecewise_polynomial_derivative(pp, t, 0, &want[0]), TEAL_OK);
    ck_assert_int_eq(teal_piecewise_polynomial_derivative(pp, t, 1, &want[1]), TEAL_OK);
    ck_assert_double_eq_tol(x[0], want[0], 1e-12);
    ck_assert_double_eq_tol(x[1], want[1], 1e-12);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
  teal_piecewise_polynomial_free(pp);
}
END_TEST

/* The error |q - q_p| after 2 s from q_p(0) + 0.01, without projection. */
static double error_after_drift(double alpha, double beta) {
  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, sinusoid, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_constraint_projection(p, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_baumgarte_stabilization(p, alpha, beta), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-9);
  teal_context *ctx = teal_simulator_context(sim);
  double x[2] = {0.01, AMP * OMEGA}, err;
  ck_assert_int_eq(teal_plant_set_state(p, ctx, x, 2), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_motion_errors(p, ctx, 0, &err, 1), TEAL_OK);
  ck_assert_double_eq(err, 0.01);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
  teal_simulator_free(sim);
  teal_plant_free(p);
  return fabs(x[0] - AMP * sin(OMEGA * 2.0));
}

START_TEST(baumgarte_removes_the_drift_that_stays_without_it) {
  /* without feedback the error's acceleration is zero: it stays 0.01 */
  ck_assert_double_eq_tol(error_after_drift(0.0, 0.0), 0.01, 1e-7);
  /* critically damped at 10/s: 0.01 (1 + 20) e^-20, about 4e-10 */
  ck_assert_double_lt(error_after_drift(10.0, 10.0), 1e-8);
}
END_TEST

static int fails_late(double t, double *q, double *qd, double *qdd, void *user) {
  (void)user;
  if (t > 0.5) {
    return TEAL_EINVAL;
  }
  return sinusoid(t, q, qd, qdd, NULL);
}

START_TEST(failing_motion_stops_and_keeps_the_last_state) {
  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, fails_late, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-6);
  teal_context *ctx = teal_simulator_context(sim);
  double v0 = AMP * OMEGA, x[2];
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v0, 1), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ck_assert_ptr_nonnull(
      strstr(teal_simulator_error(sim)->message, "the prescribed motion of joint \"rod\" failed"));
  double t = teal_context_time(ctx);
  ck_assert(t <= 0.5 && t > 0.3);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
  ck_assert_double_eq_tol(x[0], AMP * sin(OMEGA * t), 1e-12);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* What discrete_sinusoid measures: the largest |q - q_p| and |vdot -
 * qddot_p| of the motion errors (levels 0 and 2) over the run, and at
 * t = 0.5 the motion force and power of the step from there minus the
 * inverse dynamics' M qddot_p + C - tau_g on the exact path and its power. */
typedef struct discrete_errors {
  double q, vdot, tau, power;
} discrete_errors;

/* The motion errors of levels 0, 1, 2 at ctx (one dof). */
static void motion_errors(const teal_plant *p, const teal_context *ctx, double *e) {
  for (int level = 0; level < 3; level++) {
    ck_assert_int_eq(teal_plant_calc_motion_errors(p, ctx, level, &e[level], 1), TEAL_OK);
  }
}

/* The inverse dynamics' motion force M qddot + C - tau_g at time t on the
 * exact path, evaluated in ref. */
static double exact_motion_force(const teal_plant *p, teal_context *ref, double t) {
  double q, qd, qdd, tau_id, tau_g;
  sinusoid(t, &q, &qd, &qdd, NULL);
  ck_assert_int_eq(teal_plant_set_positions(p, ref, &q, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ref, &qd, 1), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_inverse_dynamics(p, ref, &qdd, NULL, NULL, &tau_id), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_gravity_generalized_forces(p, ref, &tau_g), TEAL_OK);
  return tau_id - tau_g;
}

/* The prescribed sinusoid in a discrete plant at step h over 1 s: each
 * step's v+ is qdot_p(t + h) exactly (to round-off), so the level-1 error
 * is 0 at every step; the other errors go into *de. */
static void discrete_sinusoid(double h, discrete_errors *de) {
  teal_plant *p = pendulum_h(h);
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, sinusoid, NULL), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  teal_context *ctx = teal_simulator_context(sim),
               *ref = teal_context_new(teal_plant_system(p), NULL);
  double v0 = AMP * OMEGA, x[2], q, qd, qdd, e[3];
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, &v0, 1), TEAL_OK);
  teal_sim_status st;
  int n = (int)lround(1.0 / h);
  memset(de, 0, sizeof(*de));
  for (int k = 1; k <= n; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, k * h, &st), TEAL_OK);
    ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 2), TEAL_OK);
    sinusoid(k * h, &q, &qd, &qdd, NULL);
    motion_errors(p, ctx, e);
    ck_assert_double_eq_tol(e[0], x[0] - q, 1e-15); /* q - q_p(t) at the context's time */
    ck_assert_double_eq_tol(e[1], 0.0, 1e-12);
    de->q = fmax(de->q, fabs(e[0]));
    de->vdot = fmax(de->vdot, fabs(e[2]));
    if (2 * k == n) {
      double tau, power;
      ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, &tau, 1), TEAL_OK);
      ck_assert_int_eq(teal_plant_calc_motion_power(p, ctx, &power), TEAL_OK);
      double tau_exact = exact_motion_force(p, ref, k * h);
      de->tau = fabs(tau - tau_exact);
      de->power = fabs(power - tau_exact * qd);
    }
  }
  teal_context_free(ref);
  teal_simulator_free(sim);
  teal_plant_free(p);
}

START_TEST(discrete_sinusoid_converges_and_its_force_to_the_inverse_dynamics) {
  discrete_errors a, b;
  discrete_sinusoid(1e-3, &a);
  discrete_sinusoid(5e-4, &b);
  /* first order: q_n - q_p(t_n) = sum h qdot_p(t_k) - integral, at most
   * h (qdot_max - qdot_min) / 2 = 1.8e-3 at 1 ms */
  ck_assert_msg(a.q < 2e-3 && b.q < 0.6 * a.q, "q errors %g %g", a.q, b.q);
  /* (qdot_p(t + h) - qdot_p(t)) / h - qddot_p(t) = h qdddot_p / 2 + O(h^2):
   * at most h AMP OMEGA^3 / 2 = 8.1e-3 at 1 ms */
  ck_assert_msg(a.vdot < 8.2e-3 && b.vdot < 0.6 * a.vdot, "vdot errors %g %g", a.vdot, b.vdot);
  ck_assert_msg(a.tau < 0.1 && b.tau < 0.6 * a.tau, "force errors %g %g", a.tau, b.tau);
  ck_assert_msg(a.power < 0.2 && b.power < 0.6 * a.power, "power errors %g %g", a.power, b.power);
  /* discretization errors, not identities */
  ck_assert_double_gt(a.tau, 0.0);
  ck_assert_double_gt(a.power, 0.0);
  ck_assert_double_gt(a.vdot, 1e-4);
}
END_TEST

START_TEST(bad_declarations_are_reported) {
  double breaks[2] = {0.0, 1.0}, two_rows[4] = {0, 1, 0, 1};
  teal_piecewise_polynomial *pp2 =
      teal_piecewise_polynomial_first_order_hold(breaks, two_rows, 2, 2, NULL);
  ck_assert_ptr_nonnull(pp2);
  struct {
    int joint, twice;
    teal_joint_motion_fn fn;
    const teal_piecewise_polynomial *pp;
    int code;
    const char *needle;
  } cases[] = {
      {3, 0, sinusoid, NULL, TEAL_EINVAL, "joint 3 is not a joint of the plant"},
      {0, 0, NULL, NULL, TEAL_EINVAL, "joint \"rod\": the motion callback is NULL"},
      {0, 1, sinusoid, NULL, TEAL_EINVAL, "joint \"rod\" already has a prescribed motion"},
      {1, 0, sinusoid, NULL, TEAL_EINVAL, "only 1-dof joints (revolute, prismatic)"},
      {0, 0, NULL, pp2, TEAL_ESIZE, "the trajectory has several rows"},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
    teal_plant *p = pendulum();
    teal_spatial_inertia M =
        teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(0.1, 0.1, 0.1));
    int b = teal_plant_add_rigid_body(p, "ball", TEAL_DEFAULT_MODEL_INSTANCE, &M);
    teal_plant_add_joint(p, "ball", TEAL_JOINT_BALL, TEAL_WORLD_FRAME, teal_plant_body_frame(p, b),
                         NULL, 0);
    if (cases[c].twice) {
      ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, sinusoid, NULL), TEAL_OK);
    }
    int rc = cases[c].pp ? teal_plant_prescribe_joint_trajectory(p, cases[c].joint, cases[c].pp)
                         : teal_plant_prescribe_joint_motion(p, cases[c].joint, cases[c].fn, NULL);
    ck_assert_int_eq(rc, cases[c].code);
    ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, cases[c].needle));
    teal_plant_free(p);
  }
  teal_piecewise_polynomial_free(pp2);

  teal_plant *p = pendulum();
  ck_assert_int_eq(teal_plant_set_baumgarte_stabilization(p, -1.0, 0.0), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(teal_plant_error(p)->message, "alpha = -1, beta = 0"));
  teal_plant_free(p);

  p = pendulum();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, sinusoid, NULL), TEAL_ESTATE);
  ck_assert_int_eq(teal_plant_set_constraint_projection(p, 0), TEAL_ESTATE);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double tau[2];
  TS_EXPECT_ERROR(teal_plant_calc_motion_forces(p, ctx, tau, 2), TEAL_ESIZE,
                  teal_context_error(ctx), "tau has the wrong size (the plant has nv = 1)");
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau, 1), TEAL_OK);
  ck_assert_double_eq(tau[0], 0.0); /* nothing held */
  TS_EXPECT_ERROR(teal_plant_calc_motion_errors(p, ctx, 3, tau, 1), TEAL_EINVAL,
                  teal_context_error(ctx), "level 3 (0, 1 or 2)");
  TS_EXPECT_ERROR(teal_plant_calc_motion_power(p, ctx, NULL), TEAL_EINVAL, teal_context_error(ctx),
                  "power is NULL");
  /* as documented: NULL err is TEAL_EINVAL, a wrong n TEAL_ESIZE */
  TS_EXPECT_ERROR(teal_plant_calc_motion_errors(p, ctx, 0, NULL, 1), TEAL_EINVAL,
                  teal_context_error(ctx), "err NULL");
  TS_EXPECT_ERROR(teal_plant_calc_motion_errors(p, ctx, 0, tau, 2), TEAL_ESIZE,
                  teal_context_error(ctx), "n = 2 (nv = 1)");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("prescribed_motion");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, sinusoid_is_followed_and_its_force_is_the_inverse_dynamics);
  tcase_add_test(tc, free_dof_obeys_the_equations_of_motion);
  tcase_add_test(tc, trajectory_is_followed);
  tcase_add_test(tc, baumgarte_removes_the_drift_that_stays_without_it);
  tcase_add_test(tc, failing_motion_stops_and_keeps_the_last_state);
  tcase_add_test(tc, discrete_sinusoid_converges_and_its_force_to_the_inverse_dynamics);
  tcase_add_test(tc, bad_declarations_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
