/* Fixtures shared by the diagram tests (test_diagram*.c): small leaf
 * constructors (gains, integrators, sources, abstract-port leaves) and checked
 * build and connect helpers. */
#ifndef TEAL_TESTS_SUPPORT_DIAGRAM_FIXTURES_H
#define TEAL_TESTS_SUPPORT_DIAGRAM_FIXTURES_H

#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"
#include "framework/value.h"

#define TS_DB_ASSERT_HAS(msg, sub)                                                                 \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", (msg),     \
                (sub))

/* ---- small leaf constructors ----------------------------------------- */

/* Model data of every test leaf: a matrix gain or dynamics coefficients,
 * plus an optional counter bumped when the leaf is freed. */
typedef struct ts_db_leaf_data {
  int rows, cols;
  double K[16];
  double k, c, m; /* mass-spring-damper coefficients */
  int *freed;
} ts_db_leaf_data;

void ts_db_leaf_data_free(void *p);

ts_db_leaf_data *ts_db_leaf_data_new(int *freed);

teal_system *ts_db_matgain_new(const char *name, int rows, int cols, const double *K, int *freed);

/* y = k u elementwise, size n. */
teal_system *ts_db_gain_new(const char *name, int n, double k, int *freed);

/* Constant source: y = K (no inputs, depends on nothing). */
int ts_db_const_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user);

teal_system *ts_db_const_new(const char *name, int n, const double *value, int *freed);

teal_system *ts_db_integ_new(const char *name, int n, int *freed);

const teal_input_port *ts_db_in_port(const teal_system *s, const char *name);

const teal_output_port *ts_db_out_port(const teal_system *s, const char *name);

#endif
