/* Compliant distance constraints in the discrete step
 * (multibody/plant/discrete_constraints.c): a row of the step with the
 * spring's own stiffness and damping, implicit, instead of an explicit
 * spring-damper force. A bob on a very stiff one (k = 1e8, which an explicit
 * force makes blow up at 1 ms) stays stable and converges to the
 * continuous run of the rigid pendulum as h halves; a soft one oscillates at
 * the analytic damped frequency with the analytic damping ratio, in the
 * continuous plant (against the closed form) and the discrete one (measured
 * from its peaks, the error shrinking with h); disabling it in a context
 * removes its force from the step; the tension the step reports is the
 * spring's k (l - l0) + d ldot at the step's end and m g for a bob hanging
 * at rest, and bad calls get clear errors. */
#include <check.h>
#include <math.h>

#include "support/error_messages.h"
#include "support/test_support.h"
#include "teal.h"

#define PI 3.14159265358979323846

/* A 1 kg bob (its center of mass at its origin) tied to the world origin
 * by a distance constraint of length 1, stiffness k (INFINITY: rigid) and
 * damping d, under gravity g along -z; time step h (0: continuous). */
static teal_plant *spring_bob_solved_by(double h, double k, double d, double g,
                                        teal_discrete_contact_solver solver) {
  teal_plant *p = teal_plant_new(h, NULL);
  if (h > 0.0) {
    ck_assert_int_eq(teal_plant_set_discrete_contact_solver(p, solver), TEAL_OK);
  }
  teal_spatial_inertia M =
      teal_spatial_inertia_from_central(1.0, teal_vec3_zero(), teal_mat3_diag(1e-3, 1e-3, 1e-3));
  int b = teal_plant_add_rigid_body(p, "bob", TEAL_DEFAULT_MODEL_INSTANCE, &M);
  ck_assert_int_eq(teal_plant_add_distance_constraint(p, TEAL_WORLD_BODY, teal_vec3_zero(), b,
                                                      teal_vec3_zero(), 1.0, k, d),
                   0);
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -g)), TEAL_OK);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  return p;
}

static teal_plant *spring_bob(double h, double k, double d, double g) {
  return spring_bob_solved_by(h, k, d, g, TEAL_DISCRETE_CONTACT_SOLVER_TAMSI);
}

/* A simulator with the bob at rest at p0 (continuous: RK45 at 1e-10). */
static teal_simulator *start(teal_plant *p, teal_vec3 p0) {
  teal_simulator *sim = teal_simulator_new(teal_plant_system(p), NULL, NULL);
  ck_assert_ptr_nonnull(sim);
  teal_transform X = {teal_rotation_identity(), p0};
  ck_assert_int_eq(teal_plant_set_free_body_pose(p, teal_simulator_context(sim), 1, X), TEAL_OK);
  if (teal_plant_time_step(p) == 0.0) {
    ck_assert_int_eq(teal_simulator_set_integrator(sim, teal_integrator_rk45), TEAL_OK);
    ck_assert_int_eq(teal_simulator_set_accuracy(sim, 1e-10), TEAL_OK);
  }
  return sim;
}

static teal_vec3 advance(teal_plant *p, teal_simulator *sim, double t) {
  teal_sim_status st;
  int rc = teal_simulator_advance_to(sim, t, &st);
  ck_assert_msg(rc == TEAL_OK, "t = %g: %s", st.time, st.message);
  const teal_transform *X;
  ck_assert_int_eq(teal_plant_eval_body_poses(p, teal_simulator_context(sim), &X), TEAL_OK);
  return X[1].p;
}

/* The bob's x after 0.5 s from 0.5 rad at rest, with k = 1e8 at step h
 * (0: the rigid pendulum, continuous); with h = 1 ms, its length checked
 * to stay near 1 for 2 s. */
