/* Tests of linear and affine systems: continuous dynamics and outputs,
 * feedthrough from D, discrete updates through the event API, the nu/ny/nx
 * == 0 shapes, the Jacobian hook, reading the model back, validation, and a
 * discrete system driven by a source in a diagram. */
#include "systems/primitives/linear_system.h"

#include "support/primitives_test_util.h"
#include "systems/primitives/adder.h"
#include "systems/primitives/constant_vector_source.h"
#include "systems/primitives/gain.h"

/* x in R^2, u in R^1, y in R^2 */
static const double kA[4] = {0.0, 1.0, -2.0, -0.5};
static const double kB[2] = {0.0, 3.0};
static const double kC[4] = {1.0, 0.0, 0.5, -1.0};
static const double kD[2] = {0.25, 0.0};
static const double kF0[2] = {0.1, -0.2};
static const double kY0[2] = {5.0, 6.0};

/* out = M x (+ out when acc) for a rows x cols row-major M. */
static void mat_vec(const double *M, int rows, int cols, const double *x, double *out, int acc) {
  for (int r = 0; r < rows; r++) {
    double s = acc ? out[r] : 0.0;
    for (int c = 0; c < cols; c++) {
      s += M[r * cols + c] * x[c];
    }
    out[r] = s;
  }
}

START_TEST(test_continuous_linear) {
  teal_error err;
  teal_system *s = teal_linear_system_new("lin", kA, kB, kC, kD, 2, 1, 2, 0.0, &err);
  ck_assert_msg(s != NULL, "%s", err.message);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(s, 0)), "u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(s, 0)), "y");
  int nz = 0;
  ck_assert_int_eq(teal_system_num_continuous_states(s, NULL, NULL, &nz), 2);
  ck_assert_int_eq(nz, 2);
  ck_assert_int_eq(teal_system_num_discrete_states(s), 0);
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double x[2] = {0.5, -1.0}, u = 2.0;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 2), TEAL_OK);
  pt_fix(ctx, 0, &u, 1);
  double xdot[2], want[2];
  pt_derivs(s, ctx, xdot);
  /* xdot = [x1; -2 x0 - 0.5 x1 + 3 u] = [-1; -1 + 0.5 + 6] */
  want[0] = -1.0;
  want[1] = 5.5;
  ASSERT_VEC_NEAR(xdot, want, 2, PT_TOL);
  /* y = [x0 + 0.25 u; 0.5 x0 - x1] */
  want[0] = 1.0;
  want[1] = 1.25;
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
  /* the output follows the input (feedthrough) and the state */
  const double u2 = -2.0;
  pt_fix(ctx, 0, &u2, 1);
  ck_assert_double_eq_tol(pt_eval(s, ctx, 0)[0], 0.0, PT_TOL);
  teal_context_z_mut(ctx)[1] = 1.0;
  ck_assert_double_eq_tol(pt_eval(s, ctx, 0)[1], -0.75, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_no_feedthrough_when_d_is_zero) {
  const double zeros[2] = {0.0, 0.0};
  for (int variant = 0; variant < 2; variant++) {
    teal_system *s = teal_linear_system_new("lin", kA, kB, kC, variant ? zeros : NULL, 2, 1, 2,
                                            0.0, NULL);
    ck_assert_ptr_nonnull(s);
    ck_assert(!teal_system_has_direct_feedthrough(s, 0, 0));
    teal_context *ctx = pt_context(s);
    const double x[2] = {2.0, 4.0}, want[2] = {2.0, -3.0};
    ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 2), TEAL_OK);
    /* no input fixed: the output does not need it */
    ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
    teal_context_free(ctx);
    teal_system_free(s);
  }
}
END_TEST

