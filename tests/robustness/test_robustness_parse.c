/* Regression tests of issue 14 (bad-input campaign), parsing and numerical
 * analysis: pathological XML (defect 4: an element with 100,000
 * attributes took 106 s inside libxml2, /dev/zero was read for 2 GB, a
 * FIFO blocked the loader forever), linearization at a NaN operating point
 * that returned TEAL_OK with NaN matrices (11), and a CARE with R = 1e-300
 * that blamed stabilizability instead of R (19). Each test failed (or hung
 * until the test timeout) on the code before the fix. */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, ftruncate */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "framework/context.h"
#include "framework/diagram_builder.h"
#include "multibody/parsing/urdf.h"
#include "multibody/tree/plant_model.h"
#include "solvers/riccati.h"
#include "support/error_messages.h"
#include "support/mb_urdf_fixtures.h"
#include "support/test_support.h"
#include "systems/analysis/linearize.h"
#include "systems/primitives/linear_system.h"

/* ---- helpers ------------------------------------------------------------- */

/* A growable malloc'd string. */
typedef struct text {
  char *s;
  size_t n, cap;
} text;

static void put(text *t, const char *s) {
  size_t k = strlen(s);
  if (t->n + k + 1 > t->cap) {
    t->cap = 2 * (t->n + k + 1);
    t->s = realloc(t->s, t->cap);
    ck_assert_ptr_nonnull(t->s);
  }
  memcpy(t->s + t->n, s, k + 1);
  t->n += k;
}

/* head, count attributes made from pattern (a printf format taking the
 * index), tail; head of NULL: "<robot name="r">\n<link name="a"" and tail
 * closed by "</robot>". */
static char *flood(const char *head, const char *pattern, int count, const char *tail) {
  text t = {NULL, 0, 0};
  char attr[64];
  put(&t, head ? head : "<robot name=\"r\">\n<link name=\"a\"");
  for (int i = 0; i < count; i++) {
    snprintf(attr, sizeof attr, pattern, i);
    put(&t, attr);
  }
  put(&t, tail);
  put(&t, head ? "" : "</robot>");
  return t.s;
}

/* Loads xml into a fresh plant with options (NULL: the defaults). */
static int load(const char *xml, const teal_urdf_options *o, teal_error *err) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  ts_stale_error(err);
  int rc = teal_urdf_load_string_opts(p, xml, NULL, o, NULL, err);
  teal_plant_free(p);
  return rc;
}

static int load_file(const char *path, const teal_urdf_options *o, teal_error *err) {
  teal_plant *p = teal_plant_new(0.0, NULL);
  ck_assert_ptr_nonnull(p);
  ts_stale_error(err);
  int rc = teal_urdf_load_file_opts(p, path, NULL, o, NULL, err);
  teal_plant_free(p);
  return rc;
}

static void write_bytes(const char *path, const char *bytes, size_t n) {
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
  fclose(f);
}

/* ---- defect 4: pathological XML ------------------------------------------- */

/* 100,000 attributes on one element (1 MB): refused by the pre-scan before
 * libxml2 spends minutes on it; namespace declarations count too. */
START_TEST(urdf_attribute_flood_refused) {
  teal_error err;
  char *xml = flood(NULL, " a%d=\"1\"", 100000, "/>");
  TS_EXPECT_ERROR(load(xml, NULL, &err), TEAL_ESIZE, &err,
                  "<string>:2: <link>: more than 256 attributes on one element");
  ck_assert_ptr_nonnull(strstr(err.message, "teal_urdf_options.max_attributes"));
  free(xml);
  xml = flood(NULL, " xmlns:n%d=\"urn:x\"", 100000, "/>");
  TS_EXPECT_ERROR(load(xml, NULL, &err), TEAL_ESIZE, &err, "more than 256 attributes");
  free(xml);
}
END_TEST

/* The cap is TEAL_URDF_DEFAULT_MAX_ATTRIBUTES and overridable either way. */
START_TEST(urdf_attribute_cap_overridable) {
  teal_error err;
  teal_urdf_options o;
  teal_urdf_options_init(&o);
  ck_assert_int_eq(o.max_attributes, TEAL_URDF_DEFAULT_MAX_ATTRIBUTES);
  ck_assert_uint_eq(o.max_bytes, TEAL_URDF_DEFAULT_MAX_BYTES);
  ck_assert_uint_eq(o.max_bytes, 64u << 20);
  char *xml = flood(NULL, " x%d=\"1\"", 299, ">" MASS "</link>");
  TS_EXPECT_ERROR(load(xml, NULL, &err), TEAL_ESIZE, &err, "more than 256 attributes");
  o.max_attributes = 300; /* 299 + name */
  ck_assert_int_ge(load(xml, &o, &err), 2);
  free(xml);
  /* a tighter cap catches <inertia> (ixx iyy izz) */
  o.max_attributes = 2;
  TS_EXPECT_ERROR(load("<robot name=\"r\">" XLINK("a") "</robot>", &o, &err), TEAL_ESIZE, &err,
                  "<string>:1: <inertia>: more than 2 attributes");
  o.max_attributes = 0;
  TS_EXPECT_ERROR(load("<robot name=\"r\"/>", &o, &err), TEAL_EINVAL, &err, "max_attributes");
  o.max_attributes = 10;
  o.max_bytes = 0;
  TS_EXPECT_ERROR(load("<robot name=\"r\"/>", &o, &err), TEAL_EINVAL, &err, "max_bytes");
}
END_TEST

