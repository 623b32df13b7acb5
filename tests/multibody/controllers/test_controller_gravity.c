/* Gravity of the model-based controllers as a context value
 * (multibody/controllers/controller_gravity.h): the default is the model's,
 * setting it in one context changes that context's gravity compensation
 * (against teal_mb_gravity_forces with the same gravity, and against the
 * plant: its acceleration under the compensation is zero with the plant's
 * context at the same gravity), other contexts keep theirs, and bad calls
 * report clear errors. */
#include <check.h>

#include "framework/context_tree.h"
#include "multibody/algorithms/rnea.h"
#include "multibody/controllers/controller_gravity.h"
#include "multibody/controllers/inverse_dynamics.h"
#include "multibody/controllers/inverse_dynamics_controller.h"
#include "multibody/controllers/joint_stiffness_controller.h"
#include "multibody/plant/plant_state.h"
#include "support/error_messages.h"

#include "mb_controller_fixtures.h"

#define N 3

static const teal_vec3 k_moon_tilted = {{0.5, 3.0, -1.62}};

/* -tau_g(q) of the plant for gravity g, from the RNEA on separate data. */
static void minus_tau_g(const teal_plant *p, const double *q, teal_vec3 g, double *out) {
  teal_mb_data *d = teal_mb_data_new(p, NULL);
  ck_assert_int_eq(teal_mb_data_set_gravity(d, g), TEAL_OK);
  ck_assert_int_eq(teal_mb_gravity_forces(p, d, q, out), TEAL_OK);
  teal_mb_data_free(d);
  for (int i = 0; i < N; i++) {
    out[i] = -out[i];
  }
}

/* Fixes every input of c for rest at x = [q; 0]: the states to x, the
 * desired acceleration (if any) to zero. */
static void fix_rest(const teal_system *c, teal_context *ctx, const double *x) {
  static const double zero[N] = {0};
  for (int i = 0; i < teal_system_num_input_ports(c); i++) {
    const char *nm = teal_input_port_name(teal_system_input_port(c, i));
    int acc = strcmp(nm, "desired_acceleration") == 0;
    fx_fix(c, ctx, nm, acc ? zero : x, acc ? N : 2 * N);
  }
}

/* c's output at rest equals -tau_g for the model's gravity, then for
 * k_moon_tilted once set in ctx; a second context keeps the model's. */
static void check_controller(const teal_system *c, const teal_plant *p, const double *x) {
  teal_context *ctx = teal_context_new(c, NULL), *other = teal_context_new(c, NULL);
  fix_rest(c, ctx, x);
  fix_rest(c, other, x);
  double out[N], ref[N];
  teal_vec3 g = k_moon_tilted, got;
  minus_tau_g(p, x, teal_plant_gravity(p), ref);
  fx_output(c, ctx, out, N);
  ck_assert_double_le(fx_rel_diff(out, ref, N), 1e-12);
  ck_assert_int_eq(teal_mb_controller_get_gravity_in_context(c, ctx, &got), TEAL_OK);
  ck_assert_double_eq(got.v[2], -9.81);
  ck_assert_int_eq(teal_mb_controller_set_gravity_in_context(c, ctx, g), TEAL_OK);
  ck_assert_int_eq(teal_mb_controller_get_gravity_in_context(c, ctx, &got), TEAL_OK);
  ck_assert(got.v[0] == g.v[0] && got.v[1] == g.v[1] && got.v[2] == g.v[2]);
  fx_output(c, ctx, out, N); /* the cached output was invalidated */
  minus_tau_g(p, x, g, ref);
  ck_assert_double_le(fx_rel_diff(out, ref, N), 1e-12);
  minus_tau_g(p, x, teal_plant_gravity(p), ref);
  ck_assert_double_gt(fx_rel_diff(out, ref, N), 0.1);
  fx_output(c, other, out, N);
  ck_assert_double_le(fx_rel_diff(out, ref, N), 1e-12);
  teal_context_free(other);
  teal_context_free(ctx);
}