START_TEST(test_continuous_affine) {
  teal_system *s = teal_affine_system_new("aff", kA, kB, kF0, kC, kD, kY0, 2, 1, 2, 0.0, NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *ctx = pt_context(s);
  const double x[2] = {1.0, 2.0}, u = -1.0;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 2), TEAL_OK);
  pt_fix(ctx, 0, &u, 1);
  double xdot[2], want[2];
  pt_derivs(s, ctx, xdot);
  memcpy(want, kF0, sizeof want);
  mat_vec(kA, 2, 2, x, want, 1);
  mat_vec(kB, 2, 1, &u, want, 1);
  ASSERT_VEC_NEAR(xdot, want, 2, PT_TOL);
  ck_assert_double_eq_tol(xdot[0], 2.1, PT_TOL);
  ck_assert_double_eq_tol(xdot[1], -2.0 - 1.0 - 3.0 - 0.2, PT_TOL);
  memcpy(want, kY0, sizeof want);
  mat_vec(kC, 2, 2, x, want, 1);
  mat_vec(kD, 2, 1, &u, want, 1);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), want, 2, PT_TOL);
  ck_assert_double_eq_tol(want[0], 5.75, PT_TOL);
  ck_assert_double_eq_tol(want[1], 4.5, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_discrete_update) {
  teal_system *s =
      teal_affine_system_new("dlin", kA, kB, kF0, kC, kD, kY0, 2, 1, 2, 0.1, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_system_num_continuous_states(s, NULL, NULL, NULL), 0);
  ck_assert_int_eq(teal_system_num_discrete_groups(s), 1);
  ck_assert_int_eq(teal_system_discrete_group_size(s, 0), 2);
  ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  const double x0[2] = {1.0, -1.0}, u = 0.5;
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, x0, 2), TEAL_OK);
  pt_fix(ctx, 0, &u, 1);
  double y_before[2];
  memcpy(y_before, kY0, sizeof y_before);
  mat_vec(kC, 2, 2, x0, y_before, 1);
  mat_vec(kD, 2, 1, &u, y_before, 1);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), y_before, 2, PT_TOL);

  teal_event_set *set = teal_event_set_new(s);
  ck_assert_ptr_nonnull(set);
  double t_next = 0.0;
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &t_next, set), TEAL_OK);
  ck_assert_double_eq_tol(t_next, 0.1, 1e-15);
  ck_assert_int_eq(teal_event_set_count(set, TEAL_EVENT_DISCRETE_UPDATE), 1);
  ck_assert_int_eq(teal_context_set_time(ctx, t_next), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(s, ctx, set), TEAL_OK);
  /* x1 = A x0 + B u + f0 = [-1 + 0.1; -2 + 0.5 + 1.5 - 0.2] */
  const double x1[2] = {-0.9, -0.2};
  ASSERT_VEC_NEAR(teal_context_discrete_group(ctx, 0), x1, 2, PT_TOL);
  double y_after[2];
  memcpy(y_after, kY0, sizeof y_after);
  mat_vec(kC, 2, 2, x1, y_after, 1);
  mat_vec(kD, 2, 1, &u, y_after, 1);
  ASSERT_VEC_NEAR(pt_eval(s, ctx, 0), y_after, 2, PT_TOL);

  /* the next sample is one period later; a second update from x1 */
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &t_next, set), TEAL_OK);
  ck_assert_double_eq_tol(t_next, 0.2, 1e-12);
  ck_assert_int_eq(teal_dispatch_discrete_updates(s, ctx, set), TEAL_OK);
  double x2[2];
  memcpy(x2, kF0, sizeof x2);
  mat_vec(kA, 2, 2, x1, x2, 1);
  mat_vec(kB, 2, 1, &u, x2, 1);
  ASSERT_VEC_NEAR(teal_context_discrete_group(ctx, 0), x2, 2, PT_TOL);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_discrete_update_needs_input) {
  teal_system *s = teal_linear_system_new("dlin", kA, kB, kC, NULL, 2, 1, 2, 0.5, NULL);
  ck_assert(!teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  teal_event_set *set = teal_event_set_new(s);
  double t_next;
  ck_assert_int_eq(teal_calc_next_update_time(s, ctx, &t_next, set), TEAL_OK);
  ck_assert_double_eq_tol(t_next, 0.5, 1e-15);
  const double x0[2] = {3.0, 4.0};
  ck_assert_int_eq(teal_context_set_discrete_group(ctx, 0, x0, 2), TEAL_OK);
  ck_assert_int_eq(teal_dispatch_discrete_updates(s, ctx, set), TEAL_ENOTCONNECTED);
  /* a failed update changes nothing */
  ASSERT_VEC_NEAR(teal_context_discrete_group(ctx, 0), x0, 2, 0.0);
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_no_input_no_output) {
  /* autonomous: nu == 0 -> no input port */
  teal_system *s = teal_linear_system_new("auto", kA, NULL, kC, NULL, 2, 0, 2, 0.0, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_system_num_input_ports(s), 0);
  ck_assert_int_eq(teal_system_num_output_ports(s), 1);
  teal_context *ctx = pt_context(s);
  const double x[2] = {1.0, 1.0}, want[2] = {1.0, -2.5};
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, x, 2), TEAL_OK);
  double xdot[2];
  pt_derivs(s, ctx, xdot);
  ASSERT_VEC_NEAR(xdot, want, 2, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);

  /* ny == 0 -> no output port */
  s = teal_linear_system_new("sink", kA, kB, NULL, NULL, 2, 1, 0, 0.0, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_system_num_input_ports(s), 1);
  ck_assert_int_eq(teal_system_num_output_ports(s), 0);
  ctx = pt_context(s);
  const double u = 1.0, want2[2] = {0.0, 3.0};
  pt_fix(ctx, 0, &u, 1);
  pt_derivs(s, ctx, xdot);
  ASSERT_VEC_NEAR(xdot, want2, 2, PT_TOL);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_stateless) {
  /* nx == 0: y = D u + y0, no state at all, continuous or discrete */
  const double D[2] = {2.0, -1.0}, y0[1] = {0.5};
  for (int discrete = 0; discrete < 2; discrete++) {
    teal_system *s = teal_affine_system_new("ff", NULL, NULL, NULL, NULL, D, y0, 0, 2, 1,
                                            discrete ? 0.1 : 0.0, NULL);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_eq(teal_system_num_continuous_states(s, NULL, NULL, NULL), 0);
    ck_assert_int_eq(teal_system_num_discrete_states(s), 0);
    ck_assert(teal_system_has_direct_feedthrough(s, 0, 0));
    teal_context *ctx = pt_context(s);
    const double u[2] = {1.0, 3.0};
    pt_fix(ctx, 0, u, 2);
    ck_assert_double_eq_tol(pt_eval(s, ctx, 0)[0], 2.0 - 3.0 + 0.5, PT_TOL);
    teal_context_free(ctx);
    teal_system_free(s);
  }
  /* nx == 0 and D == 0: a constant y0 that depends on nothing */
  teal_system *s = teal_affine_system_new("k", NULL, NULL, NULL, NULL, NULL, y0, 0, 2, 1, 0.0,
                                          NULL);
  ck_assert(!teal_system_has_direct_feedthrough(s, 0, 0));
  teal_context *ctx = pt_context(s);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], 0.5);
  ck_assert_int_eq(teal_context_set_time(ctx, 3.0), TEAL_OK);
  ck_assert_double_eq(pt_eval(s, ctx, 0)[0], 0.5);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_continuous) {
  teal_system *s = teal_affine_system_new("aff", kA, kB, kF0, kC, kD, kY0, 2, 1, 2, 0.0, NULL);
  ck_assert(teal_system_has_jacobian(s));
  teal_context *ctx = pt_context(s);
  double A[4] = {0}, B[2] = {0}, C[4] = {0}, D[2] = {0};
  teal_jacobian jac = {2, 1, 2, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(A, kA, 4, 0.0);
  ASSERT_VEC_NEAR(B, kB, 2, 0.0);
  ASSERT_VEC_NEAR(C, kC, 4, 0.0);
  ASSERT_VEC_NEAR(D, kD, 2, 0.0);
  /* without ports only A (B/C/D blocks are not touched) */
  double A2[4] = {0};
  teal_jacobian only_a = {2, 0, 0, A2, NULL, NULL, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, -1, &only_a), TEAL_OK);
  ASSERT_VEC_NEAR(A2, kA, 4, 0.0);
  double C2[4] = {0};
  teal_jacobian no_in = {2, 0, 2, A2, NULL, C2, NULL};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, -1, 0, &no_in), TEAL_OK);
  ASSERT_VEC_NEAR(C2, kC, 4, 0.0);
  /* wrong block sizes */
  teal_jacobian bad = {3, 1, 2, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &bad), TEAL_ESIZE);
  teal_jacobian zero_nx = {0, 1, 2, NULL, NULL, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &zero_nx), TEAL_ESIZE);
  ASSERT_HAS(teal_context_error(ctx)->message, "'aff'");
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_jacobian_discrete) {
  teal_system *s = teal_linear_system_new("dlin", kA, kB, kC, kD, 2, 1, 2, 0.25, NULL);
  teal_context *ctx = pt_context(s);
  double A[4] = {0}, B[2] = {0}, C[4] = {0}, D[2] = {0};
  teal_jacobian jac = {2, 1, 2, A, B, C, D};
  ck_assert_int_eq(teal_calc_jacobian(s, ctx, 0, 0, &jac), TEAL_OK);
  ASSERT_VEC_NEAR(A, kA, 4, 0.0);
  ASSERT_VEC_NEAR(B, kB, 2, 0.0);
  ASSERT_VEC_NEAR(C, kC, 4, 0.0);
  ASSERT_VEC_NEAR(D, kD, 2, 0.0);
  teal_context_free(ctx);
  teal_system_free(s);
}
END_TEST

