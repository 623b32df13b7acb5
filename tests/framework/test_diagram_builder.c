/* Tests of the diagram builder: wiring errors (with codes and messages that
 * name the systems and ports involved), ownership, sticky errors, algebraic
 * loop detection, exports, feedthrough, lookups, and the equivalence of a
 * three-level nested diagram with the equivalent flat diagram. */
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

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
}

#define ASSERT_HAS(msg, sub)                                                        \
  ck_assert_msg(strstr((msg), (sub)) != NULL, "message \"%s\" does not contain \"%s\"", \
                (msg), (sub))

/* ---- small leaf constructors ----------------------------------------- */

/* Model data of every test leaf: a matrix gain or dynamics coefficients,
 * plus an optional counter bumped when the leaf is freed. */
typedef struct leaf_data {
  int rows, cols;
  double K[16];
  double k, c, m; /* mass-spring-damper coefficients */
  int *freed;
} leaf_data;

static void leaf_data_free(void *p) {
  leaf_data *d = p;
  if (d->freed) {
    (*d->freed)++;
  }
  free(d);
}

static leaf_data *leaf_data_new(int *freed) {
  leaf_data *d = calloc(1, sizeof *d);
  ck_assert_ptr_nonnull(d);
  d->freed = freed;
  return d;
}

/* y = K u with K rows x cols (direct feedthrough). */
static int matgain_calc(const teal_system *sys, const teal_context *ctx, double *out,
                        void *user) {
  (void)user;
  const leaf_data *d = teal_system_user(sys);
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

static teal_system *matgain_new(const char *name, int rows, int cols, const double *K,
                                int *freed) {
  leaf_data *d = leaf_data_new(freed);
  d->rows = rows;
  d->cols = cols;
  memcpy(d->K, K, (size_t)(rows * cols) * sizeof(double));
  teal_system *s = teal_leaf_new(name, d, leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", cols), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", rows, matgain_calc, NULL, NULL, 0), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* y = k u elementwise, size n. */
static teal_system *gain_new(const char *name, int n, double k, int *freed) {
  double K[16] = {0};
  for (int i = 0; i < n; i++) {
    K[i * n + i] = k;
  }
  return matgain_new(name, n, n, K, freed);
}

/* Constant source: y = K (no inputs, depends on nothing). */
static int const_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)ctx;
  (void)user;
  const leaf_data *d = teal_system_user(sys);
  memcpy(out, d->K, (size_t)d->rows * sizeof(double));
  return TEAL_OK;
}

