/* The continuous plant's constraint projection after every step
 * (multibody/plant/plant_projection.c), on a crank-rocker four-bar closed
 * by a ball constraint (one row redundant): passive under gravity for 10 s
 * with RK45 at 1e-8 the constraint error stays below 1e-8, the energy
 * drifts by less than 1e-7 of its scale, and the rocker angle matches the
 * closed-form position analysis and satisfies Freudenstein's equation at
 * every logged step; a perturbed state is projected back to tolerance;
 * Baumgarte's feedback keeps the drift bounded without projection; a loop
 * that cannot close (prescribed crank, locked rocker) stops the simulation
 * keeping the last good state; a prescribed crank drives the loop with
 * G vdot = b holding for the joint solve of crank and constraint rows; a
 * locked crank holds the whole loop. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/context.h"
#include "framework/context_access.h"
#include "framework/system_dynamics.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/joint_locking.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/plant/prescribed_motion.h"
#include "multibody/tree/topology.h"
#include "support/mb_constraint_fixtures.h"
#include "support/sim_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/simulator.h"

#define LA TS_MBC_LA
#define LB TS_MBC_LB
#define LC TS_MBC_LC
#define LD TS_MBC_LD
#define GRAV TS_MBC_GRAV
#define TWO_PI_HALF 3.14159265358979323846

/* The four-bar (support/mb_constraint_fixtures.h), not finalized. */
static teal_plant *four_bar(void) {
  teal_plant *p = ts_mbc_four_bar();
  ck_assert_ptr_nonnull(p);
  return p;
}

static double rocker_angle(double t2, double s) {
  return ts_mbc_four_bar_rocker(t2, s);
}

/* Freudenstein's equation K1 cos t4 - K2 cos t2 + K3 - cos(t2 - t4). */
static double freudenstein(double t2, double t4) {
  double K1 = LD / LA, K2 = LD / LC, K3 = (LA * LA - LB * LB + LC * LC + LD * LD) / (2 * LA * LC);
  return K1 * cos(t4) - K2 * cos(t2) + K3 - cos(t2 - t4);
}

static void assemble(double t2, double *q) {
  ts_mbc_four_bar_assemble(t2, q);
}

/* Joint-ordered values (crank, coupler, rocker) to and from the plant's q
 * order (the tree's, which need not be the joints'). */
static void to_plant(const teal_plant *p, const double *by_joint, double *x) {
  for (int j = 0; j < 3; j++) {
    x[teal_plant_joint_q_start(p, j)] = by_joint[j];
  }
}
static void from_plant(const teal_plant *p, const double *x, double *by_joint) {
  for (int j = 0; j < 3; j++) {
    by_joint[j] = x[teal_plant_joint_q_start(p, j)];
  }
}
static void set_q(const teal_plant *p, teal_context *ctx, const double *by_joint) {
  double x[3];
  to_plant(p, by_joint, x);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, x, 3), TEAL_OK);
}
static void get_q(const teal_plant *p, const teal_context *ctx, double *by_joint) {
  double x[3];
  ck_assert_int_eq(teal_plant_get_positions(p, ctx, x, 3), TEAL_OK);
  from_plant(p, x, by_joint);
}

static double max_perr(const teal_plant *p, const teal_context *ctx) {
  double perr[3];
  ck_assert_int_eq(teal_plant_calc_constraint_position_errors(p, ctx, perr), TEAL_OK);
  return fmax(fabs(perr[0]), fmax(fabs(perr[1]), fabs(perr[2])));
}

static double energy(const teal_plant *p, const teal_context *ctx) {
  double ke, pe;
  const teal_system *sys = teal_plant_system((teal_plant *)p);
  ck_assert_int_eq(teal_calc_kinetic_energy(sys, ctx, &ke), TEAL_OK);
  ck_assert_int_eq(teal_calc_potential_energy(sys, ctx, &pe), TEAL_OK);
  return ke + pe;
}

