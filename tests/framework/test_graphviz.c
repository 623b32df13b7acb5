/* Tests of the Graphviz (dot) rendering of diagrams: structure of the text
 * for a nested diagram, edge count, exported ports, equality of the string
 * and FILE outputs, and rejection of NULL or unbuilt systems. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "framework/context.h"
#include "framework/diagram.h"
#include "framework/error.h"
#include "framework/system.h"

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
  ck_assert_msg(strstr((msg), (sub)) != NULL, "text \"%s\" does not contain \"%s\"", \
                (msg), (sub))

static int pass_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)user;
  const double *u = NULL;
  int rc = teal_eval_vector_input(sys, ctx, 0, &u);
  if (rc) {
    return rc;
  }
  out[0] = u[0];
  return TEAL_OK;
}

static int zero_calc(const teal_system *sys, const teal_context *ctx, double *out, void *user) {
  (void)sys;
  (void)ctx;
  (void)user;
  out[0] = 0.0;
  return TEAL_OK;
}

/* A pass-through leaf with input "u" and output "y". */
static teal_system *pass_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "u", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, pass_calc, NULL, NULL, 0), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

/* A source leaf with output "y" only. */
static teal_system *source_new(const char *name) {
  teal_system *s = teal_leaf_new(name, NULL, NULL);
  teal_ticket t = TEAL_TICKET_TIME;
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, zero_calc, NULL, &t, 1), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  return s;
}

static const teal_input_port *in_port(const teal_system *s, const char *name) {
  const teal_input_port *p = teal_system_input_port_by_name(s, name);
  ck_assert_ptr_nonnull(p);
  return p;
}

static const teal_output_port *out_port(const teal_system *s, const char *name) {
  const teal_output_port *p = teal_system_output_port_by_name(s, name);
  ck_assert_ptr_nonnull(p);
  return p;
}

/* top = {source, inner_group = {amp, buffer}, sink, aux}
 *   inner: diagram input "in" -> amp.u, amp.y -> buffer.u, buffer.y -> "out"
 *   top:   source.y -> inner_group.in, inner_group.out -> sink.u,
 *          diagram input "cmd" -> aux.u, sink.y -> "result"
 * Edges: 3 in the inner cluster, 4 in the top one. */
