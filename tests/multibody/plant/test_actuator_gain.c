/* The input gain of actuators (multibody/tree/actuator_gain.h) on a
 * three-joint chain with gains 2.5, -0.5 and 1: the actuation's generalized
 * force against clamp(gain * u, +-limit), checked as the acceleration the
 * same plant reaches with that force on applied_generalized_force (continuous
 * and discrete); B against the gains; the linearization w.r.t. u against
 * M^-1 B and against central differences (inside and beyond the limit, where
 * the column vanishes), continuous and discrete; the summary; bad inputs with
 * their messages. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/ports.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/actuator_gain.h"
#include "multibody/tree/plant_summary.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/linearize.h"

enum { NV = 3 };
static const double k_gain[NV] = {2.5, -0.5, 1.0};
static const double k_limit[NV] = {4.0, 3.0, INFINITY};

/* revolute (y) - prismatic (x) - revolute (x) with damping and gravity, one
 * actuator per joint; the gains are set unless open_only. */
static teal_plant *geared_chain(double time_step, int open_only) {
  teal_plant *p = teal_plant_new(time_step, NULL);
  ck_assert_ptr_nonnull(p);
  unsigned s = 11;
  const teal_joint_kind kind[NV] = {TEAL_JOINT_REVOLUTE, TEAL_JOINT_PRISMATIC, TEAL_JOINT_REVOLUTE};
  const teal_vec3 axis[NV] = {teal_vec3_make(0, 1, 0), teal_vec3_make(1, 0, 0),
                              teal_vec3_make(1, 0, 0)};
  int parent = TEAL_WORLD_BODY;
  for (int i = 0; i < NV; i++) {
    char name[8] = {'b', (char)('0' + i), 0};
    teal_spatial_inertia M = ts_mb_rand_inertia(&s);
    int b = teal_plant_add_rigid_body(p, name, TEAL_DEFAULT_MODEL_INSTANCE, &M);
    name[0] = 'j';
    int j = ts_mb_connect(p, name, kind[i], parent, b, &axis[i]);
    double d = 0.2;
    ck_assert_int_eq(teal_plant_set_joint_damping(p, j, &d), TEAL_OK);
    name[0] = 'm';
    ck_assert_int_eq(teal_plant_add_joint_actuator(p, name, j, k_limit[i]), i);
    if (!open_only && k_gain[i] != 1.0) {
      ck_assert_int_eq(teal_plant_set_actuator_input_gain(p, i, k_gain[i]), TEAL_OK);
    }
    parent = b;
  }
  ck_assert_int_eq(teal_plant_set_gravity(p, teal_vec3_make(0, 0, -9.81)), TEAL_OK);
  if (!open_only) {
    ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  }
  return p;
}

static const double k_q[NV] = {0.4, -0.1, 0.7}, k_v[NV] = {-0.3, 0.5, 1.1};

/* A context at (k_q, k_v) with u on actuation and tau on
 * applied_generalized_force. */
static teal_context *context_with(const teal_plant *p, const double *u, const double *tau) {
  teal_context *ctx = teal_context_new(teal_plant_system((teal_plant *)p), NULL);
  ck_assert_ptr_nonnull(ctx);
  ck_assert_int_eq(teal_context_fix_input(ctx, teal_plant_actuation_input_port(p), u, NV), TEAL_OK);
  ck_assert_int_eq(
      teal_context_fix_input(ctx, teal_plant_applied_generalized_force_input_port(p), tau, NV),
      TEAL_OK);
  ck_assert_int_eq(teal_plant_set_positions(p, ctx, k_q, NV), TEAL_OK);
  ck_assert_int_eq(teal_plant_set_velocities(p, ctx, k_v, NV), TEAL_OK);
  return ctx;
}

static void acceleration(const teal_plant *p, const double *u, const double *tau, double *vdot) {
  teal_context *ctx = context_with(p, u, tau);
  const double *a;
  ck_assert_int_eq(teal_plant_eval_generalized_acceleration(p, ctx, &a), TEAL_OK);
  memcpy(vdot, a, sizeof(double) * NV);
  teal_context_free(ctx);
}

/* u inside the limits, and u driving the first two actuators past them
 * (gain * u = 5 > 4 and -0.5 * 8 = -4 < -3). */
static const double k_u_inside[NV] = {1.2, -3.0, 0.8}, k_u_beyond[NV] = {2.0, 8.0, -2.0};