static teal_system *const_new(const char *name, int n, const double *value, int *freed) {
  leaf_data *d = leaf_data_new(freed);
  d->rows = n;
  memcpy(d->K, value, (size_t)n * sizeof(double));
  teal_system *s = teal_leaf_new(name, d, leaf_data_free);
  ck_assert_ptr_nonnull(s);
  /* depends on time only (so it never needs recomputing in these tests) */
  teal_ticket t = TEAL_TICKET_TIME;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", n, const_calc, NULL, &t, 1), 0);
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

static teal_system *integ_new(const char *name, int n, int *freed) {
  teal_system *s = teal_leaf_new(name, leaf_data_new(freed), leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", n), 0);
  teal_ticket z = TEAL_TICKET_Z;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", n, integ_out, NULL, &z, 1), 0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 0, 0, n, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, integ_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* Mass-spring-damper driven by force f: q' = v, v' = (f - k q - c v) / m,
 * output x = [q, v] (depends on state only). */
static int msd_out(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)user;
  out[0] = teal_context_q(ctx)[0];
  out[1] = teal_context_v(ctx)[0];
  return TEAL_OK;
}

static int msd_deriv(const teal_system *sys, const teal_context *ctx, teal_continuous_view *xd,
                     void *user) {
  (void)user;
  const leaf_data *d = teal_system_user(sys);
  const double *f = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &f);
  if (rc) {
    return rc;
  }
  double q = teal_context_q(ctx)[0], v = teal_context_v(ctx)[0];
  xd->q[0] = v;
  xd->v[0] = (f[0] - d->k * q - d->c * v) / d->m;
  return TEAL_OK;
}

static teal_system *msd_new(const char *name, double k, double c, double m) {
  leaf_data *d = leaf_data_new(NULL);
  d->k = k;
  d->c = c;
  d->m = m;
  teal_system *s = teal_leaf_new(name, d, leaf_data_free);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "f", 1), 0);
  teal_ticket qv[2] = {TEAL_TICKET_Q, TEAL_TICKET_V};
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "x", 2, msd_out, NULL, qv, 2), 0);
  ck_assert_int_eq(teal_leaf_declare_continuous_state(s, 1, 1, 0, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_set_time_derivatives(s, msd_deriv, NULL), TEAL_OK);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* Abstract values: a small struct carried by two differently named types. */
typedef struct token {
  int id;
  double weight;
} token;

static const teal_value_type k_alpha = {"alpha", sizeof(token), NULL, NULL, NULL};
static const teal_value_type k_beta = {"beta", sizeof(token), NULL, NULL, NULL};
/* A second descriptor object equal to k_alpha by name and size. */
static const teal_value_type k_alpha_twin = {"alpha", sizeof(token), NULL, NULL, NULL};

static int token_src_calc(const teal_system *sys, const teal_context *ctx, void *out,
                          void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  token *t = out;
  t->id = 42;
  t->weight = 2.5;
  return TEAL_OK;
}

static teal_system *token_src_new(const char *name, const teal_value_type *type) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_ptr_nonnull(s);
  teal_ticket t = TEAL_TICKET_TIME;
  ck_assert_int_eq(teal_leaf_declare_abstract_output(s, "y", type, token_src_calc, NULL, &t, 1),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* Reads the token's weight times its id into a vector output. */
static int token_sink_calc(const teal_system *sys, const teal_context *ctx, double *out,
                           void *user) {
  (void)user;
  const void *v = NULL;
  int rc = teal_eval_abstract_input(sys, ctx, 0, &v);
  if (rc) {
    return rc;
  }
  const token *t = v;
  out[0] = t->weight * t->id;
  return TEAL_OK;
}

static teal_system *token_sink_new(const char *name, const teal_value_type *type) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq(teal_leaf_declare_abstract_input(s, "u", type), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, token_sink_calc, NULL, NULL, 0),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static const teal_input_port *in_port(const teal_system *s, const char *name) {
  const teal_input_port *p = teal_system_input_port_by_name(s, name);
  ck_assert_msg(p != NULL, "no input '%s' on '%s'", name, teal_system_name(s));
  return p;
}

static const teal_output_port *out_port(const teal_system *s, const char *name) {
  const teal_output_port *p = teal_system_output_port_by_name(s, name);
  ck_assert_msg(p != NULL, "no output '%s' on '%s'", name, teal_system_name(s));
  return p;
}

static int count_substr(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = strstr(s, sub); p; p = strstr(p + strlen(sub), sub)) {
    n++;
  }
  return n;
}

/* ---- wiring errors ---------------------------------------------------- */

START_TEST(test_size_mismatch) {
  teal_builder *b = teal_builder_new("wiring");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 2, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 3, 1.0, NULL));
  ck_assert_ptr_nonnull(g1);
  ck_assert_ptr_nonnull(g2);
  int rc = teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u"));
  ck_assert_int_eq(rc, TEAL_ESIZE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESIZE);
  ASSERT_HAS(e->message, "g1.y");
  ASSERT_HAS(e->message, "g2.u");
  ASSERT_HAS(e->message, "size 2");
  ASSERT_HAS(e->message, "size 3");
  ASSERT_HAS(e->message, "wiring");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_input_size_mismatch) {
  teal_builder *b = teal_builder_new("fan");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 2, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g1, "u"), "cmd"), 0);
  int rc = teal_builder_connect_input(b, "cmd", in_port(g3, "u"));
  ck_assert_int_eq(rc, TEAL_ESIZE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESIZE);
  ASSERT_HAS(e->message, "diagram input 'cmd'");
  ASSERT_HAS(e->message, "g3.u");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_vector_to_abstract_mismatch) {
  teal_builder *b = teal_builder_new("mixed");
  teal_system *g = teal_builder_add(b, gain_new("vec", 1, 1.0, NULL));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_alpha));
  int rc = teal_builder_connect(b, out_port(g, "y"), in_port(sink, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ETYPE);
  ASSERT_HAS(e->message, "vec.y");
  ASSERT_HAS(e->message, "sink.u");
  ASSERT_HAS(e->message, "abstract");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_abstract_to_vector_mismatch) {
  teal_builder *b = teal_builder_new("mixed2");
  teal_system *src = teal_builder_add(b, token_src_new("tok", &k_alpha));
  teal_system *g = teal_builder_add(b, gain_new("vec", 1, 1.0, NULL));
  int rc = teal_builder_connect(b, out_port(src, "y"), in_port(g, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  ASSERT_HAS(e->message, "tok.y");
  ASSERT_HAS(e->message, "vec.u");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_abstract_type_mismatch) {
  teal_builder *b = teal_builder_new("types");
  teal_system *src = teal_builder_add(b, token_src_new("src", &k_alpha));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_beta));
  int rc = teal_builder_connect(b, out_port(src, "y"), in_port(sink, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ETYPE);
  ASSERT_HAS(e->message, "src.y");
  ASSERT_HAS(e->message, "sink.u");
  ASSERT_HAS(e->message, "'alpha'");
  ASSERT_HAS(e->message, "'beta'");
  teal_builder_free(b);
}
END_TEST

/* Two distinct descriptor objects with the same name and size match, and
 * the abstract value flows through the built diagram. */
START_TEST(test_abstract_equal_types_connect) {
  teal_builder *b = teal_builder_new("abs");
  teal_system *src = teal_builder_add(b, token_src_new("src", &k_alpha));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_alpha_twin));
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(sink, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(sink, "y"), "w"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "build failed: %s", err.message);
  teal_context *ctx = teal_context_new(d, &err);
  ck_assert_ptr_nonnull(ctx);
  const double *w = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &w), TEAL_OK);
  ck_assert_double_eq_tol(w[0], 105.0, 1e-12);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- names and ownership --------------------------------------------- */

START_TEST(test_duplicate_name_frees_duplicate) {
  int freed_first = 0, freed_dup = 0;
  teal_builder *b = teal_builder_new("dups");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 2.0, &freed_first));
  ck_assert_ptr_nonnull(g);
  teal_system *dup = teal_builder_add(b, gain_new("g", 1, 5.0, &freed_dup));
  ck_assert_ptr_null(dup);
  ck_assert_int_eq(freed_dup, 1);   /* the duplicate is freed right away */
  ck_assert_int_eq(freed_first, 0); /* the first one stays */
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EDUPLICATE);
  ASSERT_HAS(e->message, "'g'");
  ASSERT_HAS(e->message, "dups");
  /* the first one is still the one found by name */
  teal_system *found = teal_builder_find(b, "g");
  ck_assert_ptr_eq(found, g);
  ck_assert_double_eq(((leaf_data *)teal_system_user(found))->K[0], 2.0);
  teal_builder_free(b);
  ck_assert_int_eq(freed_first, 1);
  ck_assert_int_eq(freed_dup, 1);
}
END_TEST