static teal_system *nested_diagram(void) {
  teal_builder *ib = teal_builder_new("inner_group");
  teal_system *amp = teal_builder_add(ib, pass_new("amp"));
  teal_system *buffer = teal_builder_add(ib, pass_new("buffer"));
  ck_assert_int_eq(teal_builder_connect(ib, out_port(amp, "y"), in_port(buffer, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(ib, in_port(amp, "u"), "in"), 0);
  ck_assert_int_eq(teal_builder_export_output(ib, out_port(buffer, "y"), "out"), 0);
  teal_system *inner = teal_builder_build(ib, NULL);
  ck_assert_ptr_nonnull(inner);

  teal_builder *b = teal_builder_new("top_level");
  teal_system *src = teal_builder_add(b, source_new("source"));
  teal_builder_add(b, inner);
  teal_system *sink = teal_builder_add(b, pass_new("sink"));
  teal_system *aux = teal_builder_add(b, pass_new("aux"));
  ck_assert_int_eq(teal_builder_connect(b, out_port(src, "y"), in_port(inner, "in")), TEAL_OK);
  ck_assert_int_eq(teal_builder_connect(b, out_port(inner, "out"), in_port(sink, "u")), TEAL_OK);
  ck_assert_int_eq(teal_builder_export_input(b, in_port(aux, "u"), "cmd"), 0);
  ck_assert_int_eq(teal_builder_export_output(b, out_port(sink, "y"), "result"), 0);
  teal_error err;
  teal_system *d = teal_builder_build(b, &err);
  ck_assert_msg(d != NULL, "%s", err.message);
  return d;
}

static int count_substr(const char *s, const char *sub) {
  int n = 0;
  for (const char *p = strstr(s, sub); p; p = strstr(p + strlen(sub), sub)) {
    n++;
  }
  return n;
}

/* Node name of an edge endpoint: "s3:u0" -> "s3", "s2_y0" -> "s2_y0". */
static void endpoint_node(const char *start, size_t len, char *node, size_t cap) {
  size_t n = 0;
  while (n < len && start[n] != ':' && n + 1 < cap) {
    node[n] = start[n];
    n++;
  }
  node[n] = '\0';
}

/* Nonzero when the dot text declares node `node` ("  node [" on a line). */
static int node_declared(const char *dot, const char *node) {
  char pat[96];
  snprintf(pat, sizeof pat, "  %s [", node);
  return strstr(dot, pat) != NULL;
}

START_TEST(test_nested_diagram_dot) {
  teal_system *d = nested_diagram();
  char *dot = teal_diagram_graphviz_string(d);
  ck_assert_ptr_nonnull(dot);
  ck_assert(strncmp(dot, "digraph", 7) == 0);
  ASSERT_HAS(dot, "digraph \"top_level\"");
  const char *names[] = {"top_level", "source", "inner_group", "amp", "buffer", "sink", "aux"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    ASSERT_HAS(dot, names[i]);
  }
  /* one cluster per diagram: the top level and the inner group */
  ck_assert_int_eq(count_substr(dot, "subgraph cluster"), 2);
  ASSERT_HAS(dot, "label=\"inner_group\"");
  /* exported ports of both diagrams */
  ASSERT_HAS(dot, "label=\"in\"");
  ASSERT_HAS(dot, "label=\"out\"");
  ASSERT_HAS(dot, "label=\"cmd\"");
  ASSERT_HAS(dot, "label=\"result\"");
  /* exactly one edge per connection, export and exported output */
  ck_assert_int_eq(count_substr(dot, " -> "), 7);
  /* braces balance: digraph + 2 clusters + leaf record labels */
  ck_assert_int_eq(count_substr(dot, "{"), count_substr(dot, "}"));

  /* every edge endpoint is a declared node */
  int edges = 0;
  const char *line = dot;
  while (*line) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line) : strlen(line);
    char buf[256];
    ck_assert_uint_lt(len, sizeof buf);
    memcpy(buf, line, len);
    buf[len] = '\0';
    line += eol ? len + 1 : len;
    const char *arrow = strstr(buf, " -> ");
    if (!arrow) {
      continue;
    }
    const char *from = buf;
    while (*from == ' ') {
      from++;
    }
    const char *to = arrow + 4;
    const char *semi = strchr(to, ';');
    ck_assert_ptr_nonnull(semi);
    char a[64], b[64];
    endpoint_node(from, (size_t)(arrow - from), a, sizeof a);
    endpoint_node(to, (size_t)(semi - to), b, sizeof b);
    ck_assert_msg(node_declared(dot, a), "edge source '%s' is not a node", a);
    ck_assert_msg(node_declared(dot, b), "edge target '%s' is not a node", b);
    ck_assert_str_ne(a, b);
    edges++;
  }
  ck_assert_int_eq(edges, 7);
  teal_free(dot);
  teal_system_free(d);
}
END_TEST

START_TEST(test_unconnected_ports_draw_no_edge) {
  teal_builder *b = teal_builder_new("loose");
  teal_builder_add(b, pass_new("left"));
  teal_builder_add(b, pass_new("right"));
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  char *dot = teal_diagram_graphviz_string(d);
  ck_assert_ptr_nonnull(dot);
  ASSERT_HAS(dot, "left");
  ASSERT_HAS(dot, "right");
  ck_assert_int_eq(count_substr(dot, " -> "), 0);
  ck_assert_int_eq(count_substr(dot, "subgraph cluster"), 1);
  teal_free(dot);

  /* one connection: one edge */
  b = teal_builder_new("wired");
  teal_system *l = teal_builder_add(b, pass_new("left"));
  teal_system *r = teal_builder_add(b, pass_new("right"));
  ck_assert_int_eq(teal_builder_connect(b, out_port(l, "y"), in_port(r, "u")), TEAL_OK);
  teal_system *w = teal_builder_build(b, NULL);
  dot = teal_diagram_graphviz_string(w);
  ck_assert_ptr_nonnull(dot);
  ck_assert_int_eq(count_substr(dot, " -> "), 1);
  teal_free(dot);
  teal_system_free(w);
  teal_system_free(d);
}
END_TEST

