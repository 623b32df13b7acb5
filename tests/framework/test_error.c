/* Tests for framework/error.h: status strings and error records. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "framework/error.h"

static const int k_codes[] = {
    TEAL_OK,        TEAL_EINVAL,       TEAL_ENOMEM,   TEAL_ESIZE,       TEAL_ETYPE,
    TEAL_ENOTFOUND, TEAL_EDUPLICATE,   TEAL_ENOTCONNECTED, TEAL_EALGLOOP, TEAL_ESINGULAR,
    TEAL_ENONFINITE, TEAL_ESTEPSIZE,   TEAL_ENOCONV,  TEAL_EPARSE,      TEAL_EUNSUPPORTED,
    TEAL_ESTATE,    TEAL_ECALLBACK,    TEAL_EIO};
enum { NCODES = sizeof k_codes / sizeof k_codes[0] };

START_TEST(test_codes_are_distinct_and_negative) {
  ck_assert_int_eq(NCODES, 18);
  ck_assert_int_eq(TEAL_OK, 0);
  for (int i = 1; i < NCODES; i++) {
    ck_assert_int_lt(k_codes[i], 0);
    for (int j = 0; j < i; j++) {
      ck_assert_int_ne(k_codes[i], k_codes[j]);
    }
  }
}
END_TEST

START_TEST(test_strerror_nonempty_for_every_code) {
  for (int i = 0; i < NCODES; i++) {
    const char *s = teal_strerror(k_codes[i]);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_gt((int)strlen(s), 0);
  }
}
END_TEST

START_TEST(test_strerror_distinct_for_distinct_codes) {
  for (int i = 0; i < NCODES; i++) {
    for (int j = 0; j < i; j++) {
      ck_assert_str_ne(teal_strerror(k_codes[i]), teal_strerror(k_codes[j]));
    }
  }
}
END_TEST

START_TEST(test_strerror_known_texts) {
  ck_assert_str_eq(teal_strerror(TEAL_OK), "success");
  ck_assert_str_eq(teal_strerror(TEAL_EINVAL), "invalid argument");
  ck_assert_str_eq(teal_strerror(TEAL_ENOMEM), "out of memory");
  ck_assert_str_eq(teal_strerror(TEAL_EALGLOOP), "algebraic loop");
  ck_assert_ptr_nonnull(strstr(teal_strerror(TEAL_ENOTCONNECTED), "not connected"));
}
END_TEST

START_TEST(test_strerror_unknown_code) {
  const int unknown[] = {1, 42, -18, -1000, 12345678};
  for (size_t u = 0; u < sizeof unknown / sizeof unknown[0]; u++) {
    const char *s = teal_strerror(unknown[u]);
    ck_assert_ptr_nonnull(s);
    ck_assert_int_gt((int)strlen(s), 0);
    /* an unknown code must not masquerade as a known one */
    for (int i = 0; i < NCODES; i++) {
      ck_assert_str_ne(s, teal_strerror(k_codes[i]));
    }
  }
}
END_TEST

START_TEST(test_set_records_code_and_message) {
  teal_error err;
  teal_error_clear(&err);
  int rc = teal_error_set(&err, TEAL_ESIZE, "port '%s' of '%s' has size %d", "u", "plant", 3);
  ck_assert_int_eq(rc, TEAL_ESIZE);
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_str_eq(err.message, "port 'u' of 'plant' has size 3");
}
END_TEST

START_TEST(test_set_overwrites) {
  teal_error err;
  teal_error_clear(&err);
  teal_error_set(&err, TEAL_ESIZE, "first");
  int rc = teal_error_set(&err, TEAL_ETYPE, "second %d", 2);
  ck_assert_int_eq(rc, TEAL_ETYPE);
  ck_assert_int_eq(err.code, TEAL_ETYPE);
  ck_assert_str_eq(err.message, "second 2");
}
END_TEST

START_TEST(test_set_truncates_long_message) {
  teal_error err;
  teal_error_clear(&err);
  char big[3 * TEAL_ERROR_MESSAGE_MAX];
  memset(big, 'x', sizeof big - 1);
  big[sizeof big - 1] = '\0';
  ck_assert_int_eq(teal_error_set(&err, TEAL_EIO, "%s", big), TEAL_EIO);
  ck_assert_int_eq(err.code, TEAL_EIO);
  ck_assert_uint_eq(strlen(err.message), TEAL_ERROR_MESSAGE_MAX - 1);
  ck_assert_int_eq(err.message[0], 'x');
  ck_assert_int_eq(err.message[TEAL_ERROR_MESSAGE_MAX - 2], 'x');
}
END_TEST