START_TEST(test_connect_by_name_unknown_system) {
  teal_builder *b = teal_builder_new("names");
  teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  int rc = teal_builder_connect_by_name(b, "ghost", "y", "g1", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_ENOTFOUND);
  ASSERT_HAS(teal_builder_error(b)->message, "'ghost'");
  teal_builder_free(b);

  b = teal_builder_new("names");
  teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  rc = teal_builder_connect_by_name(b, "g1", "y", "phantom", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  ASSERT_HAS(teal_builder_error(b)->message, "'phantom'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_by_name_unknown_port) {
  teal_builder *b = teal_builder_new("ports");
  teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  int rc = teal_builder_connect_by_name(b, "g1", "nope", "g2", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  const teal_error *e = teal_builder_error(b);
  ASSERT_HAS(e->message, "'g1'");
  ASSERT_HAS(e->message, "output");
  ASSERT_HAS(e->message, "'nope'");
  teal_builder_free(b);

  b = teal_builder_new("ports");
  teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  rc = teal_builder_connect_by_name(b, "g1", "y", "g2", "nada");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  e = teal_builder_error(b);
  ASSERT_HAS(e->message, "'g2'");
  ASSERT_HAS(e->message, "input");
  ASSERT_HAS(e->message, "'nada'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_by_name_ok) {
  double one[1] = {1.5};
  teal_builder *b = teal_builder_new("byname");
  teal_builder_add(b, const_new("c", 1, one, NULL));
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 4.0, NULL));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "c", "y", "g", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g, "y"), "out"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *ctx = teal_context_new(d, NULL);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 6.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_input_connected_twice) {
  teal_builder *b = teal_builder_new("twice");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g3, "u")), TEAL_OK);
  int rc = teal_builder_connect(b, out_port(g2, "y"), in_port(g3, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  ASSERT_HAS(e->message, "g3.u");
  ASSERT_HAS(e->message, "already connected");
  teal_builder_free(b);

  /* exporting an input that is already connected is the same error */
  b = teal_builder_new("twice2");
  g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  rc = teal_builder_export_input(b, in_port(g2, "u"), "ext");
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "g2.u");
  ASSERT_HAS(teal_builder_error(b)->message, "already connected");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_foreign_ports_rejected) {
  teal_builder *other = teal_builder_new("other");
  teal_system *stranger = teal_builder_add(other, gain_new("stranger", 1, 1.0, NULL));

  /* foreign output */
  teal_builder *b = teal_builder_new("mine");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  int rc = teal_builder_connect(b, out_port(stranger, "y"), in_port(g, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "'mine'");
  ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* foreign input */
  b = teal_builder_new("mine");
  g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  rc = teal_builder_connect(b, out_port(g, "y"), in_port(stranger, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* foreign export (input and output) */
  b = teal_builder_new("mine");
  teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(stranger, "u"), NULL), TEAL_EINVAL);
  teal_builder_free(b);
  b = teal_builder_new("mine");
  teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_output(b, out_port(stranger, "y"), NULL), TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* a leaf never added anywhere */
  teal_system *loose = gain_new("loose", 1, 1.0, NULL);
  b = teal_builder_new("mine");
  g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(loose, "y"), in_port(g, "u")), TEAL_EINVAL);
  teal_builder_free(b);
  teal_system_free(loose);

  /* NULL ports */
  b = teal_builder_new("mine");
  g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, NULL, in_port(g, "u")), TEAL_EINVAL);
  teal_builder_free(b);
  b = teal_builder_new("mine");
  g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g, "y"), NULL), TEAL_EINVAL);
  teal_builder_free(b);

  /* the other builder is unaffected */
  ck_assert_int_eq(teal_builder_error(other)->code, TEAL_OK);
  teal_builder_free(other);
}
END_TEST

/* The message for a port of a system that is not in this builder should
 * name that port (error.h: messages name the system or port involved). */
START_TEST(test_foreign_port_message_names_port) {
  teal_builder *other = teal_builder_new("other");
  teal_system *stranger = teal_builder_add(other, gain_new("stranger", 1, 1.0, NULL));
  teal_builder *b = teal_builder_new("mine");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(stranger, "y"), in_port(g, "u")),
                   TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "stranger");
  teal_builder_free(b);

  b = teal_builder_new("mine");
  g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g, "y"), in_port(stranger, "u")),
                   TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b)->message, "stranger");
  teal_builder_free(b);
  teal_builder_free(other);
}
END_TEST

START_TEST(test_add_unfinalized) {
  int freed = 0;
  teal_system *raw = teal_leaf_new("raw", leaf_data_new(&freed), leaf_data_free);
  ck_assert_int_eq(teal_leaf_declare_vector_input(raw, "u", 1), 0);
  teal_builder *b = teal_builder_new("fin");
  ck_assert_ptr_null(teal_builder_add(b, raw));
  ck_assert_int_eq(freed, 1); /* ownership was taken and the leaf freed */
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESTATE);
  ASSERT_HAS(e->message, "'raw'");
  ASSERT_HAS(e->message, "not finalized");
  ck_assert_ptr_null(teal_builder_find(b, "raw"));
  teal_builder_free(b);

  /* a leaf whose declarations failed: its own error code and message */
  freed = 0;
  teal_system *bad = teal_leaf_new("bad", leaf_data_new(&freed), leaf_data_free);
  ck_assert_int_eq(teal_leaf_declare_vector_input(bad, "u/v", 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_leaf_finalize(bad), TEAL_EINVAL);
  b = teal_builder_new("fin");
  ck_assert_ptr_null(teal_builder_add(b, bad));
  ck_assert_int_eq(freed, 1);
  e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  ASSERT_HAS(e->message, "'bad'");
  ASSERT_HAS(e->message, "u/v");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_add_already_owned) {
  int freed = 0;
  teal_builder *b1 = teal_builder_new("first");
  teal_system *g = teal_builder_add(b1, gain_new("shared", 1, 3.0, &freed));
  ck_assert_ptr_nonnull(g);
  teal_builder *b2 = teal_builder_new("second");
  ck_assert_ptr_null(teal_builder_add(b2, g));
  ck_assert_int_eq(freed, 0); /* still owned by b1: not freed */
  const teal_error *e = teal_builder_error(b2);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  ASSERT_HAS(e->message, "'shared'");
  ASSERT_HAS(e->message, "already belongs");
  ck_assert_ptr_null(teal_builder_find(b2, "shared"));
  teal_builder_free(b2);
  ck_assert_int_eq(freed, 0);

  /* b1 is intact and builds a working diagram */
  ck_assert_int_eq(teal_builder_export_input(b1, in_port(g, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, out_port(g, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b1, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_eq(teal_system_parent(g), d);

  /* a subsystem of a built diagram cannot be added elsewhere either */
  teal_builder *b3 = teal_builder_new("third");
  ck_assert_ptr_null(teal_builder_add(b3, (teal_system *)teal_diagram_subsystem(d, 0)));
  ck_assert_int_eq(teal_builder_error(b3)->code, TEAL_EINVAL);
  ASSERT_HAS(teal_builder_error(b3)->message, "'shared'");
  teal_builder_free(b3);
  ck_assert_int_eq(freed, 0);
  /* freeing an owned subsystem directly is a no-op */
  teal_system_free(g);
  ck_assert_int_eq(freed, 0);

  teal_context *ctx = teal_context_new(d, NULL);
  double u = 2.0;
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, &u, 1), TEAL_OK);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 6.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
  ck_assert_int_eq(freed, 1);
}
END_TEST

START_TEST(test_add_null_arguments) {
  teal_builder *b = teal_builder_new("nulls");
  ck_assert_ptr_null(teal_builder_add(b, NULL));
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_EINVAL);
  teal_builder_free(b);
  int freed = 0;
  ck_assert_ptr_null(teal_builder_add(NULL, gain_new("g", 1, 1.0, &freed)));
  ck_assert_int_eq(freed, 1);
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(NULL, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
}
END_TEST

/* ---- sticky errors ---------------------------------------------------- */

START_TEST(test_errors_are_sticky) {
  int freed[5] = {0};
  teal_builder *b = teal_builder_new("sticky");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 2, 1.0, &freed[0]));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, &freed[1]));
  teal_system *g3 = teal_builder_add(b, gain_new("g3", 1, 1.0, &freed[2]));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_ESIZE);
  teal_error first = *teal_builder_error(b);
  ck_assert_int_eq(first.code, TEAL_ESIZE);

  /* every later call returns the first error and changes nothing */
  ck_assert_int_eq(teal_builder_connect(b, out_port(g2, "y"), in_port(g3, "u")), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "g2", "y", "g3", "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "nobody", "y", "g3", "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g3, "u"), "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_input(b, "u", in_port(g2, "u")), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g3, "y"), "y"), TEAL_ESIZE);
  ck_assert_ptr_null(teal_builder_add(b, gain_new("g4", 1, 1.0, &freed[3])));
  ck_assert_int_eq(freed[3], 1); /* the rejected system is freed */
  ck_assert_ptr_null(teal_builder_find(b, "g4"));
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_ESIZE);
  ck_assert_str_eq(teal_builder_error(b)->message, first.message);

  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_str_eq(err.message, first.message);
  /* build consumed the builder and freed every subsystem exactly once */
  ck_assert_int_eq(freed[0], 1);
  ck_assert_int_eq(freed[1], 1);
  ck_assert_int_eq(freed[2], 1);
  ck_assert_int_eq(freed[3], 1);
}
END_TEST

