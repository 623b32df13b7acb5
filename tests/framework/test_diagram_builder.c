/* Tests of the diagram builder (framework/diagram_builder.c): wiring errors
 * with codes and messages that name the systems and ports involved, names and
 * ownership, and sticky errors. */
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
#include "support/test_support.h"

/* Make every UBSan report fatal (the suite must be UBSan clean); harmless
 * in builds without the sanitizer. Weak, so a definition elsewhere wins. */
const char *__ubsan_default_options(void);
#if defined(__GNUC__)
__attribute__((weak))
#endif
const char *__ubsan_default_options(void) {
  return "halt_on_error=1:print_stacktrace=1";
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

/* ---- wiring errors ---------------------------------------------------- */

START_TEST(test_size_mismatch) {
  teal_builder *b = teal_builder_new("wiring");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 2, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 3, 1.0, NULL));
  ck_assert_ptr_nonnull(g1);
  ck_assert_ptr_nonnull(g2);
  int rc = teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u"));
  ck_assert_int_eq(rc, TEAL_ESIZE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESIZE);
  TS_DB_ASSERT_HAS(e->message, "g1.y");
  TS_DB_ASSERT_HAS(e->message, "g2.u");
  TS_DB_ASSERT_HAS(e->message, "size 2");
  TS_DB_ASSERT_HAS(e->message, "size 3");
  TS_DB_ASSERT_HAS(e->message, "wiring");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_input_size_mismatch) {
  teal_builder *b = teal_builder_new("fan");
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 2, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, ts_db_gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g1, "u"), "cmd"), 0);
  int rc = teal_builder_connect_input(b, "cmd", ts_db_in_port(g3, "u"));
  ck_assert_int_eq(rc, TEAL_ESIZE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESIZE);
  TS_DB_ASSERT_HAS(e->message, "diagram input 'cmd'");
  TS_DB_ASSERT_HAS(e->message, "g3.u");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_vector_to_abstract_mismatch) {
  teal_builder *b = teal_builder_new("mixed");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("vec", 1, 1.0, NULL));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_alpha));
  int rc = teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(sink, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ETYPE);
  TS_DB_ASSERT_HAS(e->message, "vec.y");
  TS_DB_ASSERT_HAS(e->message, "sink.u");
  TS_DB_ASSERT_HAS(e->message, "abstract");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_abstract_to_vector_mismatch) {
  teal_builder *b = teal_builder_new("mixed2");
  teal_system *src = teal_builder_add(b, token_src_new("tok", &k_alpha));
  teal_system *g = teal_builder_add(b, ts_db_gain_new("vec", 1, 1.0, NULL));
  int rc = teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(g, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  TS_DB_ASSERT_HAS(e->message, "tok.y");
  TS_DB_ASSERT_HAS(e->message, "vec.u");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_abstract_type_mismatch) {
  teal_builder *b = teal_builder_new("types");
  teal_system *src = teal_builder_add(b, token_src_new("src", &k_alpha));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_beta));
  int rc = teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(sink, "u"));
  ck_assert_int_eq(rc, TEAL_ETYPE);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ETYPE);
  TS_DB_ASSERT_HAS(e->message, "src.y");
  TS_DB_ASSERT_HAS(e->message, "sink.u");
  TS_DB_ASSERT_HAS(e->message, "'alpha'");
  TS_DB_ASSERT_HAS(e->message, "'beta'");
  teal_builder_free(b);
}
END_TEST

/* Two distinct descriptor objects with the same name and size match, and
 * the abstract value flows through the built diagram. */
START_TEST(test_abstract_equal_types_connect) {
  teal_builder *b = teal_builder_new("abs");
  teal_system *src = teal_builder_add(b, token_src_new("src", &k_alpha));
  teal_system *sink = teal_builder_add(b, token_sink_new("sink", &k_alpha_twin));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(src, "y"), ts_db_in_port(sink, "u")),
                   TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(sink, "y"), "w"), 0);
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
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 2.0, &freed_first));
  ck_assert_ptr_nonnull(g);
  teal_system *dup = teal_builder_add(b, ts_db_gain_new("g", 1, 5.0, &freed_dup));
  ck_assert_ptr_null(dup);
  ck_assert_int_eq(freed_dup, 1);   /* the duplicate is freed right away */
  ck_assert_int_eq(freed_first, 0); /* the first one stays */
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EDUPLICATE);
  TS_DB_ASSERT_HAS(e->message, "'g'");
  TS_DB_ASSERT_HAS(e->message, "dups");
  /* the first one is still the one found by name */
  teal_system *found = teal_builder_find(b, "g");
  ck_assert_ptr_eq(found, g);
  ck_assert_double_eq(((ts_db_leaf_data *)teal_system_user(found))->K[0], 2.0);
  teal_builder_free(b);
  ck_assert_int_eq(freed_first, 1);
  ck_assert_int_eq(freed_dup, 1);
}
END_TEST