/* Markup that a byte scan cannot see is refused too: a DTD internal subset
 * (entity replacement text is parsed as markup, here a <link> with 20,000
 * attributes written with character references; attribute-list
 * declarations add attributes), UTF-16, and a tag hidden behind an earlier
 * error (libxml2 used to go on lexing it: a million attributes after an
 * unescaped '<' in a value took minutes). */
START_TEST(urdf_hidden_markup_refused) {
  teal_error err;
  char *xml = flood("<!DOCTYPE robot [<!ENTITY e '&#60;link", " a%d=\"1\"", 20000,
                    "/&#62;'>]>\n<robot name=\"r\">&e;</robot>");
  TS_EXPECT_ERROR(load(xml, NULL, &err), TEAL_EPARSE, &err,
                  "<string>:1: malformed XML: a document type declaration with an internal "
                  "subset");
  free(xml);
  TS_EXPECT_ERROR(
      load("<!DOCTYPE robot [<!ATTLIST robot a CDATA 'x'>]><robot name=\"r\"/>", NULL, &err),
      TEAL_EPARSE, &err, "internal subset");
  /* an external identifier alone is harmless (never loaded) */
  ck_assert_int_ge(
      load("<!DOCTYPE robot SYSTEM \"robot.dtd\"><robot name=\"r\">" XLINK("a") "</robot>", NULL,
           &err),
      2);
  xml = flood("<robot name=\"r\">\n<link name=\"a\" b=\"<c", " a%d='1'", 1000000, "/>\"/></robot>");
  TS_EXPECT_ERROR(load(xml, NULL, &err), TEAL_EPARSE, &err, "<string>:2: malformed XML");
  free(xml);
  char dir[] = "/tmp/teal_parse_XXXXXX", path[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/utf16.urdf", dir);
  static const char utf16[] = "\xff\xfe<\0r\0o\0b\0o\0t\0/\0>\0";
  write_bytes(path, utf16, sizeof utf16 - 1);
  TS_EXPECT_ERROR(load_file(path, NULL, &err), TEAL_EPARSE, &err,
                  "utf16.urdf: malformed XML: "
                  "not UTF-8");
  remove(path);
  rmdir(dir);
}
END_TEST

/* /dev/zero was read for 2 GB, a FIFO blocked the open; neither is read. */
START_TEST(urdf_non_regular_files_refused) {
  teal_error err;
  TS_EXPECT_ERROR(load_file("/dev/zero", NULL, &err), TEAL_EIO, &err,
                  "/dev/zero: not a regular file (a character device)");
  char dir[] = "/tmp/teal_parse_XXXXXX", path[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  TS_EXPECT_ERROR(load_file(dir, NULL, &err), TEAL_EIO, &err, "not a regular file (a directory)");
  snprintf(path, sizeof path, "%s/fifo.urdf", dir);
  ck_assert_int_eq(mkfifo(path, 0600), 0);
  TS_EXPECT_ERROR(load_file(path, NULL, &err), TEAL_EIO, &err, "not a regular file (a pipe)");
  remove(path);
  rmdir(dir);
}
END_TEST

/* A file over the size cap is refused from its size (a sparse 64 MiB + 1
 * file: nothing is read); the cap is overridable, for strings too. */
START_TEST(urdf_input_size_capped) {
  teal_error err;
  char dir[] = "/tmp/teal_parse_XXXXXX", path[512];
  ck_assert_ptr_nonnull(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/huge.urdf", dir);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(ftruncate(fileno(f), (off_t)TEAL_URDF_DEFAULT_MAX_BYTES + 1), 0);
  fclose(f);
  TS_EXPECT_ERROR(load_file(path, NULL, &err), TEAL_ESIZE, &err,
                  "huge.urdf: 67108865 bytes, more than the limit of 67108864 "
                  "(teal_urdf_options.max_bytes)");
  static const char small[] = "<robot name=\"r\">" XLINK("a") "</robot>";
  write_bytes(path, small, sizeof small - 1);
  teal_urdf_options o;
  teal_urdf_options_init(&o);
  ck_assert_int_ge(load_file(path, &o, &err), 2);
  o.max_bytes = 50;
  TS_EXPECT_ERROR(load_file(path, &o, &err), TEAL_ESIZE, &err, "more than the limit of 50");
  TS_EXPECT_ERROR(load(small, &o, &err), TEAL_ESIZE, &err,
                  "<string>: longer than the limit of 50 bytes");
  o.max_bytes = sizeof small - 1; /* exactly at the limit */
  ck_assert_int_ge(load(small, &o, &err), 2);
  ck_assert_int_ge(load_file(path, &o, &err), 2);
  remove(path);
  rmdir(dir);
}
END_TEST

/* ---- defect 11: linearization at a non-finite operating point ------------- */

/* An integrator (zdot = u, y = z, size 2) with z and u fixed in a context. */
static teal_context *integrator_at(teal_system *s, const double *z, const double *u) {
  teal_context *c = teal_context_new(s, NULL);
  ck_assert_ptr_nonnull(c);
  ck_assert_int_eq(teal_context_set_continuous_state(c, z, 2), TEAL_OK);
  ck_assert_int_eq(teal_context_fix_input(c, 0, u, 2), TEAL_OK);
  return c;
}

START_TEST(linearize_nonfinite_point_refused) {
  teal_system *s = ts_integrator_new("integ", 2, NULL);
  ck_assert_ptr_nonnull(s);
  teal_linear_system_matrices m;
  teal_error err;
  const double z_ok[2] = {1, 2}, z_nan[2] = {1, NAN}, u_ok[2] = {0, 0}, u_inf[2] = {INFINITY, 0};
  teal_context *c = integrator_at(s, z_nan, u_ok);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(s, c, NULL, &m, &err), TEAL_ENONFINITE, &err,
                  "linearize 'integ': continuous state x0[1] = nan is not finite");
  teal_context_free(c);
  c = integrator_at(s, z_ok, u_inf);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(s, c, NULL, &m, &err), TEAL_ENONFINITE, &err,
                  "input 'u'[0] = inf is not finite");
  ck_assert_ptr_null(teal_first_order_taylor_approximation(s, c, NULL, &err));
  ck_assert_int_eq(err.code, TEAL_ENONFINITE);
  teal_context_free(c);
  /* a finite point still linearizes exactly: A = 0, B = I, C = I, f0 = u0 */
  c = integrator_at(s, z_ok, u_ok);
  ck_assert_int_eq(teal_linearize_matrices(s, c, NULL, &m, &err), TEAL_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_double_eq_tol(m.A[i], 0.0, 1e-9);
    ck_assert_double_eq_tol(m.B[i], i % 3 == 0 ? 1.0 : 0.0, 1e-9);
    ck_assert_double_eq_tol(m.C[i], i % 3 == 0 ? 1.0 : 0.0, 1e-9);
  }
  teal_linear_system_matrices_free(&m);
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

/* A NaN numeric parameter of a leaf inside a diagram (gain k -> integrator). */
START_TEST(linearize_nonfinite_parameter_refused) {
  teal_builder *b = teal_builder_new("loop");
  teal_system *k = teal_builder_add(b, ts_gain_new("k", 1, 2.0));
  teal_system *in = teal_builder_add(b, ts_integrator_new("int", 1, NULL));
  ck_assert(k && in);
  ck_assert_int_eq(
      teal_builder_connect(b, teal_system_output_port(k, 0), teal_system_input_port(in, 0)),
      TEAL_OK);
  ck_assert_int_ge(teal_builder_export_input(b, teal_system_input_port(k, 0), "u"), 0);
  ck_assert_int_ge(teal_builder_export_output(b, teal_system_output_port(in, 0), "y"), 0);
  teal_system *d = teal_builder_build(b, NULL);
  ck_assert_ptr_nonnull(d);
  teal_context *c = teal_context_new(d, NULL);
  const double u = 1.0, bad = NAN;
  ck_assert_int_eq(teal_context_fix_input(c, 0, &u, 1), TEAL_OK);
  teal_linear_system_matrices m;
  teal_error err;
  ck_assert_int_eq(teal_linearize_matrices(d, c, NULL, &m, &err), TEAL_OK);
  ck_assert_double_eq_tol(m.B[0], 2.0, 1e-9); /* zdot = k u */
  teal_linear_system_matrices_free(&m);
  ck_assert_int_eq(
      teal_context_set_numeric_parameter(teal_context_subcontext_mut(c, k), 0, &bad, 1), TEAL_OK);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(d, c, NULL, &m, &err), TEAL_ENONFINITE, &err,
                  "linearize 'loop': numeric parameter 0 of 'k' has entry 0 = nan");
  teal_context_free(c);
  teal_system_free(d);
}
END_TEST

/* Finite point, non-finite results: xdot = 1e308 x overflows at x0 = 1e10,
 * and its central difference overflows just below DBL_MAX / 1e308. */
START_TEST(linearize_nonfinite_result_refused) {
  const double A = 1e308, B = 0.0, C = 1.0, D = 0.0, u = 0.0;
  teal_system *s = teal_linear_system_new("big", &A, &B, &C, &D, 1, 1, 1, 0.0, NULL);
  ck_assert_ptr_nonnull(s);
  teal_context *c = teal_context_new(s, NULL);
  ck_assert_int_eq(teal_context_fix_input(c, 0, &u, 1), TEAL_OK);
  teal_linearize_options o;
  teal_linearize_options_init(&o);
  o.use_analytic = 0;
  teal_linear_system_matrices m;
  teal_error err;
  double x = 1e10;
  ck_assert_int_eq(teal_context_set_continuous_state(c, &x, 1), TEAL_OK);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(s, c, &o, &m, &err), TEAL_ENONFINITE, &err,
                  "the time derivative f[0] = inf at the operating point is not finite");
  x = 1.797692; /* 1e308 x is finite, 1e308 x (1 + 1e-6) is not */
  ck_assert(isfinite(A * x) && !isfinite(A * (x + 1e-6 * x)));
  ck_assert_int_eq(teal_context_set_continuous_state(c, &x, 1), TEAL_OK);
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_linearize_matrices(s, c, &o, &m, &err), TEAL_ENONFINITE, &err,
                  "A(0, 0) = inf is not finite");
  teal_context_free(c);
  teal_system_free(s);
}
END_TEST

