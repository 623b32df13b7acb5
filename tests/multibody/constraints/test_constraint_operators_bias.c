/* The bias-reuse products and explicit transposes
 * (multibody/constraints/constraint_operators_bias.h) on random trees with
 * each constraint kind: G' and Pq' against the transposes of the explicit
 * G and Pq, the with-bias products against the plain products (the state's
 * bias gives them back; another bias shifts them by the difference), the
 * reuse form staging no velocity kinematics (the work's counter), and bad
 * calls. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "multibody/constraints/constraint_internal.h"
#include "multibody/constraints/constraint_operators.h"
#include "multibody/constraints/constraint_operators_bias.h"
#include "multibody/constraints/constraint_specs.h"
#include "multibody/plant/plant_calc_internal.h"
#include "multibody/plant/plant_state.h"
#include "multibody/plant/plant_system.h"
#include "multibody/tree/topology.h"
#include "support/error_messages.h"
#include "support/mb_constraint_fixtures.h"
#include "support/test_support.h"

typedef struct fixture {
  teal_plant *p;
  teal_context *ctx;
  int nq, nv, m;
  double *a, *b, *x, *y, *bias; /* a, b: m * (nq + nv); x: nq + nv; y, bias: m */
} fixture;

static int setup(fixture *f, const ts_mb_topology *t, int kind, unsigned seed) {
  unsigned s = seed;
  f->p = ts_mbc_open_tree(t, seed);
  ck_assert_ptr_nonnull(f->p);
  int c = ts_mbc_add_random_constraint(f->p, kind, &s);
  if (c == TEAL_ENOTFOUND) {
    teal_plant_free(f->p);
    return 0;
  }
  ck_assert_int_eq(teal_plant_finalize(f->p), TEAL_OK);
  f->ctx = ts_mbc_random_context(f->p, &s, 1.0);
  ck_assert_ptr_nonnull(f->ctx);
  f->nq = teal_plant_nq(f->p);
  f->nv = teal_plant_nv(f->p);
  f->m = teal_plant_num_constraint_rows(f->p);
  size_t n = (size_t)(f->nq + f->nv), m = (size_t)f->m;
  f->a = calloc(m * n, sizeof(double));
  f->b = calloc(m * n, sizeof(double));
  f->x = calloc(n, sizeof(double));
  f->y = calloc(m, sizeof(double));
  f->bias = calloc(m, sizeof(double));
  for (size_t i = 0; i < n; i++) {
    f->x[i] = ts_rand_uniform(&s, -1.0, 1.0);
  }
  return 1;
}

/* The first topology and kind that take a constraint. */
static void setup_any(fixture *f, unsigned seed) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    for (int kind = 0; kind < TS_MBC_NUM_KINDS; kind++) {
      if (setup(f, &ts_mb_topologies[t], kind, seed)) {
        return;
      }
    }
  }
  ck_abort_msg("no topology takes a constraint");
}

static void teardown(fixture *f) {
  teal_context_free(f->ctx);
  teal_plant_free(f->p);
  free(f->a);
  free(f->b);
  free(f->x);
  free(f->y);
  free(f->bias);
}

/* t (cols x rows) must be the transpose of a (rows x cols). */
static void expect_transpose(const double *a, const double *t, int rows, int cols,
                             const char *what) {
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++) {
      ck_assert_msg(fabs(t[c * rows + r] - a[r * cols + c]) < 1e-12, "%s (%d, %d)", what, r, c);
    }
  }
}

static void check_transposes(fixture *f) {
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian(f->p, f->ctx, f->a), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian_transpose(f->p, f->ctx, f->b), TEAL_OK);
  expect_transpose(f->a, f->b, f->m, f->nv, "G'");
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian_q(f->p, f->ctx, f->a), TEAL_OK);
  ck_assert_int_eq(teal_plant_calc_constraint_jacobian_q_transpose(f->p, f->ctx, f->b), TEAL_OK);
  expect_transpose(f->a, f->b, f->m, f->nq, "Pq'");
}

static void expect_near(const double *a, const double *b, int n, const char *what) {
  for (int i = 0; i < n; i++) {
    ck_assert_msg(fabs(a[i] - b[i]) < 1e-12 * (1.0 + fabs(b[i])), "%s row %d: %g vs %g", what, i,
                  a[i], b[i]);
  }
}

/* with-bias(x, state's bias) = plain(x); with-bias(x, bias + d) = plain - d. */
static void check_bias_forms(fixture *f) {
  const double *u = f->x, *qlike = f->x + f->nv;
  double *plain = f->a, *d = f->b;
  ck_assert_int_eq(teal_plant_calc_bias_for_multiply_by_constraint_jacobian(f->p, f->ctx, f->bias),
                   TEAL_OK);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian(f->p, f->ctx, u, plain), TEAL_OK);
  ck_assert_int_eq(
      teal_plant_multiply_by_constraint_jacobian_with_bias(f->p, f->ctx, u, f->bias, f->y),
      TEAL_OK);
  expect_near(f->y, plain, f->m, "G u with the state's bias");
  for (int i = 0; i < f->m; i++) {
    d[i] = 0.25 * (i + 1);
    d[f->m + i] = f->bias[i] + d[i];
    plain[f->m + i] = plain[i] - d[i];
  }
  ck_assert_int_eq(
      teal_plant_multiply_by_constraint_jacobian_with_bias(f->p, f->ctx, u, d + f->m, f->y),
      TEAL_OK);
  expect_near(f->y, plain + f->m, f->m, "G u with a shifted bias");
  ck_assert_int_eq(
      teal_plant_calc_bias_for_multiply_by_constraint_jacobian_q(f->p, f->ctx, f->bias), TEAL_OK);
  ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian_q(f->p, f->ctx, qlike, plain),
                   TEAL_OK);
  ck_assert_int_eq(
      teal_plant_multiply_by_constraint_jacobian_q_with_bias(f->p, f->ctx, qlike, f->bias, f->y),
      TEAL_OK);
  expect_near(f->y, plain, f->m, "Pq x with the state's bias");
}