START_TEST(test_connect_by_name_unknown_system) {
  teal_builder *b = teal_builder_new("names");
  teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  int rc = teal_builder_connect_by_name(b, "ghost", "y", "g1", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  ck_assert_int_eq(teal_builder_error(b)->code, TEAL_ENOTFOUND);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'ghost'");
  teal_builder_free(b);

  b = teal_builder_new("names");
  teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  rc = teal_builder_connect_by_name(b, "g1", "y", "phantom", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'phantom'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_by_name_unknown_port) {
  teal_builder *b = teal_builder_new("ports");
  teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  int rc = teal_builder_connect_by_name(b, "g1", "nope", "g2", "u");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  const teal_error *e = teal_builder_error(b);
  TS_DB_ASSERT_HAS(e->message, "'g1'");
  TS_DB_ASSERT_HAS(e->message, "output");
  TS_DB_ASSERT_HAS(e->message, "'nope'");
  teal_builder_free(b);

  b = teal_builder_new("ports");
  teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  rc = teal_builder_connect_by_name(b, "g1", "y", "g2", "nada");
  ck_assert_int_eq(rc, TEAL_ENOTFOUND);
  e = teal_builder_error(b);
  TS_DB_ASSERT_HAS(e->message, "'g2'");
  TS_DB_ASSERT_HAS(e->message, "input");
  TS_DB_ASSERT_HAS(e->message, "'nada'");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_connect_by_name_ok) {
  double one[1] = {1.5};
  teal_builder *b = teal_builder_new("byname");
  teal_builder_add(b, ts_db_const_new("c", 1, one, NULL));
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 4.0, NULL));
  ck_assert_int_eq(teal_builder_connect_by_name(b, "c", "y", "g", "u"), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g, "y"), "out"), 0);
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
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  teal_system *g3 = teal_builder_add(b, ts_db_gain_new("g3", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g3, "u")),
                   TEAL_OK);
  int rc = teal_builder_connect(b, ts_db_out_port(g2, "y"), ts_db_in_port(g3, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(e->message, "g3.u");
  TS_DB_ASSERT_HAS(e->message, "already connected");
  teal_builder_free(b);

  /* exporting an input that is already connected is the same error */
  b = teal_builder_new("twice2");
  g1 = teal_builder_add(b, ts_db_gain_new("g1", 1, 1.0, NULL));
  g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_OK);
  rc = teal_builder_export_input(b, ts_db_in_port(g2, "u"), "ext");
  ck_assert_int_eq(rc, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "g2.u");
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "already connected");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_foreign_ports_rejected) {
  teal_builder *other = teal_builder_new("other");
  teal_system *stranger = teal_builder_add(other, ts_db_gain_new("stranger", 1, 1.0, NULL));

  /* foreign output */
  teal_builder *b = teal_builder_new("mine");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  int rc = teal_builder_connect(b, ts_db_out_port(stranger, "y"), ts_db_in_port(g, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "'mine'");
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* foreign input */
  b = teal_builder_new("mine");
  g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  rc = teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(stranger, "u"));
  ck_assert_int_eq(rc, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* foreign export (input and output) */
  b = teal_builder_new("mine");
  teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(stranger, "u"), NULL), TEAL_EINVAL);
  teal_builder_free(b);
  b = teal_builder_new("mine");
  teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(stranger, "y"), NULL), TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "no subsystem added here");
  teal_builder_free(b);

  /* a leaf never added anywhere */
  teal_system *loose = ts_db_gain_new("loose", 1, 1.0, NULL);
  b = teal_builder_new("mine");
  g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(loose, "y"), ts_db_in_port(g, "u")),
                   TEAL_EINVAL);
  teal_builder_free(b);
  teal_system_free(loose);

  /* NULL ports */
  b = teal_builder_new("mine");
  g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, NULL, ts_db_in_port(g, "u")), TEAL_EINVAL);
  teal_builder_free(b);
  b = teal_builder_new("mine");
  g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g, "y"), NULL), TEAL_EINVAL);
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
  teal_system *stranger = teal_builder_add(other, ts_db_gain_new("stranger", 1, 1.0, NULL));
  teal_builder *b = teal_builder_new("mine");
  teal_system *g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(stranger, "y"), ts_db_in_port(g, "u")),
                   TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "stranger");
  teal_builder_free(b);

  b = teal_builder_new("mine");
  g = teal_builder_add(b, ts_db_gain_new("g", 1, 1.0, NULL));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g, "y"), ts_db_in_port(stranger, "u")),
                   TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b)->message, "stranger");
  teal_builder_free(b);
  teal_builder_free(other);
}
END_TEST