/* The RK45 simulator of p's system. */
static teal_simulator *rk45(teal_plant *p, double accuracy) {
  return ts_sim_new_rk45(teal_plant_system(p), accuracy);
}

/* Finalizes the four-bar p and returns its simulator (RK45 at `accuracy`;
 * the default integrator and accuracy when accuracy is 0), assembled at
 * crank angle 1.2 at rest: q gets the joint-ordered positions. */
static teal_simulator *assembled_sim(teal_plant *p, double accuracy, double *q) {
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim =
      accuracy > 0 ? rk45(p, accuracy) : teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  assemble(1.2, q);
  set_q(p, teal_simulator_context(sim), q);
  return sim;
}

START_TEST(passive_four_bar_stays_on_its_manifold) {
  teal_plant *p = four_bar();
  double q[3];
  teal_simulator *sim = assembled_sim(p, 1e-8, q);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_double_lt(max_perr(p, ctx), 1e-14);
  ck_assert_double_lt(fabs(freudenstein(q[0], q[2])), 1e-14);
  double e0 = energy(p, ctx), scale = fabs(e0), worst_e = 0.0, worst_p = 0.0, worst_f = 0.0;
  double crank_min = q[0], crank_max = q[0];
  teal_sim_status st;
  for (int k = 1; k <= 1000; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.01 * k, &st), TEAL_OK);
    get_q(p, ctx, q);
    worst_p = fmax(worst_p, max_perr(p, ctx));
    worst_e = fmax(worst_e, fabs(energy(p, ctx) - e0));
    double t4 = rocker_angle(q[0], 1.0);
    worst_f = fmax(worst_f, fabs(remainder(q[2] - t4, 2 * TWO_PI_HALF)));
    worst_f = fmax(worst_f, fabs(freudenstein(q[0], q[2])));
    crank_min = fmin(crank_min, q[0]);
    crank_max = fmax(crank_max, q[0]);
  }
  ck_assert_double_le(worst_p, 1e-8);
  ck_assert_double_le(worst_e / scale, 1e-7);
  ck_assert_double_le(worst_f, 1e-7);
  ck_assert_double_gt(crank_max - crank_min, 1.0); /* it does move */
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(default_simulator_projects_at_its_default_accuracy) {
  /* no teal_simulator_set_accuracy: the context's accuracy is unset and
   * the projection uses the simulator's default, 1e-4 */
  teal_plant *p = four_bar();
  double q[3];
  teal_simulator *sim = assembled_sim(p, 0.0, q);
  teal_context *ctx = teal_simulator_context(sim);
  teal_sim_status st;
  for (int k = 1; k <= 20; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1 * k, &st), TEAL_OK);
    ck_assert_double_le(max_perr(p, ctx), 1e-4);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(perturbed_state_is_projected_to_tolerance) {
  teal_plant *p = four_bar();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL);
  double q[3], q0[3], v[3] = {0.3, -0.2, 0.5}, verr[3];
  assemble(0.7, q0);
  memcpy(q, q0, sizeof(q));
  q[0] += 1e-3;
  q[1] -= 2e-3;
  q[2] += 1.5e-3;
  set_q(p, ctx, q);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 3), TEAL_OK);
  ck_assert_double_gt(max_perr(p, ctx), 1e-3);
  for (int a = 0; a < 2; a++) {
    double tol = a ? 1e-12 : 1e-6;
    ck_assert_int_eq(teal_context_set_accuracy(ctx, tol), TEAL_OK);
    ck_assert_int_eq(teal_project_continuous_state(sys, ctx), TEAL_OK);
    ck_assert_double_le(max_perr(p, ctx), tol);
    ck_assert_int_eq(teal_plant_calc_constraint_velocity_errors(p, ctx, verr), TEAL_OK);
    for (int i = 0; i < 3; i++) {
      ck_assert_double_le(fabs(verr[i]), tol);
    }
  }
  /* the change is of the size of the perturbation, not a jump to another
   * branch */
  get_q(p, ctx, q);
  for (int i = 0; i < 3; i++) {
    ck_assert_double_lt(fabs(q[i] - q0[i]), 5e-3);
  }
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The largest constraint error over 10 s from an assembled state with a
 * 1e-4 error, projection off, RK45 at 1e-6. */