START_TEST(actuation_is_the_clamped_gain_times_u) {
  const double zero[NV] = {0, 0, 0};
  const double *cases[2] = {k_u_inside, k_u_beyond};
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_plant *p = geared_chain(discrete ? 1e-3 : 0.0, 0);
    for (int c = 0; c < 2; c++) {
      double tau[NV], va[NV], vb[NV];
      for (int i = 0; i < NV; i++) {
        tau[i] = fmax(-k_limit[i], fmin(k_limit[i], k_gain[i] * cases[c][i]));
      }
      acceleration(p, cases[c], zero, va);
      acceleration(p, zero, tau, vb);
      ck_assert_msg(ts_mb_max_abs_diff(va, vb, NV) < 1e-12, "discrete %d case %d: %g", discrete, c,
                    ts_mb_max_abs_diff(va, vb, NV));
      /* and the gain matters: u itself as the force gives another motion */
      acceleration(p, zero, cases[c], vb);
      ck_assert(ts_mb_max_abs_diff(va, vb, NV) > 1e-3);
    }
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(actuation_matrix_holds_the_gains) {
  teal_plant *p = geared_chain(0.0, 0);
  double B[NV * NV];
  ck_assert_int_eq(teal_plant_make_actuation_matrix(p, B), TEAL_OK);
  for (int a = 0; a < NV; a++) {
    ck_assert_double_eq(teal_plant_actuator_input_gain(p, a), k_gain[a]);
    for (int v = 0; v < NV; v++) {
      double want = v == teal_plant_actuator_v_index(p, a) ? k_gain[a] : 0.0;
      ck_assert_double_eq(B[v * NV + a], want);
    }
  }
  teal_plant_free(p);
}
END_TEST

/* The linearization of p at u (state output) by the analytic hook or by
 * central differences. */
static void linearize_at(const teal_plant *p, const double *u, int analytic,
                         teal_linear_system_matrices *m) {
  const double zero[NV] = {0, 0, 0};
  teal_context *ctx = context_with(p, u, zero);
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = teal_plant_actuation_input_port(p);
  o.output_port = teal_plant_state_output_port(p);
  o.use_analytic = analytic;
  o.equilibrium_tolerance = 0.0;
  teal_error err = {0};
  const teal_system *sys = teal_plant_system((teal_plant *)p);
  ck_assert_msg(teal_linearize_matrices(sys, ctx, &o, m, &err) == TEAL_OK, "%s", err.message);
  teal_context_free(ctx);
}

/* The velocity rows of B (rows NV.. of the 2 NV x NV matrix). */
static const double *velocity_rows(const teal_linear_system_matrices *m) {
  ck_assert_int_eq(m->nx, 2 * NV);
  ck_assert_int_eq(m->nu, NV);
  return m->B + NV * NV;
}

START_TEST(linearization_is_m_inverse_b) {
  teal_plant *p = geared_chain(0.0, 0);
  teal_linear_system_matrices an, fd;
  linearize_at(p, k_u_inside, 1, &an);
  linearize_at(p, k_u_inside, 0, &fd);
  /* M^-1 B column by column: the acceleration from a unit force on the
   * actuated dof, scaled by the gain (vdot is affine in tau) */
  const double zero[NV] = {0, 0, 0};
  double v0[NV], e[NV];
  acceleration(p, zero, zero, v0);
  const double *Ban = velocity_rows(&an), *Bfd = velocity_rows(&fd);
  for (int a = 0; a < NV; a++) {
    double tau[NV] = {0, 0, 0};
    tau[teal_plant_actuator_v_index(p, a)] = 1.0;
    acceleration(p, zero, tau, e);
    for (int i = 0; i < NV; i++) {
      double want = k_gain[a] * (e[i] - v0[i]);
      ck_assert_double_eq_tol(Ban[i * NV + a], want, 1e-11);
      ck_assert_double_eq_tol(Bfd[i * NV + a], want, 1e-6);
    }
  }
  teal_linear_system_matrices_free(&an);
  teal_linear_system_matrices_free(&fd);
  teal_plant_free(p);
}
END_TEST

START_TEST(linearization_matches_differences_beyond_the_limit) {
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_plant *p = geared_chain(discrete ? 1e-3 : 0.0, 0);
    teal_linear_system_matrices an, fd;
    linearize_at(p, k_u_beyond, 1, &an);
    linearize_at(p, k_u_beyond, 0, &fd);
    const double *Ban = velocity_rows(&an), *Bfd = velocity_rows(&fd);
    for (int i = 0; i < NV; i++) {
      /* the clamped actuators 0 and 1 have no effect; actuator 2 has */
      ck_assert_double_eq(Ban[i * NV + 0], 0.0);
      ck_assert_double_eq(Ban[i * NV + 1], 0.0);
    }
    ck_assert(ts_mb_max_abs(Ban, NV * NV) > 1e-6);
    double scale = discrete ? 1e-3 : 1.0;
    ck_assert_msg(ts_mb_max_abs_diff(Ban, Bfd, NV * NV) < 1e-6 * scale, "discrete %d: %g", discrete,
                  ts_mb_max_abs_diff(Ban, Bfd, NV * NV));
    teal_linear_system_matrices_free(&an);
    teal_linear_system_matrices_free(&fd);
    /* inside the limits the discrete B is h M^-1 B, compared with differences */
    linearize_at(p, k_u_inside, 1, &an);
    linearize_at(p, k_u_inside, 0, &fd);
    ck_assert_msg(ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NV) < 1e-6 * scale, "%g",
                  ts_mb_max_abs_diff(an.B, fd.B, 2 * NV * NV));
    teal_linear_system_matrices_free(&an);
    teal_linear_system_matrices_free(&fd);
    teal_plant_free(p);
  }
}
END_TEST

