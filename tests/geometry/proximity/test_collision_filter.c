/* Collision filter: geometries on one frame never pair; pair exclusion is
 * symmetric and reversible; frame-pair exclusion covers every geometry
 * pair across the two frames and nothing else; group masks must accept
 * each other both ways; bad arguments and out of memory. */
#include <check.h>

#include "geometry/proximity/collision_filter.h"
#include "support/test_support.h"

/* 6 geometries on frames 0, 0, 1, 2, 2, 3 */
static const int kFrames[6] = {0, 0, 1, 2, 2, 3};

START_TEST(same_frame_never_pairs) {
  teal_collision_filter *f = teal_collision_filter_new(6, kFrames, NULL);
  ck_assert_ptr_nonnull(f);
  ck_assert_int_eq(teal_collision_filter_size(f), 6);
  ck_assert_int_eq(teal_collision_filter_frame(f, 4), 2);
  ck_assert_int_eq(teal_collision_filter_frame(f, 6), -1);
  for (int a = 0; a < 6; a++) {
    for (int b = 0; b < 6; b++) {
      int expect = a != b && kFrames[a] != kFrames[b];
      ck_assert_int_eq(teal_collision_filter_allows(f, a, b), expect);
    }
  }
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(pair_exclusion_is_symmetric) {
  teal_collision_filter *f = teal_collision_filter_new(6, kFrames, NULL);
  ck_assert_int_eq(teal_collision_filter_exclude_pair(f, 5, 2, 1), TEAL_OK);
  ck_assert(!teal_collision_filter_allows(f, 2, 5));
  ck_assert(!teal_collision_filter_allows(f, 5, 2));
  ck_assert(teal_collision_filter_allows(f, 2, 3)); /* neighbours untouched */
  ck_assert(teal_collision_filter_allows(f, 4, 5));
  ck_assert_int_eq(teal_collision_filter_exclude_pair(f, 2, 5, 0), TEAL_OK);
  ck_assert(teal_collision_filter_allows(f, 5, 2));
  ck_assert_int_eq(teal_collision_filter_exclude_pair(f, 1, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_collision_filter_exclude_pair(f, -1, 1, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_collision_filter_exclude_pair(f, 0, 6, 1), TEAL_EINVAL);
  ck_assert_int_eq(teal_collision_filter_exclude_pair(NULL, 0, 1, 1), TEAL_EINVAL);
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(frame_pair_exclusion) {
  teal_collision_filter *f = teal_collision_filter_new(6, kFrames, NULL);
  ck_assert_int_eq(teal_collision_filter_exclude_frame_pair(f, 2, 0), TEAL_OK);
  ck_assert_int_eq(teal_collision_filter_exclude_frame_pair(f, 7, 0), TEAL_OK); /* no geometry */
  for (int a = 0; a < 6; a++) {
    for (int b = 0; b < 6; b++) {
      int across = (kFrames[a] == 0 && kFrames[b] == 2) || (kFrames[a] == 2 && kFrames[b] == 0);
      int expect = a != b && kFrames[a] != kFrames[b] && !across;
      ck_assert_int_eq(teal_collision_filter_allows(f, a, b), expect);
    }
  }
  ck_assert_int_eq(teal_collision_filter_exclude_frame_pair(NULL, 0, 1), TEAL_EINVAL);
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(groups_must_accept_each_other) {
  teal_collision_filter *f = teal_collision_filter_new(6, kFrames, NULL);
  /* 2 is in group 2 and only collides with group 4; 3 is in group 4 */
  ck_assert_int_eq(teal_collision_filter_set_group(f, 2, 2u, 4u), TEAL_OK);
  ck_assert_int_eq(teal_collision_filter_set_group(f, 3, 4u, 0xffffffffu), TEAL_OK);
  ck_assert(teal_collision_filter_allows(f, 2, 3));
  ck_assert(!teal_collision_filter_allows(f, 2, 0)); /* 0 is group 1 */
  /* 3 stops accepting group 2 */
  teal_collision_filter_set_group(f, 3, 4u, ~2u);
  ck_assert(!teal_collision_filter_allows(f, 3, 2));
  /* group 0 disables a geometry */
  teal_collision_filter_set_group(f, 5, 0u, 0xffffffffu);
  for (int a = 0; a < 5; a++) {
    ck_assert(!teal_collision_filter_allows(f, a, 5));
  }
  ck_assert_int_eq(teal_collision_filter_set_group(f, 6, 1u, 1u), TEAL_EINVAL);
  teal_collision_filter_free(f);
}
END_TEST

START_TEST(creation_errors) {
  teal_error err;
  ck_assert_ptr_null(teal_collision_filter_new(-1, kFrames, &err));
  ck_assert_int_eq(err.code, TEAL_EINVAL);
  ck_assert_ptr_null(teal_collision_filter_new(3, NULL, &err));
  teal_collision_filter *empty = teal_collision_filter_new(0, NULL, NULL);
  ck_assert_ptr_nonnull(empty);
  ck_assert(!teal_collision_filter_allows(empty, 0, 1));
  teal_collision_filter_free(empty);
  teal_collision_filter_free(NULL);
  ts_alloc_install();
  for (long k = 0; k < 5; k++) {
    ts_alloc_fail_after(k, 0);
    teal_collision_filter *f = teal_collision_filter_new(6, kFrames, &err);
    ck_assert_ptr_null(f);
    ck_assert_int_eq(err.code, TEAL_ENOMEM);
  }
  ts_alloc_fail_after(-1, 0);
  ts_alloc_expect_all_freed();
}
END_TEST

int main(void) {
  Suite *s = suite_create("collision_filter");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, same_frame_never_pairs);
  tcase_add_test(tc, pair_exclusion_is_symmetric);
  tcase_add_test(tc, frame_pair_exclusion);
  tcase_add_test(tc, groups_must_accept_each_other);
  tcase_add_test(tc, creation_errors);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? 1 : 0;
}