START_TEST(test_write_graphviz_matches_string) {
  teal_system *d = nested_diagram();
  char *dot = teal_diagram_graphviz_string(d);
  ck_assert_ptr_nonnull(dot);
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(teal_diagram_write_graphviz(d, f), TEAL_OK);
  long len = ftell(f);
  ck_assert_int_eq(len, (long)strlen(dot));
  rewind(f);
  char *buf = calloc((size_t)len + 1, 1);
  ck_assert_ptr_nonnull(buf);
  ck_assert_int_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
  ck_assert_str_eq(buf, dot);
  free(buf);
  fclose(f);
  teal_free(dot);
  teal_system_free(d);
}
END_TEST

START_TEST(test_leaf_dot) {
  teal_system *s = pass_new("solo");
  char *dot = teal_diagram_graphviz_string(s);
  ck_assert_ptr_nonnull(dot);
  ck_assert(strncmp(dot, "digraph", 7) == 0);
  ASSERT_HAS(dot, "solo");
  ck_assert_int_eq(count_substr(dot, "cluster"), 0);
  ck_assert_int_eq(count_substr(dot, " -> "), 0);
  teal_free(dot);
  teal_system_free(s);
}
END_TEST

START_TEST(test_rejects_null_and_unbuilt) {
  ck_assert_ptr_null(teal_diagram_graphviz_string(NULL));
  FILE *f = tmpfile();
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(teal_diagram_write_graphviz(NULL, f), TEAL_EINVAL);
  teal_system *raw = teal_leaf_new("raw", NULL, NULL);
  teal_leaf_declare_vector_input(raw, "u", 1);
  ck_assert_ptr_null(teal_diagram_graphviz_string(raw));
  ck_assert_int_eq(teal_diagram_write_graphviz(raw, f), TEAL_EINVAL);
  ck_assert_int_eq(ftell(f), 0L); /* nothing written */
  teal_system *s = pass_new("ok");
  ck_assert_int_eq(teal_diagram_write_graphviz(s, NULL), TEAL_EINVAL);
  teal_system_free(s);
  teal_system_free(raw);
  fclose(f);
}
END_TEST

/* Names may contain any character but '/': the dot text must stay valid,
 * so quotes in names and record-special characters in port names must be
 * escaped. */
START_TEST(test_names_are_escaped) {
  teal_system *s = teal_leaf_new("say \"hi\"", NULL, NULL);
  ck_assert_int_eq(teal_leaf_declare_vector_input(s, "a|b", 1), 0);
  ck_assert_int_eq(teal_leaf_declare_vector_output(s, "y", 1, pass_calc, NULL, NULL, 0), 0);
  ck_assert_int_eq(teal_leaf_finalize(s), TEAL_OK);
  teal_builder *b = teal_builder_new("the \"quoted\" diagram");
  teal_builder_add(b, s);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  char *dot = teal_diagram_graphviz_string(d);
  ck_assert_ptr_nonnull(dot);
  ASSERT_HAS(dot, "digraph \"the \\\"quoted\\\" diagram\"");
  ASSERT_HAS(dot, "say \\\"hi\\\"");
  ASSERT_HAS(dot, "a\\|b");
  teal_free(dot);
  teal_system_free(d);
}
END_TEST

static Suite *graphviz_suite(void) {
  Suite *s = suite_create("graphviz");
  TCase *tc = tcase_create("dot");
  tcase_add_test(tc, test_nested_diagram_dot);
  tcase_add_test(tc, test_unconnected_ports_draw_no_edge);
  tcase_add_test(tc, test_write_graphviz_matches_string);
  tcase_add_test(tc, test_leaf_dot);
  tcase_add_test(tc, test_rejects_null_and_unbuilt);
  tcase_add_test(tc, test_names_are_escaped);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(graphviz_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