START_TEST(test_get_model) {
  double A[4], B[2];
  memcpy(A, kA, sizeof A);
  memcpy(B, kB, sizeof B);
  teal_system *s = teal_affine_system_new("aff", A, B, kF0, kC, kD, kY0, 2, 1, 2, 0.5, NULL);
  A[0] = B[0] = 99.0; /* copied at construction */
  ck_assert(teal_is_linear_system(s));
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linear_system_get(s, &m), TEAL_OK);
  ck_assert_int_eq(m.nx, 2);
  ck_assert_int_eq(m.nu, 1);
  ck_assert_int_eq(m.ny, 2);
  ck_assert_double_eq(m.time_period, 0.5);
  ASSERT_VEC_NEAR(m.A, kA, 4, 0.0);
  ASSERT_VEC_NEAR(m.B, kB, 2, 0.0);
  ASSERT_VEC_NEAR(m.f0, kF0, 2, 0.0);
  ASSERT_VEC_NEAR(m.C, kC, 4, 0.0);
  ASSERT_VEC_NEAR(m.D, kD, 2, 0.0);
  ASSERT_VEC_NEAR(m.y0, kY0, 2, 0.0);

  /* a copy made from the read-back model behaves the same */
  teal_system *t = teal_affine_system_from("copy", &m, NULL);
  ck_assert_ptr_nonnull(t);
  teal_linear_system_matrices m2;
  ck_assert_int_eq(teal_linear_system_get(t, &m2), TEAL_OK);
  ASSERT_VEC_NEAR(m2.A, kA, 4, 0.0);
  ck_assert_double_eq(m2.time_period, 0.5);
  teal_system_free(t);
  teal_system_free(s);

  /* a linear system reads back zero offsets; NULL D reads back zeros */
  s = teal_linear_system_new("lin", kA, kB, kC, NULL, 2, 1, 2, 0.0, NULL);
  ck_assert_int_eq(teal_linear_system_get(s, &m), TEAL_OK);
  const double zeros[2] = {0.0, 0.0};
  ASSERT_VEC_NEAR(m.f0, zeros, 2, 0.0);
  ASSERT_VEC_NEAR(m.y0, zeros, 2, 0.0);
  ASSERT_VEC_NEAR(m.D, zeros, 2, 0.0);
  ck_assert_double_eq(m.time_period, 0.0);
  teal_system_free(s);
}
END_TEST