START_TEST(test_add_unfinalized) {
  int freed = 0;
  teal_system *raw = teal_leaf_new("raw", ts_db_leaf_data_new(&freed), ts_db_leaf_data_free);
  ck_assert_int_eq(teal_leaf_declare_vector_input(raw, "u", 1), 0);
  teal_builder *b = teal_builder_new("fin");
  ck_assert_ptr_null(teal_builder_add(b, raw));
  ck_assert_int_eq(freed, 1); /* ownership was taken and the leaf freed */
  const teal_error *e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_ESTATE);
  TS_DB_ASSERT_HAS(e->message, "'raw'");
  TS_DB_ASSERT_HAS(e->message, "not finalized");
  ck_assert_ptr_null(teal_builder_find(b, "raw"));
  teal_builder_free(b);

  /* a leaf whose declarations failed: its own error code and message */
  freed = 0;
  teal_system *bad = teal_leaf_new("bad", ts_db_leaf_data_new(&freed), ts_db_leaf_data_free);
  ck_assert_int_eq(teal_leaf_declare_vector_input(bad, "u/v", 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_leaf_finalize(bad), TEAL_EINVAL);
  b = teal_builder_new("fin");
  ck_assert_ptr_null(teal_builder_add(b, bad));
  ck_assert_int_eq(freed, 1);
  e = teal_builder_error(b);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(e->message, "'bad'");
  TS_DB_ASSERT_HAS(e->message, "u/v");
  teal_builder_free(b);
}
END_TEST

START_TEST(test_add_already_owned) {
  int freed = 0;
  teal_builder *b1 = teal_builder_new("first");
  teal_system *g = teal_builder_add(b1, ts_db_gain_new("shared", 1, 3.0, &freed));
  ck_assert_ptr_nonnull(g);
  teal_builder *b2 = teal_builder_new("second");
  ck_assert_ptr_null(teal_builder_add(b2, g));
  ck_assert_int_eq(freed, 0); /* still owned by b1: not freed */
  const teal_error *e = teal_builder_error(b2);
  ck_assert_int_eq(e->code, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(e->message, "'shared'");
  TS_DB_ASSERT_HAS(e->message, "already belongs");
  ck_assert_ptr_null(teal_builder_find(b2, "shared"));
  teal_builder_free(b2);
  ck_assert_int_eq(freed, 0);

  /* b1 is intact and builds a working diagram */
  ck_assert_int_eq(teal_builder_export_input(b1, ts_db_in_port(g, "u"), "u"), 0);
  ck_assert_int_eq(teal_builder_export_output(b1, ts_db_out_port(g, "y"), "y"), 0);
  teal_system *d = teal_builder_build(b1, NULL);
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_eq(teal_system_parent(g), d);

  /* a subsystem of a built diagram cannot be added elsewhere either */
  teal_builder *b3 = teal_builder_new("third");
  ck_assert_ptr_null(teal_builder_add(b3, (teal_system *)teal_diagram_subsystem(d, 0)));
  ck_assert_int_eq(teal_builder_error(b3)->code, TEAL_EINVAL);
  TS_DB_ASSERT_HAS(teal_builder_error(b3)->message, "'shared'");
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
  ck_assert_ptr_null(teal_builder_add(NULL, ts_db_gain_new("g", 1, 1.0, &freed)));
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
  teal_system *g1 = teal_builder_add(b, ts_db_gain_new("g1", 2, 1.0, &freed[0]));
  teal_system *g2 = teal_builder_add(b, ts_db_gain_new("g2", 1, 1.0, &freed[1]));
  teal_system *g3 = teal_builder_add(b, ts_db_gain_new("g3", 1, 1.0, &freed[2]));
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g1, "y"), ts_db_in_port(g2, "u")),
                   TEAL_ESIZE);
  teal_error first = *teal_builder_error(b);
  ck_assert_int_eq(first.code, TEAL_ESIZE);

  /* every later call returns the first error and changes nothing */
  ck_assert_int_eq(teal_builder_connect(b, ts_db_out_port(g2, "y"), ts_db_in_port(g3, "u")),
                   TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "g2", "y", "g3", "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_by_name(b, "nobody", "y", "g3", "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_export_input(b, ts_db_in_port(g3, "u"), "u"), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_connect_input(b, "u", ts_db_in_port(g2, "u")), TEAL_ESIZE);
  ck_assert_int_eq(teal_builder_export_output(b, ts_db_out_port(g3, "y"), "y"), TEAL_ESIZE);
  ck_assert_ptr_null(teal_builder_add(b, ts_db_gain_new("g4", 1, 1.0, &freed[3])));
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