static double drift_without_projection(double alpha, double beta) {
  teal_plant *p = four_bar();
  ck_assert_int_eq(teal_plant_set_constraint_projection(p, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_baumgarte_stabilization(p, alpha, beta), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  teal_simulator *sim = rk45(p, 1e-6);
  teal_context *ctx = teal_simulator_context(sim);
  double q[3], worst = 0.0, last = 0.0;
  assemble(1.2, q);
  q[2] += 1e-4;
  set_q(p, ctx, q);
  teal_sim_status st;
  for (int k = 1; k <= 100; k++) {
    ck_assert_int_eq(teal_simulator_advance_to(sim, 0.1 * k, &st), TEAL_OK);
    last = max_perr(p, ctx);
    worst = fmax(worst, k > 20 ? last : 0.0);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
  return worst;
}

START_TEST(baumgarte_keeps_the_drift_bounded) {
  /* without feedback the initial error never decays */
  double plain = drift_without_projection(0.0, 0.0);
  ck_assert_double_gt(plain, 5e-5);
  /* critically damped at 20/s: after 2 s the error is down to round-off
   * and the integration error, and stays there */
  double stabilized = drift_without_projection(20.0, 20.0);
  ck_assert_double_lt(stabilized, 1e-6);
}
END_TEST

static int crank_motion(double t, double *q, double *qd, double *qdd, void *user) {
  (void)user;
  *q = 1.2 + t;
  *qd = 1.0;
  *qdd = 0.0;
  return TEAL_OK;
}

START_TEST(loop_that_cannot_close_stops_keeping_the_last_state) {
  teal_plant *p = four_bar();
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, crank_motion, NULL), TEAL_OK);
  double q[3], x0[6], x[6];
  teal_simulator *sim = assembled_sim(p, 1e-8, q);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 2), TEAL_OK); /* the rocker */
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x0, 6), TEAL_OK);
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, 1.0, &st);
  ck_assert_int_eq(rc, TEAL_ENOCONV);
  const char *msg = teal_simulator_error(sim)->message;
  ck_assert_ptr_nonnull(strstr(msg, "constraint projection"));
  ck_assert_ptr_nonnull(strstr(msg, "the constraint error is still"));
  ck_assert_double_eq(teal_context_time(ctx), 0.0);
  ck_assert_int_eq(teal_plant_get_state(p, ctx, x, 6), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq(x[i], x0[i]);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(prescribed_crank_drives_the_loop) {
  teal_plant *p = four_bar();
  ck_assert_int_eq(teal_plant_prescribe_joint_motion(p, 0, crank_motion, NULL), TEAL_OK);
  double q[3], v[3] = {1.0, 0.0, 0.0}, x[3];
  teal_simulator *sim = assembled_sim(p, 1e-8, q);
  teal_context *ctx = teal_simulator_context(sim);
  /* consistent velocities: projectU from the crank's rate */
  to_plant(p, v, x);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, x, 3), TEAL_OK);
  ck_assert_int_eq(teal_project_continuous_state(teal_plant_system(p), ctx), TEAL_OK);
  teal_sim_status st;
  for (int k = 1; k <= 30; k++) {
    double t = 0.1 * k, paerr[3];
    const double *vdot;
    ck_assert_int_eq(teal_simulator_advance_to(sim, t, &st), TEAL_OK);
    get_q(p, ctx, q);
    ck_assert_double_eq_tol(q[0], 1.2 + t, 1e-12);
    ck_assert_double_le(max_perr(p, ctx), 1e-8);
    ck_assert_double_le(fabs(remainder(q[2] - rocker_angle(q[0], 1.0), 2 * TWO_PI_HALF)), 1e-7);
    /* the held crank and the constraint rows are solved together */
    ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &vdot), TEAL_OK);
    ck_assert_int_eq(teal_plant_calc_constraint_acceleration_errors(p, ctx, vdot, paerr), TEAL_OK);
    for (int i = 0; i < 3; i++) {
      ck_assert_double_le(fabs(paerr[i]), 1e-10);
    }
    ck_assert_double_eq_tol(vdot[teal_plant_joint_q_start(p, 0)], 0.0, 1e-12);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(locked_crank_holds_the_loop) {
  teal_plant *p = four_bar();
  double q0[3], q[3], tau[3];
  teal_simulator *sim = assembled_sim(p, 1e-8, q0);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 0), TEAL_OK);
  teal_sim_status st;
  ck_assert_int_eq(teal_simulator_advance_to(sim, 2.0, &st), TEAL_OK);
  get_q(p, ctx, q);
  /* one dof, locked: nothing moves */
  for (int i = 0; i < 3; i++) {
    ck_assert_double_eq_tol(q[i], q0[i], 1e-9);
  }
  /* the holding torque carries the loop's weight: nonzero */
  ck_assert_int_eq(teal_plant_calc_motion_forces(p, ctx, tau, 3), TEAL_OK);
  ck_assert_double_gt(fabs(tau[teal_plant_joint_q_start(p, 0)]), 0.1);
  ck_assert_double_eq(tau[teal_plant_joint_q_start(p, 1)], 0.0);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(projected_steps_allocate_nothing) {
  teal_plant *p = four_bar();
  double q[3];
  teal_simulator *sim = assembled_sim(p, 1e-8, q);
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_lock_joint(p, ctx, 1), TEAL_OK); /* the held solve too */
  ck_assert_int_eq(teal_plant_unlock_joint(p, ctx, 1), TEAL_OK);
  ts_sim_expect_steps_allocate_nothing(sim, 0.01, 0.5);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* The projection writes q and v in place: what the context caches from
 * the state before or during it must not survive. The time derivatives
 * after a projection equal those of a fresh context given the same
 * state. */