START_TEST(test_get_rejects_other_systems) {
  teal_linear_system_matrices m;
  ck_assert_int_eq(teal_linear_system_get(NULL, &m), TEAL_EINVAL);
  teal_system *g = teal_gain_new("g", 2.0, 1, NULL);   /* model data, a Jacobian */
  teal_system *a = teal_adder_new("a", 2, 1, NULL);    /* no model data */
  const double v = 1.0;
  teal_system *c = teal_constant_vector_source_new("c", &v, 1, NULL);
  ck_assert(!teal_is_linear_system(g));
  ck_assert(!teal_is_linear_system(a));
  ck_assert(!teal_is_linear_system(c));
  ck_assert_int_eq(teal_linear_system_get(g, &m), TEAL_EINVAL);
  teal_system *s = teal_linear_system_new("lin", kA, kB, kC, kD, 2, 1, 2, 0.0, NULL);
  ck_assert_int_eq(teal_linear_system_get(s, NULL), TEAL_EINVAL);
  teal_builder *b = teal_builder_new("d");
  pt_add(b, s);
  teal_system *d = pt_build(b);
  ck_assert(!teal_is_linear_system(d));
  ck_assert(teal_is_linear_system(teal_diagram_subsystem(d, 0)));
  teal_system_free(d);
  teal_system_free(g);
  teal_system_free(a);
  teal_system_free(c);
}
END_TEST