/* ---- pending entries (teal_builder_add_pending) ------------------------------- */

/* An entry that resolves when told to, counting the builder's calls. */
typedef struct promise {
  int resolved, checks, releases;
} promise;

static int promise_check(void *user, teal_error *err) {
  promise *pr = user;
  pr->checks++;
  return pr->resolved ? TEAL_OK
                      : teal_error_set(err, TEAL_ESTATE, "the promised system never came");
}

static void promise_release(void *user) {
  ((promise *)user)->releases++;
}

static const teal_builder_pending_ops promise_ops = {promise_check, promise_release};

START_TEST(test_pending_resolved_builds) {
  promise pr = {1, 0, 0};
  teal_builder *b = teal_builder_new("d");
  const double one[1] = {1.0};
  teal_builder_add(b, ts_db_const_new("c", 1, one, NULL));
  ck_assert_int_eq(teal_builder_add_pending(b, &promise_ops, &pr), TEAL_OK);
  teal_error err = {0, ""};
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  ck_assert_int_eq(pr.checks, 1);
  ck_assert_int_eq(pr.releases, 1); /* once, when the build consumed the builder */
  teal_system_free(d);
}
END_TEST

START_TEST(test_pending_unresolved_fails_build) {
  promise pr = {0, 0, 0};
  int freed = 0;
  teal_builder *b = teal_builder_new("d");
  const double one[1] = {1.0};
  teal_builder_add(b, ts_db_const_new("c", 1, one, &freed));
  ck_assert_int_eq(teal_builder_add_pending(b, &promise_ops, &pr), TEAL_OK);
  teal_error err = {0, ""};
  ck_assert_ptr_null(teal_builder_build(b, &err));
  ck_assert_int_eq(err.code, TEAL_ESTATE);
  ck_assert_str_eq(err.message, "build of 'd': the promised system never came");
  ck_assert_int_eq(pr.releases, 1);
  ck_assert_int_eq(freed, 1);
}
END_TEST

START_TEST(test_pending_released_by_free) {
  promise pr = {0, 0, 0};
  teal_builder *b = teal_builder_new("d");
  ck_assert_int_eq(teal_builder_add_pending(b, &promise_ops, &pr), TEAL_OK);
  teal_builder_free(b);
  ck_assert_int_eq(pr.checks, 0);
  ck_assert_int_eq(pr.releases, 1);
}
END_TEST

START_TEST(test_pending_bad_arguments) {
  promise pr = {0, 0, 0};
  static const teal_builder_pending_ops no_release = {promise_check, NULL};
  ck_assert_int_eq(teal_builder_add_pending(NULL, &promise_ops, &pr), TEAL_EINVAL);
  teal_builder *b = teal_builder_new("d");
  ck_assert_int_eq(teal_builder_add_pending(b, &no_release, &pr), TEAL_EINVAL);
  ck_assert_str_eq(teal_builder_error(b)->message,
                   "add_pending to 'd': NULL check or release callback");
  teal_builder_free(b);
  b = teal_builder_new("d");
  ck_assert_int_eq(teal_builder_add_pending(b, NULL, &pr), TEAL_EINVAL);
  ck_assert_str_eq(teal_builder_error(b)->message, "add_pending to 'd': NULL callbacks");
  /* sticky: a later entry is refused with the first error, and the caller
   * keeps it (no release) */
  ck_assert_int_eq(teal_builder_add_pending(b, &promise_ops, &pr), TEAL_EINVAL);
  teal_builder_free(b);
  ck_assert_int_eq(pr.releases, 0);
}
END_TEST

static Suite *diagram_builder_suite(void) {
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
  tcase_add_test(tc, test_pending_resolved_builds);
  tcase_add_test(tc, test_pending_unresolved_fails_build);
  tcase_add_test(tc, test_pending_released_by_free);
  tcase_add_test(tc, test_pending_bad_arguments);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(diagram_builder_suite());
}