/* ---- algebraic loops -------------------------------------------------- */

START_TEST(test_algebraic_loop_two_gains) {
  int freed[2] = {0};
  teal_builder *b = teal_builder_new("loopy");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, &freed[0]));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, &freed[1]));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g2, "y"), in_port(g1, "u")), TEAL_OK);
  teal_error err;
  teal_error_clear(&err);
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  ASSERT_HAS(err.message, "loopy");
  ASSERT_HAS(err.message, "g1.y");
  ASSERT_HAS(err.message, "g2.u");
  ASSERT_HAS(err.message, "g2.y");
  ASSERT_HAS(err.message, "g1.u");
  /* four hops close the cycle: a -> b -> c -> d -> a */
  ck_assert_int_eq(count_substr(err.message, "->"), 4);
  ck_assert_int_eq(freed[0], 1);
  ck_assert_int_eq(freed[1], 1);
}
END_TEST

START_TEST(test_algebraic_loop_self) {
  teal_builder *b = teal_builder_new("self");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g, "y"), in_port(g, "u")), TEAL_OK);
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  ASSERT_HAS(err.message, "g.y");
  ASSERT_HAS(err.message, "g.u");
  ck_assert_int_eq(count_substr(err.message, "->"), 2);
}
END_TEST

/* inner = {gain} exporting in -> out with feedthrough; the outer diagram
 * closes inner.out -> h -> inner.in: a loop through the nested diagram. */
static teal_system *feedthrough_inner(const char *name, int *freed) {
  teal_builder *b = teal_builder_new(name);
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 2.0, freed));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g, "u"), "in"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g, "y"), "out"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

START_TEST(test_algebraic_loop_through_nested_diagram) {
  int freed = 0;
  teal_system *inner = feedthrough_inner("inner", &freed);
  ck_assert(teal_system_has_direct_feedthrough(inner, 0, 0));
  teal_builder *b = teal_builder_new("outer");
  ck_assert_ptr_nonnull(teal_builder_add(b, inner));
  teal_system *h = teal_builder_add(b, gain_new("h", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(inner, "out"), in_port(h, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(h, "y"), in_port(inner, "in")), TEAL_OK);
  teal_error err;
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_EALGLOOP);
  ASSERT_HAS(err.message, "inner.out");
  ASSERT_HAS(err.message, "h.u");
  ASSERT_HAS(err.message, "h.y");
  ASSERT_HAS(err.message, "inner.in");
  ck_assert_int_eq(count_substr(err.message, "->"), 4);
  ck_assert_int_eq(freed, 1); /* the nested diagram's leaf was freed too */
}
END_TEST