START_TEST(transposes_and_bias_forms_match_the_plain_operators) {
  for (int t = 0; t < ts_mb_num_topologies; t++) {
    for (int kind = 0; kind < TS_MBC_NUM_KINDS; kind++) {
      fixture f;
      if (!setup(&f, &ts_mb_topologies[t], kind, 17u * (unsigned)t + (unsigned)kind)) {
        continue;
      }
      check_transposes(&f);
      check_bias_forms(&f);
      teardown(&f);
    }
  }
}
END_TEST

/* Time-independent constraints: the bias, pverr(q; 0), is zero. */
START_TEST(bias_of_time_independent_constraints_is_zero) {
  fixture f;
  setup_any(&f, 5u);
  f.bias[0] = 7.0;
  ck_assert_int_eq(teal_plant_calc_bias_for_multiply_by_constraint_jacobian(f.p, f.ctx, f.bias),
                   TEAL_OK);
  for (int i = 0; i < f.m; i++) {
    ck_assert_double_eq(f.bias[i], 0.0);
  }
  teardown(&f);
}
END_TEST

/* The plain product stages the velocity kinematics every call; the reuse
 * form never does. */
START_TEST(reuse_form_skips_the_velocity_kinematics) {
  fixture f;
  setup_any(&f, 9u);
  const teal_constraint_work *w = teal_plant_get_scratch(f.p, f.ctx)->cwork;
  ck_assert_ptr_nonnull(w);
  ck_assert_int_eq(teal_plant_calc_bias_for_multiply_by_constraint_jacobian(f.p, f.ctx, f.bias),
                   TEAL_OK);
  long before = w->velocity_stagings;
  for (int k = 0; k < 5; k++) {
    ck_assert_int_eq(
        teal_plant_multiply_by_constraint_jacobian_with_bias(f.p, f.ctx, f.x, f.bias, f.y),
        TEAL_OK);
  }
  ck_assert_int_eq(w->velocity_stagings, before);
  for (int k = 0; k < 5; k++) {
    ck_assert_int_eq(teal_plant_multiply_by_constraint_jacobian(f.p, f.ctx, f.x, f.y), TEAL_OK);
  }
  ck_assert_int_eq(w->velocity_stagings, before + 5);
  teardown(&f);
}
END_TEST

START_TEST(bad_calls_are_reported) {
  fixture f;
  setup_any(&f, 3u);
  const teal_error *err = teal_context_error(f.ctx);
  TS_EXPECT_ERROR(teal_plant_multiply_by_constraint_jacobian_with_bias(f.p, f.ctx, f.x, NULL, f.y),
                  TEAL_EINVAL, err, "bias is NULL");
  TS_EXPECT_ERROR(
      teal_plant_multiply_by_constraint_jacobian_q_with_bias(f.p, f.ctx, NULL, f.bias, f.y),
      TEAL_EINVAL, err, "input vector is NULL");
  f.x[0] = NAN;
  TS_EXPECT_ERROR(
      teal_plant_multiply_by_constraint_jacobian_with_bias(f.p, f.ctx, f.x, f.bias, f.y),
      TEAL_ENONFINITE, err, "input vector");
  f.x[0] = 0.0;
  f.bias[0] = INFINITY;
  TS_EXPECT_ERROR(
      teal_plant_multiply_by_constraint_jacobian_with_bias(f.p, f.ctx, f.x, f.bias, f.y),
      TEAL_ENONFINITE, err, "bias");
  TS_EXPECT_ERROR(teal_plant_calc_constraint_jacobian_transpose(f.p, f.ctx, NULL), TEAL_EINVAL, err,
                  "Gt is NULL");
  TS_EXPECT_ERROR(teal_plant_calc_constraint_jacobian_q_transpose(f.p, f.ctx, NULL), TEAL_EINVAL,
                  err, "Pqt is NULL");
  TS_EXPECT_ERROR(teal_plant_calc_bias_for_multiply_by_constraint_jacobian_q(f.p, f.ctx, NULL),
                  TEAL_EINVAL, err, "bias is NULL");
  ck_assert_int_lt(teal_plant_calc_constraint_jacobian_transpose(NULL, f.ctx, f.a), 0);
  teardown(&f);
}
END_TEST

static Suite *suite(void) {
  Suite *s = suite_create("constraint_operators_bias");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, transposes_and_bias_forms_match_the_plain_operators);
  tcase_add_test(tc, bias_of_time_independent_constraints_is_zero);
  tcase_add_test(tc, reuse_form_skips_the_velocity_kinematics);
  tcase_add_test(tc, bad_calls_are_reported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(suite());
}