static double swing(double h) {
  teal_plant *p = spring_bob(h, h > 0.0 ? 1e8 : INFINITY, 0.0, 9.81);
  teal_simulator *sim = start(p, teal_vec3_make(sin(0.5), 0.0, -cos(0.5)));
  double x = advance(p, sim, 0.5).v[0];
  for (int k = 1; h == 1e-3 && k <= 150; k++) {
    double len = teal_vec3_norm(advance(p, sim, 0.5 + 0.01 * k));
    ck_assert_msg(fabs(len - 1.0) < 1e-3, "t = %g: length %g", 0.5 + 0.01 * k, len);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
  return x;
}

START_TEST(stiff_compliant_distance_is_stable_and_converges) {
  double ref = swing(0.0), e[3];
  for (int i = 0; i < 3; i++) {
    e[i] = fabs(swing(1e-3 / (1 << i)) - ref);
  }
  ck_assert_double_lt(e[0], 2e-2);
  /* first order: each halving of h about halves the difference */
  ck_assert_msg(e[1] < 0.7 * e[0] && e[2] < 0.7 * e[1], "errors %g %g %g", e[0], e[1], e[2]);
}
END_TEST

/* The soft spring: k = 100, d = 1 on 1 kg, so w0 = 10 rad/s, zeta = 0.05. */
#define SOFT_K 100.0
#define SOFT_D 1.0
#define STRETCH 0.01

static double zeta_exact(void) {
  return SOFT_D / (2.0 * sqrt(SOFT_K));
}

static double wd_exact(void) {
  double z = zeta_exact();
  return sqrt(SOFT_K) * sqrt(1.0 - z * z);
}

/* The stretch u = l - 1 of the closed form, from u(0) = STRETCH at rest. */
static double stretch_exact(double t) {
  double z = zeta_exact(), w0 = sqrt(SOFT_K), wd = wd_exact();
  return STRETCH * exp(-z * w0 * t) * (cos(wd * t) + z * w0 / wd * sin(wd * t));
}

START_TEST(soft_compliant_distance_follows_the_closed_form_when_continuous) {
  teal_plant *p = spring_bob(0.0, SOFT_K, SOFT_D, 0.0);
  teal_simulator *sim = start(p, teal_vec3_make(0, 0, -1.0 - STRETCH));
  for (int k = 1; k <= 40; k++) {
    double u = teal_vec3_norm(advance(p, sim, 0.05 * k)) - 1.0;
    ck_assert_double_eq_tol(u, stretch_exact(0.05 * k), 1e-8);
  }
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* The damped frequency and damping ratio of the discrete run at step h,
 * from its first and third maxima after t = 0 (each placed by the parabola
 * through the sample at the peak and its neighbours). */
static void measure(double h, double *wd, double *zeta) {
  teal_plant *p = spring_bob(h, SOFT_K, SOFT_D, 0.0);
  teal_simulator *sim = start(p, teal_vec3_make(0, 0, -1.0 - STRETCH));
  double u[3] = {STRETCH, STRETCH, 0.0}, tp[3], up[3]; /* the samples k - 2, k - 1, k */
  int n = 0;
  for (int k = 1; n < 3; k++) {
    u[2] = teal_vec3_norm(advance(p, sim, k * h)) - 1.0;
    if (u[1] > u[0] && u[1] >= u[2]) {
      double a = 0.5 * (u[0] + u[2]) - u[1], b = 0.5 * (u[2] - u[0]), s = -b / (2.0 * a);
      tp[n] = (k - 1 + s) * h;
      up[n++] = u[1] + b * s + a * s * s;
    }
    u[0] = u[1];
    u[1] = u[2];
  }
  double delta = 0.5 * log(up[0] / up[2]);
  *wd = 2.0 * PI / (0.5 * (tp[2] - tp[0]));
  *zeta = delta / sqrt(4.0 * PI * PI + delta * delta);
  teal_simulator_free(sim);
  teal_plant_free(p);
}

START_TEST(soft_compliant_distance_oscillates_at_the_analytic_frequency_when_discrete) {
  double wd1, z1, wd2, z2;
  measure(1e-3, &wd1, &z1);
  measure(2.5e-4, &wd2, &z2);
  double ew1 = fabs(wd1 / wd_exact() - 1.0), ew2 = fabs(wd2 / wd_exact() - 1.0);
  double ez1 = fabs(z1 - zeta_exact()), ez2 = fabs(z2 - zeta_exact());
  /* the implicit (backward Euler) step adds a damping ratio of about
   * h w0 / 2 = 0.005 at 1 ms and shifts the frequency by O((h w0)^2) */
  ck_assert_msg(ew1 < 2e-3 && ez1 < 6e-3, "h = 1 ms: wd off by %g, zeta by %g", ew1, ez1);
  ck_assert_msg(ez2 < 0.3 * ez1 && ew2 < 0.3 * ew1, "errors: zeta %g %g, wd %g %g", ez1, ez2, ew1,
                ew2);
}
END_TEST

START_TEST(disabled_compliant_distance_exerts_no_force_in_the_step) {
  const double h = 1e-3;
  teal_plant *p = spring_bob(h, SOFT_K, SOFT_D, 9.81);
  teal_simulator *sim = start(p, teal_vec3_make(0, 0, -1.0 - STRETCH));
  teal_context *ctx = teal_simulator_context(sim);
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 0, 0), TEAL_OK);
  /* free fall: semi-implicit Euler drops the bob by g h^2 in one step */
  double z = advance(p, sim, h).v[2];
  ck_assert_double_eq_tol(z, -1.0 - STRETCH - 9.81 * h * h, 1e-15);
  /* enabled again, the stretched spring (k u = 1 N) slows the fall: two
   * more free steps would reach z - 5 g h^2 */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 0, 1), TEAL_OK);
  double free = z - 5.0 * 9.81 * h * h;
  z = advance(p, sim, 3 * h).v[2];
  ck_assert_double_gt(z - free, 1e-6);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

/* Critical damping for the hanging bob (d = 2 sqrt(k m)): it settles in
 * well under the 3 s the test waits (time constant 0.1 s). */
#define HANG_D 20.0

