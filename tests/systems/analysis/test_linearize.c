/* Linearization: analytic pendulum matrices (finite differences to 1e-7,
 * exact with the analytic hook), non-equilibrium points, discrete systems,
 * diagrams, ZOH discretization and bad inputs. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "systems/analysis/linearize.h"
#include "systems/primitives/gain.h"
#include "systems/primitives/linear_system.h"

static const double g = 9.81, len = 0.5, mass = 2.0, damping = 0.3;

/* theta'' = (tau - b theta' + m g l sin theta) / (m l^2), theta = 0 upright */
static int pend_derivs(const teal_system *s, const teal_context *c, teal_continuous_view *xd,
                       void *u) {
  (void)u;
  const double *tau;
  int rc = teal_eval_vector_input(s, c, 0, &tau);
  if (rc) {
    return rc;
  }
  double th = teal_context_q(c)[0], w = teal_context_v(c)[0];
  xd->q[0] = w;
  xd->v[0] = (tau[0] - damping * w + mass * g * len * sin(th)) / (mass * len * len);
  return TEAL_OK;
}

static int pend_state(const teal_system *s, const teal_context *c, double *y, void *u) {
  (void)s;
  (void)u;
  y[0] = teal_context_q(c)[0];
  y[1] = teal_context_v(c)[0];
  return TEAL_OK;
}

/* the exact Jacobian at the current state */
static int pend_jacobian(const teal_system *s, const teal_context *c, int in, int out,
                         teal_jacobian *j, void *u) {
  (void)s;
  (void)u;
  double th = teal_context_q(c)[0], ml2 = mass * len * len;
  double A[4] = {0, 1, mass * g * len * cos(th) / ml2, -damping / ml2};
  memcpy(j->A, A, sizeof A);
  if (in == 0) {
    j->B[0] = 0;
    j->B[1] = 1.0 / ml2;
  }
  if (out == 0) {
    double C[4] = {1, 0, 0, 1};
    memcpy(j->C, C, sizeof C);
    if (in == 0) {
      j->D[0] = j->D[1] = 0;
    }
  }
  return TEAL_OK;
}

static teal_system *pendulum(int with_hook) {
  teal_system *s = teal_leaf_new("pendulum", NULL, NULL);
  teal_ticket xc = TEAL_TICKET_XC;
  teal_leaf_declare_vector_input(s, "tau", 1);
  teal_leaf_declare_vector_output(s, "state", 2, pend_state, NULL, &xc, 1);
  teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL);
  teal_leaf_set_time_derivatives(s, pend_derivs, NULL);
  if (with_hook) {
    teal_leaf_set_jacobian(s, pend_jacobian, NULL);
  }
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static teal_context *upright(const teal_system *s, double theta) {
  teal_context *c = teal_context_new(s, NULL);
  double x[2] = {theta, 0.0}, u = 0.0;
  teal_context_set_continuous_state(c, x, 2);
  teal_context_fix_input(c, 0, &u, 1);
  return c;
}

/* tol 0 means bit-exact (the analytic hook's own formulas) */
static void expect_near(double got, double want, double tol) {
  if (tol == 0.0) {
    ck_assert_msg(got == want, "%.17g != %.17g", got, want);
  } else {
    ck_assert_double_eq_tol(got, want, tol);
  }
}

static void check_pendulum_matrices(const teal_linear_system_matrices *m, double tol) {
  double ml2 = mass * len * len;
  double A[4] = {0, 1, mass * g * len * cos(0.0) / ml2, -damping / ml2}, B[2] = {0, 1.0 / ml2};
  ck_assert_int_eq(m->nx, 2);
  ck_assert_int_eq(m->nu, 1);
  ck_assert_int_eq(m->ny, 2);
  ck_assert(m->time_period == 0.0);
  for (int i = 0; i < 4; i++) {
    expect_near(m->A[i], A[i], tol);
    expect_near(m->C[i], i == 0 || i == 3 ? 1.0 : 0.0, tol);
  }
  for (int i = 0; i < 2; i++) {
    expect_near(m->B[i], B[i], tol);
    expect_near(m->D[i], 0.0, tol);
  }
}

START_TEST(test_pendulum_finite_differences) {
  teal_system *s = pendulum(0);
  teal_context *c = upright(s, 0.0);
  teal_error err;
  teal_system *lin = teal_linearize(s, c, NULL, &err);
  ck_assert_msg(lin != NULL, "%s", err.message);
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linear_system_get(lin, &m), TEAL_OK);
  check_pendulum_matrices(&m, 1e-7);
  /* the operating context is untouched */
  ck_assert(teal_context_q(c)[0] == 0.0);
  teal_system_free(lin);
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

START_TEST(test_pendulum_analytic_hook_is_exact) {
  teal_system *s = pendulum(1);
  teal_context *c = upright(s, 0.0);
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linearize_matrices(s, c, NULL, &m, NULL), TEAL_OK);
  check_pendulum_matrices(&m, 0.0);
  teal_linear_system_matrices_free(&m);
  /* and the differences agree with it */
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.use_analytic = 0;
  ck_assert_int_eq(teal_linearize_matrices(s, c, &o, &m, NULL), TEAL_OK);
  check_pendulum_matrices(&m, 1e-7);
  teal_linear_system_matrices_free(&m);
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