START_TEST(test_no_loop_through_integrator) {
  teal_builder *b = teal_builder_new("fb");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 3.0, NULL));
  teal_system *in = teal_builder_add(b, integ_new("int", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g, "y"), in_port(in, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(in, "y"), in_port(g, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g, "y"), NULL), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "unexpected build failure: %s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  double z = 2.5;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, &z, 1), TEAL_OK);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 7.5, 1e-15);
  double zdot = 0.0;
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, &zdot), TEAL_OK);
  ck_assert_double_eq_tol(zdot, 7.5, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* A loop through a nested diagram whose output does not depend on its
 * input (an integrator inside) is not algebraic. */
START_TEST(test_no_loop_through_nested_integrator) {
  teal_builder *ib = teal_builder_new("inner");
  teal_system *in = teal_builder_add(ib, integ_new("int", 1, NULL));
  ck_assert_int_eq(teal_builder_export_input(ib, in_port(in, "u"), "in"), 0);
  ck_assert_int_eq(teal_builder_export_output(ib, out_port(in, "y"), "out"), 0);
  teal_system *inner = teal_builder_build(ib, NULL);
  ck_assert_ptr_nonnull(inner);
  ck_assert(!teal_system_has_direct_feedthrough(inner, 0, 0));

  teal_builder *b = teal_builder_new("outer");
  teal_builder_add(b, inner);
  teal_system *h = teal_builder_add(b, gain_new("h", 1, -1.0, NULL));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "inner", "out", "h", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "h", "y", "inner", "in"), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(h, "y"), "y"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "unexpected build failure: %s", err.message);
  teal_context *ctx = teal_context_new(d, NULL);
  double z = 4.0, zdot = 0.0;
  ck_assert_int_eq(teal_context_set_continuous_state(ctx, &z, 1), TEAL_OK);
  ck_assert_int_eq(teal_calc_time_derivatives(d, ctx, &zdot), TEAL_OK);
  ck_assert_double_eq_tol(zdot, -4.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

/* ---- evaluation through built diagrams ------------------------------- */

START_TEST(test_unconnected_input_reports_port_and_path) {
  teal_builder *b = teal_builder_new("plant");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g2, "y"), "y"), 0);
  teal_system *inner = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(inner);
  /* nest it once so the path has two levels */
  b = teal_builder_new("world");
  teal_builder_add(b, inner);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(inner, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *ctx = teal_context_new(d, NULL);
  ck_assert_ptr_nonnull(ctx);

  const double *y = NULL;
  int rc = teal_eval_vector_output(d, ctx, 0, &y);
  ck_assert_int_eq(rc, TEAL_ENOTCONNECTED);
  const teal_error *e = teal_context_error(ctx);
  ck_assert_int_eq(e->code, TEAL_ENOTCONNECTED);
  ASSERT_HAS(e->message, "'u'");
  ASSERT_HAS(e->message, "world/plant/g1");

  /* directly on the leaf's subcontext */
  const teal_context *g1ctx = teal_context_subcontext_by_name(ctx, "plant/g1");
  ck_assert_ptr_nonnull(g1ctx);
  const double *u = NULL;
  ck_assert_int_eq(teal_eval_vector_input(g1, g1ctx, 0, &u), TEAL_ENOTCONNECTED);
  ASSERT_HAS(teal_context_error(ctx)->message, "world/plant/g1");

  /* fixing the leaf's own (unconnected) input makes it work */
  teal_context *g1mut = teal_context_subcontext_by_name_mut(ctx, "plant/g1");
  double v = -3.0;
  ck_assert_int_eq(teal_context_fix_input(g1mut, 0, &v, 1), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -3.0, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_fan_out) {
  double c[2] = {1.0, -2.0};
  teal_builder *b = teal_builder_new("fan");
  teal_system *src = teal_builder_add(b, const_new("src", 2, c, NULL));
  teal_system *a = teal_builder_add(b, gain_new("a", 2, 2.0, NULL));
  teal_system *bb = teal_builder_add(b, gain_new("b", 2, -1.0, NULL));
  teal_system *cc = teal_builder_add(b, gain_new("c", 2, 10.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(a, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(bb, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(cc, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(a, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(bb, "y"), NULL), 1);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(cc, "y"), NULL), 2);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *ctx = teal_context_new(d, NULL);
  const double expect_k[3] = {2.0, -1.0, 10.0};
  for (int o = 0; o < 3; o++) {
    const double *y = NULL;
    ck_assert_int_eq(teal_eval_vector_output(d, ctx, o, &y), TEAL_OK);
    ck_assert_double_eq_tol(y[0], expect_k[o] * 1.0, 1e-15);
    ck_assert_double_eq_tol(y[1], expect_k[o] * -2.0, 1e-15);
  }
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_export_input_fans_out) {
  teal_builder *b = teal_builder_new("bus");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 2, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 2, 2.0, NULL));
  teal_system *g3 = teal_builder_add(b, gain_new("g3", 2, -3.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g1, "u"), "cmd"), 0);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmd", in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmd", in_port(g3, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g3, "y"), "y3"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(teal_system_num_input_ports(d), 1);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(d, 0)), "cmd");
  ck_assert_int_eq(teal_input_port_size(teal_system_input_port(d, 0)), 2);
  ck_assert(teal_system_has_direct_feedthrough(d, 0, 0));

  teal_context *ctx = teal_context_new(d, NULL);
  double u[2] = {4.0, 5.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u, 2), TEAL_OK);
  const char *names[3] = {"g1", "g2", "g3"};
  const teal_system *subs[3] = {g1, g2, g3};
  for (int i = 0; i < 3; i++) {
    const teal_context *sc = teal_context_subcontext_by_name(ctx, names[i]);
    ck_assert_ptr_nonnull(sc);
    const double *in = NULL;
    ck_assert_int_eq(teal_eval_vector_input(subs[i], sc, 0, &in), TEAL_OK);
    ck_assert_double_eq(in[0], 4.0);
    ck_assert_double_eq(in[1], 5.0);
    /* the subsystem input itself cannot be fixed: it is fed by the diagram */
    teal_context *scm = teal_context_subcontext_by_name_mut(ctx, names[i]);
    ck_assert_int_eq(teal_context_fix_input(scm, 0, u, 2), TEAL_EINVAL);
  }
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -12.0, 1e-15);
  ck_assert_double_eq_tol(y[1], -15.0, 1e-15);
  /* a new fixed value reaches every subsystem (no stale cache) */
  double u2[2] = {1.0, -1.0};
  ck_assert_int_eq(teal_context_fix_input(ctx, 0, u2, 2), TEAL_OK);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -3.0, 1e-15);
  ck_assert_double_eq_tol(y[1], 3.0, 1e-15);
  const double *in2 = NULL;
  ck_assert_int_eq(
      teal_eval_vector_input(g2, teal_context_subcontext(ctx, g2), 0, &in2), TEAL_OK);
  ck_assert_double_eq(in2[0], 1.0);
  ck_assert_double_eq(in2[1], -1.0);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_connect_input_unknown_name) {
  teal_builder *b = teal_builder_new("bus");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g1, "u"), "cmd"), 0);
  ck_assert_int_eq(teal_builder_connect_input(b, "cmnd", in_port(g2, "u")), TEAL_ENOTFOUND);
  ASSERT_HAS(teal_builder_error(b)->message, "'cmnd'");
  teal_builder_free(b);
}
END_TEST

/* An output that depends on nothing (TEAL_TICKET_NOTHING) has an empty
 * dependency list; creating the context and evaluating it must be clean. */