START_TEST(projection_leaves_no_stale_cache) {
  teal_plant *p = four_bar();
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  const teal_system *sys = teal_plant_system(p);
  teal_context *ctx = teal_context_new(sys, NULL), *fresh = teal_context_new(sys, NULL);
  double q[3], v[3] = {0.3, -0.2, 0.5}, x[6], xd[6], xd_fresh[6];
  assemble(0.7, q);
  q[0] += 1e-3;
  set_q(p, ctx, q);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, v, 3), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, xd), TEAL_OK); /* fills the caches */
  ck_assert_int_eq(teal_context_set_accuracy(ctx, 1e-12), TEAL_OK);
  ck_assert_int_eq(teal_project_continuous_state(sys, ctx), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(sys, ctx, xd), TEAL_OK);
  teal_context_get_continuous_state(ctx, x, 6);
  ck_assert_double_gt(fabs(x[3] - v[0]) + fabs(x[4] - v[1]) + fabs(x[5] - v[2]), 1e-6);
  teal_context_set_continuous_state(fresh, x, 6);
  ck_assert_int_eq(teal_calc_time_derivatives(sys, fresh, xd_fresh), TEAL_OK);
  for (int i = 0; i < 6; i++) {
    ck_assert_double_eq_tol(xd[i], xd_fresh[i], 1e-12);
  }
  teal_context_free(ctx);
  teal_context_free(fresh);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("plant_projection");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, passive_four_bar_stays_on_its_manifold);
  tcase_add_test(tc, default_simulator_projects_at_its_default_accuracy);
  tcase_add_test(tc, perturbed_state_is_projected_to_tolerance);
  tcase_add_test(tc, baumgarte_keeps_the_drift_bounded);
  tcase_add_test(tc, loop_that_cannot_close_stops_keeping_the_last_state);
  tcase_add_test(tc, prescribed_crank_drives_the_loop);
  tcase_add_test(tc, locked_crank_holds_the_loop);
  tcase_add_test(tc, projected_steps_allocate_nothing);
  tcase_add_test(tc, projection_leaves_no_stale_cache);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
