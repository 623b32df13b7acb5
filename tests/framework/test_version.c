/* The library's version (framework/version.h): the string, the number and
 * the header's macros agree, and the build took its version from them. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "framework/version.h"
#include "support/test_support.h"

START_TEST(string_number_and_macros_agree) {
  int major = -1, minor = -1, patch = -1, end = 0;
  ck_assert_int_eq(sscanf(teal_version(), "%d.%d.%d%n", &major, &minor, &patch, &end), 3);
  ck_assert_int_eq((int)strlen(teal_version()), end);
  ck_assert_int_eq(major, TEAL_VERSION_MAJOR);
  ck_assert_int_eq(minor, TEAL_VERSION_MINOR);
  ck_assert_int_eq(patch, TEAL_VERSION_PATCH);
  ck_assert_int_eq(teal_version_number(), TEAL_VERSION_NUMBER);
  ck_assert_int_eq(teal_version_number(), 10000 * major + 100 * minor + patch);
}
END_TEST

/* CMake reads the version from the header: the build's own figure (passed
 * to this test) must be the same. */
START_TEST(build_version_is_the_header_version) {
  ck_assert_str_eq(teal_version(), TEAL_BUILD_VERSION);
}
END_TEST

static Suite *version_suite(void) {
  Suite *s = suite_create("version");
  TCase *tc = tcase_create("version");
  tcase_add_test(tc, string_number_and_macros_agree);
  tcase_add_test(tc, build_version_is_the_header_version);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return ts_run_suite(version_suite());
}