START_TEST(test_non_equilibrium) {
  teal_system *s = pendulum(0);
  teal_context *c = upright(s, 0.3);
  teal_error err;
  ck_assert_ptr_null(teal_linearize(s, c, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "equilibrium"));
  /* the Taylor approximation reproduces f and y at the operating point */
  teal_system *aff = teal_first_order_taylor_approximation(s, c, NULL, &err);
  ck_assert_msg(aff != NULL, "%s", err.message);
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linear_system_get(aff, &m), TEAL_OK);
  double x0[2] = {0.3, 0.0}, ml2 = mass * len * len;
  double f1 = m.A[2] * x0[0] + m.A[3] * x0[1] + m.B[1] * 0.0 + m.f0[1];
  ck_assert_double_eq_tol(f1, mass * g * len * sin(0.3) / ml2, 1e-8);
  ck_assert_double_eq_tol(m.A[2], g / len * cos(0.3), 1e-7);
  teal_system_free(aff);
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

START_TEST(test_discrete_system) {
  double A[4] = {0.9, 0.1, 0.0, 0.8}, B[2] = {0.0, 0.5}, C[2] = {1.0, 0.0}, D[1] = {0.25};
  teal_system *s = teal_linear_system_new("plant", A, B, C, D, 2, 1, 1, 0.05, NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *c = teal_context_new(s, NULL);
  double u = 0.0;
  teal_context_fix_input(c, 0, &u, 1);
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.use_analytic = 0; /* through the discrete update itself */
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linearize_matrices(s, c, &o, &m, NULL), TEAL_OK);
  ck_assert_double_eq(m.time_period, 0.05);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(m.A[i], A[i], 1e-9);
  }
  ck_assert_double_eq_tol(m.B[1], 0.5, 1e-9);
  ck_assert_double_eq_tol(m.C[0], 1.0, 1e-9);
  ck_assert_double_eq_tol(m.D[0], 0.25, 1e-9);
  teal_linear_system_matrices_free(&m);
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

START_TEST(test_diagram_linearization) {
  /* pendulum with its torque from a gain on an exported input */
  teal_builder *b = teal_builder_new("rig");
  teal_system *p = teal_builder_add(b, pendulum(0));
  teal_system *k = teal_builder_add(b, teal_gain_new("k", 2.0, 1, NULL));
  teal_builder_connect(b, teal_system_output_port(k, 0), teal_system_input_port(p, 0));
  teal_builder_export_input(b, teal_system_input_port(k, 0), "u");
  teal_builder_export_output(b, teal_system_output_port(p, 0), "x");
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *c = teal_context_new(d, NULL);
  double u = 0.0;
  teal_context_fix_input(c, 0, &u, 1);
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linearize_matrices(d, c, NULL, &m, NULL), TEAL_OK);
  ck_assert_double_eq_tol(m.B[1], 2.0 / (mass * len * len), 1e-7);
  ck_assert_double_eq_tol(m.A[2], g / len, 1e-7);
  teal_linear_system_matrices_free(&m);
  teal_context_free(c);
  teal_system_free(d);
}
END_TEST

START_TEST(test_bad_inputs) {
  teal_system *s = pendulum(0);
  teal_context *c = teal_context_new(s, NULL);
  teal_error err;
  teal_linear_system_matrices m;
  /* the input must be fixed to define u0 */
  ck_assert_int_eq(teal_linearize_matrices(s, c, NULL, &m, &err), TEAL_EINVAL);
  ck_assert_ptr_nonnull(strstr(err.message, "tau"));
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.input_port = 3;
  ck_assert_int_eq(teal_linearize_matrices(s, c, &o, &m, &err), TEAL_EINVAL);
  o.input_port = -1;
  o.eps = -1.0;
  ck_assert_int_eq(teal_linearize_matrices(s, c, &o, &m, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_linearize_matrices(NULL, c, NULL, &m, &err), TEAL_EINVAL);
  /* an unfixed input that the system needs reports it */
  o.eps = 1e-6;
  ck_assert_int_eq(teal_linearize_matrices(s, c, &o, &m, &err), TEAL_ENOTCONNECTED);
  ck_assert_ptr_nonnull(strstr(err.message, "tau"));
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

START_TEST(test_discretize_zoh) {
  double A[4] = {0, 1, 0, 0}, B[2] = {0, 1}, Ad[4], Bd[2], h = 0.1;
  ck_assert_int_eq(teal_discretize_zoh(A, B, 2, 1, h, Ad, Bd, NULL), TEAL_OK);
  double Ad_exact[4] = {1, h, 0, 1}, Bd_exact[2] = {h * h / 2, h};
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(Ad[i], Ad_exact[i], 1e-14);
  }
  for (int i = 0; i < 2; i++) {
    ck_assert_double_eq_tol(Bd[i], Bd_exact[i], 1e-14);
  }
  /* scalar x' = a x + u: Ad = e^(ah), Bd = (e^(ah) - 1)/a */
  double a = -2.0, b = 1.0, ad, bd;
  ck_assert_int_eq(teal_discretize_zoh(&a, &b, 1, 1, 0.3, &ad, &bd, NULL), TEAL_OK);
  ck_assert_double_eq_tol(ad, exp(-0.6), 1e-14);
  ck_assert_double_eq_tol(bd, (exp(-0.6) - 1) / -2.0, 1e-14);
  teal_error err;
  ck_assert_int_eq(teal_discretize_zoh(A, B, 2, 1, 0.0, Ad, Bd, &err), TEAL_EINVAL);
  ck_assert_int_eq(teal_discretize_zoh(A, B, 2, 1, NAN, Ad, Bd, &err), TEAL_EINVAL);
}
END_TEST

int main(void) {
  Suite *s = suite_create("linearize");
  TCase *tc = tcase_create("linearize");
  tcase_add_test(tc, test_pendulum_finite_differences);
  tcase_add_test(tc, test_pendulum_analytic_hook_is_exact);
  tcase_add_test(tc, test_non_equilibrium);
  tcase_add_test(tc, test_discrete_system);
  tcase_add_test(tc, test_diagram_linearization);
  tcase_add_test(tc, test_bad_inputs);
  tcase_add_test(tc, test_discretize_zoh);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