START_TEST(test_bad_parameters) {
  teal_error err;
  const double nanA[4] = {0.0, NAN, 0.0, 0.0}, infB[2] = {0.0, INFINITY};
  teal_system *s = teal_linear_system_new("plant", kA, kB, kC, kD, -1, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "linear_system 'plant'");
  ASSERT_HAS(err.message, "nx");
  s = teal_linear_system_new("plant", kA, kB, kC, kD, 2, -1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "nu");
  s = teal_linear_system_new("plant", kA, kB, kC, kD, 2, 1, -2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "ny");
  s = teal_linear_system_new("plant", kA, kB, kC, kD, 1 << 20, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ESIZE, "'plant'");
  s = teal_linear_system_new("plant", NULL, kB, kC, kD, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'plant'");
  ASSERT_HAS(err.message, "A is NULL");
  s = teal_linear_system_new("plant", kA, NULL, kC, kD, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "B is NULL");
  s = teal_linear_system_new("plant", kA, kB, NULL, kD, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "C is NULL");
  s = teal_linear_system_new("plant", nanA, kB, kC, kD, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "A[1]");
  ASSERT_HAS(err.message, "'plant'");
  s = teal_linear_system_new("plant", kA, infB, kC, kD, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "B[1]");
  s = teal_linear_system_new("plant", kA, kB, kC, infB, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "D[1]");
  s = teal_linear_system_new("plant", kA, kB, kC, kD, 2, 1, 2, -0.1, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "time_period");
  ASSERT_HAS(err.message, "'plant'");
  s = teal_linear_system_new("plant", kA, kB, kC, kD, 2, 1, 2, INFINITY, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "time_period");
  s = teal_affine_system_new("aff", kA, kB, nanA, kC, kD, kY0, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "affine_system 'aff'");
  ASSERT_HAS(err.message, "f0[1]");
  s = teal_affine_system_new("aff", kA, kB, kF0, kC, kD, infB, 2, 1, 2, 0.0, &err);
  ASSERT_REJECTED(s, err, TEAL_ENONFINITE, "y0[1]");
  s = teal_affine_system_from("aff", NULL, &err);
  ASSERT_REJECTED(s, err, TEAL_EINVAL, "'aff'");
}
END_TEST

/* constant -> discrete integrator x[n+1] = x[n] + T u (A = 1, B = T). */
START_TEST(test_discrete_in_diagram) {
  const double one = 1.0, T = 0.5, u = 4.0;
  teal_builder *b = teal_builder_new("d");
  pt_add(b, teal_constant_vector_source_new("src", &u, 1, NULL));
  teal_system *sys = pt_add(b, teal_linear_system_new("acc", &one, &T, &one, NULL, 1, 1, 1, T,
                                                      NULL));
  pt_connect(b, "src", "y", "acc", "u");
  ck_assert_int_eq(teal_builder_export_output(b, teal_system_output_port(sys, 0), "y"), 0);
  teal_system *d = pt_build(b);
  teal_context *ctx = pt_context(d);
  teal_event_set *set = teal_event_set_new(d);
  double t = 0.0;
  for (int k = 1; k <= 3; k++) {
    ck_assert_int_eq(teal_calc_next_update_time(d, ctx, &t, set), TEAL_OK);
    ck_assert_double_eq_tol(t, k * T, 1e-12);
    ck_assert_int_eq(teal_context_set_time(ctx, t), TEAL_OK);
    ck_assert_int_eq(teal_dispatch_discrete_updates(d, ctx, set), TEAL_OK);
    ck_assert_double_eq_tol(pt_eval(d, ctx, 0)[0], k * T * u, PT_TOL);
  }
  teal_event_set_free(set);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("linear_system");
  TCase *tc = tcase_create("continuous");
  tcase_add_test(tc, test_continuous_linear);
  tcase_add_test(tc, test_no_feedthrough_when_d_is_zero);
  tcase_add_test(tc, test_continuous_affine);
  tcase_add_test(tc, test_no_input_no_output);
  tcase_add_test(tc, test_stateless);
  suite_add_tcase(s, tc);
  tc = tcase_create("discrete");
  tcase_add_test(tc, test_discrete_update);
  tcase_add_test(tc, test_discrete_update_needs_input);
  tcase_add_test(tc, test_discrete_in_diagram);
  suite_add_tcase(s, tc);
  tc = tcase_create("model");
  tcase_add_test(tc, test_jacobian_continuous);
  tcase_add_test(tc, test_jacobian_discrete);
  tcase_add_test(tc, test_get_model);
  tcase_add_test(tc, test_get_rejects_other_systems);
  tcase_add_test(tc, test_bad_parameters);
  suite_add_tcase(s, tc);
  return pt_run(s);
}