START_TEST(test_source_depending_on_nothing) {
  teal_system *src = teal_leaf_new("src", leaf_data_new(NULL), leaf_data_free);
  ((leaf_data *)teal_system_user(src))->rows = 1;
  ((leaf_data *)teal_system_user(src))->K[0] = 7.25;
  teal_ticket nothing = TEAL_TICKET_NOTHING;
  ck_assert_int_eq(teal_leaf_declare_vector_output(src, "y", 1, const_calc, NULL, &nothing, 1),
                   0);
  ck_assert_int_eq(teal_leaf_finalize(src), TEAL_OK);
  teal_builder *b = teal_builder_new("d");
  teal_builder_add(b, src);
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 2.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(g, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_error err;
  teal_context *ctx = teal_context_new(d, &err);
  ck_assert_msg(ctx != NULL, "%s", err.message);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 14.5, 1e-15);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_exported_outputs_evaluate) {
  double c = 0.5;
  teal_builder *b = teal_builder_new("chain");
  teal_system *src = teal_builder_add(b, const_new("src", 1, &c, NULL));
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 4.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, -3.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(g1, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g2, "y"), "last"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g1, "y"), "mid"), 1);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_int_eq(teal_system_num_output_ports(d), 2);
  ck_assert_int_eq(teal_output_port_size(teal_system_output_port(d, 0)), 1);
  ck_assert_ptr_eq(teal_output_port_system(teal_system_output_port(d, 0)), d);
  teal_context *ctx = teal_context_new(d, NULL);
  const double *y = NULL;
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 0, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], -6.0, 1e-15);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 1, &y), TEAL_OK);
  ck_assert_double_eq_tol(y[0], 2.0, 1e-15);
  double out = 0.0;
  ck_assert_int_eq(teal_calc_vector_output(d, ctx, 0, &out), TEAL_OK);
  ck_assert_double_eq_tol(out, -6.0, 1e-15);
  ck_assert_int_eq(teal_eval_vector_output(d, ctx, 2, &y), TEAL_ENOTFOUND);
  teal_context_free(ctx);
  teal_system_free(d);
}
END_TEST

START_TEST(test_default_export_names) {
  teal_builder *b = teal_builder_new("names");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g1, "u"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g2, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g1, "y"), "custom"), 1);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_str_eq(teal_input_port_name(teal_system_input_port(d, 0)), "g1_u");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(d, 0)), "g2_y");
  ck_assert_str_eq(teal_output_port_name(teal_system_output_port(d, 1)), "custom");
  ck_assert_ptr_eq(teal_system_input_port_by_name(d, "g1_u"), teal_system_input_port(d, 0));
  ck_assert_ptr_eq(teal_system_output_port_by_name(d, "g2_y"), teal_system_output_port(d, 0));
  teal_system_free(d);
}
END_TEST

START_TEST(test_duplicate_export_names) {
  teal_builder *b = teal_builder_new("exp");
  teal_system *g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g1, "y"), NULL), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g1, "y"), NULL), TEAL_EDUPLICATE);
  ASSERT_HAS(teal_builder_error(b)->message, "'g1_y'");
  teal_builder_free(b);

  b = teal_builder_new("exp");
  g1 = teal_builder_add(b, gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g1, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g2, "u"), "u"), TEAL_EDUPLICATE);
  ASSERT_HAS(teal_builder_error(b)->message, "'u'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_diagram_feedthrough) {
  /* a -> g -> ya ; b -> int -> yb ; int.y -> g2 -> yc ; g.y -> g3 -> yd */
  teal_builder *b = teal_builder_new("ft");
  teal_system *g = teal_builder_add(b, gain_new("g", 1, 1.0, NULL));
  teal_system *in = teal_builder_add(b, integ_new("int", 1, NULL));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g, "u"), "a"), 0);
  ck_assert_int_eq(teal_builder_export_input(b, in_port(in, "u"), "b"), 1);
  ck_assert_int_eq(teal_builder_connect(b, out_port(in, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g, "y"), in_port(g3, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g, "y"), "ya"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(in, "y"), "yb"), 1);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g2, "y"), "yc"), 2);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g3, "y"), "yd"), 3);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  const int expect[4][2] = {{1, 0}, {0, 0}, {0, 0}, {1, 0}}; /* [out][in] */
  for (int o = 0; o < 4; o++) {
    for (int i = 0; i < 2; i++) {
      ck_assert_msg(teal_system_has_direct_feedthrough(d, i, o) == expect[o][i],
                    "feedthrough(in %d, out %d)", i, o);
    }
  }
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, 2, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, 0, 4), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(d, -1, 0), 0);

  /* nested one level: the outer diagram inherits the inner feedthrough */
  teal_builder *ob = teal_builder_new("outer");
  teal_builder_add(ob, d);
  teal_system *h = teal_builder_add(ob, gain_new("h", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(ob, in_port(d, "b"), "ob"), 0);
  ck_assert_int_eq(teal_builder_export_input(ob, in_port(d, "a"), "oa"), 1);
  ck_assert_int_eq(teal_builder_connect(ob, out_port(d, "yd"), in_port(h, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(ob, out_port(h, "y"), "oy"), 0);
  ck_assert_int_eq(teal_builder_export_output(ob, out_port(d, "yb"), "oyb"), 1);
  teal_system *outer = teal_builder_build(ob, NULL);
  ck_assert_ptr_nonnull(outer);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 0, 0), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 1, 0), 1);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 0, 1), 0);
  ck_assert_int_eq(teal_system_has_direct_feedthrough(outer, 1, 1), 0);
  teal_system_free(outer);
}
END_TEST

START_TEST(test_lookups) {
  teal_builder *ib = teal_builder_new("arm");
  teal_system *j1 = teal_builder_add(ib, gain_new("joint1", 1, 1.0, NULL));
  teal_system *j2 = teal_builder_add(ib, gain_new("joint2", 1, 1.0, NULL));
  ck_assert_ptr_eq(teal_builder_find(ib, "joint1"), j1);
  ck_assert_ptr_eq(teal_builder_find(ib, "joint2"), j2);
  ck_assert_ptr_null(teal_builder_find(ib, "joint3"));
  ck_assert_ptr_null(teal_builder_find(ib, NULL));
  ck_assert_ptr_null(teal_builder_find(NULL, "joint1"));
  teal_system *arm = teal_builder_build(ib, NULL);
  ck_assert_ptr_nonnull(arm);

  teal_builder *b = teal_builder_new("robot");
  teal_system *base = teal_builder_add(b, gain_new("base", 1, 1.0, NULL));
  ck_assert_ptr_eq(teal_builder_add(b, arm), arm);
  ck_assert_ptr_eq(teal_builder_find(b, "arm"), arm);
  teal_system *robot = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(robot);

  ck_assert_int_eq(teal_diagram_num_subsystems(robot), 2);
  ck_assert_int_eq(teal_diagram_num_subsystems(arm), 2);
  ck_assert_int_eq(teal_diagram_num_subsystems(base), 0);
  ck_assert_int_eq(teal_diagram_num_subsystems(NULL), 0);
  ck_assert_ptr_eq(teal_diagram_subsystem(robot, 0), base);
  ck_assert_ptr_eq(teal_diagram_subsystem(robot, 1), arm);
  ck_assert_ptr_null(teal_diagram_subsystem(robot, 2));
  ck_assert_ptr_null(teal_diagram_subsystem(robot, -1));
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "base"), base);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm"), arm);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm/joint1"), j1);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(robot, "arm/joint2"), j2);
  ck_assert_ptr_eq(teal_diagram_find_subsystem(arm, "joint2"), j2);
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "arm/joint9"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "joint1"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "base/joint1"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, "ar"));
  ck_assert_ptr_null(teal_diagram_find_subsystem(robot, NULL));
  ck_assert_ptr_eq(teal_system_parent(j1), arm);
  ck_assert_ptr_eq(teal_system_parent(arm), robot);
  ck_assert_ptr_null(teal_system_parent(robot));
  ck_assert(teal_system_is_diagram(robot));
  ck_assert(teal_system_is_diagram(arm));
  ck_assert(!teal_system_is_diagram(j1));
  ck_assert_str_eq(teal_system_name(robot), "robot");
  teal_system_free(robot);
}
END_TEST