START_TEST(each_controller_reads_gravity_from_its_context) {
  teal_plant *p = fx_chain3(1, 0.0);
  double x[2 * N] = {0.3, -0.7, 1.1, 0, 0, 0};
  static const double kp[N] = {10, 10, 10}, ki[N] = {0}, kd[N] = {2, 2, 2};
  teal_system *sys[3] = {teal_inverse_dynamics_new("id", p, TEAL_INVERSE_DYNAMICS, NULL),
                         teal_joint_stiffness_controller_new("jsc", p, kp, kd, N, NULL),
                         teal_inverse_dynamics_controller_new("idc", p, kp, ki, kd, N, 1, NULL)};
  for (int i = 0; i < 3; i++) {
    ck_assert_ptr_nonnull(sys[i]);
    check_controller(sys[i], p, x);
    teal_system_free(sys[i]);
  }
  teal_plant_free(p);
}
END_TEST

/* With the plant's context and the controller's at the same gravity, the
 * compensation holds the plant still: vdot = 0 under it. */
START_TEST(compensation_matches_the_plant_context) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *c = teal_inverse_dynamics_new("gc", p, TEAL_GRAVITY_COMPENSATION, NULL);
  teal_context *cc = teal_context_new(c, NULL), *pc = teal_context_new(teal_plant_system(p), NULL);
  double x[2 * N] = {0.4, 0.9, -0.5, 0, 0, 0}, tau[N];
  const double *vdot;
  ck_assert_int_eq(teal_plant_set_state(p, pc, x, 2 * N), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_gravity_in_context(p, pc, k_moon_tilted), TEAL_OK);
  ck_assert_int_eq(teal_mb_controller_set_gravity_in_context(c, cc, k_moon_tilted), TEAL_OK);
  fx_fix(c, cc, "estimated_state", x, 2 * N);
  fx_output(c, cc, tau, N);
  fx_fix(teal_plant_system(p), pc, "applied_generalized_force", tau, N);
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, pc, &vdot), TEAL_OK);
  ck_assert_double_le(fx_rel_diff(vdot, (const double[N]){0}, N), 1e-10);
  teal_context_free(pc);
  teal_context_free(cc);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_calls_say_what_is_wrong) {
  teal_plant *p = fx_chain3(0, 0.0);
  teal_system *c = teal_inverse_dynamics_new("gc", p, TEAL_GRAVITY_COMPENSATION, NULL);
  teal_context *cc = teal_context_new(c, NULL), *pc = teal_context_new(teal_plant_system(p), NULL);
  const teal_error *e = teal_context_error(cc);
  teal_vec3 g = k_moon_tilted, bad = teal_vec3_make(0, NAN, 0);
  TS_EXPECT_ERROR(teal_mb_controller_set_gravity_in_context(c, cc, bad), TEAL_ENONFINITE, e,
                  "not finite");
  TS_EXPECT_ERROR(teal_mb_controller_set_gravity_in_context(NULL, cc, g), TEAL_EINVAL, e,
                  "NULL system");
  TS_EXPECT_ERROR(teal_mb_controller_get_gravity_in_context(c, cc, NULL), TEAL_EINVAL, e,
                  "g_W is NULL");
  ck_assert_int_eq(teal_mb_controller_set_gravity_in_context(c, NULL, g), TEAL_EINVAL);
  const teal_error *pe = teal_context_error(pc);
  TS_EXPECT_ERROR(teal_mb_controller_set_gravity_in_context(teal_plant_system(p), pc, g),
                  TEAL_EINVAL, pe, "not a model-based controller");
  ck_assert_int_lt(teal_mb_controller_set_gravity_in_context(c, pc, g), 0); /* not in pc */
  teal_vec3 got;
  ck_assert_int_eq(teal_mb_controller_get_gravity_in_context(c, cc, &got), TEAL_OK);
  ck_assert_double_eq(got.v[2], -9.81); /* nothing was set by the failures */
  teal_context_free(pc);
  teal_context_free(cc);
  teal_system_free(c);
  teal_plant_free(p);
}
END_TEST

static Suite *controller_gravity_suite(void) {
  Suite *s = suite_create("controller_gravity");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, each_controller_reads_gravity_from_its_context);
  tcase_add_test(tc, compensation_matches_the_plant_context);
  tcase_add_test(tc, bad_calls_say_what_is_wrong);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(controller_gravity_suite());
}
