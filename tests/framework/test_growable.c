/* Tests for framework/growable.h: the doubling growth of teal_grow, the
 * exact capacity of teal_reserve, kept and zeroed entries, and out of
 * memory leaving the array as it was. */
#include <check.h>
#include <stdlib.h>

#include "framework/alloc.h"
#include "framework/error.h"
#include "framework/growable.h"
#include "support/test_support.h"

START_TEST(test_grow_doubles_from_four) {
  int *a = NULL, cap = 0;
  ck_assert_int_eq(TEAL_GROW(a, cap, 1), TEAL_OK);
  ck_assert_int_eq(cap, 4);
  ck_assert_int_eq(TEAL_GROW(a, cap, 4), TEAL_OK);
  ck_assert_int_eq(cap, 4);
  ck_assert_int_eq(TEAL_GROW(a, cap, 5), TEAL_OK);
  ck_assert_int_eq(cap, 8);
  ck_assert_int_eq(TEAL_GROW(a, cap, 33), TEAL_OK);
  ck_assert_int_eq(cap, 64);
  teal_free(a);
}
END_TEST

START_TEST(test_reserve_is_exact_and_keeps_entries) {
  int *a = NULL, cap = 0;
  ck_assert_int_eq(TEAL_RESERVE(a, cap, 3), TEAL_OK);
  ck_assert_int_eq(cap, 3);
  for (int i = 0; i < 3; i++) {
    ck_assert_int_eq(a[i], 0);
    a[i] = i + 1;
  }
  ck_assert_int_eq(TEAL_RESERVE(a, cap, 2), TEAL_OK); /* never shrinks */
  ck_assert_int_eq(cap, 3);
  ck_assert_int_eq(TEAL_RESERVE(a, cap, 7), TEAL_OK);
  ck_assert_int_eq(cap, 7);
  for (int i = 0; i < 7; i++) {
    ck_assert_int_eq(a[i], i < 3 ? i + 1 : 0);
  }
  ck_assert_int_eq(TEAL_GROW(a, cap, 8), TEAL_OK); /* doubling from any capacity */
  ck_assert_int_eq(cap, 14);
  ck_assert_int_eq(a[2], 3);
  ck_assert_int_eq(a[13], 0);
  teal_free(a);
}
END_TEST

START_TEST(test_out_of_memory_leaves_array) {
  double *a = NULL;
  int cap = 0;
  ck_assert_int_eq(TEAL_GROW(a, cap, 2), TEAL_OK);
  a[1] = 2.5;
  double *before = a;
  ts_alloc_install();
  ts_alloc_fail_after(0, 1);
  ck_assert_int_eq(TEAL_GROW(a, cap, 5), TEAL_ENOMEM);
  ck_assert_int_eq(TEAL_RESERVE(a, cap, 5), TEAL_ENOMEM);
  ts_alloc_uninstall();
  ck_assert_ptr_eq(a, before);
  ck_assert_int_eq(cap, 4);
  ck_assert_double_eq(a[1], 2.5);
  teal_free(a);
}
END_TEST

START_TEST(test_bad_arguments_are_errors) {
  int *a = NULL, cap = 0;
  ck_assert_int_eq(teal_grow(NULL, &cap, 1, sizeof(int)), TEAL_EINVAL);
  ck_assert_int_eq(teal_grow((void **)&a, NULL, 1, sizeof(int)), TEAL_EINVAL);
  ck_assert_int_eq(teal_grow((void **)&a, &cap, -1, sizeof(int)), TEAL_EINVAL);
  ck_assert_int_eq(teal_grow((void **)&a, &cap, 1, 0), TEAL_EINVAL);
  ck_assert_int_eq(teal_reserve(NULL, &cap, 1, sizeof(int)), TEAL_EINVAL);
  ck_assert_int_eq(teal_reserve((void **)&a, NULL, 1, sizeof(int)), TEAL_EINVAL);
  int bad = -3;
  ck_assert_int_eq(teal_reserve((void **)&a, &bad, 1, sizeof(int)), TEAL_EINVAL);
  ck_assert_ptr_null(a);
  ck_assert_int_eq(cap, 0);
  /* sizes past what memory can hold fail as out of memory, without
   * overflowing the capacity or the byte count */
  ck_assert_int_eq(teal_reserve((void **)&a, &cap, 0x7fffffff, (size_t)-1 / 4), TEAL_ENOMEM);
  int big = 0x40000001;
  ck_assert_int_eq(teal_grow((void **)&a, &big, 0x7fffffff, (size_t)-1 / 4), TEAL_ENOMEM);
  ck_assert_int_eq(big, 0x40000001);
  ck_assert_ptr_null(a);
}
END_TEST

static Suite *growable_suite(void) {
  Suite *s = suite_create("growable");
  TCase *tc = tcase_create("growth");
  tcase_add_test(tc, test_grow_doubles_from_four);
  tcase_add_test(tc, test_reserve_is_exact_and_keeps_entries);
  tcase_add_test(tc, test_out_of_memory_leaves_array);
  tcase_add_test(tc, test_bad_arguments_are_errors);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(growable_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
