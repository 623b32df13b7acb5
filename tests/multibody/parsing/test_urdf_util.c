/* The URDF number reader (multibody/parsing/urdf_util.c,
 * urdf_attr_numbers): short decimals are read without strtod, and must
 * give bit for bit the double strtod gives, and accept and refuse exactly
 * what the strtod path does. The reference is strtod itself (glibc rounds
 * correctly) on random tokens over the characters the reader admits, and on
 * the edge cases of the fast path (signs alone, points alone, 2^53,
 * 22 decimals, -0). */
#define _POSIX_C_SOURCE 200809L /* rand_r */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework/alloc.h"
#include "multibody/parsing/urdf_internal.h"
#include "support/test_support.h"

/* What the reader must do with tok: TEAL_OK with strtod's value when strtod
 * takes all of it and the value is finite. */
static int expected(const char *tok, double *x) {
  char *end;
  *x = strtod(tok, &end);
  if (!*tok || *end || end == tok) {
    return TEAL_EPARSE;
  }
  return isfinite(*x) ? TEAL_OK : TEAL_ENONFINITE;
}

/* Reads tok as <x v="tok"/> through the parser and urdf_attr_double. */
static int read_number(const char *tok, double *x) {
  char doc[256];
  snprintf(doc, sizeof(doc), "<x v=\"%s\"/>", tok);
  teal_error err = {TEAL_OK, ""};
  teal_urdf_report report;
  urdf_model m;
  memset(&m, 0, sizeof(m));
  memset(&report, 0, sizeof(report));
  m.source = "<string>";
  m.err = &err;
  m.report = &report;
  ck_assert_int_eq(urdf_xml_parse(&m, doc, strlen(doc)), TEAL_OK);
  int rc = urdf_attr_double(&m, m.xml.root, "v", 1, 0.0, x);
  if (rc == TEAL_EPARSE) {
    ck_assert_msg(strstr(err.message, "is not a number") || strstr(err.message, "needs 1 number"),
                  "'%s': %s", tok, err.message);
  }
  urdf_xml_free(&m.xml);
  return rc;
}

static void check_token(const char *tok) {
  double want = 0.0, got = 0.0;
  int rc = expected(tok, &want);
  ck_assert_msg(read_number(tok, &got) == rc, "'%s': expected code %d", tok, rc);
  if (rc == TEAL_OK) {
    ck_assert_msg(memcmp(&got, &want, sizeof(double)) == 0, "'%s': %.17g, strtod %.17g", tok, got,
                  want);
  }
}

START_TEST(edge_cases) {
  static const char *const toks[] = {
      "0",
      "-0",
      "+0",
      "-0.0",
      ".5",
      "-.5",
      "+.5",
      "5.",
      "-5.",
      ".",
      "+",
      "-",
      "+.",
      "-.",
      "1.2.3",
      "--1",
      "+-1",
      "1-",
      "1+",
      "0.004",
      "00.0100",
      "1e5",
      "1e",
      "e5",
      "1e+",
      "1E-3",
      "1e999",
      "-1e999",
      "1e-400",
      "0.1",
      "0.3",
      "3.141592653589793",
      "2.718281828459045",
      "9007199254740991",
      "9007199254740992",
      "9007199254740993",
      "900719925474099.3",
      "0.1234567890123456789012",
      "0.0000000000000000000001",
      "1.00000000000000000000001",
      "123456789012345678901234567890",
      "4.9406564584124654e-324",
      "1.7976931348623157e308",
  };
  for (size_t i = 0; i < sizeof(toks) / sizeof(toks[0]); i++) {
    check_token(toks[i]);
  }
}
END_TEST

/* A random token over [0-9.+-eE]: mostly well-formed decimals of 1 to 24
 * digits, some with exponents, some scrambled. */
static void random_token(unsigned *seed, char *tok) {
  static const char chars[] = "0123456789.+-eE";
  int n = 0, shape = rand_r(seed) % 10;
  if (shape == 0) {
    int len = 1 + rand_r(seed) % 8;
    for (int i = 0; i < len; i++) {
      tok[n++] = chars[rand_r(seed) % 15];
    }
    tok[n] = '\0';
    return;
  }
  int sign = rand_r(seed) % 3;
  if (sign) {
    tok[n++] = sign == 1 ? '-' : '+';
  }
  int digits = rand_r(seed) % 25, point = rand_r(seed) % (digits + 2);
  for (int i = 0; i < digits; i++) {
    if (i == point) {
      tok[n++] = '.';
    }
    tok[n++] = (char)('0' + rand_r(seed) % 10);
  }
  if (shape == 1) {
    n += sprintf(tok + n, "e%d", rand_r(seed) % 700 - 350);
  }
  tok[n] = '\0';
}

START_TEST(random_tokens_match_strtod) {
  unsigned seed = 20261125u;
  char tok[64];
  for (int i = 0; i < 20000; i++) {
    random_token(&seed, tok);
    check_token(tok);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("urdf_util");
  TCase *tc = tcase_create("numbers");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, edge_cases);
  tcase_add_test(tc, random_tokens_match_strtod);
  suite_add_tcase(s, tc);
  return ts_run_suite(s);
}
