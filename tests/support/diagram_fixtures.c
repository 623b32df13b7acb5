/* The fixtures declared in support/diagram_fixtures.h. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"
#include "support/diagram_fixtures.h"

void ts_db_leaf_data_free(void *p) {
  ts_db_leaf_data *d = p;
  if (d->freed) {
    (*d->freed)++;
  }
  free(d);
}

ts_db_leaf_data *ts_db_leaf_data_new(int *freed) {
  ts_db_leaf_data *d = calloc(1, sizeof *d);
  ck_assert_ptr_nonnull(d);
  d->freed = freed;
  return d;
}

/* y = K u with K rows x cols (direct feedthrough). */
static int matgain_calc(const teal_system *sys, const teal_context *ctx, double *out,
                        void *user) {
  (void)user;
  const ts_db_leaf_data *d = teal_system_user(sys);
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  for (int r = 0; r < d->rows; r++) {
    out[r] = 0.0;
    for (int c = 0; c < d->cols; c++) {
      out[r] += d->K[r * d->cols + c] * u[c];
    }
  }
  return TEAL_OK;
}

teal_system *ts_db_matgain_new(const char *name, int rows, int cols, const double *K, int *freed) {
  ts_db_leaf_data *d = ts_db_leaf_data_new(freed);
  d->rows = rows;
  d->cols = cols;
  memcpy(d->K, K, (size_t)(rows * cols) * sizeof(double));
  teal_system *s = teal_leaf_new(name, d, ts_db_leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", cols), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", rows, matgain_calc, NULL, NULL, 0), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* y = k u elementwise, size n. */
teal_system *ts_db_gain_new(const char *name, int n, double k, int *freed) {
  double K[16] = {0};
  for (int i = 0; i < n; i++) {
    K[i * n + i] = k;
  }
  return ts_db_matgain_new(name, n, n, K, freed);
}

/* Constant source: y = K (no inputs, depends on nothing). */
int ts_db_const_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)ctx;
  (void)user;
  const ts_db_leaf_data *d = teal_system_user(sys);
  memcpy(out, d->K, (size_t)d->rows * sizeof(double));
  return TEAL_OK;
}

teal_system *ts_db_const_new(const char *name, int n, const double *value, int *freed) {
  ts_db_leaf_data *d = ts_db_leaf_data_new(freed);
  d->rows = n;
  memcpy(d->K, value, (size_t)n * sizeof(double));
  teal_system *s = teal_leaf_new(name, d, ts_db_leaf_data_free);
  ck_assert_ptr_nonnull(s);
  /* depends on time only (so it never needs recomputing in these tests) */
  teal_ticket t = TEAL_TICKET_TIME;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", n, ts_db_const_calc, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* Integrator: z' = u, y = z (no feedthrough). */
static int integ_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  int n = teal_system_num_continuous_states(sys, NULL, NULL, NULL);
  memcpy(out, teal_context_z(ctx), (size_t)n * sizeof(double));
  return TEAL_OK;
}

static int integ_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                       void *user) {
  (void)user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  int n = teal_system_num_continuous_states(sys, NULL, NULL, NULL);
  memcpy(xd->z, u, (size_t)n * sizeof(double));
  return TEAL_OK;
}

teal_system *ts_db_integ_new(const char *name, int n, int *freed) {
  teal_system *s = teal_leaf_new(name, ts_db_leaf_data_new(freed), ts_db_leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", n), 0);
  teal_ticket z = TEAL_TICKET_Z;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", n, integ_out, NULL, &z, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 0, 0, n, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, integ_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

const teal_input_port *ts_db_in_port(const teal_system *s, const char *name) {
  const teal_input_port *p = teal_system_input_port_by_name(s, name);
  ck_assert_msg(p != NULL, "no input '%s' on '%s'", name, teal_system_name(s));
  return p;
}

const teal_output_port *ts_db_out_port(const teal_system *s, const char *name) {
  const teal_output_port *p = teal_system_output_port_by_name(s, name);
  ck_assert_msg(p != NULL, "no output '%s' on '%s'", name, teal_system_name(s));
  return p;
}