/* ---- defect 19: R's conditioning in the Riccati solvers ------------------- */

/* The scalar CARE 2 a x - x^2 b^2 / r + q = 0 has x = r (a + sqrt(a^2 + q
 * b^2 / r)) / b^2. With R = 1e-300 the pencil cannot resolve R: the error
 * must say so (it blamed stabilizability). */
START_TEST(care_blames_ill_conditioned_r) {
  const double one = 1.0, tiny = 1e-300;
  double X[4], res;
  teal_error err;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_care(&one, &one, &one, &tiny, NULL, 1, 1, X, &res, &err), TEAL_ESINGULAR,
                  &err, "care: R is ill-conditioned relative to B (rcond 1e-300");
  ck_assert_ptr_null(strstr(err.message, "stabiliz"));
  /* two inputs, one of them nearly free */
  const double A[4] = {1, 0.2, 0, 0.9}, I[4] = {1, 0, 0, 1}, R[4] = {1, 0, 0, 1e-300};
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_care(A, I, I, R, NULL, 2, 2, X, &res, &err), TEAL_ESINGULAR, &err,
                  "R is ill-conditioned");
  /* just above the threshold the solution is still accurate */
  const double r = 1e-15, exact = r * (1.0 + sqrt(1.0 + 1.0 / r));
  ck_assert_int_eq(teal_care(&one, &one, &one, &r, NULL, 1, 1, X, &res, &err), TEAL_OK);
  ck_assert_double_le(fabs(X[0] - exact), 1e-9 * exact);
}
END_TEST