START_TEST(test_clear) {
  teal_error err;
  teal_error_set(&err, TEAL_EPARSE, "line %d", 7);
  teal_error_clear(&err);
  ck_assert_int_eq(err.code, TEAL_OK);
  ck_assert_str_eq(err.message, "");
}
END_TEST

START_TEST(test_sticky_keeps_first) {
  teal_error err;
  teal_error_clear(&err);
  ck_assert_int_eq(teal_error_set_sticky(&err, TEAL_EDUPLICATE, "first '%s'", "a"),
                   TEAL_EDUPLICATE);
  ck_assert_int_eq(err.code, TEAL_EDUPLICATE);
  ck_assert_str_eq(err.message, "first 'a'");
  /* a second sticky set returns the code already held and changes nothing */
  ck_assert_int_eq(teal_error_set_sticky(&err, TEAL_ESIZE, "second"), TEAL_EDUPLICATE);
  ck_assert_int_eq(err.code, TEAL_EDUPLICATE);
  ck_assert_str_eq(err.message, "first 'a'");
}
END_TEST

START_TEST(test_sticky_after_clear_records_again) {
  teal_error err;
  teal_error_clear(&err);
  teal_error_set_sticky(&err, TEAL_EDUPLICATE, "first");
  teal_error_clear(&err);
  ck_assert_int_eq(teal_error_set_sticky(&err, TEAL_ESIZE, "second"), TEAL_ESIZE);
  ck_assert_int_eq(err.code, TEAL_ESIZE);
  ck_assert_str_eq(err.message, "second");
}
END_TEST

START_TEST(test_sticky_does_not_block_plain_set) {
  teal_error err;
  teal_error_clear(&err);
  teal_error_set_sticky(&err, TEAL_EDUPLICATE, "first");
  ck_assert_int_eq(teal_error_set(&err, TEAL_EIO, "later"), TEAL_EIO);
  ck_assert_int_eq(err.code, TEAL_EIO);
  ck_assert_str_eq(err.message, "later");
}
END_TEST

START_TEST(test_copy) {
  teal_error src, dst;
  teal_error_clear(&dst);
  teal_error_set(&src, TEAL_ENOCONV, "newton: %d iterations", 50);
  teal_error_copy(&dst, &src);
  ck_assert_int_eq(dst.code, TEAL_ENOCONV);
  ck_assert_str_eq(dst.message, "newton: 50 iterations");
  /* the copy is independent of the source */
  teal_error_set(&src, TEAL_EIO, "changed");
  ck_assert_int_eq(dst.code, TEAL_ENOCONV);
  ck_assert_str_eq(dst.message, "newton: 50 iterations");
}
END_TEST

START_TEST(test_copy_null_src_clears) {
  teal_error dst;
  teal_error_set(&dst, TEAL_EIO, "something");
  teal_error_copy(&dst, NULL);
  ck_assert_int_eq(dst.code, TEAL_OK);
  ck_assert_str_eq(dst.message, "");
}
END_TEST

START_TEST(test_null_safety) {
  ck_assert_int_eq(teal_error_set(NULL, TEAL_ESIZE, "x %d", 1), TEAL_ESIZE);
  ck_assert_int_eq(teal_error_set_sticky(NULL, TEAL_ETYPE, "y"), TEAL_ETYPE);
  teal_error_clear(NULL);
  teal_error src;
  teal_error_set(&src, TEAL_EIO, "z");
  teal_error_copy(NULL, &src);
  teal_error_copy(NULL, NULL);
  ck_assert_int_eq(src.code, TEAL_EIO);
  ck_assert_str_eq(src.message, "z");
}
END_TEST

static Suite *error_suite(void) {
  Suite *s = suite_create("error");
  TCase *tc = tcase_create("strerror");
  tcase_add_test(tc, test_codes_are_distinct_and_negative);
  tcase_add_test(tc, test_strerror_nonempty_for_every_code);
  tcase_add_test(tc, test_strerror_distinct_for_distinct_codes);
  tcase_add_test(tc, test_strerror_known_texts);
  tcase_add_test(tc, test_strerror_unknown_code);
  suite_add_tcase(s, tc);
  tc = tcase_create("records");
  tcase_add_test(tc, test_set_records_code_and_message);
  tcase_add_test(tc, test_set_overwrites);
  tcase_add_test(tc, test_set_truncates_long_message);
  tcase_add_test(tc, test_clear);
  tcase_add_test(tc, test_sticky_keeps_first);
  tcase_add_test(tc, test_sticky_after_clear_records_again);
  tcase_add_test(tc, test_sticky_does_not_block_plain_set);
  tcase_add_test(tc, test_copy);
  tcase_add_test(tc, test_copy_null_src_clears);
  tcase_add_test(tc, test_null_safety);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(error_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