/* ---- three-level nesting equals the flat diagram --------------------- */

static const double K_MIX[2] = {0.5, -2.0}; /* g1: y = 0.5 x0 - 2 x1 */

/* Flat: g0, m1, i1, g1, m2, g2, i2 (the nested tree's depth-first order). */
static teal_system *build_flat(void) {
  teal_builder *b = teal_builder_new("flat");
  teal_system *g0 = teal_builder_add(b, gain_new("g0", 1, 1.5, NULL));
  teal_system *m1 = teal_builder_add(b, msd_new("m1", 4.0, 0.3, 2.0));
  teal_system *i1 = teal_builder_add(b, integ_new("i1", 1, NULL));
  teal_system *g1 = teal_builder_add(b, matgain_new("g1", 1, 2, K_MIX, NULL));
  teal_system *m2 = teal_builder_add(b, msd_new("m2", 9.0, 0.1, 0.5));
  teal_system *g2 = teal_builder_add(b, gain_new("g2", 1, 3.0, NULL));
  teal_system *i2 = teal_builder_add(b, integ_new("i2", 1, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, in_port(g0, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g0, "y"), in_port(m1, "f")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(m1, "x"), in_port(g1, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(i1, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(i1, "y"), in_port(m2, "f")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g1, "y"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(g2, "y"), in_port(i2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(m2, "x"), "x2"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(i2, "y"), "z2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(g2, "y"), "y2"), 2);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(m1, "x"), "x1"), 3);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "flat build: %s", err.message);
  return d;
}

/* top = {L1, g2, i2}; L1 = {L2, g1, m2}; L2 = {g0, m1, i1}. */
static teal_system *build_nested(void) {
  teal_error err;
  teal_builder *b2 = teal_builder_new("L2");
  teal_system *g0 = teal_builder_add(b2, gain_new("g0", 1, 1.5, NULL));
  teal_system *m1 = teal_builder_add(b2, msd_new("m1", 4.0, 0.3, 2.0));
  teal_system *i1 = teal_builder_add(b2, integ_new("i1", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b2, out_port(g0, "y"), in_port(m1, "f")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b2, in_port(g0, "u"), "u2"), 0);
  ck_assert_int_eq(teal_builder_export_input(b2, in_port(i1, "u"), "ui"), 1);
  ck_assert_int_eq(teal_builder_export_output(b2, out_port(m1, "x"), "x1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b2, out_port(i1, "y"), "z1"), 1);
  teal_system *l2 = teal_builder_build(b2, &err);
  ck_assert_msg(l2 != NULL, "L2 build: %s", err.message);

  teal_builder *b1 = teal_builder_new("L1");
  teal_builder_add(b1, l2);
  teal_system *g1 = teal_builder_add(b1, matgain_new("g1", 1, 2, K_MIX, NULL));
  teal_system *m2 = teal_builder_add(b1, msd_new("m2", 9.0, 0.1, 0.5));
  ck_assert_int_eq(teal_builder_connect(b1, out_port(l2, "x1"), in_port(g1, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b1, out_port(g1, "y"), in_port(l2, "ui")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b1, out_port(l2, "z1"), in_port(m2, "f")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b1, in_port(l2, "u2"), "u1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, out_port(g1, "y"), "y1"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, out_port(m2, "x"), "x2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b1, out_port(l2, "x1"), "x1"), 2);
  teal_system *l1 = teal_builder_build(b1, &err);
  ck_assert_msg(l1 != NULL, "L1 build: %s", err.message);

  teal_builder *b0 = teal_builder_new("top");
  teal_builder_add(b0, l1);
  teal_system *g2 = teal_builder_add(b0, gain_new("g2", 1, 3.0, NULL));
  teal_system *i2 = teal_builder_add(b0, integ_new("i2", 1, NULL));
  ck_assert_int_eq(teal_builder_connect(b0, out_port(l1, "y1"), in_port(g2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b0, out_port(g2, "y"), in_port(i2, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b0, in_port(l1, "u1"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_output(b0, out_port(l1, "x2"), "x2"), 0);
  ck_assert_int_eq(teal_builder_export_output(b0, out_port(i2, "y"), "z2"), 1);
  ck_assert_int_eq(teal_builder_export_output(b0, out_port(g2, "y"), "y2"), 2);
  ck_assert_int_eq(teal_builder_export_output(b0, out_port(l1, "x1"), "x1"), 3);
  teal_system *top = teal_builder_build(b0, &err);
  ck_assert_msg(top != NULL, "top build: %s", err.message);
  return top;
}

static double lcg_uniform(unsigned long *s) {
  *s = *s * 6364136223846793005UL + 1442695040888963407UL;
  return (double)((*s >> 11) & ((1UL << 53) - 1)) / (double)(1UL << 53) * 2.0 - 1.0;
}

START_TEST(test_three_level_nesting_matches_flat) {
  teal_system *flat = build_flat();
  teal_system *top = build_nested();
  int nq, nv, nz, fq, fv, fz;
  ck_assert_int_eq(teal_system_num_continuous_states(top, &nq, &nv, &nz), 6);
  ck_assert_int_eq(teal_system_num_continuous_states(flat, &fq, &fv, &fz), 6);
  ck_assert_int_eq(nq, 2);
  ck_assert_int_eq(nv, 2);
  ck_assert_int_eq(nz, 2);
  ck_assert_int_eq(fq, nq);
  ck_assert_int_eq(fv, nv);
  ck_assert_int_eq(fz, nz);
  ck_assert_ptr_nonnull(teal_diagram_find_subsystem(top, "L1/L2/m1"));
  ck_assert(teal_system_has_direct_feedthrough(top, 0, 2) == 0); /* via m1 state */

  teal_context *cf = teal_context_new(flat, NULL);
  teal_context *cn = teal_context_new(top, NULL);
  ck_assert_ptr_nonnull(cf);
  ck_assert_ptr_nonnull(cn);
  unsigned long seed = 12345;
  for (int trial = 0; trial < 20; trial++) {
    double x[6], u = lcg_uniform(&seed) * 3.0;
    for (int i = 0; i < 6; i++) {
      x[i] = lcg_uniform(&seed) * 5.0;
    }
    ck_assert_int_eq(teal_context_set_continuous_state(cf, x, 6), TEAL_OK);
    ck_assert_int_eq(teal_context_set_continuous_state(cn, x, 6), TEAL_OK);
    ck_assert_int_eq(teal_context_fix_input(cf, 0, &u, 1), TEAL_OK);
    ck_assert_int_eq(teal_context_fix_input(cn, 0, &u, 1), TEAL_OK);

    double df[6], dn[6];
    ck_assert_int_eq(teal_calc_time_derivatives(flat, cf, df), TEAL_OK);
    ck_assert_int_eq(teal_calc_time_derivatives(top, cn, dn), TEAL_OK);
    /* hand-computed [q1 q2 v1 v2 z1 z2]' with m1(k4,c.3,m2), m2(k9,c.1,m.5) */
    double q1 = x[0], q2 = x[1], v1 = x[2], v2 = x[3], z1 = x[4];
    double g1y = 0.5 * q1 - 2.0 * v1;
    double expect[6] = {v1, v2, (1.5 * u - 4.0 * q1 - 0.3 * v1) / 2.0,
                        (z1 - 9.0 * q2 - 0.1 * v2) / 0.5, g1y, 3.0 * g1y};
    for (int i = 0; i < 6; i++) {
      ck_assert_msg(fabs(df[i] - expect[i]) < 1e-12, "flat xdot[%d] %g != %g", i, df[i],
                    expect[i]);
      ck_assert_msg(fabs(dn[i] - df[i]) < 1e-12, "trial %d xdot[%d]: nested %g flat %g", trial,
                    i, dn[i], df[i]);
    }
    for (int o = 0; o < 4; o++) {
      const double *yf = NULL, *yn = NULL;
      ck_assert_int_eq(teal_eval_vector_output(flat, cf, o, &yf), TEAL_OK);
      ck_assert_int_eq(teal_eval_vector_output(top, cn, o, &yn), TEAL_OK);
      int n = teal_output_port_size(teal_system_output_port(top, o));
      ck_assert_int_eq(n, teal_output_port_size(teal_system_output_port(flat, o)));
      for (int i = 0; i < n; i++) {
        ck_assert_msg(fabs(yn[i] - yf[i]) < 1e-12, "trial %d output %d[%d]: %g vs %g", trial,
                      o, i, yn[i], yf[i]);
      }
    }
    const double *y2 = NULL;
    ck_assert_int_eq(teal_eval_vector_output(top, cn, 2, &y2), TEAL_OK);
    ck_assert_double_eq_tol(y2[0], 3.0 * g1y, 1e-12);
  }
  teal_context_free(cf);
  teal_context_free(cn);
  teal_system_free(flat);
  teal_system_free(top);
}
END_TEST

static Suite *builder_suite(void) {
  Suite *s = suite_create("diagram_builder");
  TCase *tc = tcase_create("wiring_errors");
  tcase_add_test(tc, test_size_mismatch);
  tcase_add_test(tc, test_connect_input_size_mismatch);
  tcase_add_test(tc, test_vector_to_abstract_mismatch);
  tcase_add_test(tc, test_abstract_to_vector_mismatch);
  tcase_add_test(tc, test_abstract_type_mismatch);
  tcase_add_test(tc, test_abstract_equal_types_connect);
  tcase_add_test(tc, test_duplicate_name_frees_duplicate);
  tcase_add_test(tc, test_connect_by_name_unknown_system);
  tcase_add_test(tc, test_connect_by_name_unknown_port);
  tcase_add_test(tc, test_connect_by_name_ok);
  tcase_add_test(tc, test_input_connected_twice);
  tcase_add_test(tc, test_foreign_ports_rejected);
  tcase_add_test(tc, test_foreign_port_message_names_port);
  tcase_add_test(tc, test_add_unfinalized);
  tcase_add_test(tc, test_add_already_owned);
  tcase_add_test(tc, test_add_null_arguments);
  tcase_add_test(tc, test_errors_are_sticky);
  suite_add_tcase(s, tc);

  tc = tcase_create("loops");
  tcase_add_test(tc, test_algebraic_loop_two_gains);
  tcase_add_test(tc, test_algebraic_loop_self);
  tcase_add_test(tc, test_algebraic_loop_through_nested_diagram);
  tcase_add_test(tc, test_no_loop_through_integrator);
  tcase_add_test(tc, test_no_loop_through_nested_integrator);
  suite_add_tcase(s, tc);

  tc = tcase_create("built_diagrams");
  tcase_add_test(tc, test_unconnected_input_reports_port_and_path);
  tcase_add_test(tc, test_fan_out);
  tcase_add_test(tc, test_export_input_fans_out);
  tcase_add_test(tc, test_connect_input_unknown_name);
  tcase_add_test(tc, test_exported_outputs_evaluate);
  tcase_add_test(tc, test_source_depending_on_nothing);
  tcase_add_test(tc, test_default_export_names);
  tcase_add_test(tc, test_duplicate_export_names);
  tcase_add_test(tc, test_diagram_feedthrough);
  tcase_add_test(tc, test_lookups);
  tcase_add_test(tc, test_three_level_nesting_matches_flat);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(builder_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