/* The DARE inverts R + B'XB, not R: with R = 1e-300 it still solves
 * x = a^2 x - a^2 b^2 x^2 / (r + b^2 x) + q exactly (x = 1 for a = b = q = 1),
 * and where it does fail with such an R it blames R. */
START_TEST(dare_blames_ill_conditioned_r) {
  const double one = 1.0, tiny = 1e-300;
  double X[1], res;
  teal_error err;
  ck_assert_int_eq(teal_dare(&one, &one, &one, &tiny, NULL, 1, 1, X, &res, &err), TEAL_OK);
  ck_assert_double_le(fabs(X[0] - 1.0), 1e-12);
  const double a = 0.55, b = 1e-12, q = 1e-12, r = 1e-32;
  ts_stale_error(&err);
  TS_EXPECT_ERROR(teal_dare(&a, &b, &q, &r, NULL, 1, 1, X, &res, &err), TEAL_ESINGULAR, &err,
                  "dare: R is ill-conditioned relative to B");
}
END_TEST

int main(void) {
  Suite *s = suite_create("robustness_parse");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, urdf_attribute_flood_refused);
  tcase_add_test(tc, urdf_attribute_cap_overridable);
  tcase_add_test(tc, urdf_hidden_markup_refused);
  tcase_add_test(tc, urdf_non_regular_files_refused);
  tcase_add_test(tc, urdf_input_size_capped);
  tcase_add_test(tc, linearize_nonfinite_point_refused);
  tcase_add_test(tc, linearize_nonfinite_parameter_refused);
  tcase_add_test(tc, linearize_nonfinite_result_refused);
  tcase_add_test(tc, care_blames_ill_conditioned_r);
  tcase_add_test(tc, dare_blames_ill_conditioned_r);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