START_TEST(hanging_compliant_distance_reports_its_tension) {
  const double h = 1e-3, g = 9.81;
  teal_plant *p = spring_bob(h, SOFT_K, HANG_D, g);
  teal_simulator *sim = start(p, teal_vec3_make(0, 0, -1.0));
  teal_context *ctx = teal_simulator_context(sim);
  /* transient: the step's tension is k (l0 + h ldot - 1) + d ldot, with
   * ldot = n . v+ along the start direction n and v+ = (p+ - p) / h */
  teal_vec3 p0 = teal_vec3_make(0, 0, -1.0);
  for (int k = 1; k <= 50; k++) {
    double tension;
    ck_assert_int_eq(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_OK);
    teal_vec3 p1 = advance(p, sim, k * h);
    double l0 = teal_vec3_norm(p0);
    double ldot = teal_vec3_dot(teal_vec3_scale(p0, 1.0 / l0), teal_vec3_sub(p1, p0)) / h;
    double expect = SOFT_K * (l0 + h * ldot - 1.0) + HANG_D * ldot;
    ck_assert_msg(fabs(tension - expect) < 1e-9 * fmax(1.0, fabs(expect)),
                  "step %d: tension %.17g, spring %.17g", k, tension, expect);
    ck_assert_double_gt(tension, 0.0); /* the bob pulls the spring from the start */
    p0 = p1;
  }
  /* at rest: the spring carries the weight, k (l - 1) = m g */
  teal_vec3 pe = advance(p, sim, 3.0);
  double tension;
  ck_assert_int_eq(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_OK);
  ck_assert_double_eq_tol(tension, 1.0 * g, 1e-9);
  ck_assert_double_eq_tol(SOFT_K * (teal_vec3_norm(pe) - 1.0), 1.0 * g, 1e-9);
  /* disabled, the constraint carries nothing */
  ck_assert_int_eq(teal_plant_set_constraint_enabled(p, ctx, 0, 0), TEAL_OK);
  ck_assert_int_eq(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_OK);
  ck_assert_double_eq(tension, 0.0);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

START_TEST(discrete_tension_bad_calls_are_reported) {
  teal_plant *p = spring_bob(1e-3, SOFT_K, SOFT_D, 9.81);
  teal_context *ctx = teal_context_new(teal_plant_system(p), NULL);
  double tension;
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_tension(p, ctx, 0, NULL), TEAL_EINVAL,
                  teal_context_error(ctx), "tension is NULL");
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_tension(p, ctx, 1, &tension), TEAL_EINVAL,
                  teal_context_error(ctx), "constraint 1 is not a constraint of the plant");
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_tension(p, ctx, -1, &tension), TEAL_EINVAL,
                  teal_context_error(ctx), "constraint -1 is not a constraint of the plant");
  teal_context_free(ctx);
  teal_plant_free(p);

  p = spring_bob(1e-3, INFINITY, 0.0, 9.81); /* rigid: a row, no spring */
  ctx = teal_context_new(teal_plant_system(p), NULL);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_EINVAL,
                  teal_context_error(ctx), "constraint 0 is not a compliant distance constraint");
  teal_context_free(ctx);
  teal_plant_free(p);

  p = spring_bob(0.0, SOFT_K, SOFT_D, 9.81);
  ctx = teal_context_new(teal_plant_system(p), NULL);
  TS_EXPECT_ERROR(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_EINVAL,
                  teal_context_error(ctx), "the plant is continuous");
  teal_context_free(ctx);
  teal_plant_free(p);
}
END_TEST

/* The SAP solver (discrete_contact_solver.h) reports the same tension: the
 * hanging bob at rest carries m g. */
START_TEST(sap_reports_the_tension_too) {
  const double h = 1e-3, g = 9.81;
  teal_plant *p = spring_bob_solved_by(h, SOFT_K, HANG_D, g, TEAL_DISCRETE_CONTACT_SOLVER_SAP);
  teal_simulator *sim = start(p, teal_vec3_make(0, 0, -1.0));
  teal_context *ctx = teal_simulator_context(sim);
  teal_vec3 pe = advance(p, sim, 3.0);
  double tension;
  ck_assert_int_eq(teal_plant_get_discrete_constraint_tension(p, ctx, 0, &tension), TEAL_OK);
  ck_assert_double_eq_tol(tension, 1.0 * g, 1e-9);
  ck_assert_double_eq_tol(SOFT_K * (teal_vec3_norm(pe) - 1.0), 1.0 * g, 1e-9);
  teal_simulator_free(sim);
  teal_plant_free(p);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("discrete_compliance");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, stiff_compliant_distance_is_stable_and_converges);
  tcase_add_test(tc, soft_compliant_distance_follows_the_closed_form_when_continuous);
  tcase_add_test(tc, soft_compliant_distance_oscillates_at_the_analytic_frequency_when_discrete);
  tcase_add_test(tc, disabled_compliant_distance_exerts_no_force_in_the_step);
  tcase_add_test(tc, hanging_compliant_distance_reports_its_tension);
  tcase_add_test(tc, sap_reports_the_tension_too);
  tcase_add_test(tc, discrete_tension_bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