START_TEST(summary_lists_gains_other_than_one) {
  teal_plant *p = geared_chain(0.0, 0);
  char *text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_nonnull(text);
  ck_assert_ptr_nonnull(strstr(text,
                               "actuator input gains (tau = gain * u):\n"
                               "  0 \"m0\" (v 0): 2.5\n"
                               "  1 \"m1\" (v 1): -0.5\n"));
  ck_assert_ptr_null(strstr(text, "\"m2\""));
  teal_free(text);
  teal_plant_free(p);
  /* all gains 1: no section */
  p = geared_chain(0.0, 1);
  ck_assert_int_eq(teal_plant_finalize(p), TEAL_OK);
  text = teal_plant_summary_string(p, NULL);
  ck_assert_ptr_null(strstr(text, "input gain"));
  teal_free(text);
  teal_plant_free(p);
}
END_TEST

START_TEST(bad_gains_are_refused) {
  struct {
    int actuator;
    double gain;
    int code;
    const char *needle;
  } cases[] = {{0, 0.0, TEAL_EINVAL, "input gain of actuator 'm0' is 0, must be nonzero"},
               {1, NAN, TEAL_ENONFINITE, "input gain of actuator 'm1' is nan"},
               {2, -INFINITY, TEAL_ENONFINITE, "input gain of actuator 'm2' is -inf"},
               {3, 2.0, TEAL_ENOTFOUND, "set_actuator_input_gain: unknown actuator 3"},
               {-1, 2.0, TEAL_ENOTFOUND, "set_actuator_input_gain: unknown actuator -1"}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    teal_plant *p = geared_chain(0.0, 1);
    int rc = teal_plant_set_actuator_input_gain(p, cases[i].actuator, cases[i].gain);
    TS_EXPECT_ERROR(rc, cases[i].code, teal_plant_error(p), cases[i].needle);
    for (int a = 0; a < NV; a++) {
      ck_assert_double_eq(teal_plant_actuator_input_gain(p, a), 1.0); /* unchanged */
    }
    teal_plant_free(p);
  }
  teal_plant *p = geared_chain(0.0, 0);
  TS_EXPECT_ERROR(teal_plant_set_actuator_input_gain(p, 0, 3.0), TEAL_ESTATE, teal_plant_error(p),
                  "cannot add or change the input gain of actuator 'm0' after finalize");
  ck_assert_double_eq(teal_plant_actuator_input_gain(p, 0), 2.5);
  ck_assert(isnan(teal_plant_actuator_input_gain(p, 3)));
  ck_assert(isnan(teal_plant_actuator_input_gain(p, -1)));
  ck_assert(isnan(teal_plant_actuator_input_gain(NULL, 0)));
  ck_assert_int_eq(teal_plant_set_actuator_input_gain(NULL, 0, 1.0), TEAL_EINVAL);
  teal_plant_free(p);
}
END_TEST

int main(void) {
  Suite *s = suite_create("actuator_gain");
  TCase *tc = tcase_create("gain");
  tcase_add_test(tc, actuation_is_the_clamped_gain_times_u);
  tcase_add_test(tc, actuation_matrix_holds_the_gains);
  tcase_add_test(tc, linearization_is_m_inverse_b);
  tcase_add_test(tc, linearization_matches_differences_beyond_the_limit);
  tcase_add_test(tc, summary_lists_gains_other_than_one);
  tcase_add_test(tc, bad_gains_are_refused);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
